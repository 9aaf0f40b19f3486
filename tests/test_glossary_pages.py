"""Tooltips in the rule text and the glossary pages, in both languages."""
import re
import shutil
from pathlib import Path

import pytest

from rulesref.reference.loading import load_corpus

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

pytestmark = pytest.mark.django_db


def _marks(html):
    """(term id, is first) for every marked occurrence, in page order."""
    return [(m.group(2), m.group(1) == " first") for m in
            re.finditer(r'<(?:a|span) class="term( first)?"(?: href="[^"]+")? data-term="([^"]+)"', html)]


def _text(html):
    # From the rule text to the end of the article: its paragraphs hold divs of their own (a report form's slot),
    # and what follows the text (definitions, subsections) holds no marks.
    return re.search(r'<div class="text"[^>]*>(.*?)</article>', html, re.S).group(1)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_first_occurrence_of_each_term_in_the_section_is_the_one_marked(client, lang):
    """#13: 41 words of 9.3.1 were underlined, the first use of each term in every paragraph. Now each term is
    a link once per section, at its first use; later uses are plain marks the reader may choose to show."""
    marks = _marks(_text(client.get(f"/{lang}/rules/mpbs/9.3.1/").content.decode()))
    firsts = [term for term, first in marks if first]
    assert len(firsts) == len(set(firsts)) == len({term for term, _ in marks})
    for term in set(firsts):
        assert [first for t, first in marks if t == term][0], term  # the link is the first use
    assert len(firsts) < len(marks) and len(firsts) < 41
    # 9.3.1 uses "formation hits" in e) only, "cavalry" in the lead-in and in b) to e): one link each
    assert firsts.count("formation-hits") == 1 and firsts.count("cavalry") == 1


def test_a_first_occurrence_links_to_the_entry_and_is_described_by_its_definition(client):
    html = client.get("/ru/rules/mpbs/9.3.1/").content.decode()
    clause = re.search(r'<p class="clause" id="9.3.1e">(.*?)</p>', html, re.S).group(1)
    assert re.search(r'<a class="term first" href="/ru/glossary/mpbs/formation-hits/" data-term="formation-hits" '
                     r'aria-describedby="tip-ru-formation-hits">хиты построения</a>', clause), clause
    definition = re.search(r'<div class="term-tips" hidden>.*?(<p id="tip-ru-formation-hits"[^>]*>.*?</p>)',
                           html, re.S).group(1)
    assert '<b lang="en">formation hits</b>' in definition and 'data-href="/ru/glossary/mpbs/formation-hits/"' \
        in definition


@pytest.mark.parametrize("url", ["/ru/rules/mpbs/9.3.1/", "/en/rules/mpbs/11.4.10/", "/en/rules/t9a/XIII.7.C/",
                                 "/en/rules/mpbs/9.3.1/?view=parallel"])
def test_each_definition_is_on_the_page_once_for_every_term_used(client, url):
    html = client.get(url).content.decode()
    ids = re.findall(r'<p id="(tip-(?:ru|en)-[^"]+)"', html)
    assert ids and len(ids) == len(set(ids))
    used = set()
    for cell_lang, cell in re.findall(r'lang="(ru|en)">(.*?)</div>', html, re.S):
        used |= {f"tip-{cell_lang}-{term}" for term, _ in _marks(cell)}
    assert used <= set(ids)
    assert html.count('role="tooltip"') == 0  # no tooltip per occurrence any more


def test_english_tooltip_gives_the_russian_term(client):
    html = client.get("/en/rules/mpbs/9.2.3/").content.decode()
    assert re.search(r'<a class="term first" href="/en/glossary/mpbs/hedgehog/" data-term="hedgehog" '
                     r'aria-describedby="tip-en-hedgehog">Hedgehog</a>', html)
    assert re.search(r'<p id="tip-en-hedgehog" lang="en" data-href="[^"]+"><b lang="ru">ёж</b> ', html)


def test_parallel_view_has_tooltips_in_both_columns(client):
    html = client.get("/en/rules/mpbs/9.3.1/?view=parallel").content.decode()
    assert 'href="/ru/glossary/mpbs/formation-hits/"' in html and 'href="/en/glossary/mpbs/formation-hits/"' in html
    assert 'id="tip-ru-formation-hits"' in html and 'id="tip-en-formation-hits"' in html


def test_words_in_another_sense_are_not_marked_on_the_page(client):
    """#13: on the English 9.3.1 "pass through" was linked to «пасовать» and "active" to «активация»."""
    html = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert "an active enemy <" in html and "does not pass through" in html
    assert 'data-term="pass"' not in html and ">active<" not in html
    withdraw = client.get("/en/rules/mpbs/9.2.2/").content.decode()
    assert 'data-term="movement">moving' not in withdraw and "moving half" in withdraw


def test_html_per_further_occurrence_of_a_term_is_small(client, corpus_copy):
    """#11: each tooltip repeated its definition (1,600 occurrences made 626 KB). A term already on the page
    adds at most 100 bytes of markup per further occurrence."""
    shutil.copytree(FIXTURES / "glossary", corpus_copy.parent / "glossary")
    path = corpus_copy / "mpbs" / "en" / "9.md"
    original = path.read_text(encoding="utf-8")
    plain = client.get("/en/rules/mpbs/9.3.1/").content
    n = 400
    added = "The " + ", then ".join(["formation hits"] * n) + "."
    path.write_text(original.replace("NOTE: unlike other types", f"{added}\n\nNOTE: unlike other types", 1),
                    encoding="utf-8")
    load_corpus()
    html = client.get("/en/rules/mpbs/9.3.1/").content
    assert html.count(b'data-term="formation-hits"') == plain.count(b'data-term="formation-hits"') + n
    paragraph_markup = len("<p></p>")
    per_occurrence = (len(html) - len(plain) - len(added.encode()) - paragraph_markup) / n
    assert per_occurrence <= 100, per_occurrence


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
