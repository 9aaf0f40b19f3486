"""Work bounded by construction: questions stop once decided, searches stay within what the rules can need, and a
still-too-large question answers "undetermined: too large" instead of computing on. Counted, never timed."""
from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import pytest

from rulesref.engine import ask, work
from rulesref.engine.hexgrid import HexMap, hex_distance
from rulesref.engine.mpbs import movement
from rulesref.engine.mpbs.reaction import REACTIONS_WORK
from rulesref.engine.mpbs.retreat import RETREAT_WORK
from rulesref.engine.ruling import MAX_PROBLEMS, InvalidScenarioError

ROOT = Path(__file__).resolve().parents[2]
PURSUIT = importlib.import_module("rulesref.engine.t9a.pursuit")  # the module (the package exports the question)
CLASSES = ("cavalry", "light-infantry", "heavy-infantry", "artillery", "limbered-artillery", "leader", "wagon")


@pytest.fixture
def spent(monkeypatch):
    """Every unit of work any question spends, counted (by kind)."""
    counted: dict[str, int] = {}
    original = work.Work.spend

    def spend(self, n=1):
        counted[self.what] = counted.get(self.what, 0) + n
        return original(self, n)

    monkeypatch.setattr(work.Work, "spend", spend)
    return counted


def big_map(default="clear", **extra) -> dict:
    """The largest map, with a road type (the cheapest entry the schema allows) for every movement class."""
    return {"book": "mpbs",
            "map": {"columns": 100, "rows": 100, "terrain_default": default, "terrain": {}, "dead_zones": [],
                    "friendly_edges": {"red": ["north"], "blue": ["south"]}},
            "terrain_types": {"road": {"cost": {k: 0.5 for k in CLASSES}, "formation_hits": {k: 0 for k in CLASSES},
                                       "blocks_los": False}},
            "wings": [{"id": "R", "side": "red", "order": "rally"}, {"id": "B", "side": "blue", "order": "charge"}],
            "units": [], "moment": {"active_side": "blue", "active_wing": "B"}, **extra}


def unit(uid, side, kind, label, facing, allowance=20):
    return {"id": uid, "side": side, "wing": "R" if side == "red" else "B", "type": kind, "hexes": [label],
            "facing": facing, "movement": {"allowance": allowance}, "morale": {"rating": 8},
            "formation": {"name": "line", "hits_before_disorder": 20}}


HEXES = HexMap(100, 100, "pointy", "odd")


def at(column: int, row: int) -> str:
    return HEXES.label(HEXES.hex_at(column, row))


# --- interception ------------------------------------------------------------------------------------------------


def test_no_path_is_sought_for_cavalry_beyond_four_hexes(spent):
    """#12: cavalry with a large allowance and the target far away: 9.3.1a decides, no placement is expanded."""
    data = big_map(default="road")
    data["units"] = [unit("CAV", "red", "cavalry", at(0, 0), "S"), unit("HI", "blue", "heavy-infantry", at(99, 99), "N", 4)]
    data["moment"]["event"] = {"unit": "HI", "action": "move", "mp": 1}
    for question in ("can-intercept", "interception-chance"):
        ruling = ask("mpbs", question, data, {"unit": "CAV"})
        assert ruling.verdict.value == "no"
        assert {f.citation.clause: f.status.value for f in ruling.findings}["9.3.1a"] == "fail"
        assert "path" not in ruling.result
    assert spent.get("placements", 0) == 0


def test_a_path_within_four_hexes_needs_few_placements(spent):
    data = big_map(default="road")
    data["units"] = [unit("CAV", "red", "cavalry", at(50, 46), "S"), unit("HI", "blue", "heavy-infantry", at(50, 50), "N", 4)]
    data["moment"]["event"] = {"unit": "HI", "action": "move", "mp": 1}
    ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV"})
    assert ruling.verdict.value == "yes" and ruling.result["distance"] == 4
    assert 0 < spent["placements"] < 200


# --- reactions ---------------------------------------------------------------------------------------------------


def withdrawing_crowd() -> dict:
    """Units under Rally orders, all within two hexes of an enemy's move, each able to withdraw 20 MP over roads:
    every withdraw search could cover the map."""
    data = big_map(default="road")
    centre = HEXES.hex_at(50, 50)
    ring = sorted((h for h in HEXES.hexes() if 1 <= hex_distance(h, centre) <= 2), key=HEXES.label)
    data["units"] = [unit("HI", "blue", "heavy-infantry", HEXES.label(centre), "N", 4)]
    data["units"] += [unit(f"R{i:03d}", "red", "light-infantry", HEXES.label(ring[i % len(ring)]), "S") for i in range(60)]
    data["moment"]["event"] = {"unit": "HI", "action": "move", "mp": 1}
    return data


def test_reactions_stop_at_their_work_budget(spent):
    ruling = ask("mpbs", "reactions", withdrawing_crowd(), {})
    # Past the limit, each further search stops at its first placement.
    assert spent["placements"] <= REACTIONS_WORK + 60
    too_large = [f for f in ruling.findings if f.citation.clause == "9.2.4" and f.status.value == "unknown"]
    assert too_large, "the withdraw searches outgrow the budget"
    assert too_large[0].message.render("en") == (
        f"The position is too large to decide (limit: {REACTIONS_WORK} placements expanded).")
    assert too_large[0].message.render("ru") == (
        f"Позиция слишком велика, чтобы решить вопрос (предел: {REACTIONS_WORK} рассмотренных положений).")
    # The other reactions are still decided for every unit.
    assert len(ruling.result["units"]) == 60 and ruling.verdict.value in ("yes", "undetermined")


# --- retreat -----------------------------------------------------------------------------------------------------


def beaten(data: dict, column: int, row: int) -> dict:
    data["units"] = [unit("RED", "red", "heavy-infantry", at(column, row), "S"),
                     unit("BLUE", "blue", "heavy-infantry", at(column, row + 1), "N")]
    return data


RETREAT = {"unit": "RED", "result": "broken", "fought": "BLUE"}


def test_a_retreat_across_open_ground_runs_straight_to_the_edge(spent):
    """97 rows from its edge, with a cheaper terrain type defined (but not on the map): about a hex per row."""
    ruling = ask("mpbs", "retreat", beaten(big_map(), 50, 97), RETREAT)
    assert ruling.verdict.value == "yes" and ruling.result["destinations"][0]["cost_to_edge"] == 97
    assert spent["placements"] < 1000


def test_a_road_on_the_map_does_not_send_the_search_sweeping(spent):
    data = beaten(big_map(), 50, 97)
    data["map"]["terrain"] = {at(c, 10): "road" for c in range(100)}  # one row of road
    ruling = ask("mpbs", "retreat", data, RETREAT)
    assert ruling.verdict.value == "yes" and ruling.result["destinations"][0]["cost_to_edge"] == 96.5
    assert spent["placements"] < 1000


def test_a_wall_of_water_is_seen_at_once(spent):
    data = beaten(big_map(), 50, 70)
    data["map"]["terrain"] = {at(c, 40): "water" for c in range(100)}
    ruling = ask("mpbs", "retreat", data, RETREAT)
    message = [f.message.render("en") for f in ruling.findings if f.citation.clause == "11.4.2"][-1]
    assert message.startswith("Priority 3: no route leads on to the friendly map edge")
    assert spent.get("placements", 0) == 0


def test_a_maze_costs_at_most_its_budget(spent):
    """Walls of water across the map with one gap each, alternately at either side: a very long way round."""
    data = beaten(big_map(), 50, 98)
    data["map"]["terrain"] = {at(c, r): "water" for r in range(2, 97, 2) for c in range(100)
                              if c != (99 if (r // 2) % 2 else 0)}
    ruling = ask("mpbs", "retreat", data, RETREAT)
    assert spent["placements"] <= RETREAT_WORK + 1
    priority_3 = [f for f in ruling.findings if f.message.render("en").startswith("Priority 3")][-1]
    if priority_3.status.value == "unknown":
        assert "too large to decide" in priority_3.message.render("en")
        assert ruling.verdict.value == "undetermined" and ruling.result["destinations"]


def test_a_search_without_a_budget_of_its_own_still_has_one():
    data = beaten(big_map(default="road"), 50, 50)
    from rulesref.engine.mpbs.scenario import load_scenario

    scenario = load_scenario(data)
    mover = movement.Mover(scenario, scenario.unit("RED"))
    with pytest.raises(work.TooLarge):
        movement.search(mover, movement.placement_of(scenario.unit("RED")), 1000.0)


# --- problems ----------------------------------------------------------------------------------------------------


def test_an_error_lists_a_bounded_number_of_problems():
    data = big_map()
    data["map"]["terrain"] = {at(c, r): 5 for c in range(30) for r in range(30)}
    with pytest.raises(InvalidScenarioError) as caught:
        ask("mpbs", "reactions", data, {})
    problems = caught.value.in_language("en")
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[-1] == ("(root)", f"more problems are not listed: correct these {MAX_PROBLEMS} first")
    assert caught.value.in_language("ru")[-1][1] == f"остальные ошибки не перечислены: сначала исправьте эти {MAX_PROBLEMS}"


def test_the_fixtures_stay_well_within_the_budgets(spent):
    for path in sorted((ROOT / "fixtures" / "scenarios" / "mpbs").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data["questions"]:
            try:
                ask("mpbs", item["question"], data, item.get("params", {}))
            except InvalidScenarioError:
                pass
    assert spent.get("placements", 0) < 20_000  # all the example questions together


# --- t9a pursuit -------------------------------------------------------------------------------------------------


def pursuers_in_a_crowd(count: int = 10) -> dict:
    """Wide pursuers that must turn nearly about, each with a wood of many corners in the way of its pivot."""
    units, terrain, fled, pursuers = [], [], [], []
    for k in range(count):
        x = 8 + k * 13.5
        units.append({"id": f"p{k}", "side": "south", "centre": [x, 40], "facing": 0, "width": 12, "depth": 3,
                      "advance_rate": 8})
        units.append({"id": f"f{k}", "side": "north", "centre": [x, 25], "facing": 179, "width": 12, "depth": 3,
                      "advance_rate": 8})
        terrain.append({"id": f"w{k}", "impassable": True, "polygon": [
            [x + 5 + 1.2 * math.cos(a / 64 * math.tau), 36.5 + 1.2 * math.sin(a / 64 * math.tau)] for a in range(64)]})
        fled.append({"unit": f"f{k}", "destroyed": True})
        pursuers.append({"unit": f"p{k}", "pursues": f"f{k}", "roll": 12})
    return {"book": "t9a", "board": {"width": 144, "depth": 96}, "units": units, "terrain": terrain,
            "pursuit": {"fled": fled, "pursuers": pursuers}}


def test_a_pursuit_at_the_limits_stays_within_its_budget(spent):
    ruling = ask("t9a", "pursuit", pursuers_in_a_crowd(), {})
    assert 0 < spent["positions"] <= PURSUIT.PURSUIT_WORK
    assert ruling.result["undecided"] == []
    assert {m["outcome"] for m in ruling.result["pursuers"]} == {"stopped-short"}


def test_a_pursuit_past_its_budget_leaves_the_rest_undecided(monkeypatch):
    monkeypatch.setattr(PURSUIT, "PURSUIT_WORK", 1_500)
    ruling = ask("t9a", "pursuit", pursuers_in_a_crowd(), {})
    decided, undecided = ruling.result["pursuers"], ruling.result["undecided"]
    assert decided and undecided and len(decided) + len(undecided) == 10
    assert [m["unit"] for m in decided] + undecided == [f"p{k}" for k in range(10)]
    assert ruling.verdict.value == "undetermined"
    last = ruling.findings[-1]
    assert last.status.value == "unknown" and "too large to decide (limit: 1500 positions tested)" in last.message.render("en")
    assert "предел: 1500 проверенных позиций" in last.message.render("ru")


def test_no_way_round_is_sought_for_a_target_beyond_the_charge_range(monkeypatch):
    """The range decides; the reach test (a disc round every obstacle) is not run."""
    charges = importlib.import_module("rulesref.engine.t9a.charges")
    calls = []
    monkeypatch.setattr(charges, "disc_can_reach", lambda *args: calls.append(args) or True)
    data = {"book": "t9a", "board": {"width": 72, "depth": 48}, "units": [
        {"id": "knights", "side": "red", "centre": [36, 4], "facing": 0, "width": 5, "depth": 2, "advance_rate": 8},
        {"id": "wall", "side": "red", "centre": [36, 12], "facing": 0, "width": 10, "depth": 1, "advance_rate": 4},
        {"id": "goblins", "side": "blue", "centre": [36, 40], "facing": 180, "width": 5, "depth": 2,
         "advance_rate": 4}]}
    ruling = ask("t9a", "can-charge", data, {"charger": "knights", "target": "goblins"})
    assert ruling.verdict.value == "no" and calls == []
    assert "no other way is sought" in ruling.findings[-1].message.render("en")
    data["units"][2]["centre"] = [36, 20]  # within 20 inches: now the way round is sought
    ask("t9a", "can-charge", data, {"charger": "knights", "target": "goblins"})
    assert len(calls) == 1


@pytest.mark.parametrize("book", ["mpbs", "t9a"])
def test_the_units_of_a_scenario_with_many_problems_are_gathered_once(book, monkeypatch):
    """Each problem names the unit it concerns, from the ids the scenario lists: gathered once for all of them (with
    100,000 units and a hundred problems, once per problem was half a second of a 1 MB request)."""
    scenario = importlib.import_module(f"rulesref.engine.{book}.scenario")
    calls = []
    original = scenario._unit_ids
    monkeypatch.setattr(scenario, "_unit_ids", lambda data: calls.append(1) or original(data))
    data = {"units": [{"id": f"u{i}", "hexes": "nowhere"} for i in range(5000)] + ["not a unit"] * 5000}
    with pytest.raises(InvalidScenarioError) as raised:
        scenario.load_scenario(data)
    problems = raised.value.items
    assert len(problems) > 50 and any(p.unit for p in problems)
    assert len(calls) == 1
