"""What search asks of a database, declared once: one class per database (search_sqlite.SqliteSearch: FTS5 over
Snowball stems; search_postgres.PostgresSearch: stored tsvectors with GIN indexes), each answering in the same
shapes, and ``backend`` the one place that picks the class for a connection. No other module asks which database
it runs on.

A back-end does two things:

- **keeps the index** (searchindex.py calls these): ``install`` it (idempotent), ``uninstall``, ``rebuild`` it from
  the texts, ``check`` it against them, refresh it ``after_load`` and tidy it once a load has committed
  (``tidy_after_commit``), and prepare every new connection (``connection_created``);
- **answers a search** (search.py calls these), within a ``Scope`` (the books, the languages, whether every book is
  searched): the best ``title_hits`` with the whole texts of the sections asked for beside them, the best texts
  ``ranked`` by the database, the matching sections ``counts`` per book (up to COUNT_CAP + 1: a back-end may answer
  from what its earlier statements for the same query found), the ``bodies`` of the rows shown, and ``one_of``, the
  SQL of a column being one of some values.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from django.core.exceptions import ImproperlyConfigured
from django.db import connection as default_connection
from django.utils.module_loading import import_string

from .models import Section, SectionText

# The back-end of each database Django may be configured with (``connection.vendor``).
BACKENDS = {
    "sqlite": "rulesref.reference.search_sqlite.SqliteSearch",
    "postgresql": "rulesref.reference.search_postgres.PostgresSearch",
}
_instances: dict[str, SearchBackend] = {}


def backend(connection=None) -> SearchBackend:
    """The search back-end of ``connection`` (the default one if None)."""
    vendor = (connection or default_connection).vendor
    found = _instances.get(vendor)
    if found is None:
        if vendor not in BACKENDS:
            raise ImproperlyConfigured(f"search has no back-end for {vendor}: use SQLite or PostgreSQL")
        found = _instances[vendor] = import_string(BACKENDS[vendor])()
    return found


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


class TitleHits(NamedTuple):
    """The best title hits (no body), and the whole texts (with the body) of the sections asked for beside them."""

    hits: list[Row]
    texts: list[Row]


@dataclass
class Scope:
    """What one search looks in: its books, its languages (one, or both), whether every book is searched (no filter
    by book is needed); and what a back-end learnt in an earlier statement for a query and may use in a later one
    (``found``, by the query's key)."""

    books: list  # of Book
    languages: list[str]
    every_book: bool = True
    found: dict = field(default_factory=dict)

    @property
    def book_ids(self) -> list[int]:
        return [book.pk for book in self.books]


# The columns of a row as every statement of the back-ends gives them: a key, the rank, the text's section and
# language and title, the section's book, id, depth and place, and the body (NULL for a hit, whose body is read
# only if it is shown).
ROW_COLUMNS = 10


def row_of(columns) -> Row:
    _, rank, section_id, language, title, book_id, sid, depth, position, body = columns[:ROW_COLUMNS]
    return Row(section_id=section_id, language=language, rank=float(rank), title=title, book_id=book_id, sid=sid,
               depth=depth, position=position, body=body)


def split(found) -> TitleHits:
    """A statement's rows: the hits (no body) apart from the whole texts read with them (``texts_of``)."""
    hits, texts = [], []
    for columns in found:
        (hits if columns[ROW_COLUMNS - 1] is None else texts).append(row_of(columns))
    return TitleHits(hits, texts)


class SearchBackend(ABC):
    """One database's full-text index of the rule texts: how it is kept, and what a search asks of it."""

    vendor: ClassVar[str]

    # ------------------------------------------------------------------------------------------ keeping the index

    def connection_created(self, connection) -> None:
        """Prepare a connection Django has just opened (nothing, unless the index needs functions of its own)."""

    @abstractmethod
    def install(self, cursor) -> None:
        """Create the index, filling it from the texts already there; idempotent."""

    @abstractmethod
    def uninstall(self, cursor) -> None:
        """Remove the index."""

    @abstractmethod
    def rebuild(self, cursor) -> int:
        """Make the index anew from the texts; the number of texts indexed."""

    @abstractmethod
    def check(self, cursor) -> list[str]:
        """What is wrong with the index: texts missing from it, or indexed otherwise than they read now."""

    @abstractmethod
    def after_load(self, cursor) -> None:
        """Once a load has written its texts, in its transaction: what makes the index fast again."""

    def tidy_after_commit(self, connection) -> None:
        """Once a load has committed, outside any transaction: what could not be done inside one (nothing)."""

    # ------------------------------------------------------------------------------------------ a search

    @abstractmethod
    def title_hits(self, scope: Scope, q, limit: int, also: list[int] = ()) -> TitleHits:
        """The best ``limit`` texts whose title matches (best first, in the order the back-end can give cheaply:
        search orders them itself), and the whole texts of the sections ``also`` in the scope's languages."""

    @abstractmethod
    def ranked(self, scope: Scope, q, limit: int) -> list[Row]:
        """The best ``limit`` matching texts by the database's rank (lower first)."""

    @abstractmethod
    def counts(self, scope: Scope, q) -> dict[int, int]:
        """The matching sections per book (books without any left out), each counted up to COUNT_CAP + 1."""

    @abstractmethod
    def one_of(self, column: str, values: list, sql_type: str) -> tuple[str, list]:
        """SQL for ``column`` being one of ``values`` (of the SQL type ``sql_type``), with its parameters."""

    @abstractmethod
    def bodies(self, wanted: dict[str, list[int]]) -> dict[tuple[int, str], str]:
        """The bodies of the texts of these sections, per language: (section id, language) -> body."""

    def texts_of(self, ids: list[int], languages: list[str], padding: int = 0) -> tuple[str, list]:
        """A SELECT of these sections' texts in ``languages``, whole (with the body), in the columns of a row
        (ROW_COLUMNS, and ``padding`` empty ones after them); a back-end adds it to its title hits, so the texts of
        the defining sections cost no statement of their own. They are read afresh each time, as the title hits
        are: the index follows every change of a text, and so do they."""
        in_ids, params = self.one_of("t.section_id", ids, "bigint")
        in_languages, more = self.one_of("t.language", languages, "text")
        return (f"SELECT NULL, 0.0, t.section_id, t.language, t.title, s.book_id, s.sid, s.depth, s.position, t.body"
                f"{', NULL' * padding} "
                f"FROM {SectionText._meta.db_table} t JOIN {Section._meta.db_table} s ON s.id = t.section_id "
                f"WHERE {in_ids} AND {in_languages}", params + more)
