"""Offline search (static/offline/search.js over the indexes of rulesref/offline/index.py) agrees with the server's
search (rulesref.reference.search): the shared list of queries gets the same top result, numbers in any printed
form go to the same section, typos get the same "did you mean". The oracle is the server's search itself, on the
database the suite runs on. The offline search ranks as SQLite's FTS5 does, so on SQLite every query gets the same
results in the same order; PostgreSQL ranks the sections found only in the text otherwise (ts_rank), so there the
offline top result must be one the server found, and the shared list (made to agree on both) the same top."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection

from rulesref.offline.index import stored
from rulesref.reference.models import Book
from rulesref.reference.search import search
from test_search_ranking import SHARED_QUERIES

STATIC = Path(__file__).resolve().parent.parent / "rulesref" / "static" / "offline"
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

MORE_QUERIES = [
    "перехват", "intercept", "отступление", "retreat", "преследование", "pursuit", "flee", "бегство", "hedgehog",
    "stand and shoot", "хиты построения", "formation hits", "приказ", "orders", "wing activation", "активация крыла",
    "кавалерия перехватывает", "cavalry intercepts", "charge reactions", "реакции на нападение", "advance",
    "наступление после боя", "counter march", "контрмарш", "facing", "ориентация", "terrain", "местность",
    "unit", "подразделение", "withdrawal", "отход", "rally", "сбор", "two-hex units", "двухгексовые", "пасовать",
    "board edge", "край стола", "fled unit caught", "настигнут", "dice roll", "бросок кубика", "leader", "командир",
    "hedgehog ho", "перехват по", "cav", "перехв", "withdraw", "отступ",  # a last word of two letters is no prefix
]
NUMBERS = ["9.3.1", "9. 3. 1", "9.3.1.", " 11. 4. 5. ", "11.4.5", "XIII.7.C", "xiii.7.c", "XIII. 7. C", "9.3.1c",
           "5.7", "9.3.9", "12.3", "99", "9", "XIII", "XIII.9"]
TYPOS = ["хеджхог", "hedgehgo", "перехвт", "interseption", "retreet", "отступлние", "pursuti"]


@pytest.fixture
def offline(page_factory):
    page = page_factory()
    page.set_content("<!doctype html><meta charset=utf-8><title>search</title><main></main>")
    page.add_script_tag(path=str(STATIC / "stem.js"))
    page.add_script_tag(path=str(STATIC / "search.js"))
    page.evaluate("indexes => { window.engine = new RulesrefSearch(indexes); }",
                  [json.loads(stored(book)) for book in Book.objects.all()])

    def ask(query, lang="en", book="", text_lang=""):
        return page.evaluate("""([q, lang, book, textLang]) => {
            const r = engine.search(q, lang, book, textLang);
            return {jump: r.jump, suggestion: r.suggestion, partial: r.partial, missing: r.missingSection,
                    nearest: r.nearest.map(p => p[0].slug + ":" + p[1].sid), shownFor: r.shownFor,
                    hits: r.groups.flatMap(g => g[1].map(h => g[0].slug + ":" + h.section.sid))};
        }""", [query, lang, book, text_lang])

    ask.page = page
    return ask


def online(query, lang="en", book="", text_lang=""):
    result = search(query, lang, book, text_lang)
    return {"jump": result.jump, "suggestion": result.suggestion, "partial": result.partial,
            "missing": result.missing_section, "shownFor": result.shown_for,
            "hits": [f"{g.book.slug}:{h.sid}" for g in result.groups for h in g.hits]}


def test_the_shared_queries_have_the_same_top_result_offline(offline):
    for query, top in SHARED_QUERIES:
        got = offline(query)
        assert got["hits"][:1] and got["hits"][0].endswith(f":{top}"), (query, got["hits"][:5])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_offline_and_online_agree_on_words_in_both_languages(offline, lang):
    for query in [q for q, _ in SHARED_QUERIES] + MORE_QUERIES:
        want, got = online(query, lang), offline(query, lang)
        same_top(query, want, got)
        assert (got["suggestion"], got["partial"]) == (want["suggestion"], want["partial"]), query


def same_top(query, want, got) -> None:
    if connection.vendor == "sqlite":  # the ranking followed offline is FTS5's: the same results in the same order
        assert got["hits"] == want["hits"], (query, want["hits"][:5], got["hits"][:5])
    elif query in dict(SHARED_QUERIES):
        assert got["hits"][:1] == want["hits"][:1], (query, want["hits"][:5], got["hits"][:5])
    else:
        assert bool(got["hits"]) == bool(want["hits"]) and (not got["hits"] or got["hits"][0] in want["hits"]), \
            (query, want["hits"][:5], got["hits"][:5])


def test_numbers_in_any_printed_form_go_to_the_same_section(offline):
    for query in NUMBERS:
        for lang in ("en", "ru"):
            want, got = online(query, lang), offline(query, lang)
            assert got["jump"] == want["jump"], (query, lang)
            assert got["missing"] == want["missing"], (query, lang)
    assert offline("9.3.1c")["jump"] == "/en/rules/mpbs/9.3.1/#9.3.1c"
    assert offline("9.3.9")["nearest"][0] == "mpbs:9.3"


def test_typos_get_the_same_did_you_mean(offline):
    for query in TYPOS:
        want, got = online(query), offline(query)
        assert (got["suggestion"], got["shownFor"]) == (want["suggestion"], want["shownFor"]), query
        same_top(query, want, got)


def test_filters_by_book_and_language_as_online(offline):
    for args in [("unit", "en", "t9a", ""), ("подразделение", "ru", "", "ru"), ("подразделение", "ru", "", "en"),
                 ("retreat", "en", "mpbs", "en"), ("flee", "en", "nosuchbook", "")]:
        same_top(args, online(*args), offline(*args))


def test_bad_queries_never_break_offline_search(offline):
    for query in ["", "   ", "x" * 10_000, '"', "*", "(", "\x00\x01", "%", "\\", "9.3.1.1.1.1.1", "XIII.",
                  "<script>alert(1)</script>", "перехват intercept 混合 ☃", "javascript:alert(1)", "\u200b\u00a0"]:
        same_top(query, online(query), offline(query))
    assert offline.page.evaluate("engine.search('\\ud800 перехват', 'en', '', '').groups.length") > 0


def test_results_are_rendered_as_text_never_as_markup(offline):
    page = offline.page
    page.evaluate("""() => {
        const strings = {found: {one: "%(counter)s section found", other: "%(counter)s sections found"},
                         nothing: "Nothing found for “%(query)s”.", offlineResults: "Offline", goTo: "Go to section"};
        const r = engine.search("<img src=x onerror=alert(1)> перехват", "en", "", "");
        document.querySelector("main").replaceChildren(engine.render(r, strings, "en", "/en/search/", ""));
    }""")
    html = page.inner_html("main")
    assert "<img" not in html and "&lt;img" not in html  # the tag is not a word: it is not even echoed
    assert page.locator("main ul.hits li").count() > 0 and page.locator("main mark").count() > 0
    assert page.dialogs == []


def test_a_books_own_number_forms_are_read_offline_as_online(offline):
    """A book's `[numbering] patterns` are the server's Python regular expressions; the index ships them in
    JavaScript's syntax, so the browser reads the same forms."""
    from rulesref.offline.index import refresh

    book = Book.objects.get(slug="mpbs")
    book.number_patterns = [r"Правило\s+(?P<num>\d+(?:-\d+)+)", r"§\s*(?P<num>\d+/\d+)"]
    book.save()
    refresh(book)
    offline.page.evaluate("indexes => { window.engine = new RulesrefSearch(indexes); }",
                          [json.loads(stored(b)) for b in Book.objects.all()])
    for query in ["Правило 9-3-1", "Правило 9 - 3 - 1", "§ 11/4", "§11/4", "Правило 9-3-99", "Правило", "§ 11"]:
        want, got = online(query), offline(query)
        assert (got["jump"], got["missing"]) == (want["jump"], want["missing"]), query
    assert offline("Правило 9-3-1")["jump"] == "/en/rules/mpbs/9.3.1/"


def test_the_offline_search_ranks_as_the_index_it_receives_says(offline):
    """The limits, the tiers and the order are the index's data (search_ranking.browser_ranking), not the
    script's: a smaller page shows fewer hits, and tiers numbered the other way round put the texts that only
    mention a word before the section titled with it (the last before the first)."""
    page = offline.page
    indexes = [json.loads(stored(book)) for book in Book.objects.all()]

    def top(query, change):
        changed = json.loads(json.dumps(indexes))
        for index in changed:
            change(index["ranking"])
        return page.evaluate("""([indexes, q]) => new RulesrefSearch(indexes).search(q, "en", "", "")
            .groups.flatMap(g => g[1].map(h => h.section.sid))""", [changed, query])

    assert top("hedgehog", lambda r: None)[0] == "9.2.3" and len(top("unit", lambda r: None)) == 30
    assert len(top("unit", lambda r: r["limits"].update(pageSize=3))) == 3

    def reverse_tiers(ranking):
        for rule in ranking["tiers"]:
            rule["tier"] = len(ranking["tiers"]) - 1 - rule["tier"]

    usual, reversed_ = top("перехват", lambda r: None), top("перехват", reverse_tiers)
    assert usual[0] == "9.3" and sorted(reversed_) == sorted(usual)
    assert reversed_.index("9.3") > reversed_.index(usual[-1])


def test_an_index_without_the_ranking_is_searched_with_another_kept_ones(offline):
    """A copy kept by a release before the ranking was shipped: searched with the ranking of another kept copy; if
    none has it, nothing is searched (the reader is offered the update, as for any change of the rules)."""
    page = offline.page
    indexes = [json.loads(stored(book)) for book in Book.objects.all()]
    old = [{key: value for key, value in index.items() if key != "ranking"} for index in indexes]
    both = page.evaluate("""([indexes]) => new RulesrefSearch(indexes).search("unit", "en", "", "")
        .groups.map(g => g[0].slug)""", [[old[0]] + indexes[1:]])
    assert sorted(both) == sorted(index["book"] for index in indexes)
    assert page.evaluate("""([indexes]) => { const s = new RulesrefSearch(indexes);
        return [s.books.length, s.search("unit", "en", "", "").groups.length]; }""", [old]) == [0, 0]
