"""The search index is the database's own: complete when loadrules ends, following every change of a text by any
path (an approved translation, a save, a bulk UPDATE, a delete), never built by a reader; on PostgreSQL the plans
use the GIN indexes after loadrules; a search reads only what it can show."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from test_translation_support import save

from rulesref.reference import searchindex
from rulesref.reference.loading import load_corpus
from rulesref.reference.models import Book, SearchWord, Section, SectionText
from rulesref.reference.search import search
from rulesref.translation.models import Status

import generated_books  # noqa: E402  (puts bench/ on the path)

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def sids(query: str, lang: str = "en", **kwargs) -> list[str]:
    return [h.sid for h in search(query, lang, **kwargs).hits]


def test_the_index_is_complete_and_consistent_after_loadrules():
    assert searchindex.check() == []
    texts = SectionText.objects.filter(section__absent=False).count()
    assert searchindex.rebuild() == texts
    assert searchindex.check() == []


def test_a_reader_never_writes(client):
    load_corpus(force=True)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/en/search/", {"q": "hedgehog"}).status_code == 200
        assert client.get("/ru/search/", {"q": "хеджхог"}).status_code == 200
    statements = [q["sql"].lstrip().split()[0].upper() for q in queries.captured_queries]
    assert set(statements) <= {"SELECT", "(SELECT", "WITH"}, statements


def test_an_approved_translation_is_found_at_once(reviewer):
    assert sids("quokkafy") == []
    save("9.2.4", reviewer, body="A unit may quokkafy instead of withdrawing.", status=Status.APPROVED)
    assert sids("quokkafy") == ["9.2.4"]
    assert sids("quokk") == ["9.2.4"]  # by its beginning too (on SQLite through the vocabulary: completions)
    assert search("quokafy", "en").suggestion == "quokkafy"  # its words join the vocabulary too


def test_a_draft_is_not_searchable(translator):
    save("9.2.4", translator, body="A unit may quokkafy instead of withdrawing.", status=Status.DRAFT)
    assert sids("quokkafy") == []


def test_every_way_of_changing_a_text_is_followed():
    text = SectionText.objects.get(section__book__slug="mpbs", section__sid="9.2.3", language="en")
    text.title, text.body = "Squares", "Wombats form squares."
    text.save()
    assert sids("wombats") == ["9.2.3"] and "9.2.3" not in sids("hedgehog", text_lang="en")
    SectionText.objects.filter(pk=text.pk).update(title="Marsupial", body="Numbats only.")
    assert sids("numbats") == ["9.2.3"] and sids("wombats") == []
    assert sids("marsupial") == ["9.2.3"]
    SectionText.objects.filter(pk=text.pk).delete()
    assert sids("numbats") == []
    section = Section.objects.get(book__slug="mpbs", sid="9.2.4")
    SectionText.objects.bulk_create([SectionText(section=section, language="en", title="x", body="Quolls.")],
                                    ignore_conflicts=True)  # 9.2.4 has its English text: nothing is added
    assert sids("quolls") == []
    assert searchindex.check() == []


def test_a_number_typed_last_is_the_beginning_of_longer_numbers():
    """As any last word of three letters or more (the vocabulary SQLite completes words from keeps no numbers)."""
    text = SectionText.objects.get(section__book__slug="mpbs", section__sid="9.2.3", language="en")
    text.body = "Wombats march 1800 paces a turn."
    text.save()
    assert sids("wombats 180") == ["9.2.3"]


def test_a_last_word_of_one_or_two_letters_is_a_word_not_a_prefix():
    """«MP» is a word of its own; as a prefix, «mo» would stand for movement, morale, move… (and at scale cost the
    index a scan of most of itself: search.PREFIX_MIN). From three letters the last word is a prefix again."""
    def english(query):
        return search(query, "en", book_slug="mpbs", text_lang="en")

    found = english("cavalry mp")
    assert found.hits and not found.partial
    for hit in found.hits:
        text = SectionText.objects.get(section__book__slug="mpbs", section__sid=hit.sid, language="en")
        assert re.search(r"(?<!\w)mp(?!\w)", f"{text.title} {text.body}".lower()), hit.sid
    assert english("cavalry mo").partial  # no text has the word «mo»: the texts with either word are shown
    assert not english("cavalry mov").partial and english("cavalry mov").hits


def test_a_section_marked_absent_leaves_the_index_and_comes_back():
    section = Section.objects.get(book__slug="mpbs", sid="9.2.3")
    Section.objects.filter(pk=section.pk).update(absent=True)
    assert "9.2.3" not in sids("hedgehog")
    Section.objects.filter(pk=section.pk).update(absent=False)
    assert sids("hedgehog")[0] == "9.2.3"


def test_deleting_a_book_empties_its_part_of_the_index():
    Book.objects.get(slug="t9a").delete()
    assert [g.book.slug for g in search("stand and shoot", "en").groups] == ["mpbs"]  # partial hits only
    assert not SearchWord.objects.filter(book__slug="t9a").exists()
    assert searchindex.check() == []


def test_the_vocabulary_is_rebuilt_by_each_load():
    words = SearchWord.objects.filter(book__slug="mpbs")
    assert words.filter(word="перехватить", stem="перехват").exists()
    assert words.get(word="hedgehog").count >= 2
    words.delete()
    load_corpus(force=True)
    assert words.filter(word="hedgehog").exists()


@pytest.fixture(scope="module")
def big_book(django_db_setup, django_db_blocker, tmp_path_factory):
    """A generated rulebook of 2,000 sections, loaded as loadrules loads (statistics refreshed at the end), for
    this module's tests only: removed again after them."""
    with django_db_blocker.unblock():
        yield generated_books.load("gen", 2000, tmp_path_factory.mktemp("gen"))
        generated_books.remove("gen")  # and what is kept under its slug (its memory entries, QA state)


def _plans(queries) -> list[str]:
    plans = []
    with connection.cursor() as cursor:
        for q in queries:
            if q["sql"].lstrip().upper().startswith(("SELECT", "(SELECT", "WITH")) and "search_" in q["sql"]:
                cursor.execute("EXPLAIN " + q["sql"])
                plans.append("\n".join(row[0] for row in cursor.fetchall()))
    return plans


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL plans (CI runs this file on PostgreSQL too)")
def test_postgres_plans_use_the_gin_indexes_after_loadrules(big_book):
    """A search of the 2,000-section book for words in a few per cent of its sections, in each language, goes
    through the GIN indexes of the stored vectors in every query; none reads the texts row by row. (A word in most
    sections is rightly counted by reading rows until the count's cap, and a 14-section book through its own
    index.)"""
    with CaptureQueriesContext(connection) as queries:
        for query in ("hedgehog", "withdraw", "артиллерия", "отступление"):  # 2-7 % of the sections
            assert 0 < search(query, "ru", book_slug="gen").count < 150
    plans = _plans(queries.captured_queries)
    assert len(plans) >= 8
    for plan in plans:
        assert "Seq Scan on reference_sectiontext" not in plan, plan
        assert "Bitmap Index Scan on reference_sectiontext_search_" in plan, plan


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite plans (the PostgreSQL ones are checked above)")
def test_sqlite_counts_come_from_the_index_alone(big_book):
    with CaptureQueriesContext(connection) as queries:
        search("подразделение", "ru")
    with connection.cursor() as cursor:
        for q in queries.captured_queries:
            if "reference_search_fts" in q["sql"]:
                cursor.execute("EXPLAIN QUERY PLAN " + q["sql"])
                plan = " ".join(str(row[-1]) for row in cursor.fetchall())
                assert "VIRTUAL TABLE INDEX" in plan and "reference_search_stems" not in plan, plan


def test_did_you_mean_reads_the_near_words_from_their_index(big_book):
    """A misspelt word reads every word of the books' vocabulary with its initial and about its length (hundreds in
    a big book): through the index that holds them, on SQLite from the index alone, never by scanning the table."""
    with CaptureQueriesContext(connection) as queries:
        assert search("hedgehgo", "en").suggestion == "hedgehog"
    near = [q["sql"] for q in queries.captured_queries if "initial =" in q["sql"]]
    assert len(near) == 2  # the word as typed and spelled in the other script
    explain = "EXPLAIN QUERY PLAN " if connection.vendor == "sqlite" else "EXPLAIN "
    index = next(i.name for i in SearchWord._meta.indexes if i.fields[0] == "initial")
    with connection.cursor() as cursor:
        for sql in near:
            cursor.execute(explain + sql)
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert index in plan and "Seq Scan" not in plan, plan
            assert connection.vendor != "sqlite" or "COVERING INDEX" in plan, plan


def test_a_frequent_word_ranks_only_what_it_shows(big_book):
    """On a word in a fifth of 2,000 sections, the database ranks the title hits that fill the page and counts the
    rest; the text is read for the page's rows only."""
    with CaptureQueriesContext(connection) as queries:
        result = search("подразделение", "ru", book_slug="gen")
    assert result.shown == 30 and result.count > 300 and all(h.title_hit for h in result.hits)
    ranked_bodies = [q for q in queries.captured_queries if "10.0, 1.0" in q["sql"] or "search_vector, to_tsquery" in q["sql"] and "ts_rank" in q["sql"]]
    assert ranked_bodies == []
    assert len(queries.captured_queries) <= 8


def test_a_term_costs_four_statements_on_postgresql_and_six_on_sqlite(big_book):
    """A query naming a glossary term (Hedgehog) whose title hits do not fill the page: the books' versions, the
    title hits with the texts of the term's defining sections in one statement, the ranked texts (on PostgreSQL
    with the count per book from the same scan; SQLite counts from the index alone, apart), and the shown texts;
    on SQLite also the words the last word begins, from the vocabulary (SqliteSearch.completions)."""
    search("hedgehog", "en")  # the glossary and its sections' ids are read once per content version
    with CaptureQueriesContext(connection) as queries:
        result = search("hedgehog", "en")
    assert result.hits[0].sid == "9.2.3" and result.count > 30
    assert len(queries.captured_queries) == (4 if connection.vendor == "postgresql" else 6), queries.captured_queries


def test_a_word_whose_titles_fill_the_page_costs_four_statements_and_on_sqlite_five(big_book):
    """The books' versions, the title hits, the count per book (SQLite's from the index alone), and the shown
    texts; no texts are ranked. SQLite looks up the words the last word begins as well."""
    search("подразделение", "ru", book_slug="gen")
    with CaptureQueriesContext(connection) as queries:
        result = search("подразделение", "ru", book_slug="gen")
    assert result.shown == 30 and result.count > 300 and all(h.title_hit for h in result.hits)
    assert len(queries.captured_queries) == (4 if connection.vendor == "postgresql" else 5), queries.captured_queries


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's FTS5 prefixes")
def test_a_prefix_asked_through_its_completions_finds_what_fts5_finds_for_it(big_book):
    """SQLite counts a prefix as any one of the words the vocabulary says it begins, and ranks a prefix of one such
    word as that word: the same sections as FTS5's own prefix search (the oracle), which merges every such word's
    list over the whole index before it can count (5 ms at 100,000 sections for «подразделен»*)."""
    from rulesref.reference.search_backend import Scope
    from rulesref.reference.search_query import Query
    from rulesref.reference.search_ranking import COUNT_CAP
    from rulesref.reference.search_sqlite import SqliteSearch, fts_match

    books = list(Book.objects.all())
    seen = set()
    for words in (["отступ"], ["hit"], ["cav"], ["перехв"], ["withdraw"], ["подразделение"], ["form"],
                  ["cavalry", "intercept"], ["хиты", "построения"], ["hedgehog"], ["xyzzyq"], ["unit", "100"]):
        index, scope, q = SqliteSearch(), Scope(books, ["ru", "en"]), Query(words, all_words=True)
        completions = index.completions(scope, q)
        seen.add(None if completions is None else min(len(completions), 2))
        with connection.cursor() as cursor:
            cursor.execute("SELECT rowid >> 40, count(DISTINCT rowid >> 1) FROM reference_search_fts "
                           "WHERE reference_search_fts MATCH %s GROUP BY 1", [fts_match(q)])
            oracle = {book: min(n, COUNT_CAP + 1) for book, n in cursor.fetchall()}
        assert index.counts(scope, q) == oracle, words  # each book's sections, counted up to COUNT_CAP + 1 exactly
        if completions is not None and len(completions) == 1:
            assert index.ranking_match(scope, q) == fts_match(q, completions)
            star = SqliteSearch()
            star.completions = lambda scope, q: None
            assert [(r.section_id, r.language, r.rank) for r in index.ranked(scope, q, 60)] == \
                [(r.section_id, r.language, r.rank) for r in star.ranked(Scope(books, ["ru", "en"]), q, 60)], words
    assert {1, 2, None} <= seen  # words of one completion and of several were asked, and a number (none)


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's scan cap (PostgreSQL's is checked above)")
def test_sqlite_ranks_among_the_first_matches_it_finds(big_book):
    """bm25 is computed for every match FTS5 returns, so texts are ranked among the first TEXT_SCAN_CAP found: with
    a cap of 10, every ranked text is one of the 10 lowest rowids that match."""
    from rulesref.reference.search_backend import Scope
    from rulesref.reference.search_query import Query
    from rulesref.reference.search_sqlite import SqliteSearch, fts_match

    index = SqliteSearch()
    index.text_scan_cap = 10
    q = Query(["подразделение"], all_words=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT rowid FROM reference_search_fts WHERE reference_search_fts MATCH %s ORDER BY rowid "
                       "LIMIT 10", [fts_match(q)])
        first = {rowid >> 1 & ((1 << 39) - 1) for (rowid,) in cursor.fetchall()}
    ranked = index.ranked(Scope(list(Book.objects.all()), ["ru", "en"]), q, 60)
    assert len(ranked) == 10 and {r.section_id for r in ranked} <= first


def snowball_stems(text: str) -> set[str]:
    """A text's stems, by the Snowball stemmers themselves (each word in its script's): the tests' own oracle (also
    test_search.py's)."""
    import Stemmer

    return {Stemmer.Stemmer("russian" if re.search("[а-я]", w) else "english").stemWord(w)
            for w in re.findall(r"[^\W_]+", text.lower().replace("ё", "е"))}


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's titles' index (PostgreSQL ranks title matches)")
@pytest.mark.parametrize("every_book", [True, False])
def test_sqlite_title_hits_are_the_titles_of_fewest_words_among_all_that_match(big_book, every_book):
    """The titles' index gives its matches in the order the page shows title hits (the title of fewest different
    words, then the more general section, then the section and the language), so the first 150 it gives are the
    best of all the titles that match, however many there are (at 100,000 sections, thousands), not of a first few
    found."""
    from rulesref.reference.search_backend import Scope
    from rulesref.reference.search_query import Query
    from rulesref.reference.search_sqlite import SqliteSearch

    books = list(Book.objects.all()) if every_book else [big_book]
    stem = snowball_stems("подразделение").pop()
    texts = SectionText.objects.filter(section__book__in=books, section__absent=False).values_list(
        "section_id", "section__depth", "language", "title")
    matching = sorted((len(stems), depth, section, language == "en")
                      for section, depth, language, title in texts if stem in (stems := snowball_stems(title)))
    assert len(matching) > 150
    hits = SqliteSearch().title_hits(Scope(books, ["ru", "en"], every_book), Query(["подразделение"], all_words=True),
                                     150).hits
    assert [(h.section_id, h.language == "en") for h in hits] == [(m[2], m[3]) for m in matching[:150]]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's title statement (SQLite's is above)")
@pytest.mark.parametrize("word", ["подразделение", "unit", "hedgehog"])
def test_postgres_title_hits_are_the_titles_of_fewest_lexemes_among_those_scanned(big_book, word):
    """PostgreSQL orders the title matches it scans by the title's number of lexemes, as search orders title hits
    (the fewer different words, the more fully the title names the query): with a scan that reaches every match
    of the 2,000-section book, the 150 hits are titles of the fewest lexemes of all that match."""
    from rulesref.reference.search_backend import Scope
    from rulesref.reference.search_postgres import CONFIGS, PostgresSearch, tsquery
    from rulesref.reference.search_query import Query

    q = Query([word], all_words=True)
    index = PostgresSearch()
    hits = index.title_hits(Scope([big_book], ["ru", "en"], every_book=False), q, 150).hits
    with connection.cursor() as cursor:
        cursor.execute("SELECT t.id, length(t.search_title), t.section_id, t.language FROM reference_sectiontext t "
                       "WHERE t.search_book = %s AND ((t.language = 'ru' AND t.search_title @@ to_tsquery("
                       f"'{CONFIGS['ru']}', %s)) OR (t.language = 'en' AND t.search_title @@ to_tsquery("
                       f"'{CONFIGS['en']}', %s)))", [big_book.pk, tsquery(q), tsquery(q)])
        matching = cursor.fetchall()
    assert 0 < len(matching) < index.scan_cap["search_title"]  # the scan reaches every match
    size = {(section, language): n for _, n, section, language in matching}
    assert len(hits) == min(150, len(matching)) and all(h.rank == 0.0 for h in hits)
    assert [size[(h.section_id, h.language)] for h in hits] == sorted(n for _, n, _, _ in matching)[:len(hits)]


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plans")
def test_sqlite_reads_the_title_hits_in_the_order_of_their_index_and_stops_at_the_page(big_book):
    """No sort of the title matches: the statement walks the index in its own order and stops at its LIMIT."""
    with CaptureQueriesContext(connection) as queries:
        search("подразделение", "ru")
    titles = [q["sql"] for q in queries.captured_queries if "reference_search_title_fts" in q["sql"]]
    assert len(titles) == 1
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + titles[0])
        plan = [str(row[-1]) for row in cursor.fetchall()]
    assert not any("TEMP B-TREE" in step for step in plan), plan
    assert plan.index(next(s for s in plan if "SCAN f VIRTUAL TABLE" in s)) < plan.index(
        next(s for s in plan if s.startswith("SEARCH s ")))  # the index leads; each hit then finds its section


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's titles' index")
def test_a_section_that_changes_depth_moves_among_the_titles():
    """A load that moves a section to another depth (as bulk_update writes it) moves its texts' titles too."""
    section = Section.objects.get(book__slug="mpbs", sid="9.3")
    section.depth = 5
    Section.objects.bulk_update([section], ["depth"])
    assert searchindex.check() == []
    with connection.cursor() as cursor:
        cursor.execute("SELECT x.title_key FROM reference_search_stems x JOIN reference_sectiontext t "
                       "ON t.id = x.text_id WHERE t.section_id = %s", [section.pk])
        assert {(key >> 40) & 15 for (key,) in cursor.fetchall()} == {5}


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's titles' index")
def test_the_check_finds_a_title_filed_out_of_place():
    with connection.cursor() as cursor:
        cursor.execute("UPDATE reference_search_stems SET title_key = title_key + (1 << 44) WHERE rowid IN "
                       "(SELECT rowid FROM reference_search_stems LIMIT 1)")
    assert [p for p in searchindex.check() if p.endswith("filed out of place among the titles")]
    searchindex.rebuild()
    assert searchindex.check() == []


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite counts from the index alone, never the rows")
def test_a_book_whose_title_hits_pass_the_count_cap_is_not_counted_again(big_book, monkeypatch):
    """With a cap of 100 sections, the 2,000-section book's title hits for «подразделение» already pass it: the
    count is known without a statement, and the page says "more than 100"."""
    from rulesref.reference import search_ranking

    monkeypatch.setattr(search_ranking, "COUNT_CAP", 100)
    search("подразделение", "ru", book_slug="gen")  # the glossary's sections are read once per content version
    with CaptureQueriesContext(connection) as queries:
        result = search("подразделение", "ru", book_slug="gen")
    assert result.groups[0].total == 100 and result.groups[0].more
    assert len(queries.captured_queries) == 3, queries.captured_queries


@pytest.mark.skipif(connection.vendor != "postgresql", reason="only PostgreSQL's title hits tell the counts")
@pytest.mark.parametrize("cap", [None, 20])
def test_counts_made_with_the_title_hits_are_the_count_querys(big_book, monkeypatch, cap):
    """The title hits tell the count the sections per book among the title matches, and the count skips the scan
    of a book whose title hits alone pass COUNT_CAP (with a cap of 20 they often do); either way each book's
    count is the count query's made afresh (up to COUNT_CAP + 1), and a book past the cap is still said to be past
    it."""
    from rulesref.reference import search_ranking
    from rulesref.reference.search_backend import Scope
    from rulesref.reference.search_postgres import PostgresSearch
    from rulesref.reference.search_query import Query

    if cap:
        monkeypatch.setattr(search_ranking, "COUNT_CAP", cap)
    COUNT_CAP = search_ranking.COUNT_CAP  # noqa: N806
    books = list(Book.objects.all())
    index = PostgresSearch()
    told = past_cap = skipped = 0
    for words in (["подразделение"], ["перехват"], ["отступление"], ["unit"], ["hedgehog"], ["xyzzyq"]):
        for languages in (["ru", "en"], ["ru"]):
            scope, q = Scope(books, languages), Query(words, all_words=True)
            index.title_hits(scope, q, 150)
            titled = scope.found.get(("titles", (tuple(words), True)), {})
            with CaptureQueriesContext(connection) as queries:
                counts = index.counts(scope, q)
            counted = " ".join(query["sql"] for query in queries.captured_queries)
            for book, sections in titled.items():
                if sections > COUNT_CAP:  # not scanned again: said to be past the cap
                    skipped += 1
                    assert f"t.search_book = {book} " not in counted and counts[book] == COUNT_CAP + 1
            told += bool(titled)
            past_cap += any(n > COUNT_CAP for n in counts.values())
            assert {b: min(n, COUNT_CAP + 1) for b, n in counts.items()} == \
                {b: min(n, COUNT_CAP + 1) for b, n in index.counts(Scope(books, languages), q).items()}, \
                (words, languages)
    assert told >= 6 and past_cap >= 1 and (skipped >= 1 if cap else True)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="only PostgreSQL counts in the ranking scan")
def test_counts_from_the_ranking_scan_are_the_count_querys(big_book):
    """The ranking scan counts the sections per book when it found every match, and the count then needs no
    statement; those counts are what the count query finds afresh (each book's up to COUNT_CAP + 1), and a scan
    stopped at its cap counts nothing (the count query runs)."""
    from rulesref.reference.search_backend import Scope
    from rulesref.reference.search_postgres import PostgresSearch
    from rulesref.reference.search_query import Query
    from rulesref.reference.search_ranking import COUNT_CAP

    books = list(Book.objects.all())
    index = PostgresSearch()
    counted = 0
    for words in (["hedgehog"], ["withdraw"], ["cavalry", "intercept"], ["отступление"], ["подразделение"],
                  ["перехват"], ["xyzzyq"]):
        for languages in (["ru", "en"], ["en"]):
            scope, q = Scope(books, languages), Query(words, all_words=True)
            index.ranked(scope, q, 60)
            with CaptureQueriesContext(connection) as queries:
                counts = index.counts(scope, q)
            if not queries.captured_queries:
                counted += 1
                assert {b: min(n, COUNT_CAP + 1) for b, n in counts.items()} == \
                    {b: min(n, COUNT_CAP + 1) for b, n in index.counts(Scope(books, languages), q).items()}, words
    assert counted >= 8
    index.scan_cap = {**index.scan_cap, "search_vector": 10}
    scope, q = Scope(books, ["ru", "en"]), Query(["подразделение"], all_words=True)
    index.ranked(scope, q, 60)
    with CaptureQueriesContext(connection) as queries:
        index.counts(scope, q)
    assert len(queries.captured_queries) == 1


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's planner statistics are a connection's own")
@pytest.mark.django_db(transaction=True)
def test_a_connection_that_sees_a_load_plans_with_the_statistics_it_refreshed():
    """An app server's connection opened before another process loaded a big book kept planning with the old
    statistics (SQLite reads them when a connection opens). Once it sees the content change, it is opened anew."""
    import sqlite3

    from rulesref.reference import index

    load_corpus(force=True)
    ids = list(Section.objects.values_list("pk", flat=True)[:30])
    sql = f"EXPLAIN QUERY PLAN SELECT body FROM reference_sectiontext WHERE section_id IN ({', '.join(map(str, ids))})"

    def plan() -> str:
        with connection.cursor() as cursor:
            cursor.execute(sql)
            return " ".join(str(row[-1]) for row in cursor.fetchall())

    def texts_analyzed_as(other, rows: int) -> None:  # the statistics ANALYZE leaves for a table of that many texts
        other.execute(f"UPDATE sqlite_stat1 SET stat = '{rows}' || substr(stat, instr(stat, ' ')) "
                      "WHERE tbl = 'reference_sectiontext'")

    # The real rulebooks alone (106 texts), whatever else this module has loaded (the 2,000-section book lives until
    # the module ends, and this test, which runs outside a transaction, is run last).
    with sqlite3.connect(connection.settings_dict["NAME"]) as other:
        texts_analyzed_as(other, 100)
    connection.close()
    index.books()
    small = plan()
    with sqlite3.connect(connection.settings_dict["NAME"]) as other:  # a load elsewhere: 200,000 texts, ANALYZEd
        texts_analyzed_as(other, 200_000)
        other.execute("UPDATE reference_book SET version = version + 1 WHERE slug = 'mpbs'")
    before = connection.connection
    assert plan() == small and "SCAN" in small  # this connection has not seen it
    index.books()
    assert connection.connection is not before and "SEARCH" in plan()
    opened = connection.connection
    index.books()
    assert connection.connection is opened  # nothing changed: the same connection


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's text search configurations")
def test_vectors_made_with_postgresqls_own_configurations_are_found_and_remade_by_the_migration():
    """A database whose vectors drop stop words (made before migration 0010) fails the check, and the migration
    makes them anew: then «нельзя» is found."""
    import importlib


    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE reference_sectiontext DROP COLUMN search_vector, DROP COLUMN search_title")
        cursor.execute(
            "ALTER TABLE reference_sectiontext ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (setweight("
            "to_tsvector((CASE WHEN language = 'ru' THEN 'russian'::regconfig ELSE 'english'::regconfig END), "
            "title), 'A')) STORED, ADD COLUMN search_title tsvector GENERATED ALWAYS AS (to_tsvector("
            "(CASE WHEN language = 'ru' THEN 'russian'::regconfig ELSE 'english'::regconfig END), title)) STORED")
    assert any("drop stop words" in problem for problem in searchindex.check())
    migration = importlib.import_module("rulesref.reference.migrations.0010_search_keeps_stop_words")
    with connection.schema_editor() as editor:
        migration.remake(None, editor)
    assert searchindex.check() == []
    assert search("нельзя", "ru").count > 0


def test_the_searchindex_command_checks_and_rebuilds(capsys):
    from django.core.management import CommandError, call_command

    call_command("searchindex", "--check")
    assert "matches the texts" in capsys.readouterr().out
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("UPDATE reference_search_stems SET body_stems = 'stale' WHERE rowid IN "
                           "(SELECT rowid FROM reference_search_stems LIMIT 1)")
        with pytest.raises(CommandError):
            call_command("searchindex", "--check")
        assert "indexed with other stems" in capsys.readouterr().out
    call_command("searchindex", "--rebuild")
    assert "matches the texts" in capsys.readouterr().out
