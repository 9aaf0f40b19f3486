"""Search: a section number goes straight to the section; words are found in both languages in any word form.

The index is the database's own (searchindex.py; one back-end per database, search_backend.py), always in step with
the texts. A search asks the database for little, and only what can be shown:

1. the best title hits (the titles that name the query most fully), TITLE_POOL of them, with the whole texts of the
   defining sections of the glossary terms the query names (search_terms.py);
2. the body hits, ranked by the database (bm25, ts_rank on the stored vector), only when the title hits and the
   defining sections do not fill the page;
3. the number of matching sections per book, counted up to COUNT_CAP (beyond it the page says "more than").

The order of what is shown is search_ranking.py's (the tiers, then the order within them), the one definition the
offline search receives too. Each section appears once, in the language that matches best (the reader's on a tie);
results are grouped by rulebook, titles and snippets highlighted on escaped text (search_highlight.py). A word found
nowhere gets a "did you mean" from the book's vocabulary, across scripts too (search_suggest.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple

from django.db import connection
from django.utils.safestring import SafeString

from rulesref.text import WORD_RE, fold

from . import search_ranking as ranking
from .corpus import is_numbered
from .index import books as index_books, first_words
from .models import Book, Section, SectionText
from .refs import number_query, number_variants, section_part
from .render import section_url
from .search_backend import Row, Scope, SearchBackend, backend
from .search_highlight import highlight, snippet
from .search_query import Query, title_stems, title_words
from .search_ranking import (
    MAX_PAGE, MAX_QUERY_CHARS, MAX_WORDS, PAGE_SIZE, RANKED_PAGES, TIER_OF, TITLE_POOL, Tier, order_key,
)
from .search_suggest import suggest
from .search_terms import NamedTerms, named_terms

# What other modules read here: the API pages up to MAX_PAGE, bench/search.py builds its bare query with Query.
__all__ = ["MAX_PAGE", "PAGE_SIZE", "BookHits", "Hit", "Query", "SearchResult", "clean_query", "find_section",
           "page_number", "search", "section_label"]


@dataclass
class Hit:
    book: Book
    sid: str
    language: str
    label: str
    url: str
    title_html: SafeString
    snippet_html: SafeString
    title_hit: bool
    rank: float
    tier: int = Tier.TEXT
    coverage: float = 0.0  # share of the title's words that the query names
    depth: int = 1


@dataclass
class BookHits:
    book: Book
    hits: list[Hit]
    total: int  # matching sections in the book, at most COUNT_CAP
    more: bool = False  # more than COUNT_CAP


@dataclass
class SearchResult:
    query: str
    jump: str | None = None
    jump_label: str = ""
    groups: list[BookHits] = field(default_factory=list)  # the books with hits on this page
    elsewhere: list[BookHits] = field(default_factory=list)  # books whose matches are all on other pages
    suggestion: str = ""
    shown_for: str = ""
    partial: bool = False
    missing_section: str = ""
    truncated: bool = False
    page: int = 1
    page_size: int = PAGE_SIZE

    @property
    def count(self) -> int:
        """Matching sections in all the books searched (each book's count at most COUNT_CAP)."""
        return sum(g.total for g in self.groups + self.elsewhere)

    @property
    def more(self) -> bool:
        return any(g.more for g in self.groups + self.elsewhere)

    @property
    def hits(self) -> list[Hit]:
        """What is shown, in order (book by book)."""
        return [hit for group in self.groups for hit in group.hits]

    @property
    def shown(self) -> int:
        return len(self.hits)

    @property
    def first_shown(self) -> int:
        """The place of the first hit shown among all results (1 on the first page)."""
        return (self.page - 1) * self.page_size + 1

    @property
    def last_shown(self) -> int:
        return self.first_shown + self.shown - 1

    @property
    def next_page(self) -> int | None:
        more = self.more or self.count > self.page * self.page_size
        return self.page + 1 if more and self.shown == self.page_size and self.page < MAX_PAGE else None

    @property
    def previous_page(self) -> int | None:
        return self.page - 1 if self.page > 1 else None


def page_number(raw) -> int:
    """A page number from a URL parameter: 1 for anything that is not a whole number from 1 to MAX_PAGE."""
    try:
        number = int(str(raw).strip())
    except ValueError:
        return 1
    return number if 1 <= number <= MAX_PAGE else 1


def clean_query(raw: str) -> tuple[str, bool]:
    text = "".join(ch for ch in raw if ch.isprintable() or ch == " ")
    text = re.sub(r"\s+", " ", text).strip()
    return text[:MAX_QUERY_CHARS], len(text) > MAX_QUERY_CHARS


# ---------------------------------------------------------------------------------------------- numbers


def _sections_named(books: list[Book], candidates: list[str]) -> dict[tuple[int, str], str]:
    """(book id, lower-cased id) -> id, for the books' sections whose id is one of ``candidates`` in any case. Ids are
    numbers, upper-case Roman numbers or lower-case slugs, so each candidate's three spellings go through the unique
    index in one query; only a candidate with letters that none of them matched is looked up case-blind."""
    spellings = sorted({v for c in candidates for v in (c, c.lower(), c.upper())})
    with connection.cursor() as cursor:  # on the path of every number typed in the search box: plain SQL
        cursor.execute(f"SELECT book_id, sid FROM {Section._meta.db_table} WHERE book_id IN "
                       f"({', '.join(['%s'] * len(books))}) AND sid IN ({', '.join(['%s'] * len(spellings))})",
                       [b.pk for b in books] + spellings)
        found = {(book_id, sid.lower()): sid for book_id, sid in cursor.fetchall()}
    for candidate in candidates:
        if re.search(r"[^\W\d_]", candidate) and not any(key[1] == candidate.lower() for key in found):
            for book_id, sid in Section.objects.filter(book__in=books, sid__iexact=candidate).values_list(
                    "book_id", "sid"):
                found.setdefault((book_id, sid.lower()), sid)
    return found


def find_section(query: str, books: list[Book]) -> tuple[Book, str, str] | None:
    """A query that is a section number in any printed form (refs.number_query: ``9. 3. 1``, ``О22.3`` typed in
    either alphabet, ``п. 3.1e``, ``[13]``, the book's own forms): (book, section id, clause letter). Every book's
    spellings of the number are looked up in one query."""
    wanted = _numbers_typed(query, books)
    if not wanted:
        return None
    candidates = {v for variants in wanted.values() for v in variants}
    candidates |= {section_part(v)[0] for v in candidates if section_part(v)[1]}
    found = _sections_named([b for b in books if b.pk in wanted], sorted(candidates))
    return next((section for book in books for variant in wanted.get(book.pk, ())
                 if (section := _section_of(book, variant, found))), None)


def _numbers_typed(query: str, books: list[Book]) -> dict[int, list[str]]:
    """For each book that reads the query as a number, the number's spellings (lower-cased)."""
    wanted = {}
    for book in books:
        number = number_query(query, book.number_patterns)
        if number is not None:
            wanted[book.pk] = [v.lower() for v in number_variants(number)]
    return wanted


def _section_of(book: Book, variant: str, found: dict[tuple[int, str], str]) -> tuple[Book, str, str] | None:
    """The section a spelling of a number names in a book, found: itself, or the section of its clause letter."""
    sid = found.get((book.pk, variant))
    if sid:
        return book, sid, ""
    part, clause = section_part(variant)
    sid = found.get((book.pk, part)) if clause else None
    return (book, sid, clause) if sid else None


def section_label(sid: str, title: str, body: str = "") -> str:
    """How a section is named in results: its number and title (a slug-named section by its title alone); a
    section the rulebook prints without a title by its first words, ending in "…" (as the section pages do)."""
    number = sid if is_numbered(sid) else ""
    title = title or first_words(body)
    return f"{number} {title}".strip() if number else title


def _jump_label(book: Book, sid: str, lang: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT t.language, t.title, t.body FROM {SectionText._meta.db_table} t "
                       f"JOIN {Section._meta.db_table} s ON s.id = t.section_id WHERE s.book_id = %s AND s.sid = %s",
                       [book.pk, sid])
        texts = {language: (title, body) for language, title, body in cursor.fetchall()}
    title, body = texts.get(lang) or texts.get(book.source_language) or ("", "")
    return section_label(sid, title, body)


def _answered_by_number(result: SearchResult, query: str, books: list[Book], lang: str) -> bool:
    """A query that is a section number: the section to go to, or, when no book has it, the number (the page offers
    the nearest sections instead)."""
    section = find_section(query, books)
    if section:
        book, sid, clause = section
        result.jump = section_url(lang, book.slug, sid, clause)
        result.jump_label = _jump_label(book, sid, lang)
        return True
    result.missing_section = next(
        (n for b in books if (n := number_query(query, b.number_patterns)) and re.search(r"\d", n)), "")
    return bool(result.missing_section)


# ---------------------------------------------------------------------------------------------- words


@dataclass
class Where:
    """Where a search looks and what it shows: its books (all of them, or one), the language of the texts ("" for
    both), the reader's language, and the page's hits as places ``skip`` to ``limit`` of the order."""

    books: list[Book]
    every_book: bool
    text_lang: str
    lang: str
    limit: int
    skip: int

    def scope(self) -> Scope:
        return Scope(self.books, [self.text_lang] if self.text_lang else ["ru", "en"], self.every_book)


def search(raw_query: str, lang: str, book_slug: str = "", text_lang: str = "", limit: int = PAGE_SIZE,
           page: int | str = 1, request=None) -> SearchResult:
    """``request``, when given, lends the rulebooks it has already read (index.books), so a search from the view
    reads them no second time."""
    query, truncated = clean_query(raw_query)
    result = SearchResult(query=query, truncated=truncated, page=page_number(page), page_size=limit)
    if not query:
        return result
    books = list(index_books(request).values())
    every_book = not (book_slug and any(b.slug == book_slug for b in books))
    if not every_book:
        books = [b for b in books if b.slug == book_slug]
    if _answered_by_number(result, query, books, lang):
        return result
    words = WORD_RE.findall(fold(query))[:MAX_WORDS]
    if words:
        _find_words(result, words, Where(books, every_book, text_lang if text_lang in ("ru", "en") else "", lang,
                                         limit * result.page, limit * (result.page - 1)))
    return result


def _find_words(result: SearchResult, words: list[str], where: Where) -> None:
    """Sections with every word; failing that, with any of them; failing that, with the words "did you mean"
    suggests. A query whose every word was found needs no "did you mean"; one found in part or not at all may."""
    groups = _run(words, True, where)
    if not groups and len(words) > 1:
        groups = _run(words, False, where)
        result.partial = bool(groups)
    suggestion = suggest(words, where.books, found=bool(groups)) if not groups or result.partial else ""
    if suggestion and suggestion != " ".join(words):
        result.suggestion = suggestion
        if not groups:
            groups = _run(suggestion.split(), True, where)
            result.shown_for = suggestion if groups else ""
    result.groups = [g for g in groups if g.hits]
    result.elsewhere = [g for g in groups if not g.hits]


class Candidate(NamedTuple):
    """A text that may be shown, with its place in the order (search_ranking.order_key)."""

    key: tuple
    row: Row
    tier: int  # a Tier's number (search_ranking.TIER_OF)
    title_hit: bool
    coverage: float


def _run(words: list[str], all_words: bool, where: Where) -> list[BookHits]:
    """The page's sections for these words, grouped by book (the books with matches beyond the page too)."""
    q = Query(words, all_words)
    index, scope = backend(), where.scope()
    named = named_terms(q, where.books)
    rows = _candidates(index, scope, q, named, where.limit)
    counts = index.counts(scope, q)
    if not counts:
        return []
    by_book = {b.pk: b for b in where.books}
    ordered = [Candidate._make(c) for c in _order(rows, q, named, by_book, where.lang)[where.skip:where.limit]]
    _read_bodies(index, [c.row for c in ordered])
    return _book_hits(ordered, q, counts, where, by_book)


def _candidates(index: SearchBackend, scope: Scope, q: Query, named: NamedTerms, limit: int) -> list[Row]:
    """The texts the page is ordered from: the best title hits, the defining sections' texts that match, and when
    those are of fewer than ``limit`` sections the best texts by the database's rank. The same title hits for every
    page: the order within them is decided here, not by the database, so a page ordered from a larger pool could
    take in a hit an earlier page, from a smaller one, had left out."""
    found = index.title_hits(scope, q, max(limit, TITLE_POOL), also=sorted(named.defining))
    rows: dict[tuple[int, str], Row] = {}
    for row in found.hits:
        row.title_hit_by_db = True
        rows[(row.section_id, row.language)] = row
    for text in found.texts:  # a title hit's row too takes the text: its place depends on it
        rows.setdefault((text.section_id, text.language), text).body = text.body
    rows = {key: row for key, row in rows.items() if row.title_hit_by_db or _matches(q, named, row)}
    if len({r.section_id for r in rows.values()}) < limit:
        for row in index.ranked(scope, q, RANKED_PAGES * limit + len(rows)):
            # A title hit keeps its row from the titles (and no rank), so its place does not depend on whether this
            # page ranked texts.
            rows.setdefault((row.section_id, row.language), row)
    return list(rows.values())


def _matches(q: Query, named: NamedTerms, row: Row) -> bool:
    """Whether a row read for a defining section matches: the query's words, or a form of the term typed."""
    forms = frozenset().union(*named.typed_forms.get(row.book_id, ()))
    stems = q.stems_in(f"{row.title}\n{row.body}", forms)
    return q.matches(stems) or named.names(row.book_id, stems)


def _order(rows: list[Row], q: Query, named: NamedTerms, by_book: dict[int, Book], lang: str) -> list[tuple]:
    """Each section once, in its best language, in the order of search_ranking: a row's tier (TIER_OF, of the facts
    in the order of ranking.FACTS), then its key (order_key, of the values in the order of PLACE_VALUES). Asked of
    every row a search orders (a few hundred): one loop, no call per row beyond the facts and the key, and each
    candidate a plain tuple (Candidate's fields), as making a named tuple cost more than the key."""
    defining = named.defining
    best: dict[int, tuple] = {}
    for row in rows:
        stems = title_stems(row.title)
        title_hit = q.matches(stems)
        is_defining = row.section_id in defining
        exact_title = title_hit and q.uses_words(title_words(row.title)) or named.names(row.book_id, stems)
        uses_typed = is_defining and q.uses(f"{row.title}\n{row.body}")  # only a defining section's tier needs it
        tier = TIER_OF[(exact_title, is_defining, uses_typed, title_hit)]
        coverage = len(q.wanted & stems) / len(stems) if stems and title_hit else 0.0
        key = order_key(tier, (coverage, row.depth, row.rank, by_book[row.book_id].position, row.position,
                               row.language != lang))
        current = best.get(row.section_id)
        if current is None or key < current[0]:
            best[row.section_id] = (key, row, tier, title_hit, coverage)
    return sorted(best.values(), key=_by_key)


_by_key = itemgetter(0)
# The values _order gives order_key, by name: search_ranking.ORDER_VALUES (tests/test_one_ranking.py compares them).
PLACE_VALUES = ("coverage", "depth", "rank", "book_position", "position", "other_language")


def _read_bodies(index: SearchBackend, rows: list[Row]) -> None:
    """Read the text of each row that lacks it (the rows shown): only the texts asked for, in one statement."""
    wanted: dict[str, list[int]] = {}  # language -> sections
    for row in rows:
        if row.body is None:
            wanted.setdefault(row.language, []).append(row.section_id)
    if not wanted:
        return
    found = index.bodies(wanted)
    for row in rows:
        if row.body is None:
            row.body = found.get((row.section_id, row.language), "")  # "": a text deleted meanwhile


def _hit(candidate: Candidate, book: Book, q: Query, lang: str) -> Hit:
    """A candidate shown: labelled, linked, highlighted (only what is shown is highlighted)."""
    row = candidate.row
    label = section_label(row.sid, row.title, row.body or "")
    return Hit(book=book, sid=row.sid, language=row.language, label=label, url=section_url(lang, book.slug, row.sid),
               title_html=highlight(label, q.wanted), snippet_html=snippet(row.body or "", q.wanted),
               title_hit=candidate.title_hit, rank=row.rank, tier=int(candidate.tier), coverage=candidate.coverage,
               depth=row.depth)


def _book_hits(ordered: list[Candidate], q: Query, counts: dict[int, int], where: Where,
               by_book: dict[int, Book]) -> list[BookHits]:
    """The page's hits grouped by book: the books in the order of their best hit (a term of the second book before a
    mention in the first), then the books that only have hits beyond the page, each with its count."""
    groups: dict[int, list[Hit]] = {}
    for candidate in ordered:
        book = by_book[candidate.row.book_id]
        groups.setdefault(book.pk, []).append(_hit(candidate, book, q, where.lang))
    cap = ranking.COUNT_CAP
    out = []
    for pk in list(groups) + [b.pk for b in where.books if b.pk not in groups]:
        total, shown = counts.get(pk, 0), groups.get(pk, [])
        if total or shown:
            out.append(BookHits(by_book[pk], shown, max(min(total, cap), len(shown)), more=total > cap))
    return out
