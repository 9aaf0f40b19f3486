"""Search on SQLite: an FTS5 index over Snowball stems, kept by triggers (see searchindex.py for what it holds).

Each word is stemmed in its own script (Cyrillic with the Russian stemmer, Latin with the English one, as
PostgreSQL's configurations do). Triggers on ``reference_sectiontext`` write the stems of each text into
``reference_search_stems`` (through ``rulesref_stems``, a function registered on every connection Django opens), and
triggers there feed the two FTS5 tables, whose content that table is. The rowid of the whole texts' table says whose
text it is without reading a row: ``book_id << 40 | section_id << 1 | (1 if English)``, so search filters by book
with a rowid range and counts sections from rowids alone. The titles' table has the title key as its rowid
(``title_key``): FTS5 gives matches in rowid order, so the title hits come out in the order search shows them (the
fewest words first, then the more general section), and search reads only as many as the page can hold.

FTS5 answers a prefix by first merging the lists of every word that begins so, over the whole index (5 ms for
«подразделен»* at 100,000 sections, where the word alone takes 0.1); so the words a prefix stands for are looked up in
the vocabulary (``completions``), and a prefix that stands for its own word alone is asked as that word: the same
rows, the same rank. Counting needs no rank, so there a prefix is asked as any one of its words (ranking them as
words of their own would change bm25, and a long OR ranks slower than the prefix). Ranking computes bm25 for every
match, so the texts are ranked among the first TEXT_SCAN_CAP found (both languages together).
"""
from __future__ import annotations

from django.db import DatabaseError, connection

from rulesref.text import word_stems

from . import search_ranking as ranking
from .models import SearchWord, Section, SectionText
from .search_backend import Row, Scope, SearchBackend, TitleHits, split
from .search_ranking import BODY_WEIGHT, MAX_TITLE_DEPTH, MAX_TITLE_SIZE, TEXT_SCAN_CAP, TITLE_WEIGHT

BOOK_SHIFT = 40  # the FTS rowid: book_id << 40 | section_id << 1 | language bit (sections ids below 2**39)
SECTION_MASK = (1 << (BOOK_SHIFT - 1)) - 1  # (rowid >> 1) & SECTION_MASK: the section of either index's rowid
TITLE_SIZE_SHIFT = BOOK_SHIFT + MAX_TITLE_DEPTH.bit_length()  # title_key: size << 44 | depth << 40 | ...
# Counting asks a prefix as any one of the words it begins, up to this many (a three-letter prefix begins a few
# hundred words of a big book: «про»* counted in 34 ms as a prefix, 4 ms as 344 words); beyond, FTS5's own prefix.
MAX_COMPLETIONS = 1024


def stems_text(text: str | None) -> str:
    """The text as the index holds it: its words' stems, space separated (``rulesref_stems`` in SQL)."""
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


def fts_match(q, last: tuple[str, ...] | None = None) -> str:
    """An FTS5 MATCH expression of a query; stems are word characters only (quoted), so no FTS syntax can come in.
    The last word is a prefix (``"stem"*``), or with ``last`` (the stems it begins: completions) any one of those."""
    if last is not None:
        final = f'"{last[0]}"' if len(last) == 1 else "(" + " OR ".join(f'"{s}"' for s in last) + ")"
    else:
        final = f'"{q.stems[-1]}"' + ("*" if q.prefix else "")
    terms = [f'"{s}"' for s in q.stems[:-1]] + [final]
    return (" AND " if q.all_words else " OR ").join(terms)


# ---------------------------------------------------------------------------------------------- the schema


_EN = "(CASE WHEN {t}.language = 'en' THEN 1 ELSE 0 END)"
_ROWID = f"((s.book_id << {BOOK_SHIFT}) | (s.id << 1) | {_EN})"
INSERT_STEMS = (
    "INSERT INTO reference_search_stems (id, title_key, text_id, title_stems, body_stems) "
    f"SELECT {_ROWID.format(t='t')}, rulesref_title_key(t.title, s.depth, s.id, t.language), t.id, "
    "rulesref_stems(t.title), rulesref_stems(t.body) "
    "FROM reference_sectiontext t JOIN reference_section s ON s.id = t.section_id WHERE NOT s.absent AND {where}"
)
SCHEMA = [
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
    + INSERT_STEMS.format(where="t.id = new.id") + "; END",
    "CREATE TRIGGER IF NOT EXISTS reference_sectiontext_search_au "
    "AFTER UPDATE OF title, body, language, section_id ON reference_sectiontext BEGIN "
    "DELETE FROM reference_search_stems WHERE text_id = old.id; "
    + INSERT_STEMS.format(where="t.id = new.id") + "; END",
    "CREATE TRIGGER IF NOT EXISTS reference_sectiontext_search_ad AFTER DELETE ON reference_sectiontext BEGIN "
    "DELETE FROM reference_search_stems WHERE text_id = old.id; END",
    # A section that becomes absent (or present again, or moves) takes its texts out of the index (or back in); one
    # that moves to another depth, to their new place among the titles.
    "CREATE TRIGGER IF NOT EXISTS reference_section_search_au AFTER UPDATE OF absent, book_id, depth "
    "ON reference_section WHEN old.absent IS NOT new.absent OR old.book_id IS NOT new.book_id "
    "OR old.depth IS NOT new.depth BEGIN "
    "DELETE FROM reference_search_stems WHERE text_id IN "
    "(SELECT id FROM reference_sectiontext WHERE section_id = new.id); "
    + INSERT_STEMS.format(where="t.section_id = new.id") + "; END",
]
FTS_TABLES = ("reference_search_fts", "reference_search_title_fts")
DROP = [
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


class SqliteSearch(SearchBackend):
    """FTS5 over the stems (see the module)."""

    vendor = "sqlite"
    text_scan_cap = TEXT_SCAN_CAP
    max_completions = MAX_COMPLETIONS

    # ------------------------------------------------------------------------------------------ keeping the index

    def connection_created(self, connection) -> None:
        """The functions the triggers call."""
        connection.connection.create_function("rulesref_stems", 1, stems_text, deterministic=True)
        connection.connection.create_function("rulesref_title_key", 4, title_key, deterministic=True)

    def install(self, cursor) -> None:
        cursor.execute("SELECT name FROM sqlite_master WHERE name LIKE 'reference_search_%'")
        existed = {name for (name,) in cursor.fetchall()}
        for sql in SCHEMA:
            cursor.execute(sql)
        if "reference_search_stems" not in existed:
            cursor.execute(INSERT_STEMS.format(where="1"))
            return
        for table in FTS_TABLES:
            if table not in existed:
                cursor.execute(f"INSERT INTO {table} ({table}) VALUES ('rebuild')")  # a new index of old texts

    def uninstall(self, cursor) -> None:
        for sql in DROP:
            cursor.execute(sql)

    def rebuild(self, cursor) -> int:
        self.uninstall(cursor)
        self.install(cursor)
        cursor.execute("SELECT count(*) FROM reference_search_stems")
        return cursor.fetchone()[0]

    def check(self, cursor) -> list[str]:
        cursor.execute(
            "SELECT s.id, s.depth, s.book_id, s.sid, t.language, t.title, t.body, x.title_key, x.title_stems, "
            "x.body_stems FROM reference_sectiontext t JOIN reference_section s ON s.id = t.section_id "
            "LEFT JOIN reference_search_stems x ON x.text_id = t.id WHERE NOT s.absent")
        problems = [problem for row in cursor.fetchall() if (problem := _text_problem(*row))]
        for table in FTS_TABLES:
            try:
                cursor.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 1)")
            except DatabaseError as exc:
                problems.append(f"{table} does not match its texts: {exc}")
        return problems

    def after_load(self, cursor) -> None:
        """The FTS5 indexes merged into one segment each, and fresh statistics for the planner."""
        for table in FTS_TABLES:
            cursor.execute(f"INSERT INTO {table} ({table}) VALUES ('optimize')")
        cursor.execute("ANALYZE")

    # ------------------------------------------------------------------------------------------ a search

    def one_of(self, column: str, values: list, sql_type: str) -> tuple[str, list]:
        """A placeholder each."""
        return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)

    @staticmethod
    def _language(scope: Scope, rowid: str) -> str:
        """The condition on an index's rowid (its last bit) that keeps the texts of the one language asked for."""
        return f" AND ({rowid} & 1) = {int(scope.languages[0] == 'en')}" if len(scope.languages) == 1 else ""

    @staticmethod
    def _books(scope: Scope) -> tuple[str, list]:
        """The condition that keeps the scope's books, as ranges of rowids (none when every book is searched)."""
        if scope.every_book:
            return "", []
        params = []
        for book in scope.book_ids:
            params += [book << BOOK_SHIFT, ((book + 1) << BOOK_SHIFT) - 1]
        return " AND (" + " OR ".join("rowid BETWEEN %s AND %s" for _ in scope.book_ids) + ")", params

    @staticmethod
    def _text_of(rowid: str) -> str:
        """The joins that find the section and the text an index's ``rowid`` names (either index: both keep the
        section in the same bits and the language in the last), as ``s`` and ``t``."""
        return (f"JOIN {Section._meta.db_table} s ON s.id = ({rowid} >> 1) & {SECTION_MASK} "
                f"JOIN {SectionText._meta.db_table} t ON t.section_id = s.id "
                f"AND t.language = (CASE {rowid} & 1 WHEN 1 THEN 'en' ELSE 'ru' END) ")

    def completions(self, scope: Scope, q) -> tuple[str, ...] | None:
        """The stems of the books' words that the last word begins (its own included), from the vocabulary
        (SearchWord: every word of every text, rebuilt by each load and grown by each saved text; one written by
        raw SQL joins it at the next load); None when it is no prefix, or stands for more than max_completions
        words, or is all digits (the vocabulary leaves out numbers). Asked once per search."""
        last = q.stems[-1]
        if not q.prefix or last.isdigit():
            return None
        key = ("completions", last)
        if key not in scope.found:
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT DISTINCT stem FROM {SearchWord._meta.db_table} WHERE stem >= %s AND stem < %s "
                               f"LIMIT {self.max_completions + 1}", [last, last[:-1] + chr(ord(last[-1]) + 1)])
                found = {last} | {stem for (stem,) in cursor.fetchall()}
            scope.found[key] = tuple(sorted(found)) if len(found) <= self.max_completions else None
        return scope.found[key]

    def ranking_match(self, scope: Scope, q) -> str:
        """The MATCH expression to rank by: a prefix that stands for its own word alone is asked as that word."""
        last = self.completions(scope, q)
        return fts_match(q, last if last is not None and len(last) == 1 else None)

    def title_hits(self, scope: Scope, q, limit: int, also: list[int] = ()) -> TitleHits:
        """The first ``limit`` title hits in the titles' own order (see the module): none is ranked, and none but
        those is read. A search of some books only finds a hit's book through its section, and passes over the other
        books' hits."""
        books, params = "", [self.ranking_match(scope, q)]
        if not scope.every_book:
            in_books, more = self.one_of("s.book_id", scope.book_ids, "bigint")
            books, params = f" AND {in_books}", params + more
        sql = ("SELECT * FROM (SELECT f.rowid, 0.0, t.section_id, t.language, t.title, s.book_id, s.sid, s.depth, "
               f"s.position, NULL FROM reference_search_title_fts f {self._text_of('f.rowid')}"
               f"WHERE reference_search_title_fts MATCH %s{self._language(scope, 'f.rowid')}{books} "
               f"ORDER BY f.rowid LIMIT {int(limit)})")
        if also:
            texts, more = self.texts_of(also, scope.languages)
            sql, params = f"{sql} UNION ALL {texts}", params + more
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return split(cursor.fetchall())

    def ranked(self, scope: Scope, q, limit: int) -> list[Row]:
        """The best ``limit`` texts by bm25 (TITLE_WEIGHT, BODY_WEIGHT) among the first text_scan_cap found, with
        their sections' ids, places and titles read in the same statement (the rowid names the section and the
        language)."""
        books, params = self._books(scope)
        sql = ("SELECT m.rowid, m.rank, t.section_id, t.language, t.title, s.book_id, s.sid, s.depth, s.position, "
               f"NULL FROM (SELECT * FROM (SELECT rowid, bm25(reference_search_fts, {TITLE_WEIGHT}, {BODY_WEIGHT}) "
               f"AS rank FROM reference_search_fts WHERE reference_search_fts MATCH %s"
               f"{self._language(scope, 'rowid')}{books} LIMIT {self.text_scan_cap}) ORDER BY rank, rowid "
               f"LIMIT {int(limit)}) m {self._text_of('m.rowid')}ORDER BY m.rank, m.rowid")
        with connection.cursor() as cursor:
            cursor.execute(sql, [self.ranking_match(scope, q)] + params)
            return split(cursor.fetchall()).hits

    def counts(self, scope: Scope, q) -> dict[int, int]:
        """From the rowids alone (no row is read): each book's rowids are a range the index seeks to, and stops in
        once COUNT_CAP + 1 sections are found (a word of one language matches one text of each section: 501 texts,
        where a cap on texts had to allow 1,002)."""
        cap = ranking.COUNT_CAP
        parts = [f"SELECT {book}, count(*) FROM (SELECT DISTINCT rowid >> 1 FROM reference_search_fts "
                 f"WHERE reference_search_fts MATCH %s AND rowid BETWEEN {book << BOOK_SHIFT} AND "
                 f"{((book + 1) << BOOK_SHIFT) - 1}{self._language(scope, 'rowid')} LIMIT {cap + 1})"
                 for book in scope.book_ids]
        if not parts:
            return {}
        with connection.cursor() as cursor:
            cursor.execute(" UNION ALL ".join(parts), [fts_match(q, self.completions(scope, q))] * len(parts))
            return {book: count for book, count in cursor.fetchall() if count}

    def bodies(self, wanted: dict[str, list[int]]) -> dict[tuple[int, str], str]:
        """Driven by the sections' primary keys, a plan no planner statistics can turn into a scan of every text."""
        in_sections, params = self.one_of("s.id", sorted({pk for ids in wanted.values() for pk in ids}), "bigint")
        languages = []
        for language, ids in wanted.items():
            in_ids, more = self.one_of("t.section_id", ids, "bigint")
            languages.append(f"(t.language = %s AND {in_ids})")
            params += [language, *more]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT t.section_id, t.language, t.body FROM {Section._meta.db_table} s "
                           f"JOIN {SectionText._meta.db_table} t ON t.section_id = s.id "
                           f"WHERE {in_sections} AND ({' OR '.join(languages)})", params)
            return {(section_id, language): body for section_id, language, body in cursor.fetchall()}


def _text_problem(section, depth, book_id, sid, language, title, body, key, title_stems, body_stems) -> str:
    """What is wrong with one text's entry in the index ("" if nothing)."""
    where = f"book {book_id} section {sid} [{language}]"
    if title_stems is None:
        return f"{where}: not in the index"
    if (title_stems, body_stems) != (stems_text(title), stems_text(body)):
        return f"{where}: indexed with other stems"
    if key != title_key(title, depth, section, language):
        return f"{where}: filed out of place among the titles"
    return ""
