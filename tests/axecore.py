"""axe-core in the browser tests: the accessibility rules Lighthouse and the browsers' own audits use, run on a page
as it stands (after clicks and swaps), and what else every page must hold to: no wider than the screen, no code
names in its visible text.

axe-core's ``axe.min.js`` is kept in ``tests/vendor/axe-core/`` (the npm package's file, unmodified, with its licence:
MPL-2.0, which allows passing the file on unchanged with its notice), so the README's test command needs nothing
but Python. It is run through Playwright's ``evaluate``, which the DevTools protocol carries past the pages'
Content-Security-Policy (a ``<script>`` tag added to the page would be refused).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"

# Every rule of WCAG 2.0, 2.1 and 2.2 at levels A and AA, and axe's best practices (landmarks, heading order).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]

RUN = """async tags => {
  const found = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return found.violations.map(v => ({id: v.id, impact: v.impact,
    nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary.replace(/\\s+/g, " ").slice(0, 160))}));
}"""


@lru_cache(maxsize=1)
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def axe_violations(page) -> list[str]:
    """axe-core's violations on the page as it is now, one line each: ``rule (impact): element: what is wrong``."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found = page.evaluate(RUN, TAGS)
    return [f"{v['id']} ({v['impact']}): {node}" for v in found for node in v["nodes"]]


WIDER_THAN_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width) return [];
  // the elements that stick out (those whose own box ends past the screen, outside any box that scrolls)
  const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") return true; }
    return false; };
  return [...document.body.querySelectorAll("*")].filter(el => el.getBoundingClientRect().right > width + 0.5
    && el.checkVisibility() && !scrolls(el)).slice(0, 5).map(el => el.outerHTML.slice(0, 100));
}"""


def wider_than_screen(page) -> list[str]:
    """The elements that make the page scroll sideways (none on a page that fits)."""
    return page.evaluate(WIDER_THAN_SCREEN)


# The text a person sees on the page (a closed disclosure's too), less the code blocks (<pre>, a text field of JSON
# to edit, what is marked data-code: an uploaded file shown as it is) and what is kept for developers behind a
# disclosure marked data-developers. Inline <code> counts: a problem's path in <code> is still a code name shown to
# a player.
PEOPLES_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || ["SCRIPT", "STYLE", "TEMPLATE"].includes(el.tagName)) continue;
    if (el.closest("pre, textarea, [data-code], [data-developers]")) continue;
    if (!el.checkVisibility({visibilityProperty: true}) && !el.closest("details")) continue;
    out.push(node.textContent);
  }
  for (const el of document.querySelectorAll("[placeholder], [aria-label], [title], option")) {
    if (el.closest("pre, textarea, [data-code], [data-developers]")) continue;
    for (const name of ["placeholder", "aria-label", "title"]) if (el.hasAttribute(name)) out.push(el.getAttribute(name));
    if (el.tagName === "OPTION") out.push(el.textContent);
  }
  return out.join("\\n");
}"""

# A code name: snake_case (two words or more joined by "_", an index or a key after it allowed), a dotted path of
# names (``moment.event.movement_trigger``, ``pursuit.fled[0].roll``, ``orders._when``), or a file name.
CODE_NAME = re.compile(
    r"(?<![\w.@/-])(?:"
    r"_?[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:\[\d+\])?"  # snake_case
    r"|_?[a-z][a-z0-9_]*(?:\[\d+\])?(?:\._?[a-z][a-z0-9_]*(?:\[\d+\])?)+"  # a dotted path
    r"|(?:[\w.-]+/)*[\w-]+\.(?:md|py|json|toml|txt|po|html|js|css|yml|yaml)"  # a file name
    r")(?![\w@/-])")
# Not code names: the rulebooks' and the site's own spellings (a section "9.3.1" has no letters to match; addresses
# and e-mail are excluded by the look-arounds).
ALLOWED = {"e.g", "i.e", "etc"}


def code_names(text: str) -> list[str]:
    """The code names in a page's visible text."""
    found = []
    for match in CODE_NAME.finditer(text):
        word = match.group(0)
        if word.rstrip(".") in ALLOWED:
            continue
        found.append(word)
    return found


def peoples_text(page) -> str:
    return page.evaluate(PEOPLES_TEXT)
