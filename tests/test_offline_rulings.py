"""Rulings in the offline copy's search (#32 point 1): every published ruling is in the book's offline index
(question and answer in each language it is published in, with the clauses it answers), and the offline search
(static/offline/search.js) finds the same rulings as the server's (rulesref/rulings/search.py), in the same order,
by the site's ranking shipped as data; in real Chromium, a kept copy finds a ruling by a word of it, offline, in
Russian and in English, each in its own language's text, under its clause."""
from __future__ import annotations

import json
import re

import pytest
from rulings_support import ANSWER_EN, ANSWER_RU, QUESTION_EN, QUESTION_RU, make
from test_offline_browser import keep, live_search
from test_offline_search import STATIC
from test_translation_support import make_user

from rulesref.offline.index import stored
from rulesref.reference.models import Book
from rulesref.rulings import search
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.browser]


@pytest.fixture
def offline_rulings(page_factory):
    """The offline search over the books' stored indexes, in Chromium: the rulings it finds, as "book:number:lang"."""
    page = page_factory()
    page.set_content("<!doctype html><meta charset=utf-8><title>search</title><main></main>")
    page.add_script_tag(path=str(STATIC / "stem.js"))
    page.add_script_tag(path=str(STATIC / "search.js"))

    def ask(query, lang="en", book="", text_lang=""):
        page.evaluate("indexes => { window.engine = new RulesrefSearch(indexes); }",
                      [json.loads(stored(b)) for b in Book.objects.all()])
        return page.evaluate("""([q, lang, book, textLang]) => engine.search(q, lang, book, textLang).rulings.map(
            h => h.row.book.slug + ":" + h.row.number + ":" + h.row.language)""", [query, lang, book, text_lang])

    return ask


def online(query, lang="en", book="", text_lang=""):
    return [f"{h.book}:{h.number}:{h.language}" for h in search.find(query, lang, book, text_lang)]


@pytest.mark.django_db
def test_the_offline_index_holds_each_published_ruling_in_each_of_its_languages(reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    make(reviewer, cite="11.4.2", question="Черновик о перехвате?", answer="Ещё не опубликован.", status=Status.DRAFT)
    data = json.loads(stored(Book.objects.get(slug="mpbs")))
    rows = data["rulings"]["rows"]
    assert [(r["n"], r["l"]) for r in rows] == [(1, "en"), (1, "ru")]  # the draft is not there
    ru = rows[1]
    assert (ru["q"], ru["a"]) == (QUESTION_RU, ANSWER_RU)
    assert data["sections"][ru["c"][0][0]]["sid"] == "9.3.1" and ru["c"][0][1:] == ["9.3.1", "f"]
    assert "перехват" in {data["stems"][i] for i in ru["s"]}
    assert ru["u"] == {"ru": "/ru/rules/mpbs/rulings/1/", "en": "/en/rules/mpbs/rulings/1/"}
    assert data["rulings"]["scanned"] == search.SCANNED and data["rulings"]["shown"] == search.SHOWN


QUERIES = ["перехват", "перехватом активаций", "перехв", "кавалерия", "кавалерийских попыткой", "intercepting",
           "intercepts activations", "cavalry attempt", "отступает", "перехватом преследования", "не удался",
           "pursuit", "пе"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_offline_and_online_find_the_same_rulings_in_the_same_order(reviewer, offline_rulings, lang):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    make(reviewer, cite="11.4.2", question="Куда отступает подразделение?",
         answer="Подразделение отступает, если перехват не удался.")
    make(reviewer, cite="11.4.2", question="Когда перехват не удался?", answer="Тогда ничего не происходит.",
         other=("When did an interception fail?", "Then nothing happens."))
    make(reviewer, cite="11.4.2", question="Может ли перехватить кавалерия?", answer="Да.")
    make(reviewer, cite="9.3.1f", question="Сколько раз?", answer="Перехват возможен однажды.")
    make(reviewer, slug="t9a", cite="XIII.7.C", lang="ru", question="Перехват при преследовании?",
         answer="Нет.")
    found_any = False
    for query in QUERIES:
        for book, text_lang in [("", ""), ("mpbs", ""), ("", "en")]:
            want = online(query, lang, book, text_lang)
            assert offline_rulings(query, lang, book, text_lang) == want, (query, book, text_lang)
            found_any = found_any or len(want) > 1
    assert found_any
    # the question as typed first (the one the query names most fully first), then in another form
    assert online("перехват", lang)[:3] == ["t9a:1:ru", "mpbs:3:ru", "mpbs:4:ru"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.offline_copies
@pytest.mark.usefixtures("fast_passwords")
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_kept_copy_finds_a_ruling_offline_under_its_clause_in_the_readers_language(site, page_factory, lang):
    make(make_user("rita", "reviewers"), other=(QUESTION_EN, ANSWER_EN))
    question = {"ru": QUESTION_RU, "en": QUESTION_EN}[lang]
    other_question = {"ru": QUESTION_EN, "en": QUESTION_RU}[lang]
    query = {"ru": "перехватом активаций", "en": "intercepting activations"}[lang]  # forms not in the text
    page = page_factory()
    keep(page, site, lang=lang)
    page.context.set_offline(True)
    page.goto(f"{site.url}/{lang}/rules/mpbs/9.2.1/")
    results = live_search(page, query)
    assert results.locator(".offline-search-note").count() == 1  # the offline search answered, not the site
    group = results.locator("section.ruling-hits")
    assert re.match({"ru": r"Разъяснения", "en": r"Rulings"}[lang], group.locator("h2").inner_text())
    hit = group.locator("li").first
    clause = hit.locator("a.ruling-clause")
    assert clause.inner_text() == "9.3.1f" and clause.get_attribute("href") == f"/{lang}/rules/mpbs/9.3.1/#9.3.1f"
    link = hit.locator("a.ruling-hit")
    assert link.get_attribute("href") == f"/{lang}/rules/mpbs/rulings/1/"
    shown = link.locator("span[lang]")
    assert shown.get_attribute("lang") == lang and shown.inner_text() == question
    assert other_question not in group.inner_text()
    assert hit.locator("mark").count() >= 2  # both words highlighted, in their forms in the text
    link.click()  # the ruling's page is kept too
    page.wait_for_url(re.compile(f"/{lang}/rules/mpbs/rulings/1/$"))
    assert question in page.locator("main").inner_text()
    assert page.errors == []
