"""The reference parser: every form the corpus prints, and the numbers that are not references."""
import pytest

from rulesref.reference.refs import find_references, section_part


def refs(text):
    return [(r.anchor, r.target, r.kind) for r in find_references(text)]


@pytest.mark.parametrize("text, expected", [
    ("см. (6.2.1).", [("6.2.1", "6.2.1", "section")]),
    ("три типа (9.2.2 – 9.2.4). Нет", [("9.2.2", "9.2.2", "section"), ("9.2.4", "9.2.4", "section")]),
    ("types (9.2.2–9.2.4)", [("9.2.2", "9.2.2", "section"), ("9.2.4", "9.2.4", "section")]),
    ("применяется правило 11. 4. 5. Подразделение", [("11. 4. 5", "11.4.5", "section")]),
    ("rule 11.4.5 applies", [("11.4.5", "11.4.5", "section")]),
    ("перечисленных в 6.3.2b (включая", [("6.3.2b", "6.3.2b", "section")]),
    ("«мертвые зоны» (10.9.3b)", [("10.9.3b", "10.9.3b", "section")]),
    ("на один (12.0).", [("12.0", "12", "section")]),
    ("ответное действие (9. 0), за", [("9. 0", "9", "section")]),
    ("(см. 11. 7).", [("11. 7", "11.7", "section")]),
    ("(see 11.7).", [("11.7", "11.7", "section")]),
    ("в разделе XIII.7.C «Преследование", [("XIII.7.C", "XIII.7.C", "section")]),
    ("XIII .7. C Дальность", [("XIII .7. C", "XIII.7.C", "section")]),
    ("как описано на странице 58 в разделе", [("на странице 58", "58", "page")]),
    ("as described on page 58 in", [("on page 58", "58", "page")]),
    ("ближнем бою (11. 2. F).", [("11. 2. F", "11.2.F", "section")]),
    ("(Exception: 5.8).", [("5.8", "5.8", "section")]),
])
def test_reference_forms(text, expected):
    assert refs(text) == expected


@pytest.mark.parametrize("text", [
    "требуется выбросить 0-5. Исходная мораль",
    "roll 0–5 to succeed",
    "на 2 гекса к краю",
    "стоит 2 ПД за поворот",
    "costs 1 MP plus",
    "остановится в 1.5 дюймах",
    "stops 1.5 inches short",
    "переходите к шагу 2.3.",
    "go to step 2.3",
    "на 180 градусов",
    "Дата добавления: 2019-02-12; просмотров: 328",
    "series rules v6.0 numbering",
    "modifier -1 applies",
])
def test_non_references(text):
    assert refs(text) == []


def test_anchor_offsets_point_into_the_text():
    text = "Есть три типа ответного движения (9.2.2 – 9.2.4)."
    for ref in find_references(text):
        assert text[ref.start:ref.end] == ref.anchor


def test_section_part_splits_lettered_clauses():
    assert section_part("10.9.3b") == ("10.9.3", "b")
    assert section_part("9.3.1") == ("9.3.1", "")
    assert section_part("XIII.7.C") == ("XIII.7.C", "")
