"""Rule text to HTML: the text is escaped first; every link, tooltip or highlight is markup added around
spans of the escaped text. Nothing from the corpus is ever trusted as markup."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .corpus import clause_label
from .glossary import Glossary
from .index import BookIndex
from .refs import find_references, section_part

NOTE_RE = re.compile(r"^(?:ПРИМЕЧАНИЕ|Примечание|NOTE|Note)\b")
EXAMPLE_RE = re.compile(r"^(?:ПРИМЕР|Пример|EXAMPLE|Example)\b")


@dataclass(frozen=True)
class Span:
    """Markup around text[start:end]: ``wrap(escaped_text) -> SafeString``."""

    start: int
    end: int
    wrap: Callable[[str], str]


def esc(text: str) -> str:
    """HTML-escape plain text (the standard library's escape: Django's adds lazy-string checks we do not need)."""
    return html.escape(text, quote=True)


def annotate(text: str, spans: Iterable[Span]) -> SafeString:
    """Escape ``text`` and wrap the given non-overlapping spans; overlapping later spans are dropped.
    Each span's ``wrap`` receives the escaped text of its span and returns markup built on escaped values."""
    out: list[str] = []
    position = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < position:
            continue
        out.append(esc(text[position:span.start]))
        out.append(span.wrap(esc(text[span.start:span.end])))
        position = span.end
    out.append(esc(text[position:]))
    return mark_safe("".join(out))


@lru_cache(maxsize=8192)
def section_url(lang: str, book: str, sid: str, clause: str = "") -> str:
    """The public address of a section (or of a lettered clause in it). Cached: it depends only on its arguments."""
    from django.utils import translation

    with translation.override(lang):
        url = reverse("reference:section", kwargs={"book": book, "section": sid})
    return f"{url}#{sid}{clause}" if clause else url


def reference_spans(text: str, index: BookIndex, lang: str) -> list[Span]:
    spans = []
    for ref in find_references(text):
        if ref.kind == "page":
            sid = index.by_page.get(int(ref.target))
            clause = ""
        else:
            sid, clause = section_part(ref.target)
        entry = index.get(sid) if sid else None
        if entry is not None:
            href = section_url(lang, index.slug, entry.sid, clause)
            label = entry.label(lang)
            if entry.absent:
                label = _("%(label)s (not in this corpus)") % {"label": label}
            spans.append(Span(ref.start, ref.end, _link(href, label, entry.absent)))
        else:
            tip = _("Section %(id)s is not in this corpus") % {"id": ref.target}
            spans.append(Span(ref.start, ref.end, _missing(tip)))
    return spans


def _link(href: str, title: str, absent: bool) -> Callable[[str], str]:
    opening = f'<a class="{"ref ref-absent" if absent else "ref"}" href="{esc(href)}" title="{esc(title)}">'
    return lambda inner: f"{opening}{inner}</a>"


def _missing(tip: str) -> Callable[[str], str]:
    opening = f'<span class="ref ref-missing" title="{esc(tip)}" tabindex="0">'
    return lambda inner: f"{opening}{inner}</span>"


@lru_cache(maxsize=8192)
def glossary_url(lang: str, book: str, term_id: str) -> str:
    from django.utils import translation

    with translation.override(lang):
        return reverse("reference:term", kwargs={"book": book, "term": term_id})


def term_spans(text: str, glossary: Glossary | None, book: str, lang: str, tip_prefix: str) -> list[Span]:
    """The first occurrence of each glossary term in a paragraph, as a link to its entry with a tooltip giving
    the definition and the other language's term (shown on hover, focus or tap; a plain link without script)."""
    if glossary is None:
        return []
    spans, seen = [], set()
    unconfirmed = _("(term not yet confirmed)")
    for match in glossary.find(text, lang):
        term = match.term
        if term.id in seen or match.forbidden:
            continue
        seen.add(term.id)
        tip_id = esc(f"{tip_prefix}-{len(spans)}")
        href = esc(glossary_url(lang, book, term.id))
        tip = _tip_body(term, lang, unconfirmed)
        spans.append(Span(match.start, match.end, lambda inner, href=href, tip_id=tip_id, tip=tip: (
            f'<span class="term"><a class="term-link" href="{href}" aria-describedby="{tip_id}">{inner}</a>'
            f'<span class="tip" role="tooltip" id="{tip_id}">{tip}</span></span>')))
    return spans


@lru_cache(maxsize=4096)
def _tip_body(term, lang: str, unconfirmed: str) -> str:
    """A term's tooltip: the other language's term, a note if not yet confirmed, and the definition (escaped)."""
    other = "en" if lang == "ru" else "ru"
    mark = f' <span class="likely">{esc(unconfirmed)}</span>' if term.confidence == "likely" else ""
    return f'<b lang="{other}">{esc(term.term(other))}</b>{mark} {esc(term.definition(lang))}'



def render_block(block: str, sid: str, index: BookIndex, lang: str, glossary: Glossary | None = None,
                 number: int = 0) -> SafeString:
    """One paragraph, list or lettered clause of a section as HTML, with its references linked and its glossary
    terms explained. ``number`` (the block's index) keeps tooltip ids unique on the page."""

    def inline(text: str, part: int = 0) -> SafeString:
        spans = reference_spans(text, index, lang)
        spans += term_spans(text, glossary, index.slug, lang, f"tip-{lang}-{sid}-{number}-{part}")
        return annotate(text, spans)

    if block.startswith("- "):
        items = [line[2:] for line in block.split("\n")]
        return mark_safe("<ul>" + "".join(f"<li>{inline(item, n)}</li>" for n, item in enumerate(items)) + "</ul>")
    label = clause_label(block)
    if label:
        anchor = f"{sid}{label}"
        anchor = esc(anchor)
        return mark_safe(f'<p class="clause" id="{anchor}"><a class="clause-label" href="#{anchor}">{esc(label)})</a> '
                         f'{inline(block[3:])}</p>')
    css = "note" if NOTE_RE.match(block) else "example" if EXAMPLE_RE.match(block) else ""
    if css:
        return mark_safe(f'<p class="{css}">{inline(block)}</p>')
    return mark_safe(f"<p>{inline(block)}</p>")
