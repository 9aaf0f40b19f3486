"""Tooltips in the rule text and the glossary pages, in both languages."""
import re

import pytest

pytestmark = pytest.mark.django_db


def test_first_occurrence_of_a_term_in_each_paragraph_has_a_tooltip(client):
    html = client.get("/ru/rules/mpbs/9.3.1/").content.decode()
    paragraph = re.search(r'<p class="clause" id="9.3.1e">(.*?)</p>', html, re.S).group(1)
    assert paragraph.count('href="/ru/glossary/mpbs/formation-hits/"') == 1
    tip = re.search(r'aria-describedby="([^"]+)">хиты построения</a><span class="tip" role="tooltip" id="\1">'
                    r'<b lang="en">formation hits</b> ', paragraph)
    assert tip, paragraph
    ids = re.findall(r'role="tooltip" id="([^"]+)"', html)
    assert len(ids) == len(set(ids))  # unique on the page


def test_english_tooltip_gives_the_russian_term(client):
    html = client.get("/en/rules/mpbs/9.2.3/").content.decode()
    assert re.search(r'<a class="term-link" href="/en/glossary/mpbs/hedgehog/"[^>]*>Hedgehog</a>'
                     r'<span class="tip" role="tooltip" id="[^"]+"><b lang="ru">ёж</b>', html)


def test_parallel_view_has_tooltips_in_both_columns(client):
    html = client.get("/en/rules/mpbs/9.3.1/?view=parallel").content.decode()
    assert 'href="/ru/glossary/mpbs/formation-hits/"' in html and 'href="/en/glossary/mpbs/formation-hits/"' in html


@pytest.mark.parametrize("lang, first, last", [("en", "activation", "wing"), ("ru", "активация", "хит")])
def test_glossary_list_is_alphabetical_in_the_current_language(client, lang, first, last):
    html = client.get(f"/{lang}/glossary/mpbs/").content.decode()
    names = re.findall(r'<dt><a href="/\w\w/glossary/mpbs/[^/]+/">([^<]+)</a>', html)
    assert len(names) == 107
    assert names == sorted(names, key=lambda n: n.casefold().replace("ё", "е").replace("«", "").replace("»", ""))


def test_glossary_filter_works_without_javascript(client):
    html = client.get("/ru/glossary/mpbs/", {"q": "хитов"}).content.decode()
    assert 'href="/ru/glossary/mpbs/formation-hits/"' in html
    assert 'href="/ru/glossary/mpbs/hedgehog/"' not in html


def test_term_page_shows_both_languages_and_every_section_using_it(client):
    html = client.get("/en/glossary/mpbs/formation-hits/").content.decode()
    assert "хиты построения" in html and "formation hits" in html and "хиты формирования" in html
    assert 'href="/en/rules/mpbs/11.4.10/"' in html and 'href="/en/rules/mpbs/9.3.1/"' in html


def test_unknown_term_and_book_are_404(client):
    assert client.get("/en/glossary/mpbs/no-such-term/").status_code == 404
    assert client.get("/en/glossary/nope/").status_code == 404
