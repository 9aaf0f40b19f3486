"""The reference parser: every form the corpus prints, and the numbers that are not references; rule numbers typed
as a query; a book's own number forms."""
import pytest

from rulesref.reference.refs import (
    PatternError,
    compile_patterns,
    find_references,
    latinise,
    normalise,
    number_query,
    number_variants,
    section_part,
)


def refs(text, patterns=()):
    return [(r.anchor, r.target, r.kind) for r in find_references(text, patterns)]


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
    # the forms of new rulebooks' texts (issue 14)
    ("к порядку объявления [3.2.5] — к", [("3.2.5", "3.2.5", "section")]),
    ("ко всей главе [13].", [("13", "13", "section")]),
    ("(ИСКЛЮЧЕНИЕ: см. п. 3.1e)", [("3.1e", "3.1e", "section")]),
    ("соблюдая п.3.1d.", [("3.1d", "3.1d", "section")]),
    ("Правила пп. 3.1a–3.1c действуют", [("3.1a", "3.1a", "section"), ("3.1c", "3.1c", "section")]),
    ("Rules A.3.1a–c keep", [("A.3.1a", "A.3.1a", "section"), ("c", "A.3.1c", "section")]),
    ("observing rule 3.1e.", [("3.1e", "3.1e", "section")]),
    ("(see 3.1e for", [("3.1e", "3.1e", "section")]),
    ("приведены в О22.3.", [("О22.3", "O22.3", "section")]),  # a Cyrillic О
    ("два маркера (см. O22.3).", [("O22.3", "O22.3", "section")]),  # a Latin O
    ("маркером усталости (О22.1) за", [("О22.1", "O22.1", "section")]),
    ("(группы вне командования — см. А.3.1е).", [("А.3.1е", "A.3.1e", "section")]),  # Cyrillic А and е
    ("see B.1 for the costs and XII.1.A for", [("B.1", "B.1", "section"), ("XII.1.A", "XII.1.A", "section")]),
    ("see chapter XII for", [("XII", "XII", "section")]),
    ("(см. главу 5).", [("5", "5", "section")]),
    ("в разделе ХIII.7.С «Преследование", [("ХIII.7.С", "XIII.7.C", "section")]),  # Cyrillic Х and С
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
    "Результат 0-5 на кубике означает промах, 6-9 — попадание.",
    "two six-sided dice (2D6) and a 22\" × 34\" map",
    "на расстоянии до 3 гексов, потратив 1 дополнительный ПД",
    "roll 11+ to hit at long range (6–8 hexes)",
    "a D6 roll of 5",
    "Т-34 и О22 без точки",  # a bare prefixed number is a reference only in brackets
    "RULES v2.1",
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


def test_cyrillic_letters_of_a_number_are_written_in_latin():
    assert latinise("О22.3") == "O22.3"
    assert normalise("ХIII .7. С") == "XIII.7.C"
    assert normalise("3. 1е") == "3.1e"
    assert normalise("Держать позицию") == "Держать позицию"  # not a number: left alone


@pytest.mark.parametrize("query, number", [
    ("О22.3", "O22.3"), ("O22.3", "O22.3"), ("о22.3", "O22.3"), ("o22.3", "o22.3"),
    ("9. 3. 1", "9.3.1"), ("9.3.1.", "9.3.1"), ("3.1e", "3.1e"), ("3.1е", "3.1e"),
    ("п. 3.1e", "3.1e"), ("rule A.3.1b", "A.3.1b"), ("see XII.1.B", "XII.1.B"), ("[13]", "13"), ("(2.2)", "2.2"),
    ("2.0", "2"), ("13", "13"), ("xiii.7.c", "xiii.7.c"), ("XII", "XII"), ("ХII", "XII"),
])
def test_number_queries(query, number):
    assert number_query(query) == number


@pytest.mark.parametrize("query", ["hedgehog", "перехват", "2D6 roll", "", "см. выше", "civil", "mix"])
def test_word_queries_are_not_numbers(query):
    assert number_query(query) is None


def test_a_letter_prefix_is_found_with_or_without_its_dot():
    assert number_variants("A3.1") == ["A3.1", "A.3.1"]
    assert number_variants("A.3.1") == ["A.3.1", "A3.1"]
    assert number_variants("9.3.1") == ["9.3.1"]


def test_a_books_own_number_form():
    patterns = (r"§\s?(?P<num>\d+(?:-\d+)*)",)
    assert refs("как сказано в § 4-2 выше", patterns) == [("§ 4-2", "4.2", "section")]
    assert refs("как сказано в § 4-2 выше") == []  # only for the book that names the form
    assert number_query("§4-2", patterns) == "4.2"


@pytest.mark.parametrize("pattern, message", [
    ("(", "not a regular expression"),
    (r"§\d+", "has no group (?P<num>"),
    (r"(?P<num>\d*)", "matches empty text"),
    ("", "non-empty string"),
])
def test_a_bad_book_pattern_is_refused_with_the_reason(pattern, message):
    with pytest.raises(PatternError, match=message.replace("(", r"\(").replace("?", r"\?")):
        compile_patterns((pattern,))
