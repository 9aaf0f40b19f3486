"""The scenario's terrain obstacles are indexed once per scenario, and never shared with another scenario."""
from __future__ import annotations

from rulesref.engine.t9a.obstacles import terrain_obstacles
from rulesref.engine.t9a.scenario import load_scenario


def test_terrain_obstacles_are_built_once_per_scenario():
    data = {"book": "t9a", "board": {"width": 48, "depth": 48},
            "terrain": [{"id": "wall", "polygon": [[10, 10], [20, 10], [20, 12], [10, 12]], "impassable": True},
                        {"id": "wood", "polygon": [[30, 30], [34, 30], [34, 34], [30, 34]], "obscuring": True}],
            "units": [{"id": "a", "side": "x", "centre": [5, 5], "facing": 0, "width": 4, "depth": 2, "advance_rate": 5}]}
    scenario = load_scenario(data)
    assert terrain_obstacles(scenario) is terrain_obstacles(scenario)
    assert [o.id for o in terrain_obstacles(scenario)] == ["wall"]
    assert [o.id for o in terrain_obstacles(scenario, obscuring=True)] == ["wood"]
    assert [o.id for o in terrain_obstacles(load_scenario(data))] == ["wall"]
