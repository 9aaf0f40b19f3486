"""Reading t9a scenarios: every problem reported by its path, never a traceback."""
from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from rulesref.engine import ask
from rulesref.engine.ruling import InvalidScenarioError
from rulesref.engine.t9a import PARAMS, QUESTIONS, schema
from rulesref.engine.t9a.scenario import MM_PER_INCH, UnitState, load_scenario

GOOD = {
    "book": "t9a",
    "board": {"width": 48, "depth": 48},
    "terrain": [{"id": "wood", "polygon": [[20, 30], [26, 30], [26, 36], [20, 36]], "obscuring": True}],
    "units": [
        {"id": "knights", "side": "red", "centre": [24, 8], "facing": 0, "width": 5, "depth": 2, "advance_rate": 8},
        {"id": "archers", "side": "blue", "centre": [24, 20], "facing": 180, "base_mm": [20, 20], "files": 6,
         "ranks": 2, "advance_rate": [5, 4], "missile_weapons": True, "state": ["stood-and-shot"]},
    ],
}


def problems(data) -> dict[str, str]:
    with pytest.raises(InvalidScenarioError) as caught:
        load_scenario(data)
    return dict(caught.value.problems)


def broken(**changes):
    data = copy.deepcopy(GOOD)
    for path, value in changes.items():
        target = data
        *parts, last = path.split(".")
        for part in parts:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is ...:
            del target[int(last) if last.isdigit() else last]
        else:
            target[int(last) if last.isdigit() else last] = value
    return data


def test_a_good_scenario_loads():
    scenario = load_scenario(GOOD)
    archers = scenario.unit("archers")
    assert archers.boundary.width == pytest.approx(120 / MM_PER_INCH)
    assert archers.advance_rate == 4
    assert archers.state == {UnitState.STOOD_AND_SHOT}
    assert scenario.obscuring_terrain[0].id == "wood"


def test_the_shipped_schema_is_valid_and_accepts_the_example():
    jsonschema.Draft202012Validator.check_schema(schema())
    jsonschema.validate(GOOD, schema())


@pytest.mark.parametrize("changes, path, words", [
    ({"units.1.facing": 400}, "units[1].facing", "400"),
    ({"units.0.advance_rate": -1}, "units[0].advance_rate", ""),
    ({"units.0.state": ["sleeping"]}, "units[0].state[0]", "sleeping"),
    ({"units.0.centre": [1]}, "units[0].centre", ""),
    ({"units.0.side": ...}, "units[0]", "side"),
    ({"board.width": 0}, "board.width", ""),
    ({"units.0.colour": "red"}, "units[0]", "colour"),
    ({"terrain.0.polygon": [[0, 0], [1, 1]]}, "terrain[0].polygon", ""),
])
def test_schema_problems_name_their_path(changes, path, words):
    found = problems(broken(**changes))
    assert path in found, found
    assert words in found[path]


@pytest.mark.parametrize("changes, path, words", [
    ({"units.1.id": "knights"}, "units[1].id", "already"),
    ({"units.0.width": ...}, "units[0]", "depth"),
    ({"units.1.files": ...}, "units[1]", "files"),
    ({"units.0.centre": [1, 1]}, "units[0].centre", "not wholly on the board"),
    ({"units.1.centre": [24, 9]}, "units[1].centre", "overlaps"),
    ({"units.0.state": ["engaged", "fleeing"]}, "units[0].state", "both"),
    ({"terrain.0.polygon": [[0, 0], [4, 4], [4, 0], [0, 4]]}, "terrain[0].polygon", "simple"),
    ({"declared_charges": [{"charger": "knights", "target": "ghosts"}]}, "declared_charges[0].target", "ghosts"),
    ({"declared_charges": [{"charger": "knights", "target": "knights"}]}, "declared_charges[0].target", "same side"),
    ({"pursuit": {"fled": [{"unit": "archers"}], "pursuers": [{"unit": "knights", "pursues": "wood", "roll": 7}]}},
     "pursuit.pursuers[0].pursues", "not among"),
    ({"pursuit": {"fled": [{"unit": "archers"}], "pursuers": [{"unit": "knights", "pursues": "archers", "roll": 13}]}},
     "pursuit.pursuers[0].roll", ""),
    ({"pursuit": {"fled": [{"unit": "archers"}], "pursuers": [], "melee": ["x"]}}, "pursuit.melee[0]", "x"),
])
def test_semantic_problems_name_their_path(changes, path, words):
    found = problems(broken(**changes))
    assert path in found, found
    assert words in found[path]


def test_every_problem_is_listed_at_once():
    found = problems(broken(**{"units.0.facing": -5, "units.1.centre": "here", "board.depth": "deep"}))
    assert {"units[0].facing", "units[1].centre", "board.depth"} <= set(found)


def test_not_an_object_at_all():
    assert "(root)" in problems([1, 2, 3])


@pytest.mark.parametrize("question", ["can-charge", "charge-reactions"])
def test_bad_parameters_are_invalid_requests(question):
    with pytest.raises(InvalidScenarioError) as caught:
        ask("t9a", question, GOOD, {"charger": "ghosts", "colour": "red"})
    paths = dict(caught.value.problems)
    assert {"params.charger", "params.target", "params.colour"} == set(paths)
    assert "knights" in paths["params.charger"]  # the known units are listed


def test_pursuit_needs_a_pursuit():
    with pytest.raises(InvalidScenarioError) as caught:
        ask("t9a", "pursuit", GOOD, {})
    assert caught.value.problems[0][0] == "pursuit"


def test_invalid_scenario_error_serialises():
    with pytest.raises(InvalidScenarioError) as caught:
        load_scenario(broken(**{"units.0.facing": 400}))
    assert json.dumps(caught.value.to_dict())


def test_params_describe_every_question():
    assert set(PARAMS) == set(QUESTIONS)
    for params in PARAMS.values():
        for param in params:
            described = param.to_dict("ru")
            assert described["type"] == "unit" and described["description"]


def test_fled_unit_destroyed_when_caught_unless_said_otherwise():
    data = broken(**{"pursuit": {"fled": [{"unit": "archers", "roll": 7}],
                                 "pursuers": [{"unit": "knights", "pursues": "archers", "roll": [3, 4]}]}})
    assert load_scenario(data).pursuit.fled[0].destroyed
    data["pursuit"]["fled"][0]["destroyed"] = False
    assert not load_scenario(data).pursuit.fled[0].destroyed


def test_problems_speak_the_readers_language():
    """Scenario problems are engine messages: English by default, Russian when asked, jsonschema's included."""
    from rulesref.engine.ruling import InvalidScenarioError
    from rulesref.engine.t9a.scenario import load_scenario

    overlapping = {"book": "t9a", "board": {"width": 48, "depth": 48}, "units": [
        {"id": "a", "side": "red", "centre": [10, 10], "facing": 0, "width": 5, "depth": 2, "advance_rate": 5},
        {"id": "b", "side": "blue", "centre": [11, 10], "facing": 0, "width": 5, "depth": 2, "advance_rate": 5}]}
    with pytest.raises(InvalidScenarioError) as caught:
        load_scenario(overlapping)
    assert caught.value.problems == [("units[1].centre", "'b' overlaps 'a' (units[0])")]
    assert caught.value.in_language("ru") == [("units[1].centre", "'b' перекрывает 'a' (units[0])")]
    bad = {**overlapping, "board": {"width": -3, "depth": 48}, "extra": 1}
    with pytest.raises(InvalidScenarioError) as caught:
        load_scenario(bad)
    russian = dict(caught.value.in_language("ru"))
    assert russian["(root)"] == "неизвестное поле: extra"
    assert "меньше" in russian["board.width"] or "больше" in russian["board.width"]
    assert caught.value.to_dict("ru")["problems"][0]["message"] == caught.value.in_language("ru")[0][1]
