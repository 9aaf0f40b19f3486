"""Scenario loading and validation, the engine's public surface, and the SVG drawing."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rulesref.engine import book_engine
from rulesref.engine.hexgrid import HexMap
from rulesref.engine.hexsvg import render_svg
from rulesref.engine.mpbs import CITABLE_CLAUSES, PARAMS, QUESTIONS, load_scenario, schema
from rulesref.engine.ruling import InvalidScenarioError

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "fixtures" / "scenarios" / "mpbs").glob("*.json"))


def problems(data) -> dict[str, str]:
    with pytest.raises(InvalidScenarioError) as excinfo:
        load_scenario(data)
    return dict(excinfo.value.problems)


def test_book_package_exposes_the_registry_names():
    engine = book_engine("mpbs")
    assert set(engine.QUESTIONS) == set(PARAMS)
    assert callable(engine.load_scenario) and engine.CITABLE_CLAUSES


def test_params_describe_every_question():
    for question, params in PARAMS.items():
        for p in params:
            data = p.to_dict()
            assert data["name"] and data["type"] and data["description"], (question, data)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_fixture_scenarios_load(path):
    load_scenario(json.loads(path.read_text(encoding="utf-8")))


def test_schema_is_valid_draft_2020_12():
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema())


def test_structural_problems_are_listed_by_path(example_93):
    data = copy.deepcopy(example_93)
    data["units"][1]["facing"] = 3
    data["units"][0]["type"] = "dragoon"
    data["moment"]["event"]["action"] = "jump"
    found = problems(data)
    assert set(found) == {"units[1].facing", "units[0].type", "moment.event.action"}


def test_problems_of_meaning_are_listed_by_path(example_93):
    data = copy.deepcopy(example_93)
    data["units"][1]["facing"] = "E"  # not a vertex of a pointy-top hex
    data["units"][0]["hexes"] = ["0405", "0707"]  # not neighbours
    data["units"].append({"id": "CAV-1", "side": "blue", "type": "cavalry", "hexes": ["0101"], "facing": "N"})
    data["map"]["dead_zones"] = ["9999"]
    data["moment"]["event"]["unit"] = "NOBODY"
    found = problems(data)
    assert "units[1].facing" in found and "vertices" in found["units[1].facing"]
    assert "neighbours" in found["units[0].hexes"]
    assert "units[2].id" in found
    assert "off the map" in found["map.dead_zones[0]"]
    assert "moment.event.unit" in found


def test_two_hex_unit_must_face_across_its_row(example_93):
    data = copy.deepcopy(example_93)
    data["units"][0]["facing"] = "NE"
    assert "across the row" in problems(data)["units[0].facing"]


def test_enemies_may_not_share_a_hex(example_93):
    data = copy.deepcopy(example_93)
    data["units"][1]["hexes"] = ["0405"]
    assert "enemy" in problems(data)["units[1].hexes"]


def test_units_are_kept_in_id_order(example_93):
    data = copy.deepcopy(example_93)
    data["units"].reverse()
    assert [u.id for u in load_scenario(data).units] == ["CAV-1", "HI-1"]


def test_every_clause_passes_and_fails_somewhere_in_the_fixtures():
    from rulesref.engine import ask

    seen: dict[str, set[str]] = {}
    for path in SCENARIOS:
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data["questions"]:
            try:
                ruling = ask("mpbs", item["question"], data, item.get("params", {}))
            except InvalidScenarioError:
                continue
            for f in ruling.findings:
                seen.setdefault(f.citation.clause, set()).add(f.status.value)
    for clause in CITABLE_CLAUSES:
        assert {"pass", "fail"} <= seen.get(clause, set()), f"{clause}: only {seen.get(clause)}"


def test_questions_cite_only_citable_clauses(example_93):
    from rulesref.engine import ask

    ruling = ask("mpbs", "interception-chance", example_93, {"unit": "CAV-1"})
    assert {c.clause for c in ruling.citations} <= set(CITABLE_CLAUSES)
    assert all(str(c).startswith("mpbs:") for c in ruling.citations)


def test_svg_escapes_every_text():
    hexmap = HexMap(3, 3, "pointy")
    svg = render_svg(hexmap, {"0101": ["front", 'x" onload="alert(1)']},
                     units=[{"hexes": ["0202"], "facing": "N", "label": "<script>alert(1)</script>", "side": 'red"><b'}],
                     title="A & B <c>", caption="\"quoted\" & <tag>", legend=[("rear", "<rear>")])
    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg and "A &amp; B &lt;c&gt;" in svg and "&lt;rear&gt;" in svg
    assert 'onload="' not in svg and "<tag>" not in svg
    import xml.dom.minidom

    xml.dom.minidom.parseString(svg)  # well-formed


def test_svg_draws_every_hex_and_the_units():
    hexmap = HexMap(4, 3, "flat")
    svg = render_svg(hexmap, units=[{"hexes": ["0201", "0202"], "facing": "E", "side": "blue", "label": "HI"}],
                     paths=[{"hexes": ["0101", "0102", "0103"]}])
    assert svg.count("<polygon") == 12 and svg.count('class="facing"') == 2 and "<polyline" in svg


def test_questions_are_all_registered():
    assert sorted(QUESTIONS) == sorted(["facing-cost", "orders-change", "mandatory-rally", "reactions",
                                        "can-intercept", "interception-chance", "retreat", "advance"])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_loaders_units_are_the_units_the_dataclass_makes(path):
    """The loader builds units with new_unit (every field set at once, without the frozen __init__): each is equal
    to Unit(**its fields), hashes alike and stays frozen."""
    import dataclasses

    from rulesref.engine.mpbs.scenario import Unit, new_unit

    assert not hasattr(Unit, "__post_init__"), "new_unit does not run __post_init__: make units with Unit(...)"
    for unit in load_scenario(json.loads(path.read_text(encoding="utf-8"))).units:
        made = Unit(**{f.name: getattr(unit, f.name) for f in dataclasses.fields(Unit)})
        assert made == unit and hash(made) == hash(unit) and repr(made) == repr(unit)
        with pytest.raises(dataclasses.FrozenInstanceError):
            unit.facing = 0
    with pytest.raises(TypeError, match="missing"):
        new_unit(id="A", side="blue")
