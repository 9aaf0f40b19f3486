"""The history of each rulebook's text: numbered book revisions and the versions of every section's text.

Every change of a book's text — ``loadrules`` from edited files, an approved translation, an admin edit — calls
:func:`record`, which compares the texts now in ``SectionText`` with the versions in force and, if any title or
text differs, makes the next :class:`BookRevision` and writes a :class:`TextVersion` row for each text that
changed (nothing for the texts that did not). A load that changes nothing makes no revision.

The versions in force at revision N are those with ``since <= N`` and ``until`` empty or above N; a text removed at
revision N has its last version end there and no successor.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterable

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from rulesref.writes import lock_book

from .models import Book, BookRevision, SectionText, TextVersion

#: The most sections a "what changed" page or a feed entry lists (the rest are counted).
LIST_LIMIT = 500


def _has_text(title: str, body: str) -> bool:
    return bool(title.strip() or body.strip())


@dataclass
class _Comparison:
    """What changed between the texts now and the versions in force: the versions to write and those to end."""

    new: list[TextVersion] = field(default_factory=list)
    ended: list[int] = field(default_factory=list)
    added: int = 0
    changed: int = 0
    removed: int = 0
    languages: set[str] = field(default_factory=set)


def _texts_and_versions(book: Book, wanted: set[tuple[str, str]] | None) -> tuple[dict, dict]:
    """The texts now, ``(sid, lang) → (title, body)`` (blank ones left out), and the versions in force, ``(sid,
    lang) → TextVersion``; only the ``wanted`` pairs when given."""
    texts = SectionText.objects.filter(section__book=book)
    versions = TextVersion.objects.filter(book=book, until__isnull=True)
    if wanted is not None:
        sids = {sid for sid, _lang in wanted}
        texts, versions = texts.filter(section__sid__in=sids), versions.filter(sid__in=sids)
    current = {(sid, lang): (title, body) for sid, lang, title, body
               in texts.values_list("section__sid", "language", "title", "body")
               if _has_text(title, body) and (wanted is None or (sid, lang) in wanted)}
    in_force = {(v.sid, v.language): v for v in versions.only("id", "sid", "language", "title", "body")
                if wanted is None or (v.sid, v.language) in wanted}
    return current, in_force


def _compare(book: Book, current: dict, in_force: dict) -> _Comparison:
    found = _Comparison()
    for key, (title, body) in current.items():
        old = in_force.get(key)
        if old is not None and (old.title, old.body) == (title, body):
            continue
        if old is None:
            found.added += 1
        else:
            found.changed += 1
            found.ended.append(old.pk)
        found.new.append(TextVersion(book=book, sid=key[0], language=key[1], title=title, body=body))
        found.languages.add(key[1])
    for key, old in in_force.items():
        if key not in current:
            found.removed += 1
            found.ended.append(old.pk)
            found.languages.add(key[1])
    return found


def record(book: Book, origin: str, note: str = "", only: Iterable[tuple[str, str]] | None = None,
           when: datetime | None = None) -> BookRevision | None:
    """Make the book's next revision from the texts that changed since its last one; None when none did.

    ``only`` restricts the comparison to some (section id, language) pairs (an approval changes one text). Call it
    inside the transaction that changed the texts, which holds the book's lock (rulesref/writes.py: taken here if
    it does not), so two changes get two numbers."""
    with transaction.atomic():
        locked = lock_book(book.pk)
        found = _compare(book, *_texts_and_versions(book, None if only is None else set(only)))
        if not found.new and not found.ended:
            return None
        number = locked.revision + 1
        for start in range(0, len(found.ended), 500):
            TextVersion.objects.filter(pk__in=found.ended[start:start + 500]).update(until=number)
        for version in found.new:
            version.since = number
        TextVersion.objects.bulk_create(found.new, batch_size=2000)
        revision = BookRevision.objects.create(
            book=book, number=number, created=when or timezone.now(), origin=origin,
            languages=" ".join(sorted(found.languages)), added=found.added, changed=found.changed,
            removed=found.removed, note=note[:300])
        Book.objects.filter(pk=book.pk).update(revision=number)
        book.revision = number
    return revision


def in_force(number: int) -> Q:
    """The versions in force at revision ``number``."""
    return Q(since__lte=number) & (Q(until__isnull=True) | Q(until__gt=number))


def text_at(book: Book, sid: str, lang: str, number: int) -> TextVersion | None:
    """The section's text in ``lang`` as it stood at revision ``number`` (None: it had none then)."""
    return TextVersion.objects.filter(in_force(number), book=book, sid=sid, language=lang).first()


def revision_or_none(book: Book, number: int) -> BookRevision | None:
    return BookRevision.objects.filter(book=book, number=number).first()


@dataclass
class SectionChange:
    """One revision that changed a section: the revision and the languages whose text it changed."""

    revision: BookRevision
    languages: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # languages where the text first appeared
    removed: list[str] = field(default_factory=list)  # languages where the text went


def section_history(book: Book, sid: str) -> list[SectionChange]:
    """Every revision that changed the section's text in either language, newest first."""
    versions = list(TextVersion.objects.filter(book=book, sid=sid).only("language", "since", "until"))
    numbers: dict[int, dict[str, set[str]]] = {}
    starts = {(v.language, v.since) for v in versions}
    for v in versions:
        entry = numbers.setdefault(v.since, {"languages": set(), "added": set(), "removed": set()})
        entry["languages"].add(v.language)
        if not any(o.language == v.language and o.until == v.since for o in versions):
            entry["added"].add(v.language)
        if v.until is not None and (v.language, v.until) not in starts:
            gone = numbers.setdefault(v.until, {"languages": set(), "added": set(), "removed": set()})
            gone["languages"].add(v.language)
            gone["removed"].add(v.language)
    revisions = {r.number: r for r in BookRevision.objects.filter(book=book, number__in=numbers)}
    return [SectionChange(revisions[n], sorted(e["languages"]), sorted(e["added"]), sorted(e["removed"]))
            for n, e in sorted(numbers.items(), reverse=True) if n in revisions]


def last_change(book: Book, sid: str, lang: str | None = None) -> int | None:
    """The number of the latest revision that changed the section's text (in ``lang``, or in either language)."""
    versions = TextVersion.objects.filter(book=book, sid=sid)
    if lang:
        versions = versions.filter(language=lang)
    latest = None
    for since, until in versions.values_list("since", "until"):
        for n in (since, until):
            if n is not None and (latest is None or n > latest):
                latest = n
    return latest


def last_changes(book: Book) -> dict[str, int]:
    """:func:`last_change` of every section of the book (in either language), in one query."""
    latest: dict[str, int] = {}
    rows = TextVersion.objects.filter(book=book).values("sid").annotate(since=Max("since"), until=Max("until"))
    for row in rows.values_list("sid", "since", "until"):
        sid, since, until = row
        latest[sid] = max(n for n in (since, until) if n is not None)
    return latest


@dataclass
class ChangedSection:
    sid: str
    languages: list[str]
    first: int  # the earliest revision after the base that changed it
    last: int


def book_order(book: Book) -> dict[str, int]:
    """Each section id's position in the book."""
    return dict(book.sections.values_list("sid", "position"))


def changed_since(book: Book, number: int, upto: int | None = None,
                  order: dict[str, int] | None = None) -> tuple[list[ChangedSection], int]:
    """The sections whose text changed after revision ``number`` (up to ``upto``, the latest by default), in book
    order (``order``, read when not given) as far as the book still has them; at most LIST_LIMIT of them, with the
    total count."""
    upto = book.revision if upto is None else upto
    rows = TextVersion.objects.filter(book=book).filter(
        Q(since__gt=number, since__lte=upto) | Q(until__gt=number, until__lte=upto)).values_list(
        "sid", "language", "since", "until")
    found: dict[str, ChangedSection] = {}
    for sid, lang, since, until in rows:
        marks = [n for n in (since, until) if n is not None and number < n <= upto]
        entry = found.get(sid)
        if entry is None:
            entry = found[sid] = ChangedSection(sid, [], min(marks), max(marks))
        if lang not in entry.languages:
            entry.languages.append(lang)
        entry.first, entry.last = min(entry.first, *marks), max(entry.last, *marks)
    order = book_order(book) if order is None else order
    listed = sorted(found.values(), key=lambda c: (order.get(c.sid, len(order) + 1), c.sid))
    for c in listed:
        c.languages.sort()
    return listed[:LIST_LIMIT], len(listed)


def revision_sections(book: Book, number: int,
                      order: dict[str, int] | None = None) -> tuple[list[ChangedSection], int]:
    """The sections revision ``number`` changed."""
    return changed_since(book, number - 1, number, order)
