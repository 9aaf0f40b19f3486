"""QA checks, data only: for each check, pairs that pass and pairs that fail (with a piece of the message that
must appear). Many cases are the seeds' own text and its project translation; the book-wide term check is run on
the real corpus, where the seeds write both "хиты построения" and "хиты формирования" for formation hits."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.utils import translation

from rulesref.reference.corpus import read_book
from rulesref.reference.glossary import book_glossary
from rulesref.translation.checks.base import TITLE, CheckContext, TextUnits
from rulesref.translation.checks.glossary import (
    ForbiddenTermCheck,
    GlossaryTermCheck,
    TermConsistencyCheck,
    same_wording,
)
from rulesref.translation.checks.numbers import NumbersCheck, extract_numbers
from rulesref.translation.checks.references import ReferencesCheck
from rulesref.translation.checks.runner import (
    SectionPair,
    check_book,
    registered_checks,
)
from rulesref.translation.checks.structure import MarkupCheck, ParagraphsCheck
from rulesref.translation.checks.typography import ChangeMarkerCheck, QuotesCheck
from rulesref.translation.checks.untranslated import UntranslatedCheck

ROOT = Path(__file__).resolve().parent.parent


def context(book="mpbs", source="ru", target="en", paragraph=1):
    return CheckContext(book, source, target, book_glossary(settings.FIXTURES_DIR, book), "9.3.1", paragraph)


class CheckCases:
    """One shared test case: ``good`` pairs pass, ``bad`` (source, target, message fragment) pairs fail."""

    check = None
    book, source_language, target_language = "mpbs", "ru", "en"
    paragraph = 1
    good: list[tuple[str, str]] = []
    bad: list[tuple[str, str, str]] = []

    def run(self, source, target):
        with translation.override("en"):
            ctx = context(self.book, self.source_language, self.target_language, self.paragraph)
            return [(p.check_id, p.severity, p.text(), p.paragraph) for p in self.check.check(source, target, ctx)]

    def test_good_pairs_pass(self):
        for source, target in self.good:
            assert self.run(source, target) == [], (source, target)

    def test_bad_pairs_fail_with_a_message_saying_what(self):
        for source, target, fragment in self.bad:
            problems = self.run(source, target)
            assert problems, (source, target)
            assert all(p[0] == self.check.check_id for p in problems)
            assert any(fragment in p[2] for p in problems), (fragment, problems)

    def test_the_check_is_described(self):
        assert self.check.check_id and str(self.check.name) and str(self.check.description)
        assert self.check.severity in ("error", "warning")


class TestGlossaryTerm(CheckCases):
    check = GlossaryTermCheck()
    good = [
        ("Хиты построения, полученные во время ближнего боя, не влияют на оставшийся потенциал движения.",
         "Formation hits received during the Close Combat do not affect the remaining movement allowance."),
        ("Если движение в гекс приводит к хиту формирования", "If moving into a hex causes a formation hit"),
        ("Подразделение имеет достаточно ПД", "The unit has enough MP"),  # abbreviation for abbreviation
    ]
    bad = [
        ("Хиты построения, полученные во время ближнего боя, не влияют на оставшийся потенциал движения.",
         "Order damage received in melee does not affect the remaining movement allowance.",
         "needs “formation hits”"),
        ("Кавалерия может осуществлять перехват", "Horsemen may intercept", "needs “cavalry”"),
    ]


class TestForbiddenTerm(CheckCases):
    check = ForbiddenTermCheck()
    source_language, target_language = "en", "ru"  # the glossary forbids Russian forms: a Russian translation
    good = [("The cavalry unit has a “Charge” order", "Кавалерийское подразделение имеет приказ «Атаковать»")]
    bad = [("The cavalry unit has a “Charge” order", "Кавалерийское подразделение имеет приказ «Нападение»",
            "forbidden variant of “приказ «Атаковать»”")]

    def test_a_forbidden_form_in_the_source_is_a_warning(self):
        # a source that names the Charge order «Нападение» (the t9a word), which the mpbs glossary forbids
        ctx = context("mpbs", "ru", "en")
        problems = self.check.check("Крыло получает приказ «Нападение».", "The wing receives Charge orders.", ctx)
        assert [(p.severity, "Нападение" in p.text()) for p in problems] == [("warning", True)]


class TestNumbers(CheckCases):
    check = NumbersCheck()
    good = [
        # 9.3.1a: "четырех" / "four"; 9.2.3: "двух" / "two"; 11.4.1: "1 или 2" / "1 or 2", "один или 2" / "one or 2"
        ("где-либо в пределах четырех гексов от кавалерийского подразделения", "anywhere within four hexes of the cavalry unit"),
        ("в пределах двух гексов от фронта или фланга", "within two hexes of the front or flank"),
        ("отступает соответственно на 1 или 2 гекса. подразделение просто отступает на один или 2 гекса",
         "retreat 1 or 2 hexes. the unit simply falls back one or 2 hexes"),
        # 9.3.7: a die range, a rating and a signed modifier
        ("требуется выбросить 0-5. Исходная мораль равна 8, модификатор -1.",
         "a roll of 0-5 is needed. The initial morale is 8, so a -1 modifier is applied."),
        ("на 2 гекса", "two hexes"),  # digits in one text, a word in the other
        ("Сдвоенное подразделение", "A two-hex unit"),  # a number inside a compound word is not a count
        ("ухудшает состояние морали на один (12.0)", "worsens the morale state by one (12.0)"),
        ("см. 11.4.5", "see 11.4.5"),  # references are the references check's business
    ]
    bad = [
        ("где-либо в пределах четырех гексов", "anywhere within three hexes", "“4” in the source"),
        ("где-либо в пределах четырех гексов", "anywhere within three hexes", "“3” in the translation"),
        ("в пределах двух гексов", "within 3 hexes", "“2” in the source"),
        ("требуется выбросить 0-5", "a roll of 0-4 is needed", "“0–5” in the source"),
        ("модификатор -1", "a +1 modifier", "“-1” in the source"),
        ("на 1 или 2 гекса", "1 hex", "“2” in the source"),
    ]

    def test_what_counts_as_a_number(self):
        assert extract_numbers("from 0 to 5 and up to 6", "en").strong == {"0–5", "6"}
        assert extract_numbers("от 0 до 5", "ru").strong == {"0–5"}
        assert extract_numbers("1,5 дюйма", "ru").strong == {"1.5"}
        assert extract_numbers("the one it fought", "en").strong == set()  # "one" is also a pronoun


class TestReferences(CheckCases):
    check = ReferencesCheck()
    good = [
        ("к ней применяется правило 11. 4. 5.", "rule 11.4.5 applies to it."),
        ("Кавалерия может преследовать уничтоженные подразделения (см. 11. 7).", "Cavalry may pursue (see 11.7)."),
        ("перечисленных в 6.3.2b (включая колеблющееся построение)", "listed in 6.3.2b (including Formation Shaken)"),
        ("ухудшает состояние морали на один (12.0)", "worsens the morale state by one (12.0)"),
        ("на странице 58", "on page 58"),
    ]
    bad = [
        ("к ней применяется правило 11. 4. 5.", "rule 11.4.6 applies to it.", "Reference “11.4.5” in the source"),
        ("к ней применяется правило 11. 4. 5.", "rule 11.4.6 applies to it.", "Reference “11.4.6” in the translation"),
        ("полученному за участие в ближнем бою (11. 2. F).", "received for taking part in the Close Combat.",
         "“11.2.F”"),
        ("на странице 58", "on page 59", "“p. 58”"),
    ]


class TestUntranslated(CheckCases):
    check = UntranslatedCheck()
    good = [("отметьте его маркером «Сломлены»", "mark it with a “Morale Broken” marker")]
    bad = [
        ("отметьте его маркером «Сломлены»", "mark it with a «Сломлены» marker", "Cyrillic text left"),
        ("Уничтожено: Подразделение удаляется с карты.", "Уничтожено: Подразделение удаляется с карты.",
         "same as the source"),
    ]


class TestUntranslatedIntoRussian(CheckCases):
    """Into Russian: Latin is allowed for glossary terms and quoted markers (the seeds' own practice)."""

    check = UntranslatedCheck()
    source_language, target_language = "en", "ru"
    good = [
        # 11.4.1 as the seed writes it: a quoted counter label, and a glossary term in parentheses
        ("mark it with a “Morale Broken” marker and retreat it toward the nearest friendly map edge",
         "отметьте его маркером «Сломлены» («Morale Broken») и отступите к ближайшему краю карты (friendly map edge)"),
        ("loses all Momentum (11.3.6)", "теряет все воодушевление (Momentum) (11.3.6)"),
        ("XIII.7.C applies", "применяется XIII.7.C"),
    ]
    bad = [("the unit is destroyed", "подразделение is destroyed", "“is”, “destroyed”")]


class TestChangeMarkers(CheckCases):
    check = ChangeMarkerCheck()
    good = [("Подразделения не могут отступить", "Units may not retreat"),
            (">> Подразделения не могут отступить", ">> Units may not retreat")]
    bad = [(">> Подразделения не могут отступить", "Units may not retreat", "lacks"),
           ("Подразделения не могут отступить", "> > Units may not retreat", "mark the section as changed")]


class TestQuotesIntoEnglish(CheckCases):
    check = QuotesCheck()
    good = [("маркером «Выведены из строя»", "with an “Out of Action” marker")]
    bad = [("маркером «Выведены из строя»", "with an «Out of Action» marker", "Use “…”"),
           ("маркером «Выведены из строя»", "with an “Out of Action marker", "Unbalanced")]


class TestQuotesIntoRussian(CheckCases):
    check = QuotesCheck()
    source_language, target_language = "en", "ru"
    good = [("with an “Out of Action” marker", "маркером «Выведены из строя»")]
    bad = [("with an “Out of Action” marker", "маркером \"Выведены из строя\"", "Use «…»"),
           ("with an “Out of Action” marker", "маркером «Выведены из строя", "Unbalanced «…»")]


class TestMarkup(CheckCases):
    check = MarkupCheck()
    good = [
        ("a) Вражеское подразделение совершает", "a) The enemy unit performs"),
        ("- Подразделения обычного размера\n- Сдвоенные подразделения", "- Normal-sized units\n- Two-hex units"),
    ]
    bad = [
        ("a) Вражеское подразделение совершает", "The enemy unit performs", "must start with “a) ”"),
        ("a) Вражеское подразделение совершает", "b) The enemy unit performs", "must start with “a) ”"),
        ("- Подразделения обычного размера\n- Сдвоенные подразделения", "- Normal-sized units", "2 items"),
        ("- Подразделения обычного размера\n- Сдвоенные подразделения", "Normal-sized units; two-hex units", "is a list"),
        ("Текст", "# Heading\nText", "read it as a heading"),
    ]

    def test_a_title_is_one_line_without_braces(self):
        ctx = context(paragraph=TITLE)
        assert self.check.check("Перехват", "Interception {#x}", ctx)
        assert self.check.check("Перехват", "Inter-\nception", ctx)
        assert self.check.check("Перехват", "Interception", ctx) == []


def test_paragraph_count_and_empty_paragraphs():
    check = ParagraphsCheck()
    ctx = context()
    source = TextUnits("Перехват", ("один", "два", "три"))
    assert check.check(source, TextUnits("Interception", ("one", "two", "three")), ctx) == []
    [problem] = check.check(source, TextUnits("Interception", ("one", "two")), ctx)
    assert problem.params == {"source": 3, "target": 2} and problem.severity == "error"
    [problem] = check.check(source, TextUnits("", ("one", "two", "three")), ctx)
    assert problem.paragraph == TITLE and problem.severity == "warning"


def test_same_wording_tells_variants_from_other_words():
    assert same_wording(("charg",), ("charg", "order"))  # "Charge" / "Charge order"
    assert same_wording(("move",), ("movement",))
    assert same_wording(("морал", "состоян"), ("состоян", "моральн"))  # word order
    assert not same_wording(("хит", "построен"), ("хит", "формирован"))
    assert not same_wording(("нападающ",), ("атакующ",))


def corpus_pairs(book: str) -> list[SectionPair]:
    doc = read_book(ROOT / "fixtures" / "corpus" / book)
    translated = doc.by_id("en")
    pairs = []
    for s in doc.sections("ru"):
        if s.absent:
            continue
        t = translated.get(s.id)
        pairs.append(SectionPair(s.id, TextUnits(s.title, tuple(s.blocks)),
                                 TextUnits(t.title, tuple(t.blocks)) if t else None))
    return pairs


def test_the_seeds_formation_hits_written_two_ways_are_found():
    """The mpbs seeds call formation hits "хиты построения" (9.2–9.3) and "хиты формирования" (11.4.10)."""
    with translation.override("en"):
        problems = TermConsistencyCheck().check(
            {p.sid: p.source for p in corpus_pairs("mpbs")}, {}, context())
        found = [(p.section, p.paragraph, p.text()) for p in problems if p.params["term"] == "“formation hits”"]
    assert (("11.4.10", TITLE) in {(s, n) for s, n, _ in found}) and (("11.4.10", 1) in {(s, n) for s, n, _ in found})
    assert all("формирования" in text and "построения" in text for _, _, text in found)
    assert all(p.severity == "warning" for p in problems)  # the source is not the translator's to fix


def test_a_term_written_two_ways_in_the_translation_is_an_error():
    source = {"a": TextUnits("", ("Хиты построения уменьшают ПД.",)), "b": TextUnits("", ("Хиты построения.",))}
    target = {"a": TextUnits("", ("Formation hits reduce MP.",)), "b": TextUnits("", ("Disorder hits.",))}
    consistent = {"a": target["a"], "b": TextUnits("", ("Formation hits.",))}
    ctx = context()
    assert TermConsistencyCheck().check(source, consistent, ctx) == []
    assert TermConsistencyCheck().check(source, target, ctx) == []  # "disorder hits" is no glossary form
    target["b"] = TextUnits("", ("Formation damage: formation hit.",))
    assert TermConsistencyCheck().check(source, target, ctx) == []  # inflections are one form


def test_the_real_corpus_translation_inconsistencies():
    """What the checks find in the real corpus: the source's two spellings of formation hits (11.4.10), and no error
    in the project's English (it once wrote "morale level" beside "morale state" in 11.4.6; fixed at the source)."""
    with translation.override("en"):
        problems = check_book(corpus_pairs("mpbs"), context())
    formation = [p for p in problems if p.section == "11.4.10" and p.check_id == "glossary-consistency"]
    assert formation and all("формирования" in p.text() and "построения" in p.text() for p in formation)
    assert [(p.section, p.check_id, p.text()) for p in problems if p.severity == "error"] == []


def test_the_registry_comes_from_settings(settings):
    ids = [c.check_id for c in registered_checks()]
    assert ids == ["glossary", "glossary-forbidden", "glossary-consistency", "numbers", "references", "untranslated",
                   "change-markers", "quotes", "markup", "paragraphs"]
    settings.TRANSLATION_QA_CHECKS = ["rulesref.translation.checks.numbers.NumbersCheck"]
    assert [c.check_id for c in registered_checks()] == ["numbers"]


def test_problems_keep_the_message_template_and_translate_when_shown(monkeypatch):
    """Stored once, shown in the reader's language: the template goes through gettext when formatted."""
    [problem] = NumbersCheck().check("четырех гексов", "hexes", context())
    assert problem.message == "%(numbers)s in the source, not in the translation"
    assert problem.params == {"numbers": "“4”"}
    from rulesref.translation.checks import base

    monkeypatch.setattr(base, "gettext", lambda m: m.replace("in the source", "IN THE SOURCE"))
    assert problem.text() == "“4” IN THE SOURCE, not in the translation"
