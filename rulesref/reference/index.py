"""A per-process index of each rulebook's sections and titles, rebuilt when the loaded corpus changes.

Section pages need the whole tree (breadcrumbs, previous/next, link titles for every reference); reading it once
per corpus version keeps a page to a couple of queries.
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Hashable, TypeVar

from django.db import InterfaceError, OperationalError, connection
from django.db.models import F
from django.http import Http404

from .models import Book, Reference, Section, SectionText

T = TypeVar("T")


@dataclass
class Entry:
    pk: int
    sid: str
    parent: str | None
    depth: int
    position: int
    absent: bool
    changed: bool
    page: int | None
    number: str
    titles: dict[str, str] = field(default_factory=dict)
    bodies: dict[str, str] = field(default_factory=dict)
    languages: set[str] = field(default_factory=set)
    children: list[str] = field(default_factory=list)
    backlinks: dict[str, list[str]] = field(default_factory=dict)  # language -> ids of sections referring here
    source: str = "ru"  # the rulebook's source language: what a missing translation falls back to

    def title(self, lang: str) -> str:
        """The title as the rulebook prints it (in ``lang``, else in the source language); empty for an untitled
        section."""
        return self.titles.get(lang) or self.titles.get(self.source) or ""

    def untitled(self, lang: str) -> bool:
        """No printed title: the section is shown under its first words (``display_title``)."""
        return not self.title(lang)

    def display_title(self, lang: str) -> str:
        """The printed title, or for an untitled section its first words ("After all Close Combat results have
        been determined…")."""
        title = self.title(lang)
        if title:
            return title
        body = self.bodies.get(lang) if lang in self.bodies else self.bodies.get(self.source, "")
        return first_words(body or "")

    def title_language(self, lang: str) -> str:
        """The language the title shown in ``lang`` is written in (the source's, for an untranslated title)."""
        if self.titles.get(lang):
            return lang
        if self.titles.get(self.source):
            return self.source
        return lang if lang in self.bodies else self.source

    def label(self, lang: str) -> str:
        title = self.display_title(lang)
        return f"{self.number} {title}".strip() if self.number else title

    def summary(self, lang: str) -> str:
        """The first sentence of the text (for the page's description and link previews)."""
        return first_sentence(self.bodies.get(lang) if lang in self.bodies else self.bodies.get(self.source, ""))


MAX_FRAGMENTS = 4096
LEAD_RE = re.compile(r"^(?:[a-z]\) |\d+\) |- )")  # a clause letter, a numbered item or a list bullet
# A sentence ends at . ! ? … before a capital (or the end), not inside "см. 11.7" or "т. е.".
SENTENCE_END_RE = re.compile(r"[.!?…](?=\s+[«“\"(]?[A-ZА-ЯЁ]|\s*$)")
# Short words that make a poor last word of a title cut short.
TRAILING_WORDS = {"a", "an", "the", "of", "to", "in", "on", "at", "by", "for", "and", "or", "with", "from", "that",
                  "и", "в", "во", "на", "с", "со", "к", "ко", "по", "от", "до", "из", "за", "о", "об", "у", "а", "но",
                  "или", "что", "как", "не"}


def _lead(body: str) -> str:
    """The first paragraph as one line, without a clause letter or list bullet in front."""
    first = body.strip().split("\n\n", 1)[0] if body else ""
    return LEAD_RE.sub("", " ".join(first.split()))


def first_words(body: str, most: int = 8) -> str:
    """A title for an untitled section: its first words, up to a comma or full stop after the fourth word or
    the eighth word, ending in "…" (which marks it as not printed in the rulebook)."""
    words = _lead(body).split()
    if not words:
        return ""
    taken: list[str] = []
    for word in words[:most]:
        taken.append(word)
        if len(taken) >= 4 and word[-1] in ",.;:!?":
            break
    while len(taken) > 3 and taken[-1].strip(",.;:!?").lower() in TRAILING_WORDS:
        taken.pop()
    return " ".join(taken).rstrip(",.;:!?—–-") + "…"


def first_sentence(body: str, most: int = 200) -> str:
    """The text's first sentence (at most ``most`` characters, cut at a word with "…")."""
    lead = _lead(body)
    end = SENTENCE_END_RE.search(lead)
    sentence = lead[:end.end()] if end else lead
    if len(sentence) > most:
        sentence = sentence[:most].rsplit(" ", 1)[0].rstrip(",;:—–-") + "…"
    return sentence


@dataclass
class BookIndex:
    slug: str
    version: int
    entries: dict[str, Entry]
    order: list[str]
    by_lower: dict[str, str]
    by_page: dict[int, str]
    source: str = "ru"  # the rulebook's source language
    patterns: tuple[str, ...] = ()  # the book's own number forms (book.toml [numbering] patterns)
    # What is built from this version of the content (rendered texts), least recently used first.
    _fragments: OrderedDict = field(default_factory=OrderedDict, repr=False)
    _fragments_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def get(self, sid: str) -> Entry | None:
        return self.entries.get(sid)

    def clear_fragments(self) -> None:
        with self._fragments_lock:
            self._fragments.clear()

    def fragment(self, key: Hashable, build: Callable[[], T]) -> T:
        """``build()`` once per key for this content version (at most MAX_FRAGMENTS are kept)."""
        try:
            value = self._fragments[key]
        except KeyError:
            value = build()
            with self._fragments_lock:
                self._fragments[key] = value
                if len(self._fragments) > MAX_FRAGMENTS:
                    self._fragments.popitem(last=False)
            return value
        with self._fragments_lock:
            if key in self._fragments:
                self._fragments.move_to_end(key)
        return value

    def ancestors(self, sid: str) -> list[Entry]:
        out = []
        entry = self.entries.get(sid)
        while entry and entry.parent:
            entry = self.entries[entry.parent]
            out.append(entry)
        return out[::-1]

    def neighbours(self, sid: str) -> tuple[Entry | None, Entry | None]:
        """Previous and next sections with text, in book order."""
        return self.fragment("neighbours", self._neighbours).get(sid, (None, None))

    def _neighbours(self) -> dict[str, tuple[Entry | None, Entry | None]]:
        readable = [self.entries[s] for s in self.order if not self.entries[s].absent]
        return {e.sid: (readable[i - 1] if i > 0 else None, readable[i + 1] if i + 1 < len(readable) else None)
                for i, e in enumerate(readable)}

    def roots(self) -> list[Entry]:
        return [self.entries[s] for s in self.order if self.entries[s].parent is None]


_lock = threading.Lock()
_cache: dict[str, BookIndex] = {}


def book_index(book: Book) -> BookIndex:
    return _of_version(_cache, book, _build)


def _of_version(cache: dict, book: Book, build):
    """What ``build(book)`` makes, kept in ``cache`` for the book's current content version (made again, one
    builder at a time, once the version moves on)."""
    cached = cache.get(book.slug)
    if cached is not None and cached.version == book.version:
        return cached
    with _lock:
        made = cache[book.slug] = build(book)
        return made


def invalidate(slug: str | None = None) -> None:
    global _books
    _books = None
    if slug is None:
        _cache.clear()
        _outlines.clear()
    else:
        _cache.pop(slug, None)
        _outlines.pop(slug, None)


_books: tuple[tuple, dict[str, Book]] | None = None


def books(request=None) -> dict[str, Book]:
    """The rulebooks by slug, in their order: one small query (each book's id and content version), the rows
    themselves only read again when one of those changes. Kept on ``request`` for the rest of it when given."""
    global _books
    if request is not None and hasattr(request, "_rulesref_books"):
        return request._rulesref_books
    stamp = _book_stamp()
    _plan_with_fresh_statistics(stamp)
    cached = _books
    if cached is None or cached[0] != stamp:
        cached = _books = (stamp, {b.slug: b for b in Book.objects.order_by("position", "slug")})
    if request is not None:
        request._rulesref_books = cached[1]
    return cached[1]


def _book_stamp() -> tuple:
    """Each book's id and content version, in order: the query a reference request starts with.

    It is also the connection's health check. With ``CONN_HEALTH_CHECKS`` Django sends ``SELECT 1`` on a kept
    connection before a request's first query: on PostgreSQL a second round trip, a quarter of a cached page's
    time. Here the stamp's own query stands in for it. If the connection has died since the last request (the
    database restarted, an idle connection was cut), the query fails outside any transaction; the connection is
    then closed and the query sent once more on a new one, which is what Django's check would have done first."""
    checking = (connection.connection is not None and connection.health_check_enabled
                and not connection.health_check_done and not connection.in_atomic_block)
    if checking:
        connection.health_check_done = True
    try:
        return _fetch_stamp()
    except (InterfaceError, OperationalError):
        if not checking or connection.is_usable():
            raise
        connection.close()
        return _fetch_stamp()


def _plan_with_fresh_statistics(stamp: tuple) -> None:
    """SQLite reads its planner's statistics (``sqlite_stat1``, which every load refreshes with ANALYZE) when a
    connection opens, and a load made by another process does not reach a connection opened before it: an app
    server went on planning for the books as they were before a 100,000-section book was loaded (a search read the
    shown texts by scanning all 200,000 of them, 130 ms). So a connection that sees the content change is opened
    afresh, once per change. PostgreSQL's statistics are the server's, shared by every connection."""
    if connection.vendor != "sqlite" or connection.in_atomic_block or connection.is_in_memory_db():
        return  # (closing an in-memory database would lose it)
    seen = getattr(connection, "_rulesref_stamp", None)
    connection._rulesref_stamp = stamp
    if seen is not None and seen != stamp:
        connection.close()


def _fetch_stamp() -> tuple:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, version FROM {Book._meta.db_table} ORDER BY position, slug")
        return tuple(cursor.fetchall())


def book_or_404(request, slug: str) -> Book:
    book = books(request).get(slug)
    if book is None:
        raise Http404("no such rulebook")
    return book


def _build(book: Book) -> BookIndex:
    from .corpus import is_numbered

    sections = list(Section.objects.filter(book=book).order_by("position").values(
        "pk", "sid", "parent__sid", "depth", "position", "absent", "changed", "page"))
    entries = {s["sid"]: Entry(pk=s["pk"], sid=s["sid"], parent=s["parent__sid"], depth=s["depth"],
                               position=s["position"], absent=s["absent"], changed=s["changed"], page=s["page"],
                               number=s["sid"] if is_numbered(s["sid"]) else "", source=book.source_language)
               for s in sections}
    by_pk = {e.pk: e for e in entries.values()}
    _add_texts(book, by_pk)
    for e in entries.values():
        if e.parent:
            entries[e.parent].children.append(e.sid)
    _add_backlinks(book, by_pk)
    by_page: dict[int, str] = {}
    for e in entries.values():
        if e.page is not None:
            by_page.setdefault(e.page, e.sid)
    return BookIndex(slug=book.slug, version=book.version, entries=entries,
                     order=[s["sid"] for s in sections], by_lower={k.lower(): k for k in entries},
                     by_page=by_page, source=book.source_language, patterns=tuple(book.number_patterns or ()))


def _add_texts(book: Book, by_pk: dict[int, Entry]) -> None:
    """Each entry's titles and texts, and the languages it can be read in."""
    for t in SectionText.objects.filter(section__book=book).values("section_id", "language", "title", "body"):
        e = by_pk[t["section_id"]]
        e.titles[t["language"]] = t["title"]
        e.bodies[t["language"]] = t["body"]
        if t["body"] or e.absent or t["title"]:
            e.languages.add(t["language"])


def _add_backlinks(book: Book, by_pk: dict[int, Entry]) -> None:
    """Each entry's "referenced by", per language, in book order, each referring section once."""
    refs = (Reference.objects.filter(source__book=book, target__isnull=False).exclude(source=F("target"))
            .order_by("source__position").values_list("target_id", "language", "source__sid"))
    for target_pk, lang, source_sid in refs:
        listed = by_pk[target_pk].backlinks.setdefault(lang, [])
        if source_sid not in listed:
            listed.append(source_sid)


# ---------------------------------------------------------------- the outline: what a contents page needs


@dataclass
class Outline:
    """A rulebook's tree read without its texts, for its contents page (and the progress line of the home page):
    the sections in book order with their parents, subsections and flags, and how many have a text in
    each language. The titles of the sections a page shows are read when it first shows them (``entries``) and kept
    with the outline. Reading the whole index of a 20,000-section book (every text) takes a second; this takes a
    tenth of it, the titles of the rows a page shows a few milliseconds more."""

    slug: str
    version: int
    source: str
    order: list[str]
    parents: dict[str, str | None]
    children: dict[str, list[str]]  # only sections with subsections (``subsections`` for any)
    readable: int  # the sections with a text (not absent)
    languages: dict[str, int]  # language -> readable sections with a title or a text in it
    _rows: dict[str, tuple] = field(default_factory=dict, repr=False)  # sid -> its row of the sections' query
    _entries: dict[str, Entry] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def roots(self) -> list[str]:
        return [sid for sid in self.order if self.parents[sid] is None]

    def subsections(self, sid: str) -> list[str]:
        return self.children.get(sid, [])

    def entries(self, sids) -> dict[str, Entry]:
        """``sids``' entries with their titles, as the index gives them (``label``, ``display_title``,
        ``title_language``, ``languages``), read in one query for those not read before. Their ``bodies`` hold
        only the beginning of an untitled section's text (enough for its first words), so ``summary`` means
        nothing here, and their ``children`` and ``backlinks`` are left empty (``children`` is the outline's)."""
        missing = [sid for sid in sids if sid not in self._entries]
        if missing:
            read = _outline_entries(self, missing)
            with self._lock:
                self._entries.update(read)
        return {sid: self._entries[sid] for sid in sids}


FIRST_WORDS_PREFIX = 600  # characters of an untitled text read for its first words (first_words takes 8 words)
_outlines: dict[str, Outline] = {}


def book_outline(book: Book) -> Outline:
    """The book's outline for its current content version, read once per version and process (two queries)."""
    return _of_version(_outlines, book, _build_outline)


def _build_outline(book: Book) -> Outline:
    sections, texts = Section._meta.db_table, SectionText._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, sid, parent_id, depth, position, absent, changed FROM {sections} "
                       f"WHERE book_id = %s ORDER BY position", [book.pk])
        rows = cursor.fetchall()
        # A language counts for a section when its text there has a title or a body (as in the index).
        cursor.execute(f"SELECT t.language, COUNT(*) FROM {texts} t JOIN {sections} s ON s.id = t.section_id "
                       f"WHERE s.book_id = %s AND NOT s.absent AND (t.title <> '' OR t.body <> '') "
                       f"GROUP BY t.language", [book.pk])
        languages = dict(cursor.fetchall())
    by_pk = {row[0]: row[1] for row in rows}
    order = [row[1] for row in rows]
    parents = {sid: by_pk.get(parent) for _, sid, parent, *_ in rows}
    children: dict[str, list[str]] = {}  # only sections with subsections: a list for each of 20,000 cost 70 ms
    for sid in order:
        if parents[sid] is not None:
            children.setdefault(parents[sid], []).append(sid)
    return Outline(slug=book.slug, version=book.version, source=book.source_language, order=order,
                   parents=parents, children=children,
                   readable=sum(1 for row in rows if not row[5]), languages=languages,
                   _rows={row[1]: row for row in rows})


def _prefix_suffices(prefix: str) -> bool:
    """Whether the beginning of a text gives the same first words as the whole text: its first paragraph ends in
    it, or it holds a ninth word (so the eighth, the last first_words takes, is whole)."""
    lead = prefix.strip()
    return "\n\n" in lead or len(LEAD_RE.sub("", " ".join(lead.split())).split()) > 8


def _one_of(column: str, values: list) -> tuple[str, list]:
    """``column`` being one of ``values`` (ids): one array on PostgreSQL, a placeholder each elsewhere."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s::bigint[])", [values]
    return f"{column} IN ({', '.join(['%s'] * len(values))})", values


def _outline_entries(outline: Outline, sids: list[str]) -> dict[str, Entry]:
    from .corpus import is_numbered

    entries = {}
    by_pk = {}
    for sid in sids:
        pk, _, _, depth, position, absent, changed = outline._rows[sid]
        entries[sid] = by_pk[pk] = Entry(
            pk=pk, sid=sid, parent=outline.parents[sid], depth=depth, position=position, absent=bool(absent),
            changed=bool(changed), page=None, number=sid if is_numbered(sid) else "", source=outline.source)
    condition, params = _one_of("section_id", list(by_pk))
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, section_id, language, title, body <> '', "
                       f"CASE WHEN title = '' THEN substr(body, 1, %s) ELSE '' END, "
                       f"CASE WHEN title = '' THEN length(body) ELSE 0 END "
                       f"FROM {SectionText._meta.db_table} WHERE {condition}", [FIRST_WORDS_PREFIX, *params])
        rows = cursor.fetchall()
    whole: dict[int, Entry] = {}  # untitled texts whose beginning does not give their first words: read whole
    for text_pk, section_pk, lang, title, has_body, prefix, length in rows:
        e = by_pk[section_pk]
        e.titles[lang] = title
        e.bodies[lang] = prefix
        if has_body or e.absent or title:
            e.languages.add(lang)
        if length > len(prefix) and not _prefix_suffices(prefix):
            whole[text_pk] = e
    if whole:
        for text_pk, lang, body in SectionText.objects.filter(pk__in=whole).values_list("pk", "language", "body"):
            whole[text_pk].bodies[lang] = body
    return entries
