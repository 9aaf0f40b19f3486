"""The import rules of PO/XLIFF exchange (translation/exchange/rules.py), data only, as the QA checks are tested:
for each rule, subjects that pass and subjects that fail with a piece of the message that must appear; then the
order of the stages, and the one answer on control characters that every format gives (controls.py)."""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

from django.conf import settings
from django.utils import translation

from rulesref.reference.glossary import book_glossary
from rulesref.translation.checks.base import CheckContext
from rulesref.translation.exchange import controls, rules
from rulesref.translation.exchange.tmx import _segment_error
from rulesref.translation.exchange.units import FileEntry
from rulesref.translation.workflow import Unit

ROOT = Path(__file__).resolve().parent.parent
SID = "9.3.1"
UNITS = (Unit(SID, 0, "Условия", "Eligibility"), Unit(SID, 1, "Кавалерия может перехватить.", "Cavalry may intercept."),
         Unit(SID, 2, "Пехота не может.", ""))
EXPORTED = datetime(2026, 5, 1, 12, tzinfo=timezone.utc)


def entry(context=f"{SID}:1", error=None):
    return FileEntry(context, "source", "target", "line 7", error=error)


def incoming(paragraph=1, target="Cavalry may intercept a moving unit.", **fields):
    return rules.Incoming(UNITS[paragraph], fields.pop("source", UNITS[paragraph].source), target, **fields)


class RuleCases:
    """``good`` subjects (argument tuples) pass the rule; ``bad`` (subject, fragment) fail with the fragment."""

    rule = None
    good: list[tuple] = []
    bad: list[tuple[tuple, str]] = []

    def run(self, subject):
        with translation.override("en"):
            return self.rule(*subject)

    def test_good_subjects_pass(self):
        assert self.good
        for subject in self.good:
            assert self.run(subject) is None, subject

    def test_bad_subjects_fail_saying_what(self):
        assert self.bad
        for subject, fragment in self.bad:
            message = self.run(subject)
            assert message and fragment in message, (subject, fragment, message)

    def test_the_rule_says_what_it_checks(self):
        assert self.rule.__doc__ and len(self.rule.__doc__) > 30


class TestReaderError(RuleCases):
    rule = staticmethod(rules.reader_error)
    good = [(entry(), None)]
    bad = [((entry(error="a plural entry (msgid_plural)"), None), "msgid_plural")]


class TestRepeatedContext(RuleCases):
    rule = staticmethod(rules.repeated_context)
    good = [(entry(), None)]
    bad = [((entry(), "line 3"), "already at line 3"), ((entry(), "unit 9.3.1:1"), "unit 9.3.1:1")]


class TestMalformedContext(RuleCases):
    rule = staticmethod(rules.malformed_context)
    good = [(entry(c), None) for c in ("9.3.1:1", "9.3.1:title", "XIII.7.C:12", "charge-phase:3")]
    bad = [((entry(c), None), "section:paragraph") for c in ("9.3.1", "9.3.1:02", ":1", "9.3.1:para", "9.3.1:0", "")]


class TestUnknownSection(RuleCases):
    rule = staticmethod(rules.unknown_section)
    good = [(rules.Placed(SID, 1, UNITS),), (rules.Placed(SID, 9, UNITS),)]  # the paragraph is the next rule's
    bad = [((rules.Placed("99.9", 1, None),), "no translatable section “99.9”")]


class TestUnknownUnit(RuleCases):
    rule = staticmethod(rules.unknown_unit)
    good = [(rules.Placed(SID, 0, UNITS),), (rules.Placed(SID, 2, UNITS),)]
    bad = [((rules.Placed(SID, 3, UNITS),), "has no paragraph 3 (it has 2)"),
           ((rules.Placed(SID, 0, UNITS[1:]),), "section 9.3.1 has no title")]


class TestSourceChanged(RuleCases):
    rule = staticmethod(rules.source_changed)
    good = [(incoming(),), (incoming(0, "Eligibility"),)]
    bad = [((incoming(source="Кавалерия может перехватить отряд."),), "source text changed since")]


class TestChangedSinceExport(RuleCases):
    rule = staticmethod(rules.changed_since_export)
    good = [(incoming(base=rules.target_digest("Cavalry may intercept.")),), (incoming(base=None),),
            (incoming(2, base=rules.target_digest("")),)]
    bad = [((incoming(base=rules.target_digest("Horse may intercept."), saved_by="rita"),), "(by rita)")]


class TestUnknownSinceExport(RuleCases):
    rule = staticmethod(rules.unknown_since_export)
    good = [(incoming(base="0123456789ab"),), (incoming(exported_at=EXPORTED),),
            (incoming(exported_at=EXPORTED, saved_at=EXPORTED - timedelta(seconds=1)),)]
    bad = [((incoming(),), "cannot tell"), ((incoming(exported_at=EXPORTED, saved_at=EXPORTED),), "cannot tell"),
           ((incoming(exported_at=EXPORTED, saved_at=EXPORTED + timedelta(days=1)),), "saved after the export")]


class TestBrokenStructure(RuleCases):
    rule = staticmethod(rules.broken_structure)
    good = [(incoming(),), (incoming(0, "Eligibility"),), (incoming(target="Cavalry\tmay intercept.\nIt may."),)]
    bad = [((incoming(0, "Eli\ngibility"),), "A title is one line"),
           ((incoming(0, "Eligibility {#9.3.1}"),), "braces"),
           ((incoming(target="Cavalry may\n# intercept."),), "heading"),
           ((incoming(target="Cavalry may.\n\nIntercept."),), "split it in two"),
           ((incoming(target="Cavalry\x07 may intercept."),), "control characters U+0007"),
           ((incoming(target="Cavalry\ud800 may intercept."),), "control characters U+D800"),
           ((incoming(target="Cavalry\r may intercept.\x85"),), "U+000D, U+0085")]


def _checks() -> CheckContext:
    return CheckContext("mpbs", "ru", "en", book_glossary(settings.FIXTURES_DIR, "mpbs"))


class TestQaErrors(RuleCases):
    rule = staticmethod(rules.qa_errors)
    good = [(incoming(checks=_checks()),),
            (incoming(target="Кавалерия может перехватить."),)]  # no check context: no QA run
    bad = [((incoming(target="Кавалерия may intercept.", checks=_checks()),), "QA errors: untranslated: Cyrillic")]


def test_section_gap_names_the_first_paragraph_left_empty_before_a_translated_one():
    units = (*UNITS, Unit(SID, 3, "Артиллерия тоже.", ""))
    with translation.override("en"):
        assert rules.section_gap(SID, units, {}) is None  # paragraph 2 empty, nothing after it translated
        assert rules.section_gap(SID, units, {2: "Foot may not."}) is None
        paragraph, message = rules.section_gap(SID, units, {3: "Artillery too."})
    assert paragraph == 2 and "paragraph 2 of section 9.3.1 would stay empty" in message


def test_each_stage_reports_its_first_problem_only():
    """An entry is told the first thing wrong with it, in the order of the rules: a repeated context is not also
    said to be malformed, a text whose workspace copy changed is not also checked for QA."""
    with translation.override("en"):
        assert "already at" in rules.first_problem(rules.ENTRY_RULES, entry("nonsense"), "line 2")
        assert rules.first_problem(rules.ENTRY_RULES, entry(), None) is None
        late = incoming(target="Кавалерия\x07", base=rules.target_digest("other"), checks=_checks())
        assert "changed in the workspace" in rules.first_problem(rules.TARGET_RULES, late)
    assert rules.ENTRY_RULES == (rules.reader_error, rules.repeated_context, rules.malformed_context)
    assert rules.PLACE_RULES == (rules.unknown_section, rules.unknown_unit)
    assert rules.TARGET_RULES == (rules.changed_since_export, rules.unknown_since_export, rules.broken_structure,
                                  rules.qa_errors)


# ---------------------------------------------------------------------------------------------------- controls

REFUSED = ["\x00", "\x07", "\x0b", "\x0c", "\r", "\x1b", "\x1f", "\x7f", "\x80", "\x85", "\x9f", "\ud800", "\udbff",
           "\udc00", "\udfff"]
ALLOWED = ["\t", "\n", " ", "a", "ё", "\u00a0", "\u00ad", "\u200b", "\u2028", "\ufeff", "\U0001f600", "\ufffd"]


def test_control_characters_refuses_c0_c1_and_lone_surrogates_but_not_tab_or_newline():
    for char in REFUSED:
        assert controls.is_refused(char), repr(char)
        assert controls.control_characters(f"a{char}b{char}") == [f"U+{ord(char):04X}"], repr(char)
    for char in ALLOWED:
        assert not controls.is_refused(char), repr(char)
    assert controls.control_characters("".join(ALLOWED)) == []
    assert controls.control_characters("\x07a\ud800\x07") == ["U+0007", "U+D800"]  # each once, in order


def test_tmx_and_po_xliff_imports_give_the_same_answer_for_every_character():
    """The one check: a TMX segment is refused exactly when a PO or XLIFF text is, for the same character."""
    with translation.override("en"):
        for char in REFUSED + ALLOWED:
            text = f"Cavalry{char}may intercept."
            tmx = _segment_error(text)
            units = rules.broken_structure(incoming(target=text))
            refused = controls.is_refused(char)
            assert (tmx is not None and "control characters" in tmx) == refused, repr(char)
            assert (units is not None and "control characters" in units) == refused, repr(char)


def test_replace_controls_makes_any_stored_text_writable_as_utf8_xml():
    written = controls.replace_controls("a\x07b\ud800c\td\ne")
    assert written == "a\ufffdb\ufffdc\td\ne"
    written.encode("utf-8")  # a lone surrogate left in would raise here


def test_no_module_of_exchange_has_a_control_character_check_of_its_own():
    """controls.py is the one place: no other exchange module looks at Unicode categories or lists controls."""
    folder = ROOT / "rulesref" / "translation" / "exchange"
    for path in folder.glob("*.py"):
        if path.name == "controls.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "unicodedata" not in text and not re.search(r"CONTROL_OK|\"Cc\"|\"Cs\"", text), path.name
