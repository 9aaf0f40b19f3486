"""Search: a section number goes straight to the section; words are found in both languages in any word form.

The index is the database's own (searchindex.py: FTS5 over Snowball stems on SQLite, stored tsvectors with GIN
indexes on PostgreSQL), always in step with the texts. A search asks the database for little, and only what can be
shown:

1. the best title hits (the titles that name the query most fully), ``limit`` of them;
2. the body hits, ranked by the database (bm25, ts_rank on the stored vector), only when the title hits and the
   defining sections below do not fill the page;
3. the number of matching sections per book, counted up to ``COUNT_CAP`` (beyond it the page says "more than").

The order of what is shown (reasoned in docs and tests/test_search_ranking.py): first the sections that name the
query in their title in the very words typed, then a glossary term's defining sections (``Term.sections``) whose
text uses the words as typed, then other title hits (by stem), then the other defining sections, then the rest by
the database's rank — so "перехватить" leads to 9.3.1, the clause that says who may intercept, and "перехват" to
9.3, Interception. Each section appears once, in the language that matches best (the reader's on a tie); results are
grouped by rulebook, titles and snippets highlighted on escaped text. A word found nowhere gets a "did you mean"
from the book's vocabulary (SearchWord), across scripts too ("хеджхог" → "hedgehog").
"""
from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from django.db import connection
from django.utils.safestring import SafeString
from rapidfuzz import fuzz, process

from .corpus import is_numbered
from .glossary import Glossary, book_glossary
from .index import books as index_books, first_words
from .models import Book, SearchWord, Section, SectionText
from .refs import number_query, number_variants, section_part
from .render import section_url
from rulesref.text import WORD_RE, fold, script_of, stem_word, to_cyrillic, to_latin

from .searchindex import BOOK_SHIFT, POSTGRES_CONFIGS, SECTION_MASK

MAX_QUERY_CHARS = 200
MAX_WORDS = 12
PAGE_SIZE = 30
MAX_PAGE = 5  # results beyond the 150th are not paged to: a reader narrows the query instead
TITLE_POOL = PAGE_SIZE * MAX_PAGE  # the title hits every page is ordered from, so pages never overlap
COUNT_CAP = 500  # matching sections counted per book; beyond it, "more than 500" (150 can be paged to)
# The last word is a prefix (the reader may still be typing it) once its stem has this many letters: a prefix of one
# or two stands for thousands of words and finds nothing in particular, while the index pays for every one of them
# (at 100,000 sections, 0.4 s for «п» on SQLite).
PREFIX_MIN = 3
# Counting asks a prefix as any one of the words it begins, up to this many (a three-letter prefix begins a few
# hundred words of a big book: «про»* counted in 34 ms as a prefix, 4 ms as 344 words); beyond, FTS5's own prefix.
MAX_COMPLETIONS = 1024
# Ranking reads (PostgreSQL) or scores (SQLite's bm25) every match, so it ranks among the first this many found: title
# matches (on PostgreSQL: SQLite's titles' index is in the order shown, so none is ranked), and text matches. On
# PostgreSQL per language, on SQLite both languages together.
TITLE_SCAN_CAP, TEXT_SCAN_CAP = 2000, 5000
# The tiers of the order, best first.
EXACT_TITLE, DEFINING_EXACT, TITLE, DEFINING, TEXT = range(5)


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
    tier: int = TEXT
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
    wanted: dict[int, list[str]] = {}
    for book in books:
        number = number_query(query, book.number_patterns)
        if number is not None:
            wanted[book.pk] = [v.lower() for v in number_variants(number)]
    if not wanted:
        return None
    candidates = {v for variants in wanted.values() for v in variants}
    candidates |= {section_part(v)[0] for v in candidates if section_part(v)[1]}
    found = _sections_named([b for b in books if b.pk in wanted], sorted(candidates))
    for book in books:
        for variant in wanted.get(book.pk, ()):
            sid = found.get((book.pk, variant))
            if sid:
                return book, sid, ""
            part, clause = section_part(variant)
            sid = found.get((book.pk, part)) if clause else None
            if sid:
                return book, sid, clause
    return None


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


# ---------------------------------------------------------------------------------------------- words


def search(raw_query: str, lang: str, book_slug: str = "", text_lang: str = "", limit: int = PAGE_SIZE,
           page: int | str = 1, request=None) -> SearchResult:
    """``request``, when given, lends the rulebooks it has already read (index.books), so a search from the view
    reads them no second time."""
    query, truncated = clean_query(raw_query)
    result = SearchResult(query=query, truncated=truncated, page=page_number(page), page_size=limit)
    limit, skip = limit * result.page, limit * (result.page - 1)
    if not query:
        return result
    books = list(index_books(request).values())
    every_book = True
    if book_slug and any(b.slug == book_slug for b in books):
        books, every_book = [b for b in books if b.slug == book_slug], False
    if text_lang not in ("ru", "en"):
        text_lang = ""
    section = find_section(query, books)
    if section:
        book, sid, clause = section
        result.jump = section_url(lang, book.slug, sid, clause)
        result.jump_label = _jump_label(book, sid, lang)
        return result
    missing = next((n for b in books if (n := number_query(query, b.number_patterns)) and re.search(r"\d", n)), "")
    if missing:
        result.missing_section = missing  # a number no book has: the page offers the nearest sections instead
        return result
    words = WORD_RE.findall(fold(query))[:MAX_WORDS]
    if not words:
        return result
    groups = _run(words, books, text_lang, lang, all_words=True, limit=limit, skip=skip, every_book=every_book)
    if not groups and len(words) > 1:
        groups = _run(words, books, text_lang, lang, all_words=False, limit=limit, skip=skip, every_book=every_book)
        result.partial = bool(groups)
    # A query whose every word was found needs no "did you mean"; one found in part or not at all may.
    suggestion = _suggest(words, books, found=bool(groups)) if not groups or result.partial else ""
    if suggestion and suggestion != " ".join(words):
        result.suggestion = suggestion
        if not groups:
            groups = _run(suggestion.split(), books, text_lang, lang, all_words=True, limit=limit, skip=skip,
                          every_book=every_book)
            result.shown_for = suggestion if groups else ""
    result.groups = [g for g in groups if g.hits]
    result.elsewhere = [g for g in groups if not g.hits]
    return result


@dataclass
class Query:
    """The words of a query and what the databases are asked for them."""

    words: list[str]
    all_words: bool

    def __post_init__(self) -> None:
        self.stems = [stem_word(w) for w in self.words]
        self.wanted = frozenset(self.stems)
        self.typed = frozenset(self.words)  # the words in the very form typed (folded)
        self.prefix = len(self.stems[-1]) >= PREFIX_MIN  # whether the last word stands for the words it begins

    def fts(self, last: tuple[str, ...] | None = None) -> str:
        """An FTS5 MATCH expression; stems are word characters only (quoted), so no FTS syntax can come in. The
        last word is a prefix (``"stem"*``), or with ``last`` (the stems it begins: SqliteIndex.completions) any
        one of those."""
        if last is not None:
            final = f'"{last[0]}"' if len(last) == 1 else "(" + " OR ".join(f'"{s}"' for s in last) + ")"
        else:
            final = f'"{self.stems[-1]}"' + ("*" if self.prefix else "")
        terms = [f'"{s}"' for s in self.stems[:-1]] + [final]
        return (" AND " if self.all_words else " OR ").join(terms)

    def tsquery(self) -> str:
        """A to_tsquery text, the last word as a prefix (see PREFIX_MIN)."""
        safe = [w for w in (re.sub(r"[^\w]", "", w) for w in self.words) if w]
        if not safe:
            return ""
        return (" & " if self.all_words else " | ").join(safe[:-1] + [safe[-1] + (":*" if self.prefix else "")])

    def matches(self, stems) -> bool:
        """Whether a text with these stems matches (the last stem as a prefix), as the index would decide. Asked of
        every row a search orders: a set is taken as it is."""
        present = stems if isinstance(stems, (set, frozenset)) else set(stems)
        last = self.stems[-1]
        last_found = last in present or self.prefix and any(s.startswith(last) for s in present)
        if self.all_words:
            return last_found and all(s in present for s in self.stems[:-1])
        return last_found or any(s in present for s in self.stems[:-1])

    def stems_in(self, text: str, also: frozenset[str] = frozenset()) -> set[str]:
        """The stems of ``text`` that matter to this query (its own, and ``also``), found without stemming every
        word: only the words that begin like one of them are stemmed (Snowball keeps a word's beginning)."""
        wanted = frozenset(self.stems) | also
        found = set()
        last = self.stems[-1]
        for m in _word_starts(_candidate_re(wanted), fold(text)):
            stem = stem_word(m.group())
            if stem in wanted or self.prefix and stem.startswith(last):
                found.add(stem)
        return found

    def uses(self, text: str) -> bool:
        """Whether ``text`` has the words in the very form typed (all of them, or any for a partial query)."""
        return self.uses_words({m.group() for m in _word_starts(_typed_re(tuple(self.words)), fold(text))})

    def uses_words(self, present: set[str] | frozenset[str]) -> bool:
        """``uses`` for a text whose words (folded) are ``present``."""
        return self.typed <= present if self.all_words else not self.typed.isdisjoint(present)


@lru_cache(maxsize=50_000)
def _title_words(title: str) -> frozenset[str]:
    """A title's words as Query.uses compares them (folded): the same titles come back search after search (a book's
    titles fit the cache)."""
    return frozenset(WORD_RE.findall(fold(title)))


@lru_cache(maxsize=50_000)
def _title_stems(title: str) -> frozenset[str]:
    """A title's stems, from its words (cached as they are)."""
    return frozenset(map(stem_word, _title_words(title)))


@lru_cache(maxsize=512)
def _typed_re(words: tuple[str, ...]) -> re.Pattern:
    """The words typed, whole (matched at a word's start by _word_starts)."""
    return re.compile(r"(?:%s)(?![^\W_])" % "|".join(map(re.escape, sorted(set(words), key=len, reverse=True))))


def _word_starts(pattern: re.Pattern, text: str):
    """The matches of ``pattern`` in ``text`` that begin a word (after no letter or digit). The patterns leave that
    check to this loop: a lookbehind at their start keeps ``re`` from looking for their first letters quickly, and
    made scanning a text for them about ten times slower. (A match inside a word consumes the rest of that word,
    so no match at a word's start is skipped.)"""
    for m in pattern.finditer(text):
        start = m.start()
        if not start or not text[start - 1].isalnum():
            yield m


@dataclass(slots=True)
class Row:
    """A text that may be shown: a section in one language."""

    section_id: int
    language: str
    rank: float = 0.0
    title_hit_by_db: bool = False
    book_id: int = 0
    sid: str = ""
    depth: int = 1
    position: int = 0
    title: str = ""
    body: str | None = None  # read only for the rows shown and for defining sections


def _run(words: list[str], books: list[Book], text_lang: str, lang: str, all_words: bool,
         limit: int = PAGE_SIZE, skip: int = 0, every_book: bool = True) -> list[BookHits]:
    """The best ``limit`` sections for these words, less the first ``skip`` (earlier pages), grouped by book."""
    q = Query(words, all_words)
    languages = [text_lang] if text_lang else ["ru", "en"]
    index = (SqliteIndex if connection.vendor == "sqlite" else PostgresIndex)(books, languages, every_book)
    named = _named_terms(q, books)
    defining = {pk for pks in named.sections.values() for pk in pks}
    # The same title hits for every page: the order within them is decided here, not by the database, so a page
    # ordered from a larger pool could take in a hit an earlier page, from a smaller one, had left out.
    hits, defining_texts, counts = index.title_hits(q, max(limit, TITLE_POOL), also=sorted(defining), fills=limit)
    rows: dict[tuple[int, str], Row] = {}
    for row in hits:
        row.title_hit_by_db = True
        rows[(row.section_id, row.language)] = row
    for text in defining_texts:  # a title hit's row too takes the text: its place depends on it
        rows.setdefault((text.section_id, text.language), text).body = text.body
    rows = {key: row for key, row in rows.items() if row.title_hit_by_db or _matches(q, named, row)}
    if len({r.section_id for r in rows.values()}) < limit:
        ranked, counted = index.ranked(q, 2 * limit + len(rows))
        counts = counts if counts is not None else counted
        for row in ranked:
            # A title hit keeps its title's rank, so its place does not depend on whether this page ranked texts.
            rows.setdefault((row.section_id, row.language), row)
    if counts is None:
        counts = index.counts(q)
    if not counts:
        return []
    by_book = {b.pk: b for b in books}
    best: dict[int, tuple] = {}
    for row in rows.values():
        title_words = _title_stems(row.title)
        title_hit = q.matches(title_words)
        exact_title = title_hit and q.uses_words(_title_words(row.title)) or named.names(row.book_id, title_words)
        is_defining = row.section_id in defining
        uses = is_defining and q.uses(f"{row.title}\n{row.body}")  # only a defining section's tier depends on it
        tier = (EXACT_TITLE if exact_title else DEFINING_EXACT if is_defining and uses else TITLE if title_hit
                else DEFINING if is_defining else TEXT)
        coverage = len(q.wanted & title_words) / len(title_words) if title_words and title_hit else 0.0
        # Title hits: the title the query names most fully, the more general section, then in book order (the
        # order the titles' index keeps on SQLite: searchindex.title_key). Defining sections: where the book first
        # speaks of the term, in book order. The rest: by the database's rank.
        by_title = tier in (EXACT_TITLE, TITLE)
        key = (tier, -coverage, row.depth if by_title else 0, row.rank if tier == TEXT else 0,
               by_book[row.book_id].position, row.position, row.language != lang)
        if row.section_id not in best or key < best[row.section_id][0]:
            best[row.section_id] = (key, row, tier, title_hit, coverage)
    ordered = sorted(best.values(), key=lambda item: item[0])[skip:limit]
    _read_bodies([row for _, row, *_ in ordered])
    groups: dict[int, list[Hit]] = {}
    for _, row, tier, title_hit, coverage in ordered:  # only what is shown is highlighted
        book = by_book[row.book_id]
        label = section_label(row.sid, row.title, row.body or "")
        groups.setdefault(book.pk, []).append(Hit(
            book=book, sid=row.sid, language=row.language, label=label, url=section_url(lang, book.slug, row.sid),
            title_html=highlight(label, q.wanted), snippet_html=snippet(row.body or "", q.wanted), title_hit=title_hit,
            rank=row.rank, tier=tier, coverage=coverage, depth=row.depth))
    # Books in the order of their best hit (a term of the second book before a mention in the first), then the
    # books that only have hits beyond the page.
    order = list(groups) + [b.pk for b in books if b.pk not in groups]
    out = []
    for pk in order:
        total = counts.get(pk, 0)
        if total or pk in groups:
            shown = groups.get(pk, [])
            out.append(BookHits(by_book[pk], shown, max(min(total, COUNT_CAP), len(shown)), more=total > COUNT_CAP))
    return out


def _matches(q: Query, named: NamedTerms, row: Row) -> bool:
    """Whether a row read for a defining section matches: the query's words, or a form of the term typed."""
    forms = frozenset().union(*named.typed_forms.get(row.book_id, ()))
    stems = q.stems_in(f"{row.title}\n{row.body}", forms)
    return q.matches(stems) or named.names(row.book_id, stems)


def _read_bodies(rows: list[Row]) -> None:
    """Read the text of each row that lacks it (the rows shown): only the texts asked for, in one statement."""
    wanted: dict[str, list[int]] = {}  # language -> sections
    for row in rows:
        if row.body is None:
            wanted.setdefault(row.language, []).append(row.section_id)
    if not wanted:
        return
    if connection.vendor == "postgresql":
        # Read through the (section, language) unique index, a language at a time: measured faster than the join.
        parts, params = [], []
        for language, ids in wanted.items():
            in_ids, more = _one_of("section_id", ids, "bigint")
            parts.append(f"(SELECT section_id, language, body FROM {SectionText._meta.db_table} "
                         f"WHERE language = %s AND {in_ids})")
            params += [language, *more]
        sql = " UNION ALL ".join(parts)
    else:
        in_sections, params = _one_of("s.id", sorted({pk for ids in wanted.values() for pk in ids}), "bigint")
        languages = []
        for language, ids in wanted.items():
            in_ids, more = _one_of("t.section_id", ids, "bigint")
            languages.append(f"(t.language = %s AND {in_ids})")
            params += [language, *more]
        # Driven by the sections' primary keys, a plan no planner statistics can turn into a scan of every text.
        sql = (f"SELECT t.section_id, t.language, t.body FROM {Section._meta.db_table} s "
               f"JOIN {SectionText._meta.db_table} t ON t.section_id = s.id "
               f"WHERE {in_sections} AND ({' OR '.join(languages)})")
    with connection.cursor() as cursor:  # on the path of every keystroke: plain SQL, no query building
        cursor.execute(sql, params)
        found = {(section_id, language): body for section_id, language, body in cursor.fetchall()}
    for row in rows:
        if row.body is None:
            row.body = found.get((row.section_id, row.language), "")  # "": a text deleted meanwhile


@dataclass(frozen=True)
class TermForms:
    """A glossary term as search sees it: each written form (its words, their stems) and its defining sections."""

    forms: tuple[tuple[tuple[str, ...], frozenset[str]], ...]
    sections: tuple[str, ...]


_forms: dict[int, tuple[Glossary, list[TermForms], dict[str, set[int]]]] = {}


def _term_forms(glossary: Glossary) -> list[TermForms]:
    """Every term of a glossary with its forms in both languages and its abbreviations; once per glossary as read
    from its file."""
    return _glossary_forms(glossary)[1]


def _glossary_forms(glossary: Glossary) -> tuple[Glossary, list[TermForms], dict[str, set[int]]]:
    """The glossary, its terms' forms (_term_forms), and for each stem the terms (their places) with a form that
    has it: a query can name only a term with a form made of its stems alone, so only those terms are looked at."""
    cached = _forms.get(id(glossary))
    if cached is not None and cached[0] is glossary:
        return cached
    out, by_stem = [], {}
    for place, term in enumerate(glossary.terms):
        forms = []
        for lang in ("ru", "en"):
            for form in (*term.forms(lang), term.abbreviation(lang)):
                words = tuple(WORD_RE.findall(fold(form)))
                if words:
                    forms.append((words, frozenset(stem_word(w) for w in words)))
                    for stem in forms[-1][1]:
                        by_stem.setdefault(stem, set()).add(place)
        out.append(TermForms(tuple(forms), term.sections))
    cached = _forms[id(glossary)] = (glossary, out, by_stem)
    return cached


def _terms_with_stems(glossary: Glossary, stems: set[str]) -> list[TermForms]:
    """The terms that have a form with one of these stems, in the glossary's order."""
    _, terms, by_stem = _glossary_forms(glossary)
    return [terms[place] for place in sorted({p for stem in stems for p in by_stem.get(stem, ())})]


@dataclass
class NamedTerms:
    """The glossary terms a query names, per book: their defining sections (ids), and the stems of every form of
    the terms typed exactly as one of their forms (a title naming such a term by any form names the query)."""

    sections: dict[int, set[int]] = field(default_factory=dict)
    typed_forms: dict[int, list[frozenset[str]]] = field(default_factory=dict)

    def names(self, book_id: int, stems: set[str]) -> bool:
        return any(form <= stems for form in self.typed_forms.get(book_id, ()))


def _named_terms(q: Query, books: list[Book]) -> NamedTerms:
    named = NamedTerms()
    typed = tuple(q.words)
    for book in books:
        sids: set[str] = set()
        for term in _terms_with_stems(book_glossary(settings.FIXTURES_DIR, book.slug), q.wanted):
            if any(stems <= q.wanted for _, stems in term.forms):
                sids.update(term.sections)
                if any(words == typed for words, _ in term.forms):
                    named.typed_forms.setdefault(book.pk, []).extend(stems for _, stems in term.forms)
        if sids:
            ids = _glossary_section_ids(book)
            named.sections[book.pk] = {ids[sid] for sid in sids if sid in ids}
    return named


_section_ids: dict[int, tuple[tuple, dict[str, int]]] = {}


def _glossary_section_ids(book: Book) -> dict[str, int]:
    """Row ids of the sections the book's glossary names as defining sections (those present, not absent); read once
    per content version of the book and its glossary."""
    glossary = book_glossary(settings.FIXTURES_DIR, book.slug)
    stamp = (book.version, id(glossary))
    cached = _section_ids.get(book.pk)
    if cached is None or cached[0] != stamp:
        sids = {sid for term in _term_forms(glossary) for sid in term.sections}
        found = dict(Section.objects.filter(book=book, sid__in=sids, absent=False).values_list("sid", "pk"))
        cached = _section_ids[book.pk] = (stamp, found)
    return cached[1]


def _texts_of(ids: list[int], languages: list[str], padding: int = 0) -> tuple[str, list]:
    """A SELECT of these sections' texts in ``languages``, whole (with the body), in the columns of an index's rows
    (and ``padding`` empty ones after them); the indexes add it to their title hits, so the texts of the defining
    sections cost no statement of their own. They are read afresh each time, as the title hits are: the index
    follows every change of a text, and so do they."""
    in_ids, params = _one_of("t.section_id", ids, "bigint")
    in_languages, more = _one_of("t.language", languages, "text")
    return (f"SELECT NULL, 0.0, t.section_id, t.language, t.title, s.book_id, s.sid, s.depth, s.position, t.body"
            f"{', NULL' * padding} "
            f"FROM {SectionText._meta.db_table} t JOIN {Section._meta.db_table} s ON s.id = t.section_id "
            f"WHERE {in_ids} AND {in_languages}", params + more)


def _one_of(column: str, values: list, sql_type: str) -> tuple[str, list]:
    """SQL for ``column`` being one of ``values``, with its parameters: on PostgreSQL one array (binding 30-60
    parameters on the client cost more than the statement did), elsewhere a placeholder each."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s::{sql_type}[])", [list(values)]
    return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)


# ---------------------------------------------------------------------------------------------- the databases


def _row(_, rank, section_id, language, title, book_id, sid, depth, position, body=None) -> Row:
    return Row(section_id=section_id, language=language, rank=float(rank), title=title, book_id=book_id, sid=sid,
               depth=depth, position=position, body=body)


def _split(found) -> tuple[list[Row], list[Row]]:
    """An index's rows (no body) apart from the whole texts read with them (_texts_of)."""
    hits, texts = [], []
    for columns in found:
        (hits if columns[9] is None else texts).append(_row(*columns[:10]))
    return hits, texts


class SqliteIndex:
    """FTS5 over the stems; the rowid is book_id << 40 | section_id << 1 | (1 if English), so books and languages
    are filtered, and sections counted, without reading a row. The titles' index is in the order title hits are
    shown (searchindex.title_key), so the best title hits are the first ones it finds: no title hit is ranked, and
    none but those shown is read.

    FTS5 answers a prefix by first merging the lists of every word that begins so, over the whole index (5 ms for
    «подразделен»* at 100,000 sections, where the word alone takes 0.1); so the words a prefix stands for are looked
    up in the vocabulary (completions), and a prefix that stands for its own word alone is asked as that word: the
    same rows, the same rank. Counting needs no rank, so there a prefix is asked as any one of its words (ranking
    them as words of their own would change bm25, and a long OR ranks slower than the prefix).
    Ranking computes bm25 for every match, so as on PostgreSQL the texts are ranked among the first SCAN_CAP found
    (both languages together)."""

    SCAN_CAP = TEXT_SCAN_CAP

    def __init__(self, books: list[Book], languages: list[str], every_book: bool):
        self.books = books
        self.languages = languages
        self._completions: dict[str, tuple[str, ...] | None] = {}
        self.every_book = every_book
        self.language = self._language("rowid")
        self.where, self.params = self.language, []
        if not every_book:
            self.where += " AND (" + " OR ".join("rowid BETWEEN %s AND %s" for _ in books) + ")"
            for book in books:
                self.params += [book.pk << BOOK_SHIFT, ((book.pk + 1) << BOOK_SHIFT) - 1]

    def _language(self, rowid: str) -> str:
        """The condition on an index's rowid (its last bit) that keeps the texts of the one language asked for."""
        return f" AND ({rowid} & 1) = {int(self.languages[0] == 'en')}" if len(self.languages) == 1 else ""

    @staticmethod
    def _text_of(rowid: str) -> str:
        """The joins that find the section and the text an index's ``rowid`` names (either index: both keep the
        section in the same bits and the language in the last), as ``s`` and ``t``."""
        return (f"JOIN {Section._meta.db_table} s ON s.id = ({rowid} >> 1) & {SECTION_MASK} "
                f"JOIN {SectionText._meta.db_table} t ON t.section_id = s.id "
                f"AND t.language = (CASE {rowid} & 1 WHEN 1 THEN 'en' ELSE 'ru' END) ")

    def completions(self, q: Query) -> tuple[str, ...] | None:
        """The stems of the books' words that the last word begins (its own included), from the vocabulary
        (SearchWord: every word of every text, rebuilt by each load and grown by each saved text; one written by
        raw SQL joins it at the next load); None when it is no prefix, or stands for more than MAX_COMPLETIONS
        words, or is all digits (the vocabulary leaves out numbers)."""
        last = q.stems[-1]
        if not q.prefix or last.isdigit():
            return None
        if last not in self._completions:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT DISTINCT stem FROM {SearchWord._meta.db_table} WHERE stem >= %s AND stem < %s "
                               f"LIMIT {MAX_COMPLETIONS + 1}", [last, last[:-1] + chr(ord(last[-1]) + 1)])
                found = {last} | {stem for (stem,) in cursor.fetchall()}
            self._completions[last] = tuple(sorted(found)) if len(found) <= MAX_COMPLETIONS else None
        return self._completions[last]

    def ranking_match(self, q: Query) -> str:
        """The MATCH expression to rank by: a prefix that stands for its own word alone is asked as that word."""
        last = self.completions(q)
        return q.fts(last if last is not None and len(last) == 1 else None)

    def title_hits(self, q: Query, limit: int, also: list[int] = (),
                   fills: int = 0) -> tuple[list[Row], list[Row], None]:
        """The first ``limit`` title hits in the titles' own order (see the class), and the texts of the sections
        ``also`` (see _texts_of); the sections per book are counted apart (see counts). A search of some books only
        finds a hit's book through its section, and passes over the other books' hits."""
        books = ""
        params = [self.ranking_match(q)]
        if not self.every_book:
            in_books, more = _one_of("s.book_id", [b.pk for b in self.books], "bigint")
            books, params = f" AND {in_books}", params + more
        sql = ("SELECT * FROM (SELECT f.rowid, 0.0, t.section_id, t.language, t.title, s.book_id, s.sid, s.depth, "
               f"s.position, NULL FROM reference_search_title_fts f {self._text_of('f.rowid')}"
               f"WHERE reference_search_title_fts MATCH %s{self._language('f.rowid')}{books} "
               f"ORDER BY f.rowid LIMIT {int(limit)})")
        if also:
            texts, more = _texts_of(also, self.languages)
            sql, params = f"{sql} UNION ALL {texts}", params + more
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return *_split(cursor.fetchall()), None

    def ranked(self, q: Query, limit: int) -> tuple[list[Row], None]:
        """The best ``limit`` texts by bm25 (the title ten times the text) among the first SCAN_CAP found, with their
        sections' ids, places and titles read in the same statement (the rowid names the section and the
        language); the sections per book are counted apart (see counts)."""
        sql = ("SELECT m.rowid, m.rank, t.section_id, t.language, t.title, s.book_id, s.sid, s.depth, s.position, "
               "NULL FROM (SELECT * FROM (SELECT rowid, bm25(reference_search_fts, 10.0, 1.0) AS rank "
               f"FROM reference_search_fts WHERE reference_search_fts MATCH %s{self.where} LIMIT {self.SCAN_CAP}) "
               f"ORDER BY rank, rowid LIMIT {int(limit)}) m {self._text_of('m.rowid')}ORDER BY m.rank, m.rowid")
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.ranking_match(q)] + self.params)
            return _split(cursor.fetchall())[0], None

    def counts(self, q: Query) -> dict[int, int]:
        """Matching sections per book, up to COUNT_CAP + 1 of them, from the rowids alone (no row is read): each
        book's rowids are a range the index seeks to, and stops in once COUNT_CAP + 1 sections are found (a word
        of one language matches one text of each section: 501 texts, where a cap on texts had to allow 1,002)."""
        parts = [f"SELECT {book.pk}, count(*) FROM (SELECT DISTINCT rowid >> 1 FROM reference_search_fts "
                 f"WHERE reference_search_fts MATCH %s AND rowid BETWEEN {book.pk << BOOK_SHIFT} AND "
                 f"{((book.pk + 1) << BOOK_SHIFT) - 1}{self.language} LIMIT {COUNT_CAP + 1})"
                 for book in self.books]
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), [q.fts(self.completions(q))] * len(parts))
            return {book: count for book, count in cursor.fetchall() if count}


class PostgresIndex:
    """The stored tsvectors of reference_sectiontext, each language through its own partial GIN index, filtered by
    the book column the triggers keep (search_book), so no matching text needs its section until it is shown."""

    SCAN_CAP = {"search_title": TITLE_SCAN_CAP, "search_vector": TEXT_SCAN_CAP}

    def __init__(self, books: list[Book], languages: list[str], every_book: bool):
        self.books = [b.pk for b in books]
        self.languages = languages
        self.book_filter = "t.search_book IS NOT NULL" if every_book else "t.search_book = ANY(%s)"
        self.book_params = [] if every_book else [self.books]

    def _rows(self, q: Query, column: str, normalisation: int, limit: int,
              also: list[int] = ()) -> tuple[list[Row], list[Row], dict[int, int] | None, bool]:
        """The best ``limit`` matches of ``column``, the whole texts of the sections ``also``, the sections per
        book among the matches the scan found (None when it found none), and whether a language's scan stopped at
        its cap (so those are not all the matches)."""
        tsquery = q.tsquery()
        cap = self.SCAN_CAP[column]
        scans, params = [], []
        for lang in self.languages:
            query = f"to_tsquery('{POSTGRES_CONFIGS[lang]}', %s)"
            # Ranking needs each match's row, so a word in tens of thousands of texts is ranked among the first
            # SCAN_CAP matches found: bounded work, and a fair sample where the page shows 30.
            scans.append(f"(SELECT t.id, -ts_rank(t.{column}, {query}, {normalisation}) AS rank, t.section_id, "
                         f"t.language, t.title, t.search_book FROM reference_sectiontext t WHERE t.language = '{lang}' "
                         f"AND {self.book_filter} AND t.{column} @@ {query} LIMIT {cap})")
            params += [tsquery] + self.book_params + [tsquery]
        counted = ("(SELECT array_agg(ARRAY[book, sections]) FROM (SELECT search_book AS book, "
                   "count(DISTINCT section_id) AS sections FROM f GROUP BY search_book) c), "
                   f"(SELECT coalesce(max(n), 0) >= {cap} FROM (SELECT count(*) AS n FROM f GROUP BY language) l)")
        # Each of the best rows finds its section by the primary key (LATERAL, and OFFSET 0 so the planner keeps it
        # so): joined as a set, the planner may hash the whole section table for the 150 rows of a common word.
        sql = (f"WITH f AS MATERIALIZED ({' UNION ALL '.join(scans)}) "
               "(SELECT m.id, m.rank, m.section_id, m.language, m.title, s.book_id, s.sid, s.depth, s.position, "
               f"NULL::text, {counted} FROM (SELECT * FROM f ORDER BY rank, id "
               f"LIMIT {int(limit)}) m CROSS JOIN LATERAL (SELECT book_id, sid, depth, position FROM reference_section "
               "WHERE id = m.section_id OFFSET 0) s ORDER BY m.rank, m.id)")
        if not tsquery:
            sql, params = "", []
        if also:
            texts, more = _texts_of(also, self.languages, padding=2 if sql else 0)
            sql, params = (f"{sql} UNION ALL ({texts})" if sql else texts), params + more
        if not sql:
            return [], [], None, False
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
        hits, texts = _split(found)
        if not hits:
            return hits, texts, None, False
        per_book, stopped = found[0][10:]
        return hits, texts, {book: sections for book, sections in per_book}, stopped

    def title_hits(self, q: Query, limit: int, also: list[int] = (),
                   fills: int = 0) -> tuple[list[Row], list[Row], dict[int, int] | None]:
        """The best title hits, the texts of the sections ``also`` (see _texts_of), and when the title hits are
        of ``fills`` sections or more (no texts will be ranked), the matching sections per book (see counts)."""
        # 2: ranks divided by the title's length, so fuller titles lead
        hits, texts, per_book, _ = self._rows(q, "search_title", 2, limit, also=also)
        if not fills or not per_book or sum(per_book.values()) < fills:
            return hits, texts, None
        # The count is a statement of its own, made only here: as a subquery of the title statement it was
        # planned for every query (1 ms at 20,000 sections) and run only for these.
        return hits, texts, self.counts(q, at_least=per_book)

    def ranked(self, q: Query, limit: int) -> tuple[list[Row], dict[int, int] | None]:
        """The best texts, and the sections per book when the same scan could count them (see counts)."""
        # 1: ranks divided by 1 + log(length), as bm25 damps long texts
        hits, _, per_book, stopped = self._rows(q, "search_vector", 1, limit)
        if stopped or not q.tsquery():
            return hits, None
        return hits, {book: n for book, n in (per_book or {}).items() if n}

    def counts(self, q: Query, at_least: dict[int, int] | None = None) -> dict[int, int]:
        """Matching sections per book, up to COUNT_CAP + 1 of them (the rows beyond are never visited). A book
        with more than COUNT_CAP in ``at_least`` (sections already found to match, by their titles) is not scanned.
        A section has one text per language, so each language's scan stops at COUNT_CAP + 1 texts: either one
        stopped there, and so does the count, or both found every match, and the count is exact."""
        tsquery = q.tsquery()
        if not tsquery:
            return {}
        at_least = at_least or {}
        counts = {book: COUNT_CAP + 1 for book in self.books if at_least.get(book, 0) > COUNT_CAP}
        parts = []
        for book in map(int, self.books):
            if book not in counts:
                matches = " UNION ALL ".join(
                    f"(SELECT t.section_id FROM reference_sectiontext t WHERE t.language = '{lang}' AND "
                    f"t.search_book = {book} AND t.search_vector @@ to_tsquery('{POSTGRES_CONFIGS[lang]}', %s) "
                    f"LIMIT {COUNT_CAP + 1})" for lang in self.languages)
                parts.append(f"(SELECT {book}, (SELECT count(DISTINCT section_id) FROM ({matches}) m))")
        if parts:
            with connection.cursor() as cursor:
                cursor.execute(" UNION ALL ".join(parts), [tsquery] * len(self.languages) * len(parts))
                counts.update(cursor.fetchall())
        return {book: count for book, count in counts.items() if count}


# ---------------------------------------------------------------------------------------------- highlighting


def _is_wanted(word: str, wanted: set[str] | frozenset[str]) -> bool:
    """Whether a word of the text is one the query matches: its stem is wanted, or begins with a wanted stem of
    PREFIX_MIN letters or more. (frozenset() of a frozenset is the same object: no copy.)"""
    stem = stem_word(fold(word))
    return stem in wanted or stem.startswith(_prefixes(frozenset(wanted)))


@lru_cache(maxsize=512)
def _prefixes(wanted: frozenset[str]) -> tuple[str, ...]:
    """The wanted stems a word may begin with, as str.startswith takes them."""
    return tuple(s for s in wanted if len(s) >= PREFIX_MIN)


@lru_cache(maxsize=512)
def _candidate_re(wanted: frozenset[str]) -> re.Pattern:
    """Words that may stem to a wanted stem: those starting with the stem less its last letter (Snowball may
    change a final letter, as English y -> i); each candidate is then confirmed by _is_wanted."""
    prefixes = sorted({w[:max(3, len(w) - 1)] for w in wanted}, key=len, reverse=True)
    return re.compile(r"(?:%s)[^\W_]*" % "|".join(map(re.escape, prefixes)))


def _marks(text: str, wanted: set[str], first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of the words of ``text`` that a query of these stems matches (every inflected form)."""
    folded, wanted = fold(text), frozenset(wanted)
    if len(folded) != len(text):  # a case mapping changed the length: offsets would not line up
        return [(m.start(), m.end()) for m in WORD_RE.finditer(text) if _is_wanted(m.group(), wanted)][
            :1 if first_only else None]
    spans = []
    for m in _word_starts(_candidate_re(wanted), folded):
        if _is_wanted(text[m.start():m.end()], wanted):
            spans.append((m.start(), m.end()))
            if first_only:
                break
    return spans


def highlight(text: str, wanted: set[str]) -> SafeString:
    """``text`` escaped, with the words the query matches in ``<mark>``. (The standard library's escape: Django's
    adds checks for lazy strings that cost more than the escaping on every hit of every keystroke.)"""
    out, position = [], 0
    for start, end in _marks(text, wanted):
        out.append(html.escape(text[position:start]))
        out.append(f"<mark>{html.escape(text[start:end])}</mark>")
        position = end
    out.append(html.escape(text[position:]))
    return SafeString("".join(out))


def snippet(body: str, wanted: set[str], width: int = 200) -> SafeString:
    """About ``width`` characters of the text around its first matching word, on one line, highlighted. Only the
    window is flattened and escaped, not the whole text."""
    marks = _marks(body, wanted, first_only=True)
    start = max(0, marks[0][0] - width // 3) if marks else 0
    if start:
        start = body.find(" ", start) + 1 or start
    window = " ".join(body[start:start + 2 * width].split())
    end = min(len(window), width)
    cut = end < len(window) or start + 2 * width < len(body)
    if end < len(window):
        end = window.rfind(" ", 0, end) if window.rfind(" ", 0, end) > 0 else end
    text = highlight(window[:end], wanted)
    return SafeString(("… " if start else "") + text + (" …" if cut else ""))


# ---------------------------------------------------------------------------------------------- did you mean


def _near_words(word: str, books: list[Book]) -> list[str]:
    """Words of the books' vocabulary that could be ``word`` misspelt: the same first letter, about as long (a big
    book has a thousand such; plain SQL, as building a model query and its rows cost more than the statement). Their
    order does not matter: _closest decides by its measure, and a tie by the word itself. (_suggest asks only when
    some book is loaded.)"""
    if not word:
        return []
    in_books, params = _one_of("book_id", [b.pk for b in books], "bigint")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT word FROM {SearchWord._meta.db_table} WHERE initial = %s AND length BETWEEN %s AND %s "
                       f"AND {in_books}", [word[0], len(word) - 2, len(word) + 2, *params])
        return list(dict.fromkeys(near for (near,) in cursor.fetchall()))


def _closest(word: str, choices: list[str], cutoff: float = 0.75) -> list[str]:
    """``difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)``, with rapidfuzz choosing the candidates
    first: its ratio (twice the longest common subsequence over the lengths) is never below difflib's (twice the
    letters its matching blocks cover, a common subsequence too), so no word difflib would take is left out, and
    difflib's own measure decides among the few left. Over a big book's vocabulary difflib alone took 10-20 ms."""
    candidates = [choice for choice, _, _ in process.extract(word, choices, scorer=fuzz.ratio, limit=None,
                                                              score_cutoff=cutoff * 100 - 0.01)]
    return difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)


def _suggest(words: list[str], books: list[Book], found: bool) -> str:
    """The query with each word that the books lack replaced by its nearest known word (either script). The last
    word may be a prefix still being typed: when the query found something, that word is left alone."""
    if not books:
        return ""
    stems = {stem_word(w) for w in words}
    in_stems, params = _one_of("stem", sorted(stems), "text")
    in_books, more = _one_of("book_id", [b.pk for b in books], "bigint")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT stem FROM {SearchWord._meta.db_table} WHERE {in_stems} AND {in_books}",
                       params + more)
        known = {stem for (stem,) in cursor.fetchall()}
    changed, out = False, []
    for i, word in enumerate(words):
        if stem_word(word) in known or word.isdigit() or len(word) < 3 or (found and i == len(words) - 1):
            out.append(word)
            continue
        script = script_of(word)
        spelled = to_latin(word) if script == "ru" else to_cyrillic(word)
        options = _closest(word, _near_words(word, books)) + _closest(spelled, _near_words(spelled, books))
        if options:
            best = max(options, key=lambda o: difflib.SequenceMatcher(
                None, word if script_of(o) == script else spelled, o).ratio())
            out.append(best)
            changed = True
        else:
            out.append(word)
    return " ".join(out) if changed else ""
