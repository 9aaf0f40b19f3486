"""Print (#32 point 3): a section, a chapter and a whole rulebook printed cleanly — no navigation, a page break
before each chapter, references as section numbers, the glossary of the terms used at the end — in either language
or both side by side, with or without rulings; and a quick-reference sheet's address, which is the sheet."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from rulings_support import ANSWER_EN, QUESTION_EN, make

from rulesref.printing import sheets
from rulesref.reference.index import book_index
from rulesref.reference.models import Book

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def sections_of(page: str) -> list[str]:
    return re.findall(r'<section class="print-section[^"]*" id="s-(\w+)-([^"]+)"', page)


def test_a_section_alone_and_a_chapter_with_its_subsections(client):
    one = client.get("/en/print/?s=mpbs:9.3.1").content.decode()
    assert sections_of(one) == [("mpbs", "9.3.1")]
    chapter = client.get("/en/print/?s=mpbs:9.3&tree=1").content.decode()
    sids = [sid for _book, sid in sections_of(chapter)]
    assert sids[0] == "9.3" and "9.3.1" in sids and all(s.startswith("9.3") for s in sids)


def test_a_whole_book_starts_each_chapter_on_a_new_page(client):
    page = client.get("/ru/print/?s=mpbs").content.decode()
    index = book_index(Book.objects.get(slug="mpbs"))
    assert [sid for _b, sid in sections_of(page)] == index.order
    chapters = [sid for sid in index.order if index.entries[sid].parent is None]
    new_pages = re.findall(r'<section class="print-section depth-1 new-page" id="s-mpbs-([^"]+)"', page)
    assert new_pages == chapters[1:]  # every chapter after the first begins a page
    assert "Глоссарий использованных терминов" in page
    css = (Path(__file__).resolve().parent.parent / "rulesref/printing/static/printing/print.css").read_text()
    assert ".print-section.new-page, .print-glossary { break-before: page; }" in css


def test_references_show_their_section_numbers_and_link_within_the_sheet(client):
    page = client.get("/en/print/?s=mpbs:9.3&tree=1").content.decode()
    assert re.search(r'<span class="ref ref-missing">10\.9\.3b</span>', page)  # a number that says itself
    whole = client.get("/en/print/?s=mpbs").content.decode()
    linked = re.findall(r'<a class="ref" href="#s-mpbs-([^"]+)">', whole)
    assert linked and set(linked) <= {sid for _b, sid in sections_of(whole)}  # links only to what is printed
    t9a = client.get("/en/print/?s=t9a").content.decode()
    assert re.search(r'on page 58</a> <span class="ref-number">\(“[^”]+”\)</span>', t9a)  # a page: which section


def test_the_terms_used_are_explained_once_at_the_end(client):
    page = client.get("/en/print/?s=mpbs:9.3.1").content.decode()
    glossary = page.split('<section class="print-glossary">', 1)[1]
    assert re.search(r'<dt><span lang="en">cavalry</span> <span class="muted other-term" lang="ru">\(кавалерия\)</span>'
                     r'</dt>\s*<dd lang="en">[^<]+</dd>', glossary, re.I)
    assert glossary.count("<dt>") == len(set(re.findall(r"<dt>(.*?)</dt>", glossary)))


def test_both_languages_side_by_side_with_rulings(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    page = client.get("/en/print/?s=mpbs:9.3.1&text=both&rulings=1").content.decode()
    row = re.search(r'<table class="print-parallel"><tbody><tr><td lang="ru">(.*?)</td><td lang="en">(.*?)</td>',
                    page, re.S)
    assert row and "кавалерийское" in row[1].lower() and "cavalry" in row[2].lower()
    assert "Ruling 1" in page and "a second time in one activation" in page
    assert "Ruling 1" not in client.get("/en/print/?s=mpbs:9.3.1&text=both").content.decode()


def test_a_sheet_of_sections_from_two_books_with_a_title(client):
    page = client.get("/ru/print/", {"s": ["mpbs:9.3.1", "t9a:XIII.7.C", "nope:1"], "title": "Моя памятка"})
    html = page.content.decode()
    assert page.status_code == 200 and "<h1>Моя памятка</h1>" in html
    assert sections_of(html) == [("mpbs", "9.3.1"), ("t9a", "XIII.7.C")]
    assert "«nope:1» не называет ни одной книги правил этого сайта." in html


def test_a_sheet_is_bounded_and_names_what_it_left_out(client, settings):
    settings.RULESREF_PRINT_MAX_SECTIONS = 5
    html = client.get("/en/print/?s=mpbs:9.3.1&s=mpbs&s=mpbs:11.4.2").content.decode()
    assert sections_of(html) == [("mpbs", "9.3.1"), ("mpbs", "11.4.2")]
    assert "left out, to print on their own" in html and 'href="/en/print/?s=mpbs' in html


def test_the_work_of_a_sheet_grows_with_what_it_prints_not_with_the_book(client, django_assert_max_num_queries):
    client.get("/en/print/?s=mpbs:9.3.1")  # the book's index, built once per content version
    with django_assert_max_num_queries(3):
        assert client.get("/en/print/?s=mpbs:9.3.1&s=mpbs:11.4.2").status_code == 200


def test_options_of_the_address_are_read_safely():
    from django.http import QueryDict

    options = sheets.read_options(QueryDict("s=mpbs:9.3.1&text=xx&title=" + "x" * 500), "ru",
                                  {"mpbs": Book.objects.get(slug="mpbs")})
    assert options.text == "ru" and len(options.title) == sheets.TITLE_MAX


def test_pages_link_their_print_and_the_quick_reference(client):
    section = client.get("/en/rules/mpbs/9.3/").content.decode()
    assert 'href="/en/print/?s=mpbs:9.3&amp;tree=1"' in section and 'class="quickref-add"' in section
    book = client.get("/ru/rules/mpbs/").content.decode()
    assert 'href="/ru/print/?s=mpbs"' in book and 'href="/ru/rules/mpbs/faq/"' in book
    mine = client.get("/ru/print/mine/").content.decode()
    assert "<h1>Моя памятка</h1>" in mine and 'data-print-base="/ru/print/"' in mine
