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


def test_unit_obstacles_answer_as_the_same_obstacles_listed_eagerly():
    """UnitObstacles (units through the scenario's index, made on demand) answers every query as an Obstacles
    built from the same units and terrain, in the same order, and ``without`` drops the same ones."""
    import random

    from shapely.geometry import box

    from rulesref.engine.t9a.obstacles import Obstacle, ObstacleKind, Obstacles, UnitObstacles

    rng = random.Random(4)
    units = [{"id": f"u{i}", "side": "red" if i % 2 else "blue", "centre": [4 + (i % 6) * 7, 4 + (i // 6) * 7],
              "facing": rng.choice([0, 90, 30]), "width": 4, "depth": 2, "advance_rate": 5} for i in range(30)]
    data = {"book": "t9a", "board": {"width": 48, "depth": 48}, "units": units,
            "terrain": [{"id": "rock", "polygon": [[6.5, 9], [8.5, 9], [8.5, 11], [6.5, 11]], "impassable": True}]}
    scenario = load_scenario(data)

    def kind_of(unit):
        return None if unit.id in ("u3", "u8") else (
            ObstacleKind.ENEMY_UNIT if unit.side == "red" else ObstacleKind.FRIENDLY_UNIT)

    lazy = UnitObstacles(scenario, kind_of, then=terrain_obstacles(scenario), excluded=frozenset({"u5"}))
    eager = Obstacles([*(Obstacle.of_unit(u, kind_of(u)) for u in scenario.units
                         if u.id != "u5" and kind_of(u) is not None), *terrain_obstacles(scenario)])
    assert [o.id for o in lazy] == [o.id for o in eager] and len(lazy) == len(eager)
    shapes = [box(x, y, x + rng.uniform(1, 15), y + rng.uniform(1, 15))
              for x, y in ((rng.uniform(0, 44), rng.uniform(0, 44)) for _ in range(25))]
    ids = lambda found: [(o.kind, o.id) for o in found]  # noqa: E731
    for shape in shapes:
        assert ids(lazy.overlapping(shape)) == ids(eager.overlapping(shape))
        assert ids(lazy.near(shape, 1.5)) == ids(eager.near(shape, 1.5))
        assert ids(lazy.without("u1", "rock").overlapping(shape)) == ids(eager.without("u1", "rock").overlapping(shape))
    assert [(i, o.id) for i, o in lazy.overlapping_any(shapes)] == [(i, o.id) for i, o in eager.overlapping_any(shapes)]
    assert any(lazy.overlapping(s) for s in shapes)  # the shapes do meet obstacles
