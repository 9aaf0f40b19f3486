"""Rulings on the clause (#32 point 1): written, published, shown under the clause they answer, marked "may be
outdated" when a cited clause changes (derived, never written by the change) and current again once confirmed."""
from __future__ import annotations

import re

import pytest
from rulings_support import ANSWER_EN, ANSWER_RU, QUESTION_EN, QUESTION_RU, book, change_source, make

from rulesref.rulings import citations, workflow
from rulesref.rulings.models import Citation, Ruling, RulingText
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def test_citations_are_read_in_any_printed_form_and_checked_against_the_book():
    b = book()
    assert [c.label for c in citations.parse("9.3.1f, 11. 4. 2; п. 9.3.2", b)] == ["9.3.1f", "11.4.2", "9.3.2"]
    for wrong, says in [("9.3.9", "not a section"), ("9.3.1z", "no clause"), ("", "at least one clause")]:
        with pytest.raises(citations.CitationError, match=says):
            citations.parse(wrong, b)


def test_a_published_ruling_is_shown_under_the_clause_it_answers(client, reviewer):
    ruling = make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    assert ruling.number == 1 and ruling.state == Ruling.State.PUBLISHED
    html = client.get("/ru/rules/mpbs/9.3.1/").content.decode()
    under = html.split('id="9.3.1f"', 1)[1].split('id="9.3.1g"', 1)[0]
    assert "1 разъяснение" in under and "второй раз за одну активацию" in under
    assert 'href="/ru/rules/mpbs/rulings/1/"' in under
    assert 'class="ref" href="/ru/rules/mpbs/9.3.1/#9.3.1f"' in under  # its references linked as the rule text's
    english = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert "1 ruling" in english and "a second time in one activation" in english
    assert "<details class=\"rulings-here\">" in english  # collapsed: open without script


def test_a_ruling_may_be_outdated_when_its_clause_changes_until_confirmed(client, reviewer):
    ruling = make(reviewer)
    page = client.get("/en/rules/mpbs/rulings/1/").content.decode()
    assert "may be outdated" not in page
    change_source("9.3.1", "еще не пыталось", "еще ни разу не пыталось")
    stored = list(Citation.objects.filter(ruling=ruling).values_list("digest", flat=True))
    revision = book().revision
    page = client.get("/en/rules/mpbs/rulings/1/").content.decode()
    assert f"the rule changed in revision {revision}" in page
    assert list(Citation.objects.filter(ruling=ruling).values_list("digest", flat=True)) == stored  # nothing written
    workflow.confirm(ruling, user=reviewer)
    page = client.get("/en/rules/mpbs/rulings/1/").content.decode()
    assert "may be outdated" not in page


def test_a_change_elsewhere_in_the_section_leaves_a_clause_ruling_current(client, reviewer):
    make(reviewer)
    change_source("9.3.1", "c) Кавалерийское подразделение не рассеяно", "c) Кавалерийское подразделение не "
                                                                           "рассеяно и не разбито")
    assert "may be outdated" not in client.get("/en/rules/mpbs/rulings/1/").content.decode()


def test_the_translation_is_outdated_when_the_source_text_changes(reviewer):
    ruling = make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    source, target = (ruling.texts.get(language=code) for code in ("ru", "en"))
    assert workflow.state_of(target, source) == Status.APPROVED
    result = workflow.save_text(source, user=reviewer, question=QUESTION_RU, answer=ANSWER_RU + " Исключений нет.",
                                status=Status.APPROVED, base_version=source.version)
    assert not result.conflict
    source.refresh_from_db()
    target.refresh_from_db()
    assert workflow.state_of(target, source) == "outdated"
    assert RulingText.objects.get(pk=target.pk).published_answer == ANSWER_EN  # readers keep the last approved


def test_a_save_from_an_older_version_is_kept_as_a_conflict(reviewer):
    ruling = make(reviewer)
    source = ruling.texts.get(language="ru")
    first = workflow.save_text(source, user=reviewer, question=QUESTION_RU, answer="Нет.", status=Status.DRAFT,
                               base_version=source.version)
    second = workflow.save_text(source, user=reviewer, question=QUESTION_RU, answer="Да.", status=Status.DRAFT,
                                base_version=source.version)
    assert not first.conflict and second.conflict and not second.revision.applied
    source.refresh_from_db()
    assert source.answer == "Нет."


def test_drafts_are_not_shown_to_readers(client, reviewer):
    make(reviewer, status=Status.DRAFT)
    assert client.get("/en/rules/mpbs/rulings/1/").status_code == 404
    assert "ruling" not in client.get("/en/rules/mpbs/9.3.1/").content.decode().split("<main", 1)[1].lower()


def test_the_faq_lists_rulings_by_chapter_and_the_feed_announces_them(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    make(reviewer, cite="11.4.2", question="Что такое отступление?", answer="См. 11.4.2.")
    faq = client.get("/en/rules/mpbs/faq/").content.decode()
    assert faq.index("a second time") < faq.index("Что такое отступление")  # chapter 9 before 11
    assert re.search(r"<h2><a href=\"/en/rules/mpbs/9/\">", faq) and "not translated yet" in faq
    feed = client.get("/ru/rules/mpbs/faq/feed/")
    assert feed["Content-Type"].startswith("application/atom+xml")
    body = feed.content.decode()
    assert body.count("<entry>") == 2 and "http://testserver/ru/rules/mpbs/rulings/1/" in body


def test_rulings_are_found_by_search_in_any_word_form_in_both_languages(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    russian = client.get("/ru/search/", {"q": "второй активации"}).content.decode()
    group = russian.split('<section class="hit-group ruling-hits">', 1)[1]
    assert 'href="/ru/rules/mpbs/rulings/1/"' in group and "<mark>второй</mark>" in group
    english = client.get("/en/search/", {"q": "intercepts activations"}, HTTP_HX_REQUEST="true").content.decode()
    assert "ruling-hits" in english and "<mark>intercept</mark>" in english  # the live results too
    assert "ruling-hits" not in client.get("/en/search/", {"q": "pursuit"}).content.decode()


def test_the_offline_copy_names_the_faq_and_every_published_ruling(reviewer):
    from rulesref.offline.bundle import page_urls

    make(reviewer)
    make(reviewer, status=Status.DRAFT, question="Черновик?", answer="Да.")
    urls = page_urls(book())
    assert "/ru/rules/mpbs/faq/" in urls and "/en/rules/mpbs/rulings/1/" in urls
    assert "/en/rules/mpbs/rulings/2/" not in urls  # a draft is no reader's page


@pytest.mark.parametrize("path, russian, english", [
    ("/ru/rules/mpbs/faq/", "Разъяснения и ответы на вопросы", "Rulings and FAQ"),
    ("/ru/rules/mpbs/rulings/1/", "Пункты, на которые оно отвечает", "The clauses it answers"),
    ("/ru/rules/mpbs/rulings/1/history/", "История разъяснения 1", "History of ruling"),
    ("/ru/print/?s=mpbs:9.3.1&rulings=1", "Глоссарий использованных терминов", "Glossary of the terms used"),
    ("/ru/print/mine/", "Моя памятка", "My quick reference"),
    ("/ru/translate/mpbs/+rulings/", "Новое разъяснение", "New ruling"),
    ("/ru/translate/mpbs/+rulings/1/", "По единицам перевода, с памятью переводов", "Unit by unit"),
    ("/ru/translate/mpbs/+rulings/import/", "Импорт вопросов и ответов", "Import questions and answers"),
])
def test_a_russian_page_is_russian(rita, reviewer, path, russian, english):
    make(reviewer)
    html = rita.get(path).content.decode()
    assert russian in html and english not in html


def test_the_parallel_view_shows_each_column_its_rulings_language(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    html = client.get("/en/rules/mpbs/9.3.1/?view=parallel").content.decode()
    cells = re.findall(r'<div class="cell" role="cell" lang="(\w\w)">(.*?)</div>\n', html, re.S)
    with_rulings = {lang: cell for lang, cell in cells if "rulings-here" in cell}
    assert "второй раз за одну активацию" in with_rulings["ru"] and "a second time" in with_rulings["en"]
