"""A book's translation progress counted by the database, without reading a text: each translatable section's
state, words and chapter come from the facts kept beside each text (``SectionText.revision``, ``words``, ``blank``)
and its translation's status. One statement counts sections and words by chapter and state; another lists a page
of the sections in one state, or with a QA problem. What a dashboard costs does not grow with the book in Python.

A section whose translation row is not made yet (a book loaded a moment ago, before its workspace was synced) is
counted as the sync will make it: approved from the corpus translation when there is one, else missing — the same
rule as ``models.state_of``, written here in SQL.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import connection

from rulesref.reference.models import Book

from .models import OUTDATED, Status

# Every translatable section of a book (%(book)s) with its state, words and the position of its chapter (the last
# top-level section at or before it in book order); the source and target languages are parameters too.
ROWS = f"""
WITH ordered AS (
    SELECT s.id, s.sid, s.position, s.absent,
           MAX(CASE WHEN s.parent_id IS NULL THEN s.position END)
               OVER (ORDER BY s.position ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS chapter_position
    FROM reference_section s WHERE s.book_id = %(book)s
), translatable AS (
    SELECT o.id AS section_id, o.sid, o.position, o.chapter_position, src.words, t.id AS translation_id,
           CASE
               WHEN t.id IS NOT NULL THEN CASE
                   WHEN t.status = '{Status.MISSING}' THEN '{Status.MISSING}'
                   WHEN t.source_revision <> src.revision THEN '{OUTDATED}'
                   ELSE t.status END
               WHEN tgt.id IS NOT NULL THEN CASE
                   WHEN tgt.source_revision <> src.revision THEN '{OUTDATED}'
                   ELSE '{Status.APPROVED}' END
               ELSE '{Status.MISSING}'
           END AS state
    FROM ordered o
    JOIN reference_sectiontext src ON src.section_id = o.id AND src.language = %(source)s AND NOT src.blank
    LEFT JOIN translation_translation t ON t.section_id = o.id AND t.language = %(target)s
    LEFT JOIN reference_sectiontext tgt ON tgt.section_id = o.id AND tgt.language = %(target)s AND NOT tgt.blank
    WHERE NOT o.absent
)
"""
WITH_PROBLEM = ("translation_id IN (SELECT q.translation_id FROM translation_qaresult q "
                "WHERE NOT q.dismissed AND (%(check)s = 'any' OR q.check_id = %(check)s))")


@dataclass
class Counts:
    """Sections and words by state."""

    sections: dict[str, int] = field(default_factory=dict)
    words: dict[str, int] = field(default_factory=dict)

    def add(self, state: str, sections: int, words: int) -> None:
        self.sections[state] = self.sections.get(state, 0) + sections
        self.words[state] = self.words.get(state, 0) + words


@dataclass
class Summary:
    total: Counts
    chapters: list[tuple[str, Counts]]  # (chapter id, its counts), in book order


def _params(book: Book, lang: str, **more) -> dict:
    return {"book": book.pk, "source": book.source_language, "target": lang, **more}


def summary(book: Book, lang: str) -> Summary:
    """The book's progress: in all and by chapter."""
    sql = ROWS + """
        SELECT c.sid, r.state, COUNT(*), COALESCE(SUM(r.words), 0)
        FROM translatable r JOIN ordered c ON c.position = r.chapter_position
        GROUP BY c.position, c.sid, r.state ORDER BY c.position"""
    total, chapters = Counts(), {}
    with connection.cursor() as cursor:
        cursor.execute(sql, _params(book, lang))
        for chapter, state, sections, words in cursor.fetchall():
            chapters.setdefault(chapter, Counts()).add(state, sections, words)
            total.add(state, sections, words)
    return Summary(total, list(chapters.items()))


class Listed:
    """The translatable sections in one state (or any), optionally only those with an active QA problem of one
    check (or of any): their ids in book order, counted and sliced by the database — what a paginator takes."""

    def __init__(self, book: Book, lang: str, state: str = "", check: str = ""):
        conditions = (["state = %(state)s"] if state else []) + ([WITH_PROBLEM] if check else [])
        self.where = " WHERE " + " AND ".join(conditions) if conditions else ""
        self.params = _params(book, lang, state=state, check=check)
        self._count: int | None = None

    def count(self) -> int:
        if self._count is None:
            with connection.cursor() as cursor:
                cursor.execute(ROWS + "SELECT COUNT(*) FROM translatable" + self.where, self.params)
                self._count = cursor.fetchone()[0]
        return self._count

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice) -> list[str]:
        start, stop = index.start or 0, index.stop
        with connection.cursor() as cursor:
            cursor.execute(ROWS + "SELECT sid FROM translatable" + self.where +
                           " ORDER BY position LIMIT %(limit)s OFFSET %(offset)s",
                           {**self.params, "limit": stop - start, "offset": start})
            return [sid for (sid,) in cursor.fetchall()]
