"""The coverage map of each rulebook's engine: every section and lettered clause with what the engine does with it,
in both languages, linked from every section page; its totals are the README's."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesref.checker import books
from rulesref.checker.coverage import clause_rows, totals
from rulesref.reference.corpus import read_book

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


def corpus_rows(book):
    doc = read_book(ROOT / "fixtures" / "corpus" / book)
    sections = [(s.id, "absent" in s.flags, s.body) for s in doc.languages["ru"]]
    return clause_rows(book, sections, {slug: ex.data for slug, ex in books.examples(book).items()})


def row_html(html: str, clause: str) -> str:
    match = re.search(rf'<li class="[^"]*" id="c-{re.escape(clause)}">(.*?)</li>', html, re.S)
    assert match, f"no row for {clause}"
    return match.group(1)


def test_mpbs_coverage_lists_sections_and_lettered_clauses_with_what_the_engine_does(client):
    html = client.get("/en/rules/mpbs/coverage/").content.decode()
    # A lettered clause the engine decides, with its question and an example scenario that decides it.
    c = row_html(html, "9.3.1c")
    assert "decided" in c and "Can this cavalry intercept?" in c and "/en/checker/mpbs/examples/" in c
    # A clause left undetermined without table rows names the data.
    assert "Interception Table" in row_html(html, "9.3.2")
    # 9.3.4 ("After all Close Combat results…") has no rule function: not modelled.
    assert "not modelled" in row_html(html, "9.3.4")
    # 9.2.2b, the lettered case of two-hex units, has its own row.
    assert 'id="c-9.2.2b"' in html and 'id="c-9.2.2a"' in html


def test_coverage_page_in_russian_speaks_russian(client):
    html = client.get("/ru/rules/t9a/coverage/").content.decode()
    assert "Что решает движок правил" in html and "What the rules engine decides" not in html
    assert "решено" in row_html(html, "hold")
    assert "не моделируется" in html or "не определено по замыслу" in html


def test_the_rows_claim_decided_only_where_an_example_decides(client):
    for book in books.BOOKS:
        for row in corpus_rows(book):
            if row.decided_by:
                assert any(e.decided for e in row.exercises), row.clause


def test_every_section_page_links_to_its_row_of_the_coverage_map(client):
    html = client.get("/en/rules/mpbs/9.3.4/").content.decode()
    assert 'href="/en/rules/mpbs/coverage/#c-9.3.4"' in html
    html = client.get("/ru/rules/t9a/hold/").content.decode()
    assert 'href="/ru/rules/t9a/coverage/#c-hold"' in html


def test_a_book_without_an_engine_has_no_coverage_map(client):
    assert client.get("/en/rules/nosuchbook/coverage/").status_code == 404


def test_readme_gives_the_totals_of_each_coverage_map():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for book in books.BOOKS:
        t = totals(corpus_rows(book))
        expected = (f"`{book}`: {t['decides']} decided ({t['decides_with_data']} of them undetermined without data the "
                    f"corpus lacks), {t['undetermined']} undetermined by design, "
                    f"{t['not_modelled']} not modelled, of {t['all']} sections and lettered clauses")
        assert expected in readme, expected


def test_rules_outside_the_corpus_are_listed_with_their_source_and_examples(client):
    html = client.get("/en/rules/t9a/coverage/").content.decode()
    row = re.search(r'<li class="[^"]*" id="outside-charge-range">(.*?)</li>', html, re.S).group(1)
    assert "Charge Range" in row and "rule outside the corpus" in row and "TERMS.md" in row
    assert "rules_outside_corpus.charge-range.dice" in row and "/en/checker/t9a/examples/" in row
    ru = client.get("/ru/rules/t9a/coverage/").content.decode()
    assert "Дальность нападения" in ru and "правило вне корпуса" in ru


def test_an_answer_shows_a_rule_outside_the_corpus_as_such_in_both_languages(client):
    for lang, label in (("en", "Rule outside the corpus: Charge Range"),
                        ("ru", "Правило вне корпуса: Дальность нападения")):
        url = f"/{lang}/checker/t9a/examples/charge-out-of-range/?q=can-charge&p-charger=knights&p-target=goblins"
        html = client.get(url).content.decode()
        assert label in html, lang
        assert f'href="/{lang}/rules/t9a/coverage/#outside-charge-range"' in html


def test_an_answer_lists_the_interpretations_it_follows_in_the_readers_language(client):
    url = "/{lang}/checker/t9a/examples/pursuit-pivot-friend-in-the-way/?q=pursuit"
    en = client.get(url.format(lang="en")).content.decode()
    assert "Interpretations followed" in en and "takes the shorter turn" in en and "pivots about its centre" in en
    ru = client.get(url.format(lang="ru")).content.decode()
    assert "Толкования" in ru and "на меньший угол" in ru
