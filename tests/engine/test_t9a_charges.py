"""Declaring charges (t9a, declaring-charges): sight, range and the three tiers of reachability."""
from __future__ import annotations

import copy

from rulesref.engine import ask

BASE = {
    "board": {"width": 48, "depth": 48},
    "units": [
        {"id": "k", "side": "red", "centre": [24, 8], "facing": 0, "width": 5, "depth": 2, "advance_rate": 7},
        {"id": "g", "side": "blue", "centre": [24, 22], "facing": 180, "width": 6, "depth": 2, "advance_rate": 4},
    ],
}


def charge(**extra) -> dict:
    data = copy.deepcopy(BASE)
    for key, value in extra.items():
        data.setdefault(key, []).extend(value)
    return ask("t9a", "can-charge", data, {"charger": "k", "target": "g"}).to_dict()


def test_clear_charge_draws_sight_line_and_straight_path():
    result = charge()["result"]
    assert result["line_of_sight"]["clear"] is True
    assert result["approach"]["clear"] and result["approach"]["length"] == 12.0
    assert len(result["approach"]["path"]) == 4


def test_obscuring_terrain_covering_part_of_the_target_leaves_sight():
    wood = {"id": "w", "polygon": [[18, 13], [24, 13], [24, 17], [18, 17]], "obscuring": True}
    ruling = charge(terrain=[wood])
    assert ruling["verdict"] == "yes"
    line = ruling["result"]["line_of_sight"]["sight_line"]
    assert line[1][0] > 24 or line[0][0] > 24  # the line drawn passes right of the wood


def test_impassable_rock_on_the_straight_way_but_room_round_it_is_undetermined():
    rock = {"id": "r", "polygon": [[22, 13], [26, 13], [26, 15], [22, 15]], "impassable": True}
    ruling = charge(terrain=[rock])
    assert ruling["verdict"] == "undetermined"
    assert ruling["result"]["approach"]["blocked_by"] == [{"kind": "impassable-terrain", "id": "r"}]


def test_a_gap_narrower_than_the_charger_is_no_way_through():
    walls = [
        {"id": "a", "polygon": [[0, 13], [23.2, 13], [23.2, 15], [0, 15]], "impassable": True},
        {"id": "b", "polygon": [[24.8, 13], [48, 13], [48, 15], [24.8, 15]], "impassable": True},
    ]
    ruling = charge(terrain=walls)  # a 1.6" gap; the charger is 2" deep and 5" wide
    assert ruling["verdict"] == "no"


def test_declared_path_alone_never_says_no():
    units = [
        {"id": "r", "side": "red", "centre": [10, 12], "facing": 90, "width": 4, "depth": 2, "advance_rate": 8},
        {"id": "o", "side": "blue", "centre": [40, 12], "facing": 270, "width": 4, "depth": 2, "advance_rate": 4},
    ]
    walls = [
        {"id": "a", "polygon": [[0, 10], [7, 10], [7, 14], [0, 14]], "impassable": True},
        {"id": "b", "polygon": [[43, 10], [48, 10], [48, 14], [43, 14]], "impassable": True},
    ]
    ruling = charge(units=units, terrain=walls, declared_charges=[{"charger": "r", "target": "o"}])
    assert ruling["verdict"] == "undetermined"
