"""Scenario limits: the largest scenario each schema allows loads; one step beyond any limit is refused with a
clear problem at its path, in both languages. The limits are those of docs/scenario-format-{mpbs,t9a}.md."""
from __future__ import annotations

import copy
import math
import json
from pathlib import Path

import pytest

from rulesref.engine import mpbs, params, t9a
from rulesref.engine.hexgrid import HexMap
from rulesref.engine.ruling import InvalidScenarioError

ROOT = Path(__file__).resolve().parents[2]
MPBS = json.loads((ROOT / "fixtures/scenarios/mpbs/interception-example-9.3.json").read_text(encoding="utf-8"))
T9A = json.loads((ROOT / "fixtures/scenarios/t9a/charge-clear.json").read_text(encoding="utf-8"))


def refused(load, data) -> tuple[dict[str, str], dict[str, str]]:
    with pytest.raises(InvalidScenarioError) as caught:
        load(data)
    return dict(caught.value.in_language("en")), dict(caught.value.in_language("ru"))


def edited(base, edit):
    data = copy.deepcopy(base)
    edit(data)
    return data


def test_the_limits_are_the_documented_ones():
    assert {k: mpbs.limits()[k] for k in ("columns", "rows", "units", "movement_allowance")} == {
        "columns": 100, "rows": 100, "units": 400, "movement_allowance": 20}
    assert {k: t9a.limits()[k] for k in ("board_width", "board_depth", "units", "terrain", "polygon_vertices")} == {
        "board_width": 144, "board_depth": 96, "units": 150, "terrain": 100, "polygon_vertices": 64}


def test_question_parameters_are_bounded_as_the_scenarios():
    assert params.MAX_UNITS == max(mpbs.limits()["units"], t9a.limits()["units"])
    assert params.MAX_ID_LENGTH == mpbs.limits()["id_length"] == t9a.limits()["id_length"]


def largest_mpbs() -> dict:
    """100 x 100 hexes, every hex's terrain given, 400 units."""
    hexmap = HexMap(100, 100, "pointy", "odd")
    hexes = list(hexmap.hexes())
    units = [{"id": f"U{i:03d}", "side": "red" if i % 2 else "blue", "type": "light-infantry",
              "hexes": [hexmap.label(hexes[i * 25])], "facing": "N", "movement": {"allowance": 20}}
             for i in range(400)]
    return {"book": "mpbs", "map": {"columns": 100, "rows": 100, "terrain": {hexmap.label(h): "rough" for h in hexes},
                                    "dead_zones": [hexmap.label(h) for h in hexes[:10000]]},
            "units": units}


def test_the_largest_mpbs_scenario_loads():
    scenario = mpbs.load_scenario(largest_mpbs())
    assert len(scenario.units) == 400 and scenario.hexmap.columns == 100


@pytest.mark.parametrize("edit, path, en, ru", [
    (lambda d: d["map"].update(columns=101), "map.columns", "101 is above the most allowed, 100", "больше"),
    (lambda d: d["map"].update(rows=101), "map.rows", "above the most allowed, 100", "больше"),
    (lambda d: d["units"][0]["movement"].update(allowance=20.5), "units[0].movement.allowance", "20", "больше"),
    (lambda d: d["units"][0].update(id="X" * 41), "units[0].id", "more than 40 characters", "символ"),
    (lambda d: d["units"][0].update(name="N" * 81), "units[0].name", "more than 80 characters", "символ"),
    (lambda d: d.update(title="T" * 201), "title", "more than 200 characters", "символ"),
    (lambda d: d.update(terrain_types={"road": {"cost": {"cavalry": 0.25}}}), "terrain_types.road.cost.cavalry",
     "below the least allowed, 0.5", "меньше"),
    (lambda d: d.update(terrain_types={f"t{i}": {} for i in range(51)}), "terrain_types", "more than 50 entries",
     "записей"),
    (lambda d: d["moment"]["event"].update(mp=21), "moment.event.mp", "above the most allowed, 20", "больше"),
    (lambda d: d.update(questions=[{"question": "reactions"}] * 51), "questions", "more than 50 items", "элементов"),
])
def test_mpbs_beyond_a_limit_is_refused_at_its_path(edit, path, en, ru):
    english, russian = refused(mpbs.load_scenario, edited(MPBS, edit))
    assert en in english[path] and ru in russian[path]


def test_mpbs_more_than_400_units_are_refused():
    data = largest_mpbs()
    data["units"].append({**data["units"][-1], "id": "ONE-MORE"})
    english, russian = refused(mpbs.load_scenario, data)
    assert english == {"units": "has more than 400 items"} and russian == {"units": "больше 400 элементов"}


def largest_t9a() -> dict:
    """A 144" x 96" board, 150 units of 24" x 2" in rows, 100 terrain pieces of 64 corners."""
    units = [{"id": f"u{i}", "side": "north" if i % 2 else "south", "centre": [12.5 + 24.5 * (i % 5), 1.5 + 3.1 * (i // 5)],
              "facing": 0, "width": 24, "depth": 2, "advance_rate": 20} for i in range(150)]
    terrain = []
    for k in range(100):
        x0, y0 = 124 + 1.9 * (k % 10), 1 + 9.4 * (k // 10)
        ring = [[x0 + 0.9 + 0.8 * math.cos(a / 64 * 6.283185), y0 + 0.9 + 0.8 * math.sin(a / 64 * 6.283185)]
                for a in range(64)]
        terrain.append({"id": f"t{k}", "polygon": ring, "impassable": k % 2 == 0})
    return {"book": "t9a", "board": {"width": 144, "depth": 96}, "units": units, "terrain": terrain}


def test_the_largest_t9a_scenario_loads():
    scenario = t9a.load_scenario(largest_t9a())
    assert len(scenario.units) == 150 and len(scenario.terrain) == 100


@pytest.mark.parametrize("edit, path, en, ru", [
    (lambda d: d["board"].update(width=145), "board.width", "145 is above the most allowed, 144", "больше"),
    (lambda d: d["board"].update(depth=97), "board.depth", "above the most allowed, 96", "больше"),
    (lambda d: d["units"][0].update(width=25), "units[0].width", "above the most allowed, 24", "больше"),
    (lambda d: d["units"][0].update(advance_rate=21), "units[0].advance_rate", "20", "больше"),
    (lambda d: d["units"][0].update(centre=[300, 5]), "units[0].centre[0]", "above the most allowed, 288", "больше"),
    (lambda d: d["units"][0].update(id="k" * 41), "units[0].id", "more than 40 characters", "символ"),
    (lambda d: d.update(terrain=[{"id": "big", "polygon": [[1 + i % 2, i / 10] for i in range(65)]}]),
     "terrain[0].polygon", "more than 64 items", "элементов"),
    (lambda d: d.update(terrain=[{"id": f"t{i}", "polygon": [[0, 0], [1, 0], [0, 1]]} for i in range(101)]),
     "terrain", "more than 100 items", "элементов"),
])
def test_t9a_beyond_a_limit_is_refused_at_its_path(edit, path, en, ru):
    english, russian = refused(t9a.load_scenario, edited(T9A, edit))
    assert en in english[path] and ru in russian[path]


def test_t9a_more_than_150_units_are_refused():
    data = largest_t9a()
    data["units"].append({**data["units"][0], "id": "one-more"})
    english, _ = refused(t9a.load_scenario, data)
    assert english == {"units": "has more than 150 items"}


def test_t9a_a_unit_of_too_many_bases_is_refused():
    data = edited(T9A, lambda d: d["units"][0].update(base_mm=[25, 25], files=30, ranks=2))
    for k in ("width", "depth"):
        data["units"][0].pop(k, None)
    english, russian = refused(t9a.load_scenario, data)
    assert english["units[0]"] == "the Unit Boundary is 29.53″ by 1.97″; at most 24″ by 24″"
    assert russian["units[0]"] == "контур подразделения — 29,53″ на 1,97″; самое большее 24″ на 24″"


def test_t9a_pursuit_lists_are_bounded():
    data = edited(T9A, lambda d: d.update(pursuit={
        "fled": [{"unit": "x"}] * 11, "pursuers": [{"unit": "y", "pursues": "x", "roll": 7}] * 11}))
    english, _ = refused(t9a.load_scenario, data)
    assert english["pursuit.fled"] == english["pursuit.pursuers"] == "has more than 10 items"


def test_whole_numbers_written_with_a_decimal_point_are_read_as_whole_numbers():
    """JSON Schema counts 40.0 as an integer; the engine must read it as 40 (it drew a map of range(40.0))."""
    as_floats = edited(MPBS, lambda d: (d["map"].update(columns=float(d["map"]["columns"]), rows=float(d["map"]["rows"])),
                                        d["units"][0]["morale"].update(rating=8.0)))
    for item in MPBS["questions"]:
        from rulesref.engine import ask

        assert ask("mpbs", item["question"], as_floats, item["params"]).to_dict() == \
            ask("mpbs", item["question"], MPBS, item["params"]).to_dict()
