"""Search on PostgreSQL: stored tsvectors with GIN indexes (see searchindex.py for what the index holds).

Two stored generated ``tsvector`` columns on ``reference_sectiontext`` — ``search_vector`` (the title weighted A,
the text B) and ``search_title`` — in the text's own configuration (``rulesref_russian`` or ``rulesref_english``),
each with a partial GIN index per language, and ``search_book``, the book of a text (NULL for the text of an absent
section), kept by triggers: search filters and counts on the text rows alone, so no matching text needs its section
until it is shown. Nothing is parsed at query time but the query.
"""
from __future__ import annotations

import re

from django.db import connection

from . import search_ranking as ranking
from .models import SectionText
from .search_backend import ROW_COLUMNS, Row, Scope, SearchBackend, TitleHits, split
from .search_ranking import TEXT_NORMALISATION, TEXT_SCAN_CAP, TITLE_SCAN_CAP

# PostgreSQL's own ``russian`` and ``english`` configurations drop stop words from texts and queries: «нельзя»,
# «может», «два», "not", "before", "may", "each" — words rules turn on, which SQLite's index keeps. A search for
# «нельзя» found nothing there, and "may not" was searched as nothing at all. These copies stem with the same
# Snowball stemmers (Latin words in Russian texts with the English one, as ``russian`` does) and drop no word.
CONFIGS = {"ru": "rulesref_russian", "en": "rulesref_english"}
_TEXT_SEARCH = (
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
COLUMNS = ("search_vector", "search_title")


def _config(column: str) -> str:
    return (f"(CASE WHEN language = 'ru' THEN '{CONFIGS['ru']}'::regconfig "
            f"ELSE '{CONFIGS['en']}'::regconfig END), {column}")


_BOOK_OF_SECTION = "CASE WHEN s.absent THEN NULL ELSE s.book_id END"
SCHEMA = [
    _TEXT_SEARCH,
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
    for column in COLUMNS for lang in CONFIGS
]
FILL_BOOK = (f"UPDATE reference_sectiontext t SET search_book = {_BOOK_OF_SECTION} FROM reference_section s "
             "WHERE s.id = t.section_id AND t.search_book IS DISTINCT FROM " + _BOOK_OF_SECTION)
DROP = [
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


def tsquery(q) -> str:
    """A to_tsquery text of a query, the last word as a prefix (see PREFIX_MIN); "" when no word is left."""
    safe = [w for w in (re.sub(r"[^\w]", "", w) for w in q.words) if w]
    if not safe:
        return ""
    return (" & " if q.all_words else " | ").join(safe[:-1] + [safe[-1] + (":*" if q.prefix else "")])


def _key(q) -> tuple:
    return tuple(q.words), q.all_words


class PostgresSearch(SearchBackend):
    """The stored tsvectors, each language through its own partial GIN index, filtered by ``search_book``."""

    vendor = "postgresql"
    scan_cap = {"search_title": TITLE_SCAN_CAP, "search_vector": TEXT_SCAN_CAP}

    # ------------------------------------------------------------------------------------------ keeping the index

    def install(self, cursor) -> None:
        for sql in SCHEMA:
            cursor.execute(sql)
        cursor.execute(FILL_BOOK)  # texts written before the column or its triggers existed

    def uninstall(self, cursor) -> None:
        for sql in DROP:
            cursor.execute(sql)

    def rebuild(self, cursor) -> int:
        """The columns are computed by the database: only the book column is refilled."""
        cursor.execute(FILL_BOOK)
        cursor.execute("SELECT count(*) FROM reference_sectiontext WHERE search_book IS NOT NULL")
        return cursor.fetchone()[0]

    def check(self, cursor) -> list[str]:
        problems = []
        cursor.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = 'reference_sectiontext'"
                       " AND column_name IN ('search_vector', 'search_title', 'search_book')")
        if cursor.fetchone()[0] != 3:
            problems.append("the search columns of reference_sectiontext are missing: run migrate")
        cursor.execute("SELECT generation_expression FROM information_schema.columns "
                       "WHERE table_name = 'reference_sectiontext' AND column_name IN ('search_vector', 'search_title')")
        if any(CONFIGS["ru"] not in expression for (expression,) in cursor.fetchall()):
            problems.append("the search columns use PostgreSQL's own configurations, which drop stop words: "
                            "run migrate")
        cursor.execute(f"SELECT s.book_id, s.sid, t.language FROM reference_sectiontext t JOIN reference_section s "
                       f"ON s.id = t.section_id WHERE t.search_book IS DISTINCT FROM {_BOOK_OF_SECTION}")
        return problems + [f"book {b} section {sid} [{lang}]: filed under another book"
                           for b, sid, lang in cursor.fetchall()]

    def after_load(self, cursor) -> None:
        """A bulk insert leaves GIN entries in the index's pending list, which every search would scan row by row
        (and which makes the planner shun the index): they are merged into the index now. Then fresh statistics
        for the planner, which would otherwise scan every row through the book index."""
        for column in COLUMNS:
            for lang in CONFIGS:
                cursor.execute(f"SELECT gin_clean_pending_list('reference_sectiontext_{column}_{lang}'::regclass)")
        cursor.execute("ANALYZE reference_sectiontext, reference_section, reference_searchword")

    def tidy_after_commit(self, connection) -> None:
        """VACUUM the texts, so the rows a reload replaced leave the GIN indexes (a search would otherwise fetch and
        discard them until autovacuum came by). It cannot run inside a transaction, so inside one (a test, a
        caller's atomic block) it is left to autovacuum."""
        if not connection.in_atomic_block:
            with connection.cursor() as cursor:
                cursor.execute("VACUUM (ANALYZE) reference_sectiontext")

    # ------------------------------------------------------------------------------------------ a search

    def one_of(self, column: str, values: list, sql_type: str) -> tuple[str, list]:
        """One array (binding 30-60 parameters on the client cost more than the statement did)."""
        return f"{column} = ANY(%s::{sql_type}[])", [list(values)]

    def _book_filter(self, scope: Scope) -> tuple[str, list]:
        return ("t.search_book IS NOT NULL", []) if scope.every_book else ("t.search_book = ANY(%s)",
                                                                            [scope.book_ids])

    def _matches(self, scope: Scope, text: str, column: str) -> tuple[str, list]:
        """The first scan_cap matches of ``column`` in each language, ranked, as one UNION ALL. Ranking needs each
        match's row, so a word in tens of thousands of texts is ranked among the first matches found: bounded work,
        and a fair sample where the page shows 30. Titles are ranked by their size (the number of different
        lexemes: the fewer, the more fully the title names the query, as search orders title hits and SQLite's
        titles' index keeps them); texts by ts_rank (TEXT_NORMALISATION)."""
        book_filter, book_params = self._book_filter(scope)
        scans, params = [], []
        for lang in scope.languages:
            query = f"to_tsquery('{CONFIGS[lang]}', %s)"
            if column == "search_title":
                rank, rank_params = f"length(t.{column})::float4", []
            else:
                rank, rank_params = f"-ts_rank(t.{column}, {query}, {TEXT_NORMALISATION})", [text]
            scans.append(f"(SELECT t.id, {rank} AS rank, t.section_id, t.language, t.title, t.search_book "
                         f"FROM reference_sectiontext t WHERE t.language = '{lang}' AND {book_filter} "
                         f"AND t.{column} @@ {query} LIMIT {self.scan_cap[column]})")
            params += rank_params + book_params + [text]
        return " UNION ALL ".join(scans), params

    def _counted(self, column: str) -> str:
        """The columns that say what the scan found beside its best rows: the sections per book among the matches,
        and whether a language's scan stopped at its cap (so those are not all the matches). The title scan's
        counts only spare the count of a book past COUNT_CAP: a lower bound will do, and is cheaper (a section has
        one text per language, so the larger of its two languages' counts of texts), and whether it stopped does
        not matter. The texts' scan's counts are the counts when it did not stop: exact, sections counted once."""
        if column == "search_title":
            return ("(SELECT array_agg(ARRAY[book, sections]) FROM (SELECT book, max(n) AS sections FROM (SELECT "
                    "search_book AS book, count(*) AS n FROM f GROUP BY search_book, language) n GROUP BY book) c), "
                    "NULL")
        return ("(SELECT array_agg(ARRAY[book, sections]) FROM (SELECT search_book AS book, "
                "count(DISTINCT section_id) AS sections FROM f GROUP BY search_book) c), "
                f"(SELECT coalesce(max(n), 0) >= {self.scan_cap[column]} FROM (SELECT count(*) AS n FROM f "
                "GROUP BY language) l)")

    def _rows(self, scope: Scope, q, column: str, limit: int,
              also: list[int] = ()) -> tuple[TitleHits, dict[int, int] | None, bool]:
        """The best ``limit`` matches of ``column`` with the whole texts of the sections ``also``, the sections per
        book among the matches the scan found (None when it found none), and whether a language's scan stopped at
        its cap (so those are not all the matches)."""
        text = tsquery(q)
        sql, params = "", []
        if text:
            matches, params = self._matches(scope, text, column)
            counted = self._counted(column)
            # Each of the best rows finds its section by the primary key (LATERAL, and OFFSET 0 so the planner
            # keeps it so): joined as a set, the planner may hash the whole section table for the 150 rows of a
            # common word.
            sql = (f"WITH f AS MATERIALIZED ({matches}) "
                   "(SELECT m.id, m.rank, m.section_id, m.language, m.title, s.book_id, s.sid, s.depth, s.position, "
                   f"NULL::text, {counted} FROM (SELECT * FROM f ORDER BY rank, id LIMIT {int(limit)}) m "
                   "CROSS JOIN LATERAL (SELECT book_id, sid, depth, position FROM reference_section "
                   "WHERE id = m.section_id OFFSET 0) s ORDER BY m.rank, m.id)")
        if also:
            texts, more = self.texts_of(also, scope.languages, padding=2 if sql else 0)
            sql, params = (f"{sql} UNION ALL ({texts})" if sql else texts), params + more
        if not sql:
            return TitleHits([], []), None, False
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
        rows = split(found)
        if not rows.hits:
            return rows, None, False
        per_book, stopped = found[0][ROW_COLUMNS:]
        return rows, {book: sections for book, sections in per_book}, stopped

    def title_hits(self, scope: Scope, q, limit: int, also: list[int] = ()) -> TitleHits:
        """The titles of fewest lexemes first (see _matches); as on SQLite, a title hit carries no rank (search
        orders title hits by their titles). The sections per book among the title matches are kept for counts: a
        book whose titles alone pass COUNT_CAP needs no count."""
        rows, per_book, _ = self._rows(scope, q, "search_title", limit, also=also)
        for row in rows.hits:
            row.rank = 0.0
        if per_book:
            scope.found[("titles", _key(q))] = per_book
        return rows

    def ranked(self, scope: Scope, q, limit: int) -> list[Row]:
        """Ranked by TEXT_NORMALISATION (the rank divided by 1 + log(length), as bm25 damps long texts). When the
        scan found every match, its sections per book are the counts, kept for counts."""
        rows, per_book, stopped = self._rows(scope, q, "search_vector", limit)
        if not stopped and tsquery(q):
            scope.found[("counted", _key(q))] = {book: n for book, n in (per_book or {}).items() if n}
        return rows.hits

    def counts(self, scope: Scope, q) -> dict[int, int]:
        """What the ranking scan counted, if it found every match; else a statement that visits no row beyond
        COUNT_CAP + 1 per book and language, and skips a book whose title hits alone pass COUNT_CAP. A section has
        one text per language, so each language's scan stops at COUNT_CAP + 1 texts: either one stopped there, and
        so does the count, or both found every match, and the count is exact."""
        key = _key(q)
        if ("counted", key) in scope.found:
            return scope.found[("counted", key)]
        text = tsquery(q)
        if not text:
            return {}
        cap = ranking.COUNT_CAP
        titled = scope.found.get(("titles", key), {})
        counts = {book: cap + 1 for book in scope.book_ids if titled.get(book, 0) > cap}
        parts = [self._count_of(scope, book, cap) for book in map(int, scope.book_ids) if book not in counts]
        if parts:
            with connection.cursor() as cursor:
                cursor.execute(" UNION ALL ".join(parts), [text] * len(scope.languages) * len(parts))
                counts.update(cursor.fetchall())
        return {book: count for book, count in counts.items() if count}

    @staticmethod
    def _count_of(scope: Scope, book: int, cap: int) -> str:
        matches = " UNION ALL ".join(
            f"(SELECT t.section_id FROM reference_sectiontext t WHERE t.language = '{lang}' AND "
            f"t.search_book = {book} AND t.search_vector @@ to_tsquery('{CONFIGS[lang]}', %s) "
            f"LIMIT {cap + 1})" for lang in scope.languages)
        return f"(SELECT {book}, (SELECT count(DISTINCT section_id) FROM ({matches}) m))"

    def bodies(self, wanted: dict[str, list[int]]) -> dict[tuple[int, str], str]:
        """Through the (section, language) unique index, a language at a time: measured faster than the join."""
        parts, params = [], []
        for language, ids in wanted.items():
            in_ids, more = self.one_of("section_id", ids, "bigint")
            parts.append(f"(SELECT section_id, language, body FROM {SectionText._meta.db_table} "
                         f"WHERE language = %s AND {in_ids})")
            params += [language, *more]
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), params)
            return {(section_id, language): body for section_id, language, body in cursor.fetchall()}
