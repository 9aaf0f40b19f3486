"""The read API returns what the pages show (#32 point 2): for the same address and language, a section's HTML is
the page's text, the contents are the contents page's, the glossary the glossary page's, search finds what the
search page finds in the same order, and the rulings are the FAQ page's, outdated or not alike."""
from __future__ import annotations

import html
import re

import pytest
from rulings_support import ANSWER_EN, QUESTION_EN, change_source, make

from rulesref.api import http as api_http

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
SECTIONS = [("mpbs", "9.3.1"), ("mpbs", "11.4.2"), ("mpbs", "5.7"), ("t9a", "XIII.7.C")]
ORIGIN = "http://testserver"


@pytest.fixture(autouse=True)
def fresh_api_cache():
    api_http.clear()
    yield


def inner(page: str, opening: str) -> str:
    """The HTML inside the div that ``opening`` opens (its nested divs counted)."""
    start = page.index(opening) + len(opening)
    depth = 1
    for tag in re.finditer(r"<(/?)div\b[^>]*>", page[start:]):
        depth += -1 if tag[1] else 1
        if depth == 0:
            return page[start:start + tag.start()]
    raise AssertionError("unclosed div")


def page_text(page: str, lang: str) -> str:
    """The text blocks of a section page, without what follows each paragraph (its report link, its rulings)."""
    text = inner(page, f'<div class="text" lang="{lang}">')
    text = re.sub(r'<p class="report-problem">.*?</p><div class="report-slot" id="[^"]+" aria-live="polite"></div>', "",
                  text, flags=re.S)
    return re.sub(r'<details class="rulings-here">.*?</details>', "", text, flags=re.S)


@pytest.mark.parametrize("book, sid", SECTIONS)
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_sections_html_is_its_pages_text(client, book, sid, lang):
    page = client.get(f"/{lang}/rules/{book}/{sid}/").content.decode()
    data = client.get(f"/api/v1/books/{book}/sections/{sid}?lang={lang}").json()
    assert data["html"].replace(f'href="{ORIGIN}/', 'href="/').replace(f'data-href="{ORIGIN}/', 'data-href="/') == \
        page_text(page, lang)
    heading = html.unescape(re.sub(r"<[^>]+>", "", re.search(r"<h1>(.*?)</h1>", page, re.S)[1]))
    assert " ".join(heading.split()) == data["label"]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_contents_are_the_contents_pages(client, lang):
    page = client.get(f"/{lang}/rules/mpbs/").content.decode()
    shown = [" ".join(html.unescape(re.sub(r"<[^>]+>", "", label)).split()) for label in
             re.findall(r'<li[^>]*><a href="/\w\w/rules/mpbs/[^"]+/">(.*?)</a>', page)]
    data = client.get("/api/v1/books/mpbs/contents").json()
    labels = [s["label"][lang] for s in data["sections"] if not s["absent"]]
    assert shown == labels


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_glossary_is_the_glossary_pages(client, lang):
    page = client.get(f"/{lang}/glossary/mpbs/").content.decode()
    linked = set(re.findall(r'href="/\w\w/glossary/mpbs/([\w-]+)/"', page))
    terms = client.get("/api/v1/books/mpbs/glossary").json()["terms"]
    assert linked == {t["id"] for t in terms}
    for term in terms:
        assert html.escape(term["term"][lang], quote=False) in page


@pytest.mark.parametrize("query, lang", [("перехватить", "ru"), ("retreat", "en"), ("pursuit", "ru"),
                                         ("хеджхог", "en")])
def test_search_finds_what_the_search_page_finds_in_its_order(client, query, lang):
    page = client.get(f"/{lang}/search/", {"q": query}).content.decode()
    shown = re.findall(r'<li><a href="(/\w\w/rules/[^"]+)"', page)
    data = client.get("/api/v1/search", {"q": query, "lang": lang}).json()
    found = [hit["url"].removeprefix(ORIGIN) for group in data["groups"] for hit in group["hits"]]
    assert found == shown and found
    if data["suggestion"]:
        assert f">{data['suggestion']}</a>" in page


def test_the_rulings_are_the_faq_pages(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    make(reviewer, cite="11.4.2", question="Что значит 11.4.2?", answer="То, что в нём написано.")
    for lang in ("ru", "en"):
        page = client.get(f"/{lang}/rules/mpbs/faq/").content.decode()
        data = client.get(f"/api/v1/books/mpbs/rulings?lang={lang}").json()
        questions = [html.unescape(re.sub(r"<[^>]+>", "", q)) for q in
                     re.findall(r'<h3 class="ruling-q">.*?<span lang="\w\w">(.*?)</span></h3>', page, re.S)]
        assert questions == [r["question"] for r in data["rulings"]]


def test_outdated_alike_on_the_page_and_in_the_api(client, reviewer):
    make(reviewer)
    revision = change_source("9.3.1", "еще не пыталось", "еще ни разу не пыталось")
    page = client.get("/en/rules/mpbs/rulings/1/").content.decode()
    data = client.get("/api/v1/books/mpbs/rulings/1?lang=en").json()
    assert data["outdated"] and data["outdated_in"] == revision
    assert f"the rule changed in revision {revision}" in page
