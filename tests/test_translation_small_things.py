"""The translator's small things of issue #13: addtranslator without a terminal, "last saved", labelled revision
radios, a real PO header, and the required-terms check accepting words the glossary allows inside a term."""
from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from test_translation_support import book, editor_url, save

from rulesref.reference.glossary import Term
from rulesref.translation.checks.glossary import contains_term
from rulesref.translation.exchange import export_units
from rulesref.translation.exchange.po import write_catalog

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def test_addtranslator_without_a_terminal_says_to_use_password_env(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal: a pipe, cron, CI
    with pytest.raises(CommandError, match="--password-env"):
        call_command("addtranslator", "vera")


def test_addtranslator_at_a_terminal_that_closes_says_the_same(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def closed(prompt=""):
        raise EOFError

    monkeypatch.setattr("sys.stdin", Terminal(""))
    monkeypatch.setattr("getpass.getpass", closed)
    with pytest.raises(CommandError, match="--password-env"):
        call_command("addtranslator", "vera")


def test_the_dashboard_says_when_every_section_was_last_saved(tina, translator):
    html = tina.get("/en/translate/mpbs/").content.decode()
    rows = re.findall(r"<tr>\s*<td><a href=\"/en/translate/mpbs/[^\"]+\">.*?</tr>", html, re.S)
    assert len(rows) == 36
    for row in rows:
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        assert re.search(r"\d{4}", cells[-1]) and "corpus files" in cells[-1], cells[-1]  # taken in from the corpus
    save("11.4.9", translator, body="Advance or pursuit after close combat triggers a reaction (9.0).")
    html = tina.get("/en/translate/mpbs/?status=draft").content.decode()
    assert re.search(r"\d{4}[^<]*· tina", html)


def test_the_revision_list_labels_its_radio_buttons_from_and_to(tina, translator):
    save("11.4.9", translator, body="Another text (9.0).")
    html = tina.get("/en/translate/mpbs/11.4.9/revisions/").content.decode()
    picks = re.findall(r'<label class="pick"><input type="radio" name="(a|b)" value="(\d+)"[^>]*> (\w+)', html)
    assert {(name, word) for name, _, word in picks} == {("a", "from"), ("b", "to")}
    ru = tina.get("/ru/translate/mpbs/11.4.9/revisions/").content.decode()
    assert re.findall(r'name="a" value="\d+"[^>]*> (\w+)', ru) == ["с", "с"]


def test_the_po_header_names_project_language_team_and_where_to_report(settings, translator):
    settings.TRANSLATION_TEAMS = {"en": "Rulebook translators <team@example.org>"}
    settings.TRANSLATION_SITE_URL = "https://rules.example.org"
    save("11.4.9", translator, body="Advance or pursuit after close combat triggers a reaction (9.0).")
    header = write_catalog(book(), "en", export_units(book(), "en")).decode().split("\n\n", 1)[0]
    assert '"Project-Id-Version: rulesref mpbs\\n"' in header
    assert '"Language: en\\n"' in header
    assert '"Language-Team: Rulebook translators <team@example.org>\\n"' in header
    assert '"Report-Msgid-Bugs-To: https://rules.example.org/ru/rules/mpbs/\\n"' in header
    assert '"Last-Translator: tina\\n"' in header
    assert "EMAIL@ADDRESS" not in header and "FULL NAME" not in header and "YEAR-MO-DA" not in header


GAP_TERM = Term(id="active-unit", en="active unit", ru="активное подразделение", definition_en="x", definition_ru="x",
                confidence="sure", category="unit", en_variants=("active … unit",))


@pytest.mark.parametrize("text, expected", [
    ("the active unit stops", True),
    ("an active enemy unit", True),  # the false positive: words inserted where the glossary allows
    ("the active, moving enemy unit", True),
    ("an active player moves the enemy's nearest cavalry unit", False),  # too far apart to be the term
    ("the unit is active", False),  # order matters
    ("active. The unit", False),  # not across a sentence
])
def test_the_required_terms_check_accepts_words_inserted_where_the_glossary_allows(text, expected):
    assert contains_term(text, GAP_TERM, "en") is expected


def test_without_a_gap_in_the_glossary_inserted_words_are_not_accepted():
    strict = Term(id="formation-hits", en="formation hits", ru="хиты построения", definition_en="x",
                  definition_ru="x", confidence="sure", category="state")
    assert contains_term("formation hits", strict, "en") and not contains_term("formation extra hits", strict, "en")


def test_9_3_1_asks_for_active_unit_no_more(tina):
    html = tina.get(editor_url("9.3.1")).content.decode()
    panel = html.split('class="glossary-panel"', 1)[1].split("</section>", 1)[0]
    row = re.search(r'<tr class="(\w+)">\s*<td lang="ru">активное подразделение</td>', panel)
    assert row and row.group(1) == "present"
