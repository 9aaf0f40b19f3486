"""Charge reactions (t9a): the odds that the charge still reaches a unit that Flees (flee)."""
from __future__ import annotations

import copy
import itertools
from fractions import Fraction

import pytest

from rulesref.engine import ask
from rulesref.engine.t9a.geometry import gap
from rulesref.engine.t9a.reactions import flee_outcomes
from rulesref.engine.t9a.scenario import load_scenario

BASE = {
    "board": {"width": 48, "depth": 48},
    "units": [
        {"id": "k", "side": "red", "centre": [20, 8], "facing": 30, "width": 5, "depth": 2, "advance_rate": 6},
        {"id": "g", "side": "blue", "centre": [27, 18], "facing": 200, "width": 6, "depth": 3, "advance_rate": 4},
    ],
}


def scenario(**changes):
    data = copy.deepcopy(BASE)
    for key, value in changes.items():
        data.setdefault(key, []).extend(value)
    return data


def reactions(data) -> dict:
    return ask("t9a", "charge-reactions", data, {"charger": "k", "target": "g"}).to_dict()["result"]


def test_flee_moves_directly_away_along_the_centres_keeping_its_facing():
    loaded = load_scenario(scenario())
    charger, target = loaded.unit("k"), loaded.unit("g")
    (cx, cy), (tx, ty) = charger.boundary.centre, target.boundary.centre
    length = ((tx - cx) ** 2 + (ty - cy) ** 2) ** 0.5
    for outcome in flee_outcomes(loaded, charger, target):
        x, y = outcome.position.centre
        assert (x - tx, y - ty) == pytest.approx(((tx - cx) / length * outcome.roll, (ty - cy) / length * outcome.roll))
        assert outcome.position.facing == target.boundary.facing
        assert outcome.distance == pytest.approx(gap(charger.boundary, outcome.position))
        assert outcome.distance > gap(charger.boundary, target.boundary)


def test_odds_after_a_flee_are_the_brute_force_count_over_the_moved_positions():
    loaded = load_scenario(scenario())
    charger, target = loaded.unit("k"), loaded.unit("g")
    gaps = {o.roll: gap(charger.boundary, o.position) for o in flee_outcomes(loaded, charger, target)}
    hits = sum(1 for a, b, c, d in itertools.product(range(1, 7), repeat=4)
               if charger.advance_rate + c + d >= gaps[a + b] - 1e-7)
    result = reactions(scenario())
    assert result["chance_to_reach_after_flee"] == str(Fraction(hits, 1296))
    assert result["flee_odds"]["undetermined"]["fraction"] == "0/1"
    assert Fraction(result["flee_odds"]["chance"]["fraction"]) < Fraction(result["chance_to_reach"])


def test_a_flee_into_impassable_terrain_or_a_unit_leaves_those_rolls_open():
    wall = {"id": "wall", "polygon": [[20, 27], [40, 27], [40, 29], [20, 29]], "impassable": True}
    result = reactions(scenario(terrain=[wall]))
    odds = result["flee_odds"]
    assert result["chance_to_reach_after_flee"] is None
    assert odds["undetermined_rolls"] and odds["undetermined_rolls"][-1] == 12
    assert all(r["met"] == [{"kind": "impassable-terrain", "id": "wall"}] for r in odds["by_flee_roll"]
               if r["roll"] in odds["undetermined_rolls"])
    friend = {"id": "f", "side": "blue", "centre": [34, 30], "facing": 0, "width": 10, "depth": 2, "advance_rate": 4}
    odds = reactions(scenario(units=[friend]))["flee_odds"]
    assert any(r.get("met") == [{"kind": "friendly-unit", "id": "f"}] for r in odds["by_flee_roll"])


def test_an_engaged_unit_may_not_flee_and_gets_no_flee_odds():
    data = scenario()
    data["units"][1]["state"] = ["engaged"]
    result = reactions(data)
    assert "flee_odds" not in result and result["allowed"] == ["hold"]


def test_a_charge_already_declared_is_the_one_reacted_to_and_a_second_charge_is_refused():
    """Declaring a charge and then asking how its target may react answers for that charge (#30 item 3); a charger
    that declared a charge on another unit still has no second one (``declaring-charges``)."""
    declared = ask("t9a", "charge-reactions", scenario(declared_charges=[{"charger": "k", "target": "g"}]),
                   {"charger": "k", "target": "g"})
    fresh = ask("t9a", "charge-reactions", scenario(), {"charger": "k", "target": "g"})
    assert declared.verdict == fresh.verdict
    assert declared.to_dict()["result"]["allowed"] == fresh.to_dict()["result"]["allowed"] != []
    data = scenario(units=[{"id": "h", "side": "blue", "centre": [8, 30], "facing": 0, "width": 5, "depth": 2,
                            "advance_rate": 4}], declared_charges=[{"charger": "k", "target": "h"}])
    other = ask("t9a", "charge-reactions", data, {"charger": "k", "target": "g"})
    assert other.verdict.value == "no"
    assert any("has already declared a charge" in f.message.render("en") for f in other.findings
               if f.status.value == "fail")
