"""Problems name the unit they concern: ``InvalidScenarioError.problem_units(lang)`` and ``Problem.unit``/``others``.

The oracle is the input: a problem at ``units[i]…`` is about the unit listed at index i; a problem about two units
in one place names both; a reference to an unknown id names the unit that makes it, or none. Every unit named is
one the scenario lists.
"""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from rulesref.engine import ask
from rulesref.engine.mpbs import load_scenario as load_mpbs
from rulesref.engine.ruling import InvalidScenarioError, Problem
from rulesref.engine.t9a import load_scenario as load_t9a

from mutations import mutate

ROOT = Path(__file__).resolve().parents[2]

MPBS = {
    "book": "mpbs",
    "map": {"columns": 8, "rows": 6, "dead_zones": [], "friendly_edges": {"red": ["north"], "blue": ["south"]}},
    "wings": [{"id": "W-red", "side": "red", "order": "charge"}, {"id": "W-blue", "side": "blue", "order": "rally"}],
    "units": [
        {"id": "CAV-1", "side": "red", "wing": "W-red", "type": "cavalry", "hexes": ["0303"], "facing": "S",
         "movement": {"allowance": 6}},
        {"id": "INF-1", "side": "blue", "wing": "W-blue", "type": "heavy-infantry", "hexes": ["0305"], "facing": "N",
         "movement": {"allowance": 4}},
        {"id": "INF-2", "side": "blue", "wing": "W-blue", "type": "heavy-infantry", "hexes": ["0605"], "facing": "N",
         "movement": {"allowance": 4}},
    ],
    "moment": {"active_side": "blue", "event": {"unit": "INF-1", "action": "move"}},
}

T9A = {
    "book": "t9a",
    "board": {"width": 48, "depth": 48},
    "terrain": [{"id": "rocks", "polygon": [[30, 30], [36, 30], [36, 36], [30, 36]], "impassable": True}],
    "units": [
        {"id": "knights", "side": "red", "centre": [24, 8], "facing": 0, "width": 5, "depth": 2, "advance_rate": 8},
        {"id": "archers", "side": "blue", "centre": [24, 20], "facing": 180, "width": 5, "depth": 2,
         "advance_rate": 5},
        {"id": "spears", "side": "blue", "centre": [10, 20], "facing": 180, "width": 5, "depth": 2,
         "advance_rate": 4},
    ],
}


def changed(base: dict, edit) -> dict:
    data = copy.deepcopy(base)
    edit(data)
    return data


def problems_of(load, data) -> list[Problem]:
    with pytest.raises(InvalidScenarioError) as caught:
        load(data)
    return list(caught.value.items)


def only(load, data) -> Problem:
    found = problems_of(load, data)
    assert len(found) == 1, found
    return found[0]


def test_the_good_scenarios_load():
    load_mpbs(MPBS)
    load_t9a(T9A)


# --- mpbs --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edit, path, unit", [
    # the unit's own fields, refused by the schema
    (lambda d: d["units"][1]["movement"].update(allowance=-1), "units[1].movement.allowance", "INF-1"),
    (lambda d: d["units"][2].update(type="dragoons"), "units[2].type", "INF-2"),
    (lambda d: d["units"][0].update(colour="red"), "units[0]", "CAV-1"),
    # the unit's own fields, refused by the engine
    (lambda d: d["units"][2].update(hexes=["0909"]), "units[2].hexes[0]", "INF-2"),
    (lambda d: d["units"][2].pop("facing"), "units[2].facing", "INF-2"),
    (lambda d: d["units"][0].update(facing="E"), "units[0].facing", "CAV-1"),
    (lambda d: d["units"][0].update(hexes=["0303", "0503"]), "units[0].hexes", "CAV-1"),
    (lambda d: d["units"][2].update(wing="W-red"), "units[2].wing", "INF-2"),
    (lambda d: d["units"][2].update(wing="W-green"), "units[2].wing", "INF-2"),
    (lambda d: d["units"][1].update(limbered=True), "units[1]", "INF-1"),
    (lambda d: d["units"][2].update(id="INF-1"), "units[2].id", "INF-1"),
    # the triggering event
    (lambda d: d["moment"]["event"].update(unit="CAV-1"), "moment.event.unit", "CAV-1"),
    (lambda d: d["moment"]["event"].update({"from": ["9999"]}), "moment.event.from[0]", "INF-1"),
    (lambda d: d["moment"]["event"].update(mp=-2), "moment.event.mp", "INF-1"),
    # a wing whose commander is a unit but not a leader
    (lambda d: d["wings"][0].update(commander="CAV-1"), "wings[0].commander", "CAV-1"),
])
def test_mpbs_problems_with_a_unit_name_it(edit, path, unit):
    found = problems_of(load_mpbs, changed(MPBS, edit))
    assert path in [p.path for p in found]
    assert {p.unit for p in found} == {unit}


@pytest.mark.parametrize("edit, path", [
    (lambda d: d["moment"]["event"].update(unit="GHOST"), "moment.event.unit"),  # no such unit: none to name
    (lambda d: d["moment"]["event"].update(reacted=["GHOST"]), "moment.event.reacted[0]"),
    (lambda d: d["wings"][0].update(commander="GHOST"), "wings[0].commander"),
    (lambda d: d["map"]["friendly_edges"].update(green=["east"]), "map.friendly_edges.green"),
    (lambda d: d["map"].update(columns=0), "map.columns"),
    (lambda d: d["moment"].update(active_wing="W-green"), "moment.active_wing"),
])
def test_mpbs_problems_without_a_unit_name_none(edit, path):
    problem = only(load_mpbs, changed(MPBS, edit))
    assert (problem.path, problem.unit) == (path, None)


def test_mpbs_two_enemy_units_in_one_hex_name_both():
    problem = only(load_mpbs, changed(MPBS, lambda d: d["units"][2].update(hexes=["0303"])))
    # Reported at INF-2 (listed after CAV-1, which holds the hex first), about both.
    assert (problem.path, problem.unit, problem.others) == ("units[2].hexes", "INF-2", ("CAV-1",))
    assert problem.concerns("CAV-1") and problem.concerns("INF-2") and not problem.concerns("INF-1")


def test_mpbs_question_parameters_name_no_unit():
    for params in ({"unit": 5}, {"unit": "GHOST"}, {"unit": ["CAV-1"]}):
        with pytest.raises(InvalidScenarioError) as caught:
            ask("mpbs", "reactions", MPBS, params)
        assert [(p, u) for p, _, u in caught.value.problem_units("en")] == [("params.unit", None)]


# --- t9a ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("edit, path, unit", [
    (lambda d: d["units"][1].update(facing=400), "units[1].facing", "archers"),
    (lambda d: d["units"][2].pop("width"), "units[2]", "spears"),
    (lambda d: d["units"][2].update(centre=[47, 20]), "units[2].centre", "spears"),
    (lambda d: d["units"][2].update(centre=[33, 33]), "units[2].centre", "spears"),
    (lambda d: d["units"][1].update(state=["engaged", "fleeing"]), "units[1].state", "archers"),
    (lambda d: d["units"][2].update(id="archers"), "units[2].id", "archers"),
    # a declared charge is its charger's; one from an unknown unit is still about its target
    (lambda d: d.update(declared_charges=[{"charger": "knights", "target": "ghost"}]),
     "declared_charges[0].target", "knights"),
    (lambda d: d.update(declared_charges=[{"charger": "ghost", "target": "archers"}]),
     "declared_charges[0].charger", "archers"),
    (lambda d: d.update(declared_charges=[{"charger": "knights", "target": "archers"},
                                          {"charger": "knights", "target": "spears"}]),
     "declared_charges[1].charger", "knights"),
    # a pursuer
    (lambda d: d.update(pursuit={"fled": [{"unit": "archers"}], "pursuers": [
        {"unit": "knights", "pursues": "spears", "roll": 7}]}), "pursuit.pursuers[0].pursues", "knights"),
    (lambda d: d.update(pursuit={"fled": [{"unit": "archers"}], "pursuers": [
        {"unit": "knights", "pursues": "archers", "roll": 13}]}), "pursuit.pursuers[0].roll", "knights"),
])
def test_t9a_problems_with_a_unit_name_it(edit, path, unit):
    problem = only(load_t9a, changed(T9A, edit))
    assert (problem.path, problem.unit) == (path, unit)


@pytest.mark.parametrize("edit, path", [
    (lambda d: d["terrain"][0].update(polygon=[[0, 0], [4, 4], [4, 0], [0, 4]]), "terrain[0].polygon"),
    (lambda d: d["board"].update(width=-1), "board.width"),
    (lambda d: d.update(declared_charges=[{"charger": "ghost", "target": "phantom"}]), "declared_charges[0].charger"),
    (lambda d: d.update(pursuit={"fled": [{"unit": "ghost"}], "pursuers": []}), "pursuit.fled[0].unit"),
])
def test_t9a_problems_without_a_unit_name_none(edit, path):
    problem = problems_of(load_t9a, changed(T9A, edit))[0]
    assert (problem.path, problem.unit) == (path, None)


def test_t9a_overlapping_units_name_both():
    problem = only(load_t9a, changed(T9A, lambda d: d["units"][2].update(centre=[25, 21])))
    assert (problem.path, problem.unit, problem.others) == ("units[2].centre", "spears", ("archers",))


def test_t9a_a_charge_on_a_friend_names_both():
    problem = only(load_t9a, changed(T9A, lambda d: d.update(
        declared_charges=[{"charger": "archers", "target": "spears"}])))
    assert (problem.path, problem.unit, problem.others) == ("declared_charges[0].target", "archers", ("spears",))


def test_t9a_question_parameters_name_no_unit():
    with pytest.raises(InvalidScenarioError) as caught:
        ask("t9a", "can-charge", T9A, {"charger": 3, "target": "ghost"})
    assert [(p, u) for p, _, u in caught.value.problem_units("en")] == [("params.charger", None),
                                                                        ("params.target", None)]


# --- the error's faces -------------------------------------------------------------------------------------------


def test_problem_units_keeps_in_language_and_adds_the_unit():
    with pytest.raises(InvalidScenarioError) as caught:
        load_mpbs(changed(MPBS, lambda d: (d["units"][2].update(hexes=["0909"]), d["map"]["friendly_edges"].update(green=["east"]))))
    error = caught.value
    for lang in ("en", "ru"):
        assert [(p, m) for p, m, _ in error.problem_units(lang)] == error.in_language(lang)
    assert [u for _, _, u in error.problem_units("ru")] == ["INF-2", None]
    assert error.to_dict("en")["problems"] == [
        {"path": p, "message": m, **({"unit": u} if u else {})} for p, m, u in error.problem_units("en")]
    assert error.to_dict()["problems"][0]["unit"] == "INF-2" and "unit" not in error.to_dict()["problems"][1]


def test_tuples_still_make_problems():
    error = InvalidScenarioError([("units[0].id", "bad"), ("", "worse", "A")])
    assert error.problems == [("units[0].id", "bad"), ("(root)", "worse")]
    assert error.problem_units("en") == [("units[0].id", "bad", None), ("(root)", "worse", "A")]


# --- every unit named is one the scenario lists, on thousands of broken scenarios -------------------------------


def _unit_ids(data) -> set[str]:
    units = data.get("units") if isinstance(data, dict) else None
    return {u["id"] for u in units if isinstance(u, dict) and isinstance(u.get("id"), str)} if isinstance(units, list) else set()


def _seeds(book: str) -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "fixtures" / "scenarios" / book).glob("*.json"))]


@pytest.mark.parametrize("book, load", [("mpbs", load_mpbs), ("t9a", load_t9a)])
def test_named_units_are_units_of_the_scenario(book, load):
    rnd = random.Random(12)
    seeds = _seeds(book)
    named = 0
    for _ in range(800):
        data = mutate(rnd.choice(seeds), rnd)
        try:
            load(data)
        except InvalidScenarioError as exc:
            ids = _unit_ids(data)
            for problem in exc.items:
                assert problem.unit is None or problem.unit in ids, problem
                assert all(other in ids for other in problem.others), problem
                if problem.path.startswith("units[") and problem.unit is not None:
                    index = int(problem.path[len("units["):problem.path.index("]")])
                    assert data["units"][index]["id"] == problem.unit, problem
                named += problem.unit is not None
    assert named > 100  # the mutations do break units
