"""The full-text index of the rule texts, kept by the database itself in step with every change of a text.

Every write of a ``SectionText`` — ``loadrules``' bulk insert, an approved translation, the admin, a raw UPDATE —
changes the index in the same statement, so the index is complete when ``loadrules`` ends and never stale on any app
server; no reader ever builds it.

- **PostgreSQL**: two stored generated ``tsvector`` columns on ``reference_sectiontext`` — ``search_vector`` (the
  title weighted A, the text B) and ``search_title`` — in the text's own configuration (``russian`` or
  ``english``), each with a GIN index per language. Search ranks on the stored vectors; nothing is parsed at query
  time but the query.
- **SQLite**: an FTS5 index over Snowball stems (each word stemmed in its own script, Cyrillic with the Russian
  stemmer, Latin with the English one, as PostgreSQL's configurations do). Triggers on ``reference_sectiontext``
  write the stems of each text into ``reference_search_stems`` (through ``rulesref_stems``, a function registered on
  every connection Django opens), and triggers there feed the two FTS5 tables, whose content that table is. The
  rowid of the whole texts' table says whose text it is without reading a row: ``book_id << 40 | section_id << 1 |
  (1 if English)``, so search filters by book with a rowid range and counts sections from rowids alone. The titles'
  table has the title key as its rowid (``title_key``): FTS5 gives matches in rowid order, so the title hits come
  out in the order search shows them (the fewest words first, then the more general section), and search reads
  only as many as the page can hold.
- Both: texts of sections marked absent are left out, and ``SearchWord`` keeps each book's vocabulary (word, stem,
  count) for "did you mean" — rebuilt by every load of a book, and grown by every saved text.

``install`` creates all of it (idempotent: the migration runs it, and so does every ``migrate``, because SQLite
drops a table's triggers when a later migration rebuilds the table). ``after_load`` refreshes what a bulk load
leaves behind: the vocabulary, the planner's statistics (``ANALYZE``), and on SQLite the FTS5 segments merged.
"""
from __future__ import annotations

from collections import Counter

from django.db import connection as default_connection
from django.db import DatabaseError, connections, transaction

from rulesref.text import WORD_RE, fold, script_of, stem_word, word_stems  # noqa: F401 (the names search reads)

from .models import SearchWord, SectionText

MAX_WORD = 64
BOOK_SHIFT = 40  # the FTS rowid: book_id << 40 | section_id << 1 | language bit (sections ids below 2**39)
SECTION_MASK = (1 << (BOOK_SHIFT - 1)) - 1  # (rowid >> 1) & SECTION_MASK: the section of either index's rowid
MAX_TITLE_SIZE, MAX_TITLE_DEPTH = 1023, 15  # what a title key tells apart (a title of more words ranks as 1,023)
TITLE_SIZE_SHIFT = BOOK_SHIFT + MAX_TITLE_DEPTH.bit_length()  # title_key: size << 44 | depth << 40 | ...
# PostgreSQL's own ``russian`` and ``english`` configurations drop stop words from texts and queries: «нельзя»,
# «может», «два», "not", "before", "may", "each" — words rules turn on, which SQLite's index keeps. A search for
# «нельзя» found nothing there, and "may not" was searched as nothing at all. These copies stem with the same
# Snowball stemmers (Latin words in Russian texts with the English one, as ``russian`` does) and drop no word.
POSTGRES_CONFIGS = {"ru": "rulesref_russian", "en": "rulesref_english"}
_POSTGRES_TEXT_SEARCH = (
    "DO $$ BEGIN "
    "IF NOT EXISTS (SELECT FROM pg_ts_dict WHERE dictname = 'rulesref_russian_stem') THEN "
    "CREATE TEXT SEARCH DICTIONARY rulesref_russian_stem (TEMPLATE = snowball, LANGUAGE = russian); END IF; "
    "IF NOT EXISTS (SELECT FROM pg_ts_dict WHERE dictname = 'rulesref_english_stem') THEN "
    "CREATE TEXT SEARCH DICTIONARY rulesref_english_stem (TEMPLATE = snowball, LANGUAGE = english); END IF; "
    "IF NOT EXISTS (SELECT FROM pg_ts_config WHERE cfgname = 'rulesref_russian') THEN "
    "CREATE TEXT SEARCH CONFIGURATION rulesref_russian (COPY = russian); "
    "ALTER TEXT SEARCH CONFIGURATION rulesref_russian ALTER MAPPING REPLACE russian_stem WITH rulesref_russian_stem; "
    "ALTER TEXT SEARCH CONFIGURATION rulesref_russian ALTER MAPPING REPLACE english_stem WITH rulesref_english_stem; "
    "END IF; "
    "IF NOT EXISTS (SELECT FROM pg_ts_config WHERE cfgname = 'rulesref_english') THEN "
    "CREATE TEXT SEARCH CONFIGURATION rulesref_english (COPY = english); "
    "ALTER TEXT SEARCH CONFIGURATION rulesref_english ALTER MAPPING REPLACE english_stem WITH rulesref_english_stem; "
    "END IF; END $$"
)


def stems_text(text: str | None) -> str:
    """The text as the SQLite index holds it: its words' stems, space separated (``rulesref_stems`` in SQL)."""
    return " ".join(word_stems(text)) if text else ""


def title_size(title: str | None) -> int:
    """How many different words (stems) a title has: of two titles that name a query, the one of fewer words
    names it more fully (search's coverage)."""
    return len(set(word_stems(title))) if title else 0


def title_key(title: str | None, depth: int, section_id: int, language: str) -> int:
    """The rowid of a text in the titles' index: its title's size, then its section's depth, then the section and
    the language (which keep it unique), so that the index's own order is the order title hits are shown in."""
    return ((min(title_size(title), MAX_TITLE_SIZE) << TITLE_SIZE_SHIFT) | (min(depth, MAX_TITLE_DEPTH) << BOOK_SHIFT)
            | (section_id << 1) | (language == "en"))


def register_sqlite_functions(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: the functions the SQLite triggers call."""
    if connection.vendor == "sqlite":
        connection.connection.create_function("rulesref_stems", 1, stems_text, deterministic=True)
        connection.connection.create_function("rulesref_title_key", 4, title_key, deterministic=True)


# ---------------------------------------------------------------------------------------------- SQLite


_EN = "(CASE WHEN {t}.language = 'en' THEN 1 ELSE 0 END)"
_ROWID = f"((s.book_id << {BOOK_SHIFT}) | (s.id << 1) | {_EN})"
_INSERT_STEMS = (
    "INSERT INTO reference_search_stems (id, title_key, text_id, title_stems, body_stems) "
    f"SELECT {_ROWID.format(t='t')}, rulesref_title_key(t.title, s.depth, s.id, t.language), t.id, "
    "rulesref_stems(t.title), rulesref_stems(t.body) "
    "FROM reference_sectiontext t JOIN reference_section s ON s.id = t.section_id WHERE NOT s.absent AND {where}"
)
SQLITE_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS reference_search_stems (id INTEGER PRIMARY KEY, title_key INTEGER NOT NULL UNIQUE, "
    "text_id INTEGER NOT NULL UNIQUE, title_stems TEXT NOT NULL, body_stems TEXT NOT NULL)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS reference_search_fts USING fts5("
    "title_stems, body_stems, content = 'reference_search_stems', content_rowid = 'id', "
    "tokenize = 'unicode61 remove_diacritics 0')",
    # The titles alone, in the order of their keys (title_key), so that the title hits of a word in most texts are
    # found among the titles only, and the first ones found are the ones shown.
    "CREATE VIRTUAL TABLE IF NOT EXISTS reference_search_title_fts USING fts5("
    "title_stems, content = 'reference_search_stems', content_rowid = 'title_key', "
    "tokenize = 'unicode61 remove_diacritics 0')",
    "CREATE TRIGGER IF NOT EXISTS reference_search_stems_ai AFTER INSERT ON reference_search_stems BEGIN "
    "INSERT INTO reference_search_fts (rowid, title_stems, body_stems) "
    "VALUES (new.id, new.title_stems, new.body_stems); "
    "INSERT INTO reference_search_title_fts (rowid, title_stems) VALUES (new.title_key, new.title_stems); END",
    "CREATE TRIGGER IF NOT EXISTS reference_search_stems_ad AFTER DELETE ON reference_search_stems BEGIN "
    "INSERT INTO reference_search_fts (reference_search_fts, rowid, title_stems, body_stems) "
    "VALUES ('delete', old.id, old.title_stems, old.body_stems); "
    "INSERT INTO reference_search_title_fts (reference_search_title_fts, rowid, title_stems) "
    "VALUES ('delete', old.title_key, old.title_stems); END",
    "CREATE TRIGGER IF NOT EXISTS reference_search_stems_au AFTER UPDATE ON reference_search_stems BEGIN "
    "INSERT INTO reference_search_fts (reference_search_fts, rowid, title_stems, body_stems) "
    "VALUES ('delete', old.id, old.title_stems, old.body_stems); "
    "INSERT INTO reference_search_title_fts (reference_search_title_fts, rowid, title_stems) "
    "VALUES ('delete', old.title_key, old.title_stems); "
    "INSERT INTO reference_search_fts (rowid, title_stems, body_stems) "
    "VALUES (new.id, new.title_stems, new.body_stems); "
    "INSERT INTO reference_search_title_fts (rowid, title_stems) VALUES (new.title_key, new.title_stems); END",
    "CREATE TRIGGER IF NOT EXISTS reference_sectiontext_search_ai AFTER INSERT ON reference_sectiontext BEGIN "
    + _INSERT_STEMS.format(where="t.id = new.id") + "; END",
    "CREATE TRIGGER IF NOT EXISTS reference_sectiontext_search_au "
    "AFTER UPDATE OF title, body, language, section_id ON reference_sectiontext BEGIN "
    "DELETE FROM reference_search_stems WHERE text_id = old.id; "
    + _INSERT_STEMS.format(where="t.id = new.id") + "; END",
    "CREATE TRIGGER IF NOT EXISTS reference_sectiontext_search_ad AFTER DELETE ON reference_sectiontext BEGIN "
    "DELETE FROM reference_search_stems WHERE text_id = old.id; END",
    # A section that becomes absent (or present again, or moves) takes its texts out of the index (or back in); one
    # that moves to another depth, to their new place among the titles.
    "CREATE TRIGGER IF NOT EXISTS reference_section_search_au AFTER UPDATE OF absent, book_id, depth "
    "ON reference_section WHEN old.absent IS NOT new.absent OR old.book_id IS NOT new.book_id "
    "OR old.depth IS NOT new.depth BEGIN "
    "DELETE FROM reference_search_stems WHERE text_id IN "
    "(SELECT id FROM reference_sectiontext WHERE section_id = new.id); "
    + _INSERT_STEMS.format(where="t.section_id = new.id") + "; END",
]
SQLITE_FTS = ("reference_search_fts", "reference_search_title_fts")
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS reference_search_stems_au",
    "DROP TRIGGER IF EXISTS reference_search_stems_ai",
    "DROP TRIGGER IF EXISTS reference_search_stems_ad",
    "DROP TRIGGER IF EXISTS reference_section_search_au",
    "DROP TRIGGER IF EXISTS reference_sectiontext_search_ad",
    "DROP TRIGGER IF EXISTS reference_sectiontext_search_au",
    "DROP TRIGGER IF EXISTS reference_sectiontext_search_ai",
    "DROP TABLE IF EXISTS reference_search_fts",
    "DROP TABLE IF EXISTS reference_search_title_fts",
    "DROP TABLE IF EXISTS reference_search_stems",
]


# ---------------------------------------------------------------------------------------------- PostgreSQL


def _config(column: str) -> str:
    return (f"(CASE WHEN language = 'ru' THEN '{POSTGRES_CONFIGS['ru']}'::regconfig "
            f"ELSE '{POSTGRES_CONFIGS['en']}'::regconfig END), {column}")


_BOOK_OF_SECTION = "CASE WHEN s.absent THEN NULL ELSE s.book_id END"
POSTGRES_SCHEMA = [
    _POSTGRES_TEXT_SEARCH,
    "ALTER TABLE reference_sectiontext ADD COLUMN IF NOT EXISTS search_vector tsvector GENERATED ALWAYS AS ("
    f"setweight(to_tsvector({_config('title')}), 'A') || setweight(to_tsvector({_config('body')}), 'B')) STORED",
    "ALTER TABLE reference_sectiontext ADD COLUMN IF NOT EXISTS search_title tsvector GENERATED ALWAYS AS ("
    f"to_tsvector({_config('title')})) STORED",
    # The book a text belongs to, NULL for the text of an absent section: search filters and counts on the text
    # rows alone, without joining every matching text to its section. Kept by triggers, as the book is not in the row.
    "ALTER TABLE reference_sectiontext ADD COLUMN IF NOT EXISTS search_book integer",
    "CREATE OR REPLACE FUNCTION reference_sectiontext_search_book() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"SELECT {_BOOK_OF_SECTION} INTO NEW.search_book FROM reference_section s WHERE s.id = NEW.section_id; "
    "RETURN NEW; END $$",
    "CREATE OR REPLACE TRIGGER reference_sectiontext_search_book BEFORE INSERT OR UPDATE OF section_id "
    "ON reference_sectiontext FOR EACH ROW EXECUTE FUNCTION reference_sectiontext_search_book()",
    "CREATE OR REPLACE FUNCTION reference_section_search_book() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "UPDATE reference_sectiontext SET search_book = CASE WHEN NEW.absent THEN NULL ELSE NEW.book_id END "
    "WHERE section_id = NEW.id; RETURN NULL; END $$",
    "CREATE OR REPLACE TRIGGER reference_section_search_book AFTER UPDATE OF absent, book_id ON reference_section "
    "FOR EACH ROW WHEN (OLD.absent IS DISTINCT FROM NEW.absent OR OLD.book_id IS DISTINCT FROM NEW.book_id) "
    "EXECUTE FUNCTION reference_section_search_book()",
    # A small book's matches are counted through its own rows, not by visiting every match of a big one.
    "CREATE INDEX IF NOT EXISTS reference_sectiontext_search_book ON reference_sectiontext (search_book)",
] + [
    f"CREATE INDEX IF NOT EXISTS reference_sectiontext_{column}_{lang} ON reference_sectiontext "
    f"USING GIN ({column}) WHERE language = '{lang}' AND search_book IS NOT NULL"
    for column in ("search_vector", "search_title") for lang in POSTGRES_CONFIGS
]
POSTGRES_FILL_BOOK = (f"UPDATE reference_sectiontext t SET search_book = {_BOOK_OF_SECTION} FROM reference_section s "
                      "WHERE s.id = t.section_id AND t.search_book IS DISTINCT FROM " + _BOOK_OF_SECTION)
POSTGRES_DROP = [
    "DROP INDEX IF EXISTS reference_sectiontext_search_book",
    "DROP TRIGGER IF EXISTS reference_section_search_book ON reference_section",
    "DROP TRIGGER IF EXISTS reference_sectiontext_search_book ON reference_sectiontext",
    "DROP FUNCTION IF EXISTS reference_section_search_book()",
    "DROP FUNCTION IF EXISTS reference_sectiontext_search_book()",
    "ALTER TABLE reference_sectiontext DROP COLUMN IF EXISTS search_vector",
    "ALTER TABLE reference_sectiontext DROP COLUMN IF EXISTS search_title",
    "ALTER TABLE reference_sectiontext DROP COLUMN IF EXISTS search_book",
    "DROP TEXT SEARCH CONFIGURATION IF EXISTS rulesref_russian",
    "DROP TEXT SEARCH CONFIGURATION IF EXISTS rulesref_english",
    "DROP TEXT SEARCH DICTIONARY IF EXISTS rulesref_russian_stem",
    "DROP TEXT SEARCH DICTIONARY IF EXISTS rulesref_english_stem",
]


def install(using: str = "default") -> None:
    """Create the index for the database's vendor, filling it from the texts already there; idempotent."""
    conn = connections[using]
    with conn.cursor() as cursor:
        if conn.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE name LIKE 'reference_search_%'")
            existed = {name for (name,) in cursor.fetchall()}
            for sql in SQLITE_SCHEMA:
                cursor.execute(sql)
            if "reference_search_stems" not in existed:
                cursor.execute(_INSERT_STEMS.format(where="1"))
            for table in SQLITE_FTS:
                if table not in existed and "reference_search_stems" in existed:
                    cursor.execute(f"INSERT INTO {table} ({table}) VALUES ('rebuild')")  # a new index of old texts
        elif conn.vendor == "postgresql":
            for sql in POSTGRES_SCHEMA:
                cursor.execute(sql)
            cursor.execute(POSTGRES_FILL_BOOK)  # texts written before the column or its triggers existed


def uninstall(using: str = "default") -> None:
    conn = connections[using]
    statements = {"sqlite": SQLITE_DROP, "postgresql": POSTGRES_DROP}.get(conn.vendor, [])
    with conn.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def install_after_migrate(sender, using="default", **kwargs) -> None:
    """``post_migrate`` receiver: put back what a rebuilt table lost (SQLite drops a table's triggers with it)."""
    if sender.name == "rulesref.reference" and _migrated(using):
        install(using)


def _migrated(using: str) -> bool:
    with connections[using].cursor() as cursor:
        return "reference_sectiontext" in connections[using].introspection.table_names(cursor)


def rebuild(using: str = "default") -> int:
    """Make the index anew from the texts (after a change of the stemming rules, or if it was tampered with);
    PostgreSQL's columns are computed by the database, so there only the book column is refilled. Returns the
    number of texts indexed."""
    conn = connections[using]
    with transaction.atomic(using=using), conn.cursor() as cursor:
        if conn.vendor == "sqlite":
            for sql in SQLITE_DROP:
                cursor.execute(sql)
            install(using)
            cursor.execute("SELECT count(*) FROM reference_search_stems")
        else:
            cursor.execute(POSTGRES_FILL_BOOK)
            cursor.execute("SELECT count(*) FROM reference_sectiontext WHERE search_book IS NOT NULL")
        return cursor.fetchone()[0]


def check(using: str = "default") -> list[str]:
    """What is wrong with the index: texts missing from it or indexed with other stems than they have now."""
    conn = connections[using]
    problems = []
    with conn.cursor() as cursor:
        if conn.vendor == "sqlite":
            cursor.execute(
                "SELECT s.id, s.depth, s.book_id, s.sid, t.language, t.title, t.body, x.title_key, x.title_stems, "
                "x.body_stems FROM reference_sectiontext t JOIN reference_section s ON s.id = t.section_id "
                "LEFT JOIN reference_search_stems x ON x.text_id = t.id WHERE NOT s.absent")
            for section, depth, book_id, sid, language, title, body, key, title_stems, body_stems in cursor.fetchall():
                where = f"book {book_id} section {sid} [{language}]"
                if title_stems is None:
                    problems.append(f"{where}: not in the index")
                elif (title_stems, body_stems) != (stems_text(title), stems_text(body)):
                    problems.append(f"{where}: indexed with other stems")
                elif key != title_key(title, depth, section, language):
                    problems.append(f"{where}: filed out of place among the titles")
            for table in SQLITE_FTS:
                try:
                    cursor.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)")
                except DatabaseError as exc:
                    problems.append(f"{table} does not match its texts: {exc}")
        elif conn.vendor == "postgresql":
            cursor.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = 'reference_sectiontext'"
                           " AND column_name IN ('search_vector', 'search_title', 'search_book')")
            if cursor.fetchone()[0] != 3:
                problems.append("the search columns of reference_sectiontext are missing: run migrate")
            cursor.execute("SELECT generation_expression FROM information_schema.columns "
                           "WHERE table_name = 'reference_sectiontext' AND column_name IN ('search_vector', 'search_title')")
            if any(POSTGRES_CONFIGS["ru"] not in expression for (expression,) in cursor.fetchall()):
                problems.append("the search columns use PostgreSQL's own configurations, which drop stop words: "
                                "run migrate")
            cursor.execute(f"SELECT s.book_id, s.sid, t.language FROM reference_sectiontext t JOIN reference_section s "
                           f"ON s.id = t.section_id WHERE t.search_book IS DISTINCT FROM {_BOOK_OF_SECTION}")
            problems += [f"book {b} section {sid} [{lang}]: filed under another book" for b, sid, lang in cursor.fetchall()]
    return problems


# ---------------------------------------------------------------------------------------------- after a load


def after_load(books) -> None:
    """Once a load has written its texts: each loaded book's vocabulary, then fresh statistics for the planner
    (after a bulk load PostgreSQL would otherwise scan every row through the book index) and, on SQLite, the FTS5
    index merged into one segment."""
    for book in books:
        rebuild_vocabulary(book)
    with default_connection.cursor() as cursor:
        if default_connection.vendor == "postgresql":
            # A bulk insert leaves GIN entries in the index's pending list, which every search would scan row by
            # row (and which makes the planner shun the index): merge them into the index now.
            for column in ("search_vector", "search_title"):
                for lang in POSTGRES_CONFIGS:
                    cursor.execute(f"SELECT gin_clean_pending_list('reference_sectiontext_{column}_{lang}'::regclass)")
            cursor.execute("ANALYZE reference_sectiontext, reference_section, reference_searchword")
        elif default_connection.vendor == "sqlite":
            for table in SQLITE_FTS:
                cursor.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
            cursor.execute("ANALYZE")


def tidy_after_commit() -> None:
    """After a load has committed, on PostgreSQL: VACUUM the texts, so the rows a reload replaced leave the GIN
    indexes (a search would otherwise fetch and discard them until autovacuum came by). It cannot run inside a
    transaction, so inside one (a test, a caller's atomic block) it is left to autovacuum."""
    if default_connection.vendor == "postgresql" and not default_connection.in_atomic_block:
        with default_connection.cursor() as cursor:
            cursor.execute("VACUUM (ANALYZE) reference_sectiontext")


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
