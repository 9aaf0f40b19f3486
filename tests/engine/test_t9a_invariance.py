"""Rotating and moving the whole board leaves every answer unchanged (t9a)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rulesref.engine import ask
from rulesref.engine.t9a.geometry import Motion
from rulesref.engine.t9a.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "t9a").glob("*.json"))
motions = st.builds(
    Motion,
    degrees_clockwise=st.floats(0, 360, allow_nan=False),
    dx=st.floats(-100, 100, allow_nan=False),
    dy=st.floats(-100, 100, allow_nan=False),
)


def essentials(ruling: dict) -> dict:
    """What must not change: verdict, each finding's clause and status, and the answers that are not positions."""
    result = ruling["result"]
    kept = {k: result[k] for k in ("allowed", "chance_to_reach", "charger_located_in", "outcomes", "chance_to_catch")
            if k in result}
    if "distance" in result:
        kept["distance"] = round(result["distance"], 3)
    for pursuer in result.get("pursuers", []):
        kept[pursuer["unit"]] = [round(s.get("turn", 0.0), 3) for s in pursuer["steps"]] + [
            round(s.get("distance", 0.0), 3) for s in pursuer["steps"]]
    return {
        "verdict": ruling["verdict"],
        "findings": [(f["clause"], f["status"]) for f in ruling["findings"]],
        "result": kept,
    }


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(motion=motions)
def test_rigid_motion_leaves_answers_unchanged(path, motion):
    data = json.loads(path.read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    moved = scenario.transformed(motion)
    for question in data["questions"]:
        params = question.get("params", {})
        before = essentials(ask("t9a", question["question"], scenario, params).to_dict())
        after = essentials(ask("t9a", question["question"], moved, params).to_dict())
        assert after == before


def test_moved_positions_are_the_moved_answers():
    """Positions in the result move with the board."""
    path = next(p for p in SCENARIOS if p.stem == "pursuit-full-distance")
    scenario = load_scenario(json.loads(path.read_text()))
    motion = Motion(37.0, 5.0, -3.0)
    before = ask("t9a", "pursuit", scenario).to_dict()["result"]["pursuers"][0]["final"]
    after = ask("t9a", "pursuit", scenario.transformed(motion)).to_dict()["result"]["pursuers"][0]["final"]
    assert motion.point(tuple(before["centre"])) == pytest.approx(tuple(after["centre"]), abs=1e-3)
    assert motion.bearing(before["facing"]) == pytest.approx(after["facing"], abs=1e-3)
