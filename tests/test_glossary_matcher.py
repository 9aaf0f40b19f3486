"""The term matcher: inflected forms, phrases, abbreviations, no false match inside other words; tooltips."""
from pathlib import Path

import pytest

from rulesref.reference.glossary import GlossaryError, book_glossary, load_glossary

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@pytest.fixture(scope="module")
def mpbs():
    return book_glossary(FIXTURES, "mpbs")


@pytest.fixture(scope="module")
def t9a():
    return book_glossary(FIXTURES, "t9a")


def found(glossary, text, lang):
    return [(text[m.start:m.end], m.term.id) for m in glossary.find(text, lang)]


@pytest.mark.parametrize("text", ["хиты построения", "хитов построения", "хиту построения", "хитами построения",
                                  "хиты формирования"])
def test_inflected_russian_phrases_are_one_term(mpbs, text):
    assert found(mpbs, text, "ru") == [(text, "formation-hits")]


@pytest.mark.parametrize("text", ["перехват", "перехвата", "перехватить", "перехватом"])
def test_interception_in_any_form(mpbs, text):
    assert found(mpbs, text, "ru") == [(text, "interception")]


@pytest.mark.parametrize("text, term", [("intercepting", "interception"), ("Interception", "interception"),
                                        ("withdrawing", "withdraw"), ("formation hit", "formation-hits")])
def test_english_forms(mpbs, text, term):
    assert found(mpbs, text, "en") == [(text, term)]


def test_abbreviations_match_exactly(mpbs):
    assert found(mpbs, "2 ПД и ПМ", "ru") == [("ПД", "movement-point"), ("ПМ", "morale-check")]
    assert found(mpbs, "a clear LOS", "en") == [("LOS", "line-of-sight")]
    assert found(mpbs, "los angeles", "en") == []


def test_no_match_inside_other_words_or_across_punctuation(mpbs):
    assert found(mpbs, "ежевика", "ru") == []  # ёж (Hedgehog) is not inside another word
    assert found(mpbs, "хиты. Построения", "ru") != [("хиты. Построения", "formation-hits")]


def test_the_same_word_means_different_terms_in_the_two_books(mpbs, t9a):
    assert [t for _, t in found(t9a, "Подразделение должно отступать", "ru")][-1] == "flee"
    assert "retreat" in {t for _, t in found(mpbs, "подразделение отступает на 2 гекса", "ru")}


def test_forbidden_variant_is_reported(mpbs):
    matches = mpbs.find("под приказом «Нападение»", "ru")
    assert any(m.forbidden and m.term.id == "charge-order" for m in matches)


def test_bad_glossary_file_names_the_entry(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('[[term]]\nid = "x"\nen = "x"\n', encoding="utf-8")
    with pytest.raises(GlossaryError, match=r"term\[0\] \(x\): missing or empty ru"):
        load_glossary(path)
