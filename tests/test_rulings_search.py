"""Rulings in the site's search (#32 point 3): read by the site's query model (search_query.Query), so a ruling is
found by any form of its words as a section is, the last word also as the beginning of a longer one, any word when
none has them all; ranked by the site's ranking (search_ranking's tiers and order: the question as a title); each
hit under the clauses it answers."""
from __future__ import annotations

import pytest
from rulings_support import ANSWER_EN, ANSWER_RU, QUESTION_EN, QUESTION_RU, make

from rulesref.rulings import search
from rulesref.rulings.models import Ruling
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def numbers(query, lang="ru", **kwargs):
    return [h.number for h in search.find(query, lang, **kwargs)]


@pytest.mark.parametrize("query", [
    "перехватом активаций",  # перехватить, активацию: other cases and forms of the same words
    "кавалерийских попыткой",  # кавалерийское, попытка
    "однажды перехв",  # the last word still being typed: the beginning of перехватить
    "ПЕРЕХВАТОМ",  # case folded
])
def test_a_ruling_is_found_by_russian_word_forms_it_does_not_contain(reviewer, query):
    make(reviewer)
    assert query.lower() not in (QUESTION_RU + ANSWER_RU).lower()
    assert numbers(query) == [1], query


def test_words_it_lacks_find_nothing_and_a_short_last_word_is_no_prefix(reviewer):
    make(reviewer)
    assert numbers("преследование") == []
    assert numbers("пе") == [] and numbers("пер") == [1]  # a stem of two letters stands for no word it begins


def test_any_word_when_no_ruling_has_them_all(reviewer):
    make(reviewer)
    assert numbers("перехватом преследования") == [1]  # as the sections' search falls back to any word


def test_the_reader_sees_the_text_in_his_language_when_both_match_and_the_others_when_only_it_does(reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    [hit] = search.find("intercepting", "ru")
    assert hit.language == "en" and "<mark>intercept</mark>" in hit.question_html
    [hit] = search.find("перехват", "ru")
    assert hit.language == "ru" and hit.url == "/ru/rules/mpbs/rulings/1/"
    assert hit.clauses == [("9.3.1f", "/ru/rules/mpbs/9.3.1/#9.3.1f")]
    assert numbers("intercepting", text_lang="ru") == []


def test_ranked_as_the_site_ranks_question_first_then_the_clauses_place(reviewer):
    # 1: the words only in its answer; 2: in its question as typed; 3: in its question in another form; 4: only
    # in its answer, on a clause earlier in the book than 1's. Newest first would be 4, 3, 2, 1.
    make(reviewer, cite="11.4.2", question="Куда отступает подразделение?",
         answer="Подразделение отступает, если перехват не удался.")
    make(reviewer, cite="11.4.2", question="Когда перехват не удался?", answer="Тогда ничего не происходит.")
    make(reviewer, cite="11.4.2", question="Может ли перехватить кавалерия?", answer="Да.")
    make(reviewer, cite="9.3.1f", question="Сколько раз?", answer="Перехват возможен однажды.")
    assert numbers("перехват") == [2, 3, 4, 1]


def test_drafts_and_withdrawn_rulings_are_not_found(reviewer):
    make(reviewer, status=Status.DRAFT)
    assert numbers("перехватом") == []
    ruling = make(reviewer)
    Ruling.objects.filter(pk=ruling.pk).update(state=Ruling.State.WITHDRAWN)
    assert numbers("перехватом") == []


def test_the_search_page_shows_each_ruling_under_its_clauses_and_escapes_its_text(client, reviewer):
    make(reviewer, question="<script>alert(1)</script> Можно ли перехватить?", cite="9.3.1f, 11.4.2")
    html = client.get("/ru/search/", {"q": "перехватом"}).content.decode()
    group = html.split('<section class="hit-group ruling-hits">', 1)[1]
    assert '<p class="ruling-clauses"><a class="ruling-clause" href="/ru/rules/mpbs/9.3.1/#9.3.1f">9.3.1f</a>, ' \
           '<a class="ruling-clause" href="/ru/rules/mpbs/11.4.2/">11.4.2</a></p>' in group
    assert "<script>alert" not in group and "&lt;script&gt;" in group
