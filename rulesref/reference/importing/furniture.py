"""Page furniture: what a paste from a web page or a PDF leaves between the rules.

Each kind is a small class with ``name`` (the reason reported), ``priority`` and ``test(line, context) -> bool``,
listed in ``FURNITURE`` (``build_furniture``); the first whose test passes marks the line. Headers and footers
repeated on each page are found across the text once the tables are known (``mark_page_furniture``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulesref.text import fold_key

from ..numbering import CLAUSE_LABEL_RE, HEADING_IN_TEXT_RE
from .config import ImportConfig
from .labels import parse_head
from .lexicon import BARE_NUMBER_RE, BULLET_RE, CONTENTS_RE, LABEL_RE, MARKER_ONLY_RE
from .lines import Line, content, mark
from .report import ImportResult

FOOTER_RE = re.compile(r"Дата добавления:|Мы поможем в написании|просмотров:\s*\d+", re.I)
PAGE_RE = re.compile(r"^(?:(?:Страница|Стр\.?|С\.|Page|P\.)\s*\d{1,4}(?:\s*(?:из|of|/)\s*\d{1,4})?"
                     r"|\d{1,4}\s*(?:/|из|of)\s*\d{1,4}|[-–—]\s*\d{1,4}\s*[-–—])$", re.I)
TOC_RE = re.compile(r"^\S.{2,}?(?:\s*\.{4,}|\s*…{2,}|\s*(?:\. ){3,})\s*\d{1,4}$")
# What a web page puts around its text: a site's menu (Home | Rules | Contact), sharing and bookmarking prompts, a sign-in link.
CHROME_RE = re.compile(r"^(?:(?!\|)[^|]{1,30}\s[|]\s[^|]{1,30}\s[|]\s[^|]{1,30}|Сохранить в браузере|Нажмите сочетание "
                       r"клавиш.*|Вход|Войти|Log ?in|Sign in|Print Section|Версия для печати|Поделиться.*|Share.*"
                       r"|Вы можете открыть актуальную версию документа.*|Если вы являетесь пользователем.*)$", re.I)
PAGE_IN_LINE_RE = re.compile(r"(?:Страница|Стр\.|Page|P\.)\s*\d{1,4}\s*$", re.I)  # a header ending in its page
UNDERLINE_RE = re.compile(r"^[=\-~^*#]{3,}$")  # a reStructuredText or Setext underline


@dataclass
class Context:
    config: ImportConfig
    patterns: tuple[str, ...]


class Furniture:
    name = ""
    priority = 0

    def test(self, line: Line, context: Context) -> bool:
        raise NotImplementedError


class ConfiguredJunk(Furniture):
    name, priority = "named as junk in the import configuration", 100

    def test(self, line, context):
        return context.config.is_junk(line.text)


class Bars(Furniture):
    name, priority = "line of '|' (page furniture)", 90

    def test(self, line, context):
        return set(line.text) <= set("| ")


class Underline(Furniture):
    name, priority = "underline of the heading above", 85

    def test(self, line, context):
        return bool(UNDERLINE_RE.match(line.text))


class SiteFooter(Furniture):
    name, priority = "site footer", 80

    def test(self, line, context):
        return bool(FOOTER_RE.search(line.text))


class WebChrome(Furniture):
    name, priority = "web page chrome", 75

    def test(self, line, context):
        return len(line.text) <= 140 and bool(CHROME_RE.match(line.text))


class PageNumber(Furniture):
    name, priority = "page number", 70

    def test(self, line, context):
        return bool(PAGE_RE.match(line.text))


class ContentsLine(Furniture):
    name, priority = "table of contents line", 60

    def test(self, line, context):
        return bool(TOC_RE.match(line.text))


class ContentsTitle(Furniture):
    name, priority = "table of contents title", 50

    def test(self, line, context):
        return bool(CONTENTS_RE.match(line.text))


class PageTitle(Furniture):
    name, priority = "page title listing several headings", 40

    def test(self, line, context):
        head = parse_head(line.text, context.patterns)
        return bool(head and head.kind == "dotted" and len(HEADING_IN_TEXT_RE.findall(head.rest)) >= 2)


def build_furniture() -> list[Furniture]:
    """The kinds of page furniture, by priority: a new kind is one class and one line here."""
    kinds = [ConfiguredJunk(), Bars(), Underline(), SiteFooter(), WebChrome(), PageNumber(), ContentsLine(),
             ContentsTitle(), PageTitle()]
    return sorted(kinds, key=lambda k: -k.priority)


FURNITURE = build_furniture()


def mark_furniture(lines: list[Line], config: ImportConfig, result: ImportResult, patterns: tuple[str, ...]) -> None:
    context = Context(config, patterns)
    for k, line in enumerate(lines):
        if not line.text or line.keep or line.configured:
            continue
        kind = next((f for f in FURNITURE if f.test(line, context)), None)
        if kind is not None:
            mark(lines, k, junk=kind.name)


# ---------------------------------------------------------------- headers and footers repeated on each page


def _numbered_heading(text: str, patterns: tuple[str, ...]) -> bool:
    head = parse_head(MARKER_ONLY_RE.sub("", text), patterns)
    return head is not None and head.kind in ("dotted", "chapter") and bool(head.rest)


def _may_repeat(line: Line) -> bool:
    text = line.text
    if line.keep or line.configured or line.cell >= 0 or len(text) > 80 or not re.search(r"[^\W\d_]", text):
        return False
    return not (BULLET_RE.match(text) or CLAUSE_LABEL_RE.match(text) or LABEL_RE.match(text))


def _repeated(lines: list[Line], patterns: tuple[str, ...]) -> list[list[int]]:
    """Groups of lines that recur (a number in a line that is not a heading may be the page's and may change)."""
    groups: dict[str, list[int]] = {}
    for k in content(lines):
        if _may_repeat(lines[k]):
            key = fold_key(lines[k].text)
            groups.setdefault(key if _numbered_heading(lines[k].text, patterns) else re.sub(r"\d+", "#", key),
                              []).append(k)
    return [members for members in groups.values() if len(members) >= 2]


def _page_numbers(lines: list[Line]) -> set[int]:
    """Lines that are page numbers: marked so, or bare numbers that count up page by page."""
    bare = [k for k in content(lines) if lines[k].cell < 0 and BARE_NUMBER_RE.match(lines[k].text)]
    values = [int(lines[k].text) for k in bare]
    pages = {k for i, k in enumerate(bare) if (i > 0 and 1 <= values[i] - values[i - 1] <= 2)
             or (i + 1 < len(bare) and 1 <= values[i + 1] - values[i] <= 2)}
    return pages | {k for k, line in enumerate(lines) if line.junk == "page number"}


def _near(members: list[int], marked: set[int], positions: list[int], reach: int) -> bool:
    """Whether at least two of a group's lines have a marked line within ``reach`` positions."""
    index = {k: n for n, k in enumerate(positions)}
    near = 0
    for k in members:
        n = index[k]
        near += any(positions[j] in marked for j in range(max(0, n - reach), min(len(positions), n + reach + 1))
                    if j != n)
    return near >= 2


def mark_page_furniture(lines: list[Line], patterns: tuple[str, ...]) -> None:
    """Lines that recur beside page numbers are page headers or footers ("12 · RULES", "RULES · 13"); so are lines
    that recur beside those (a header of two lines). A numbered heading repeated so keeps its first occurrence."""
    repeated = _repeated(lines, patterns)
    pages = _page_numbers(lines)
    every = list(range(len(lines)))
    furniture = [m for m in repeated if _near(m, pages, every, 3)
                 or sum(bool(PAGE_IN_LINE_RE.search(lines[k].text)) for k in m) >= 2]
    marked = {k for m in furniture for k in m}
    furniture += [m for m in repeated if m not in furniture and _near(m, marked, content(lines), 2)]
    for members in furniture:
        keep_first = _numbered_heading(lines[members[0]].text, patterns)
        for k in members[1:] if keep_first else members:
            mark(lines, k, junk="heading repeated at the top of a page" if keep_first else "header repeated on each page")
    _numbers_beside_headers(lines)


def _numbers_beside_headers(lines: list[Line]) -> None:
    """A number alone on its line beside a header repeated on each page is that page's number."""
    order = [k for k, line in enumerate(lines) if line.text]
    for n, k in enumerate(order):
        if lines[k].junk or lines[k].cell >= 0 or not BARE_NUMBER_RE.match(lines[k].text):
            continue
        beside = [order[j] for j in (n - 1, n + 1) if 0 <= j < len(order)]
        if any(lines[j].junk == "header repeated on each page" for j in beside):
            mark(lines, k, junk="page number")
