"""Pursuit steps (t9a, XIII.7.C): measurements behind the example scenarios."""
from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
import shapely
from hypothesis import given, settings, strategies as st
from shapely.geometry import LineString

from rulesref.engine import ask
from rulesref.engine.t9a.geometry import Arc, UnitBoundary, located_in
from rulesref.engine.t9a.pursuit import distance_ahead, distances_ahead, front_at, fronts_at
from rulesref.engine.t9a.scenario import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "t9a"


def pursue(name: str) -> dict:
    data = json.loads((SCENARIOS / f"{name}.json").read_text())
    return ask("t9a", "pursuit", data).to_dict()["result"]


def test_stopped_short_front_is_one_inch_from_the_obstacle():
    data = json.loads((SCENARIOS / "pursuit-pivot-friend-in-the-way.json").read_text())
    scenario = load_scenario(data)
    final = ask("t9a", "pursuit", data).to_dict()["result"]["pursuers"][0]["final"]
    front = LineString(final["front"])
    militia = scenario.unit("militia").boundary.polygon
    assert shapely.distance(front, militia) == pytest.approx(1.0, abs=1e-4)  # positions are given to 1e-4
    assert 0 < final["facing"] < 90


def test_pivot_charge_places_the_pursuer_flush_with_most_contact():
    result = pursue("pursuit-pivot-charge")
    step = result["pursuers"][0]["steps"][0]
    assert step["case"] == "charge" and step["charge_arc"] == "right-flank"
    assert step["base_contact"] == pytest.approx(2.0)  # the whole flank of the trolls
    placed = UnitBoundary(tuple(step["position"]["centre"]), 5, 2, step["position"]["facing"])
    trolls = UnitBoundary((24, 22.5), 2, 2, 90)
    assert located_in(placed, trolls) is Arc.RIGHT_FLANK
    assert shapely.distance(placed.polygon, trolls.polygon) == pytest.approx(0, abs=1e-6)
    assert step["position"]["centre"] == [24.0, 20.5]  # nearest its old centre (24, 20)


def test_forward_contact_distances():
    assert pursue("pursuit-forward-enemy")["pursuers"][0]["steps"][1]["distance"] == 5.0
    assert pursue("pursuit-forward-board-edge")["pursuers"][0]["steps"][1]["distance"] == 7.0


def test_distance_ahead_ignores_what_is_flush_with_a_flank():
    unit = UnitBoundary((10, 10), 4, 2, 0)
    beside = UnitBoundary((14, 12), 4, 6, 0)  # touches the right flank and runs on ahead of it
    assert distance_ahead(unit, beside.polygon) == float("inf")
    ahead = UnitBoundary((11.5, 16), 4, 2, 0)  # overlaps the front's band by 0.5
    assert distance_ahead(unit, ahead.polygon) == pytest.approx(4.0)


boxes = st.builds(lambda x, y, w, d, f: UnitBoundary((x, y), w, d, f), st.floats(-20, 20), st.floats(-20, 20),
                  st.floats(0.5, 8), st.floats(0.5, 8), st.floats(0, 360))


def _first_contact(unit: UnitBoundary, shape) -> float:
    """An independent measure: the nearest forward coordinate of the shape inside the band the front sweeps."""
    a, b, far = unit.width / 2 - 1e-7, unit.depth / 2, 200.0
    band = shapely.Polygon([unit.at(-a, b - 1e-7), unit.at(a, b - 1e-7), unit.at(a, b + far), unit.at(-a, b + far)])
    met = shapely.intersection(band, shape)
    if met.is_empty:
        return float("inf")
    return max(min(unit.local(p)[1] for p in shapely.get_coordinates(met)) - b, 0.0)


@settings(max_examples=60, deadline=None)
@given(unit=boxes, others=st.lists(boxes, min_size=1, max_size=5))
def test_distances_ahead_of_many_shapes_match_one_at_a_time_and_an_independent_measure(unit, others):
    shapes = [o.polygon for o in others if not shapely.intersects(o.core, unit.polygon)]
    if not shapes:
        return
    together = distances_ahead(unit, shapes)
    for shape, found in zip(shapes, together):
        assert found == distance_ahead(unit, shape)
        assert found == pytest.approx(_first_contact(unit, shape), abs=1e-5)


def test_fronts_at_matches_turning_each_corner():
    unit = UnitBoundary((3, 4), 5, 2, 30)
    for turn, front in zip((0, 45, -120), fronts_at(unit, [0, 45, -120])):
        assert [c for p in front for c in p] == pytest.approx([c for p in front_at(unit, turn) for c in p])


def test_pursuers_move_in_roll_order_and_friends_of_the_melee_are_open():
    result = pursue("pursuit-two-pursuers")
    assert [p["unit"] for p in result["pursuers"]] == ["riders", "knights"]
    knights = result["pursuers"][1]
    assert knights["final"]["centre"] == [24.0, 26.0]  # straight through the spearmen of the same melee


def test_half_turn_shows_both_ways():
    """Neither way round is the answer's: no steps, no final place, both ways listed with where each leads."""
    pursuer = pursue("pursuit-half-turn")["pursuers"][0]
    assert not pursuer["determined"]
    assert pursuer["steps"] == [] and pursuer["final"] is None and pursuer["outcome"] == "undetermined"
    assert sorted(way["steps"][0]["case"] for way in pursuer["ways"]) == ["charge", "clear"]
    assert [way["outcome"] for way in pursuer["ways"] if way["steps"][0]["case"] == "clear"] == ["full-distance"]


def test_catch_odds():
    pursuer = pursue("pursuit-fled-unit-caught")["pursuers"][0]
    assert pursuer["catch_odds"]["before_the_rolls"]["fraction"] == "721/1296"
    assert pursuer["catch_odds"]["given_flee_roll"]["fraction"] == "5/6"
    assert pursuer["catch_odds"]["caught"] is True


def test_a_pivot_measures_its_stop_against_each_obstacle_once(monkeypatch):
    """One wood is in the way of many sampled pieces of the sweep; the stop short is measured against it once (it
    had been passed on once per piece, which made the worst pursuit twelve times the work)."""
    pursuit_module = importlib.import_module("rulesref.engine.t9a.pursuit")  # the package's `pursuit` is the question

    measured = []
    stop_short_turn = pursuit_module.stop_short_turn

    def counting(start, turn, obstacles, work=None):
        measured.append([o.id for o in obstacles])
        return stop_short_turn(start, turn, obstacles, work)

    monkeypatch.setattr(pursuit_module, "stop_short_turn", counting)
    data = json.loads((SCENARIOS / "pursuit-pivot-friend-in-the-way.json").read_text())
    assert pursue("pursuit-pivot-friend-in-the-way")["pursuers"][0]["steps"][0]["case"] == "stopped-short"
    assert measured and all(len(ids) == len(set(ids)) for ids in measured), measured
    assert load_scenario(data).unit("militia").id in measured[0]


def test_a_pivot_with_nothing_within_reach_builds_no_sweep(monkeypatch):
    """Nothing within the half-diagonal of the centre: both ways round are clear without sampling the sweep."""
    pursuit_module = importlib.import_module("rulesref.engine.t9a.pursuit")  # the package's `pursuit` is the question

    def no_sampling(*args, **kwargs):
        raise AssertionError("the sweep was sampled")

    data = json.loads((SCENARIOS / "pursuit-pivot-friend-in-the-way.json").read_text())
    militia = next(u for u in data["units"] if u["id"] == "militia")
    data["units"].remove(militia)
    monkeypatch.setattr(pursuit_module, "front_positions", no_sampling)
    result = ask("t9a", "pursuit", data).to_dict()["result"]
    assert result["pursuers"][0]["steps"][0]["case"] == "clear"


def test_a_pursuit_without_pursuers_says_nobody_pursues():
    """A melee whose fled units nobody pursues is answered in words (#30 item 3), not "0 pursuers move"."""
    data = json.loads((SCENARIOS / "pursuit-full-distance.json").read_text())
    data["pursuit"]["pursuers"] = []
    ruling = ask("t9a", "pursuit", data)
    assert ruling.verdict.value == "yes" and ruling.to_dict()["result"]["pursuers"] == []
    assert [f.message.render("en") for f in ruling.findings][0] == "nobody pursues: no unit of the melee pursues Goblins"
    assert ruling.findings[0].message.render("ru").startswith("никто не преследует")
