"""Findings are words for players (#30 item 5): no scenario field, code name or file name in a finding's message,
in either language, for any question of the example scenarios and the casebooks; what the player may fill in is
the finding's ``field``, and where a value comes from its ``source``, both data the API returns."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.engine import InvalidScenarioError, ask
from rulesref.engine.ruling import Citation, Finding, Status
from rulesref.engine.i18n import msg
from tests.axecore import code_names

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "fixtures" / "scenarios").glob("*/*.json")) + sorted(
    (ROOT / "fixtures" / "casebook").glob("*/*.json"))


def rulings():
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for q in data.get("questions") or []:
            try:
                yield path, ask(data["book"], q["question"], data, q.get("params") or {})
            except InvalidScenarioError:
                continue


RULINGS = list(rulings())


def test_the_scenarios_ask_enough_questions_to_matter():
    assert len(RULINGS) > 100


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_finding_message_names_code(lang):
    found = {f"{path.parent.name}/{path.stem}: {f.message.render(lang)}": code_names(f.message.render(lang))
             for path, ruling in RULINGS for f in ruling.findings}
    assert {text: names for text, names in found.items() if names} == {}


def test_what_a_player_may_fill_in_is_data_on_the_finding():
    fields = {f.field for _path, ruling in RULINGS for f in ruling.findings if f.field}
    assert {"moment.event.movement_trigger", "tables.interception.rows", "tables.unable_to_retreat.rows",
            "units[].missile_weapons"} <= fields
    sources = [f.source for _path, ruling in RULINGS for f in ruling.findings if f.source]
    assert any("TERMS.md" in s for s in sources) and "docs/geometry-tabletop.md" in sources


def test_field_and_source_are_in_the_detailed_dict_only_when_given():
    plain = Finding(Citation("t9a", "hold"), Status.PASS, msg("none"))
    assert set(plain.to_dict(details=True)) == {"clause", "status", "message"}
    filled = Finding(Citation("t9a", "hold"), Status.UNKNOWN, msg("none"), field="units[].missile_weapons",
                     source="docs/geometry-tabletop.md")
    assert filled.to_dict("ru", details=True)["field"] == "units[].missile_weapons"
    assert filled.to_dict(details=True)["source"] == "docs/geometry-tabletop.md"
    assert set(filled.to_dict("ru")) == {"clause", "status", "message"}  # the API's published contract


def test_a_ruling_gives_its_findings_details_when_asked():
    path, ruling = next((p, r) for p, r in RULINGS if any(f.field for f in r.findings))
    detailed = ruling.to_dict("ru", details=True)["findings"]
    assert [f.get("field", "") for f in detailed] == [f.field for f in ruling.findings], path
    assert all(set(f) == {"clause", "status", "message"} for f in ruling.to_dict("ru")["findings"])
