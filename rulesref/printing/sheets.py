"""What a printed sheet holds: sections of the rulebooks (single ones, chapters with their subsections, whole
books), in one language or both side by side, with or without their rulings, and the glossary of the terms they use.

The text is rendered for paper from the same rule text as the pages, escaped first (rulesref.reference.render.annotate):
a reference to a section printed on the same sheet is an in-document link, and every reference shows the number of
the section it means ("on page 58 (§ 9.3)"), since a link cannot be followed on paper; the first use of each glossary
term is marked, and the terms' definitions follow the text as a glossary. A sheet is bounded
(``RULESREF_PRINT_MAX_SECTIONS``): what does not fit is named, with a way to print it separately.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from rulesref.reference.corpus import clause_label, is_table, parse_table, split_blocks
from rulesref.reference.glossary import Glossary, book_glossary
from rulesref.reference.index import BookIndex, book_index
from rulesref.reference.models import Book
from rulesref.reference.numbering import section_part
from rulesref.reference.refs import find_references
from rulesref.reference.render import Span, annotate, esc

MAX_ITEMS = 200  # entries (s=…) one address may name
TITLE_MAX = 120
NUMBER_IN_ANCHOR_RE = re.compile(r"\d")


def max_sections() -> int:
    return int(getattr(settings, "RULESREF_PRINT_MAX_SECTIONS", 600))


@dataclass(frozen=True)
class Wanted:
    """One entry of a sheet's address: a whole book (``sid`` empty) or a section (with its subsections when
    ``tree``)."""

    book: str
    sid: str = ""

    @property
    def token(self) -> str:
        return f"{self.book}:{self.sid}" if self.sid else self.book


@dataclass
class Options:
    wanted: list[Wanted]
    text: str  # ru, en or both
    rulings: bool
    tree: bool
    title: str
    problems: list[str] = field(default_factory=list)

    def query(self, **changes) -> str:
        """This sheet's address query, with ``changes``."""
        values = {"s": [w.token for w in self.wanted], "text": self.text, "rulings": "1" if self.rulings else "",
                  "tree": "1" if self.tree else "", "title": self.title}
        values.update(changes)
        pairs = [(k, v) for k, vs in values.items() for v in (vs if isinstance(vs, list) else [vs]) if v]
        return urlencode(pairs)


def read_options(get, lang: str, known: dict[str, Book]) -> Options:
    """The sheet an address asks for; entries naming no rulebook are dropped and named in ``problems``."""
    problems, wanted = [], []
    for raw in get.getlist("s")[:MAX_ITEMS]:
        book, _sep, sid = raw.strip().partition(":")
        if book not in known:
            problems.append(_("“%(entry)s” names no rulebook of this site.") % {"entry": raw[:60]})
            continue
        item = Wanted(book, sid.strip()[:64])
        if item not in wanted:
            wanted.append(item)
    text = get.get("text", lang)
    if text not in ("ru", "en", "both"):
        text = lang
    title = " ".join(get.get("title", "").split())[:TITLE_MAX]
    return Options(wanted, text, get.get("rulings") == "1", get.get("tree") == "1", title, problems)


@dataclass
class Column:
    lang: str
    blocks: list[SafeString]
    missing: bool = False  # no text in this language: the source's is shown


@dataclass
class PrintedSection:
    book: Book
    sid: str
    anchor: str
    depth: int  # 1: a top of the sheet (a chapter or an entry of its own), 2…: under it
    number: str
    titles: dict[str, str]
    columns: list[Column]
    rulings: list = field(default_factory=list)
    starts_page: bool = False

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or next((t for t in self.titles.values() if t), "")

    @property
    def rows(self) -> list[list[tuple[str, SafeString | None]]]:
        """The columns side by side, paragraph by paragraph: (language, block or None) in each."""
        longest = max((len(c.blocks) for c in self.columns), default=0)
        return [[(c.lang, c.blocks[i] if i < len(c.blocks) else None) for c in self.columns] for i in range(longest)]


@dataclass
class Sheet:
    options: Options
    sections: list[PrintedSection]
    terms: list[tuple[Book, object]]  # (book, glossary term), in order of first use
    left_out: list[Wanted]  # entries that did not fit
    books: list[Book]

    @property
    def languages(self) -> list[str]:
        return ["ru", "en"] if self.options.text == "both" else [self.options.text]


def anchor_of(book: str, sid: str) -> str:
    return f"s-{book}-{re.sub(r'[^A-Za-z0-9_.-]', '_', sid)}"


class Renderer:
    """Renders rule text for paper: references as section numbers (links within the sheet), terms marked once."""

    def __init__(self, book: Book, index: BookIndex, glossary: Glossary | None, printed: set[str],
                 used: dict[tuple[str, str], None]):
        self.book, self.index, self.glossary, self.printed, self.used = book, index, glossary, printed, used

    def _reference(self, ref, lang: str) -> Span:
        if ref.kind == "page":
            sid, clause = self.index.by_page.get(int(ref.target)), ""
        else:
            sid, clause = section_part(ref.target)
        entry = self.index.get(sid) if sid else None
        number = f"{entry.number}{clause}" if entry is not None and entry.number else (
            "" if entry is not None else ref.target)
        says_number = bool(number) and ref.kind != "page" and bool(NUMBER_IN_ANCHOR_RE.search(ref.anchor))
        if says_number:
            tail = ""
        elif number:
            tail = f' <span class="ref-number">(§\u00a0{esc(number)})</span>'
        else:  # a section known by its title, not a number
            tail = f' <span class="ref-number">(“{esc(entry.display_title(lang))}”)</span>'
        if entry is not None and entry.sid in self.printed:
            opening = f'<a class="ref" href="#{esc(anchor_of(self.book.slug, entry.sid))}">'
            return Span(ref.start, ref.end, lambda inner: f"{opening}{inner}</a>{tail}")
        css = "ref" if entry is not None else "ref ref-missing"
        return Span(ref.start, ref.end, lambda inner: f'<span class="{css}">{inner}</span>{tail}')

    def _terms(self, text: str, lang: str, seen: set[str]) -> list[Span]:
        if self.glossary is None:
            return []
        spans = []
        for match in self.glossary.find(text, lang):
            if match.forbidden or match.term.id in seen:
                continue
            seen.add(match.term.id)
            self.used.setdefault((self.book.slug, match.term.id), None)
            spans.append(Span(match.start, match.end, lambda inner: f'<span class="term">{inner}</span>'))
        return spans

    def inline(self, text: str, lang: str, seen: set[str]) -> str:
        spans = [self._reference(r, lang) for r in find_references(text, self.index.patterns)]
        taken = [(s.start, s.end) for s in spans]
        spans += [s for s in self._terms(text, lang, seen) if not any(a < s.end and s.start < b for a, b in taken)]
        return annotate(text, spans, lang)

    def blocks(self, body: str, lang: str) -> list[SafeString]:
        seen: set[str] = set()
        out = []
        for block in split_blocks(body):
            if is_table(block) and (table := parse_table(block)) is not None:
                header, rows = table
                head = "".join(f"<th>{self.inline(c, lang, seen)}</th>" for c in header)
                body_rows = "".join("<tr>" + "".join(f"<td>{self.inline(c, lang, seen)}</td>" for c in row) + "</tr>"
                                    for row in rows)
                out.append(mark_safe(f'<table class="rules-table"><thead><tr>{head}</tr></thead>'
                                     f"<tbody>{body_rows}</tbody></table>"))
            elif block.startswith("- "):
                items = "".join(f"<li>{self.inline(line[2:], lang, seen)}</li>" for line in block.split("\n"))
                out.append(mark_safe(f"<ul>{items}</ul>"))
            elif (label := clause_label(block)):
                out.append(mark_safe(f'<p class="clause"><b>{esc(label)})</b> {self.inline(block[3:], lang, seen)}</p>'))
            else:
                out.append(mark_safe(f"<p>{self.inline(block, lang, seen)}</p>"))
        return out


def _expand(index: BookIndex, item: Wanted, tree: bool) -> list[tuple[str, int]]:
    """(section id, depth on the sheet) of an entry: a book's every section, a section alone, or with its
    subsections."""
    if not item.sid:
        return [(sid, index.entries[sid].depth) for sid in index.order]
    from rulesref.reference.views import _canonical

    sid, _clause = _canonical(index, item.sid)
    if sid is None:
        return []
    if not tree:
        return [(sid, 1)]
    base = index.entries[sid].depth
    start = index.order.index(sid)
    out = [(sid, 1)]
    for other in index.order[start + 1:]:
        depth = index.entries[other].depth
        if depth <= base:
            break
        out.append((other, depth - base + 1))
    return out


@dataclass
class Plan:
    """One entry of a sheet and the sections it prints, (id, depth on the sheet) in order."""

    item: Wanted
    book: Book
    index: BookIndex
    rows: list[tuple[str, int]]


def _plans(options: Options, known: dict[str, Book], ui_lang: str) -> list[Plan]:
    plans = []
    for item in options.wanted:
        book = known[item.book]
        index = book_index(book)
        rows = _expand(index, item, options.tree)
        if rows:
            plans.append(Plan(item, book, index, rows))
        else:
            options.problems.append(_("%(book)s has no section %(id)s.") % {"book": book.title(ui_lang),
                                                                          "id": item.sid})
    return plans


def _fit(plans: list[Plan], limit: int) -> tuple[list[Plan], list[Wanted]]:
    """The entries that fit the bound whole, in order, and those left out."""
    kept, left_out, count = [], [], 0
    for plan in plans:
        if count + len(plan.rows) > limit:
            left_out.append(plan.item)
        else:
            count += len(plan.rows)
            kept.append(plan)
    return kept, left_out


def _rulings_by_section(plan: Plan, lang: str) -> dict[str, list]:
    """The published rulings on the plan's sections, as shown in ``lang``, under each section they cite."""
    from rulesref.rulings.render import shown
    from rulesref.rulings.workflow import public_rulings

    found: dict[str, list] = {}
    for ruling in public_rulings(plan.book, [sid for sid, _depth in plan.rows]):
        view = shown(ruling, plan.index, plan.book, lang)
        for citation in ruling.citations.all() if view is not None else ():
            listed = found.setdefault(citation.sid, [])
            if view not in listed:
                listed.append(view)
    return found


def _languages(text: str, book: Book) -> list[str]:
    if text != "both":
        return [text]
    return ["en", "ru"] if book.source_language == "en" else ["ru", "en"]


def _columns(entry, book: Book, languages: list[str], renderer: Renderer) -> list[Column]:
    """A section's text in each language asked for (the source's where it has none yet)."""
    columns = []
    for lang in languages:
        missing = lang not in entry.bodies and not entry.absent
        shown_lang = book.source_language if missing else lang
        with translation.override(shown_lang):
            blocks = [] if entry.absent else renderer.blocks(entry.bodies.get(shown_lang, ""), shown_lang)
        columns.append(Column(shown_lang, blocks, missing))
    return columns


def _sections(plan: Plan, options: Options, renderer: Renderer, ui_lang: str) -> list[PrintedSection]:
    rulings = _rulings_by_section(plan, ui_lang if options.text == "both" else options.text) if options.rulings \
        else {}
    languages = _languages(options.text, plan.book)
    whole = not plan.item.sid or options.tree  # a chapter or a book: each top of it starts a page
    out = []
    for n, (sid, depth) in enumerate(plan.rows):
        entry = plan.index.entries[sid]
        out.append(PrintedSection(
            book=plan.book, sid=sid, anchor=anchor_of(plan.book.slug, sid), depth=min(depth, 4),
            number=entry.number, titles={lang: entry.display_title(lang) for lang in ("ru", "en")},
            columns=_columns(entry, plan.book, languages, renderer), rulings=rulings.get(sid, []),
            starts_page=n > 0 and depth == 1 and whole))
    return out


def _glossary(used: dict[tuple[str, str], None], known: dict[str, Book], ui_lang: str) -> list[tuple[Book, object]]:
    terms = []
    for book_slug, term_id in used:
        term = book_glossary(settings.FIXTURES_DIR, book_slug).by_id.get(term_id)
        if term is not None:
            terms.append((known[book_slug], term))
    terms.sort(key=lambda pair: (pair[1].term(ui_lang).casefold(), pair[0].slug))
    return terms


def build(options: Options, known: dict[str, Book], ui_lang: str) -> Sheet:
    """The sheet: every section asked for, in order, up to the bound; its glossary; what was left out."""
    plans, left_out = _fit(_plans(options, known, ui_lang), max_sections())
    printed: dict[str, set[str]] = {}
    for plan in plans:
        printed.setdefault(plan.book.slug, set()).update(sid for sid, _depth in plan.rows)
    used: dict[tuple[str, str], None] = {}
    sections: list[PrintedSection] = []
    books_used: list[Book] = []
    for plan in plans:
        if plan.book not in books_used:
            books_used.append(plan.book)
        glossary = book_glossary(settings.FIXTURES_DIR, plan.book.slug)
        renderer = Renderer(plan.book, plan.index, glossary if glossary.terms else None, printed[plan.book.slug],
                            used)
        sections += _sections(plan, options, renderer, ui_lang)
    return Sheet(options, sections, _glossary(used, known, ui_lang), left_out, books_used)


def print_url(lang: str, query: str) -> str:
    with translation.override(lang):
        return f"{reverse('printing:sheet')}?{query}" if query else reverse("printing:sheet")


def mine_url(lang: str) -> str:
    with translation.override(lang):
        return reverse("printing:mine")
