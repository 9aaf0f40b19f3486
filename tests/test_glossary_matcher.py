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


def test_terms_in_gives_each_term_once_at_its_first_match_without_forbidden_variants(mpbs):
    """What a translation of the text needs: the QA term check, the editor and the export all ask this."""
    text = "Перехват: хиты построения. Снова перехват, под приказом «Нападение», и хитов построения."
    every = found(mpbs, text, "ru")
    assert [t for _, t in every].count("interception") == 2 and any(m.forbidden for m in mpbs.find(text, "ru"))
    needed = [(text[m.start:m.end], m.term.id, m.start) for m in mpbs.terms_in(text, "ru")]
    assert [(a, t) for a, t, _ in needed] == [("Перехват", "interception"), ("хиты построения", "formation-hits")] + [
        (a, t) for a, t in every if t not in ("interception", "formation-hits", "charge-order")]
    assert needed[0][2] == 0 and all(not m.forbidden for m in mpbs.terms_in(text, "ru"))


def test_bad_glossary_file_names_the_entry(tmp_path):
    path = tmp_path / "g.toml"
    path.write_text('[[term]]\nid = "x"\nen = "x"\n', encoding="utf-8")
    with pytest.raises(GlossaryError, match=r"term\[0\] \(x\): missing or empty ru"):
        load_glossary(path)


# ---------------------------------------------------------------- word senses an entry does not cover (#13)
# Each case is read from the rules text: in 9.3.1d the path "does not pass through" dead zones (no one declines
# to act); in 9.2.3 a unit forms a Hedgehog "by passing a morale check"; in 9.3.1 "an active enemy unit" is the
# unit that is moving, not the activation; "the moving unit" / "its moving half" name a unit, not the
# Movement rules (while "moving into a hex" is the movement itself); in 11.4 a retreat of 1 or 2 hexes is "an orderly fallback" (no order) and a unit "was attacked"
# (it is not the Attacker); in 9.3.2 a player need not announce his attempts "in advance".

@pytest.mark.parametrize("text, term", [
    ("a clear movement path that does not pass through “dead zones”", "pass"),
    ("the path passes through friendly artillery", "pass"),
    ("may attempt to form a “Hedgehog” by passing a morale check (MC)", "pass"),
    ("intercept an active enemy unit", "activation"),
    ("to enter a hex adjacent to the moving unit", "movement"),
    ("the hexes that the moving half of the unit enters", "movement"),
    ("A retreat of 1 or 2 hexes is an orderly fallback", "order"),
    ("even if only one of them was attacked", "attacker"),
    ("he does not have to announce all of his attempts in advance", "advance-after-combat"),
])
def test_other_senses_are_not_the_term(mpbs, text, term):
    assert term not in {t for _, t in found(mpbs, text, "en")}


@pytest.mark.parametrize("text, term", [
    ("The player may not pass in this activation.", "pass"),
    ("then activates the other units of the active wing", "activation"),
    ("during the current activation of the enemy wing", "activation"),
    ("an eligible reacting unit may move up to its full movement allowance", "movement"),
    ("The player consults the table; its movement resumes", "movement"),
    ("If moving into a hex causes a formation hit", "movement"),  # the gerund is the movement itself
    ("the attacking unit must advance", "advance-after-combat"),
    ("the cavalry unit's current order", "order"),
    ("the Attacker's losses", "attacker"),
])
def test_the_term_itself_is_still_found(mpbs, text, term):
    assert term in {t for _, t in found(mpbs, text, "en")}


def test_an_other_sense_hides_only_its_own_entry(mpbs):
    # "active" is not the activation, but "the active player" and "the active wing" are terms of their own
    assert found(mpbs, "the active player resumes", "en") == [("active player", "active-player")]
    assert ("active wing", "active-wing") in found(mpbs, "the other units of the active wing", "en")


def test_russian_other_senses(t9a):
    # «с целью» is "in order to", not the target of a charge; «цель нападения» is the target.
    assert "target" not in {t for _, t in found(t9a, "Подразделение может повернуться с целью занять позицию", "ru")}
    assert "target" in {t for _, t in found(t9a, "если цель нападения находится в пределах", "ru")}


def _glossary(tmp_path, extra):
    path = tmp_path / "g.toml"
    path.write_text('[[term]]\nid = "movement"\nen = "movement"\nen_variants = ["move"]\nru = "движение"\n'
                    'definition_en = "d"\ndefinition_ru = "д"\nconfidence = "sure"\ncategory = "movement"\n'
                    f'{extra}\n'
                    '[[term]]\nid = "moving-unit"\nen = "moving unit"\nru = "движущееся подразделение"\n'
                    'definition_en = "d"\ndefinition_ru = "д"\nconfidence = "sure"\ncategory = "unit"\n',
                    encoding="utf-8")
    return path


def test_a_one_word_other_sense_of_the_terms_own_stem_is_matched_as_written(tmp_path):
    from rulesref.reference.glossary import Glossary

    terms = load_glossary(_glossary(tmp_path, 'en_other_senses = ["moving"]\nru_other_senses = ["движение души"]'))
    glossary = Glossary("x", terms)
    assert found(glossary, "a unit moves; its movement; MOVED", "en") == [
        ("moves", "movement"), ("movement", "movement"), ("MOVED", "movement")]
    assert found(glossary, "Moving on, the moving unit", "en") == [("moving unit", "moving-unit")]
    assert found(glossary, "движения души и движение отряда", "ru") == [("движение", "movement")]


@pytest.mark.parametrize("extra, message", [
    ('en_other_senses = ["Move"]', "move is both a form of the term and one of its other senses"),
    ('ru_other_senses = [""]', "ru_other_senses must be a list of non-empty strings"),
    ('en_other_senses = "moving"', "en_other_senses must be a list"),
])
def test_bad_other_senses_are_refused_with_the_entry_named(tmp_path, extra, message):
    with pytest.raises(GlossaryError, match=r"term\[0\] \(movement\): " + message):
        load_glossary(_glossary(tmp_path, extra))
