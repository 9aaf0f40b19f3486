"""A per-process index of each rulebook's sections and titles, rebuilt when the loaded corpus changes.

Section pages need the whole tree (breadcrumbs, previous/next, link titles for every reference); reading it once
per corpus version keeps a page to a couple of queries.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Hashable, TypeVar

from django.db.models import F

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

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("ru") or ""

    def label(self, lang: str) -> str:
        title = self.title(lang)
        return f"{self.number} {title}".strip() if self.number else title


MAX_FRAGMENTS = 4096


@dataclass
class BookIndex:
    slug: str
    version: int
    entries: dict[str, Entry]
    order: list[str]
    by_lower: dict[str, str]
    by_page: dict[int, str]
    # What is built from this version of the content (rendered texts), least recently used first.
    _fragments: OrderedDict = field(default_factory=OrderedDict, repr=False)
    _fragments_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def get(self, sid: str) -> Entry | None:
        return self.entries.get(sid)

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
        readable = [s for s in self.order if not self.entries[s].absent]
        if sid not in readable:
            return None, None
        i = readable.index(sid)
        prev_ = self.entries[readable[i - 1]] if i > 0 else None
        next_ = self.entries[readable[i + 1]] if i + 1 < len(readable) else None
        return prev_, next_

    def roots(self) -> list[Entry]:
        return [self.entries[s] for s in self.order if self.entries[s].parent is None]


_lock = threading.Lock()
_cache: dict[str, BookIndex] = {}


def book_index(book: Book) -> BookIndex:
    cached = _cache.get(book.slug)
    if cached is not None and cached.version == book.version:
        return cached
    with _lock:
        index = _build(book)
        _cache[book.slug] = index
        return index


def invalidate(slug: str | None = None) -> None:
    if slug is None:
        _cache.clear()
    else:
        _cache.pop(slug, None)


def _build(book: Book) -> BookIndex:
    from .corpus import is_numbered

    sections = list(Section.objects.filter(book=book).order_by("position").values(
        "pk", "sid", "parent__sid", "depth", "position", "absent", "changed", "page"))
    entries: dict[str, Entry] = {}
    by_pk: dict[int, Entry] = {}
    for s in sections:
        e = Entry(pk=s["pk"], sid=s["sid"], parent=s["parent__sid"], depth=s["depth"], position=s["position"],
                  absent=s["absent"], changed=s["changed"], page=s["page"],
                  number=s["sid"] if is_numbered(s["sid"]) else "")
        entries[e.sid] = e
        by_pk[e.pk] = e
    for t in SectionText.objects.filter(section__book=book).values("section_id", "language", "title", "body"):
        e = by_pk[t["section_id"]]
        e.titles[t["language"]] = t["title"]
        e.bodies[t["language"]] = t["body"]
        if t["body"] or e.absent or t["title"]:
            e.languages.add(t["language"])
    for e in entries.values():
        if e.parent:
            entries[e.parent].children.append(e.sid)
    refs = (Reference.objects.filter(source__book=book, target__isnull=False).exclude(source=F("target"))
            .order_by("source__position").values_list("target_id", "language", "source__sid"))
    for target_pk, lang, source_sid in refs:
        listed = by_pk[target_pk].backlinks.setdefault(lang, [])
        if source_sid not in listed:
            listed.append(source_sid)
    by_page: dict[int, str] = {}
    for e in entries.values():
        if e.page is not None:
            by_page.setdefault(e.page, e.sid)
    return BookIndex(slug=book.slug, version=book.version, entries=entries,
                     order=[s["sid"] for s in sections], by_lower={k.lower(): k for k in entries},
                     by_page=by_page)
