"""The full-text index of the rule texts, kept by the database itself in step with every change of a text.

Every write of a ``SectionText`` — ``loadrules``' bulk insert, an approved translation, the admin, a raw UPDATE —
changes the index in the same statement, so the index is complete when ``loadrules`` ends and never stale on any app
server; no reader ever builds it.

- **PostgreSQL** (search_postgres.py): two stored generated ``tsvector`` columns on ``reference_sectiontext`` —
  ``search_vector`` (the title weighted A, the text B) and ``search_title`` — in the text's own configuration (a
  copy of ``russian`` or ``english`` that drops no stop word), each with a GIN index per language. Search ranks on
  the stored vectors; nothing is parsed at query time but the query.
- **SQLite** (search_sqlite.py): an FTS5 index over Snowball stems, written by triggers on ``reference_sectiontext``
  through a function registered on every connection Django opens; the rowids say whose text it is, and the titles'
  index is kept in the order search shows title hits (``search_sqlite.title_key``).
- Both: texts of sections marked absent are left out, and ``SearchWord`` keeps each book's vocabulary (word, stem,
  count) for "did you mean" — rebuilt by every load of a book, and grown by every saved text.

This module is what the rest of the site calls; each database's back-end (search_backend.backend) does the work.
``install`` creates all of it (idempotent: the migration runs it, and so does every ``migrate``, because SQLite
drops a table's triggers when a later migration rebuilds the table). ``after_load`` refreshes what a bulk load
leaves behind: the vocabulary, the planner's statistics (``ANALYZE``), and on SQLite the FTS5 segments merged.
"""
from __future__ import annotations

from collections import Counter

from django.db import connection as default_connection
from django.db import connections, transaction

# The names bench/search.py and the tests read here.
from rulesref.text import WORD_RE, fold, script_of, stem_word, word_stems  # noqa: F401

from .models import SearchWord, SectionText
from .search_backend import backend
from .search_postgres import CONFIGS as POSTGRES_CONFIGS  # noqa: F401

MAX_WORD = 64


def on_connection_created(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: what the back-end needs of every connection (SQLite: its functions)."""
    backend(connection).connection_created(connection)


def install(using: str = "default") -> None:
    """Create the index for the database's vendor, filling it from the texts already there; idempotent."""
    conn = connections[using]
    with conn.cursor() as cursor:
        backend(conn).install(cursor)


def uninstall(using: str = "default") -> None:
    conn = connections[using]
    with conn.cursor() as cursor:
        backend(conn).uninstall(cursor)


def install_after_migrate(sender, using="default", **kwargs) -> None:
    """``post_migrate`` receiver: put back what a rebuilt table lost (SQLite drops a table's triggers with it)."""
    if sender.name == "rulesref.reference" and _migrated(using):
        install(using)


def _migrated(using: str) -> bool:
    with connections[using].cursor() as cursor:
        return "reference_sectiontext" in connections[using].introspection.table_names(cursor)


def rebuild(using: str = "default") -> int:
    """Make the index anew from the texts (after a change of the stemming rules, or if it was tampered with).
    Returns the number of texts indexed."""
    conn = connections[using]
    with transaction.atomic(using=using), conn.cursor() as cursor:
        return backend(conn).rebuild(cursor)


def check(using: str = "default") -> list[str]:
    """What is wrong with the index: texts missing from it or indexed with other stems than they have now."""
    conn = connections[using]
    with conn.cursor() as cursor:
        return backend(conn).check(cursor)


# ---------------------------------------------------------------------------------------------- after a load


def after_load(books) -> None:
    """Once a load has written its texts: each loaded book's vocabulary, then what the back-end refreshes (fresh
    statistics for the planner, the index merged)."""
    for book in books:
        rebuild_vocabulary(book)
    with default_connection.cursor() as cursor:
        backend(default_connection).after_load(cursor)


def tidy_after_commit() -> None:
    """After a load has committed: what the back-end cannot do inside a transaction (PostgreSQL: VACUUM)."""
    backend(default_connection).tidy_after_commit(default_connection)


def rebuild_vocabulary(book) -> None:
    """The book's words (normalised) with their stems and how often each occurs, for "did you mean"."""
    texts = SectionText.objects.filter(section__book=book, section__absent=False).values_list("title", "body")
    SearchWord.objects.filter(book=book).delete()
    with default_connection.cursor() as cursor:
        insert_vocabulary(cursor, book.pk, texts.iterator(chunk_size=2000))


def insert_vocabulary(cursor, book_id: int, texts) -> None:
    """Insert the vocabulary of ``texts`` (an iterable of (title, body)) for a book: one statement per batch, not
    a model per word (a big book has tens of thousands). The migration that creates the table calls it too."""
    counts: Counter[str] = Counter()
    for title, body in texts:
        counts.update(_vocabulary_words(title))
        counts.update(_vocabulary_words(body))
    rows = [(book_id, word, stem_word(word), word[0], len(word), n) for word, n in counts.items()]
    table = SearchWord._meta.db_table
    for start in range(0, len(rows), 5000):
        cursor.executemany(f"INSERT INTO {table} (book_id, word, stem, initial, length, count) "
                           "VALUES (%s, %s, %s, %s, %s, %s)", rows[start:start + 5000])


def add_words(book, *texts: str) -> None:
    """Words of a newly saved text that the book's vocabulary lacks (counts are refreshed by the next load)."""
    words = set()
    for text in texts:
        words.update(_vocabulary_words(text))
    if not words:
        return
    known = set(SearchWord.objects.filter(book=book, word__in=words).values_list("word", flat=True))
    SearchWord.objects.bulk_create(
        [SearchWord(book=book, word=w, stem=stem_word(w), initial=w[0], length=len(w), count=1)
         for w in words - known], ignore_conflicts=True)


def text_saved(sender, instance, raw=False, **kwargs) -> None:
    """``post_save`` receiver of SectionText: a saved text's new words join the vocabulary (the index itself the
    database has already updated)."""
    if raw:
        return
    section = instance.section
    if not section.absent:
        add_words(section.book, instance.title, instance.body)


def _vocabulary_words(text: str) -> list[str]:
    if not text:
        return []
    return [w for w in WORD_RE.findall(fold(text)) if 3 <= len(w) <= MAX_WORD and not w.isdigit()]
