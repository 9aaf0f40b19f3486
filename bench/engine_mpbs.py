#!/usr/bin/env python
"""Benchmarks of the mpbs rules engine, measured as the JSON API pays them.

``figures(scale)`` yields ``(name, value, unit, target)`` (bench/run.py collects it); ``python bench/engine_mpbs.py
[--quick|--smoke]`` prints them as ``name value unit target`` lines. Targets are from issues #11 and #12
(docs/benchmarks.md).

* ``engine.mpbs.api.<question>.40x30``: ``load_scenario`` and the question and the ruling as JSON, on a fresh copy of
  the JSON text each call, for a 40 x 30 map with 60 units (target: 3 ms); ``engine.mpbs.fresh.<question>``: the
  question alone on a freshly loaded scenario (intercept and reactions 1 ms, retreat 2 ms). CPU time, the
  questions taking turns in interleaved rounds (bench/engine_timing.py).
* ``engine.mpbs.retreat_search.<map>``: the search for the path of least resistance (11.4.2 priority 3) against
  networkx's Dijkstra and A* (given the engine's estimate) on the same graph, on 20 x 15, 40 x 30 and 100 x 100
  maps; a ratio is networkx's time over the engine's (above 1: the engine is faster). networkx's graph is built
  beforehand and not timed. The engine as the question pays it works out which hexes it may enter as it goes,
  inside the timing, and is held against Dijkstra; the search alone, over costs already worked out as networkx's
  graph holds them, is held against A* (the engine as the question pays it is shown beside A* too).
* ``engine.mpbs.worst.<case>``: the worst cases we could construct within the scenario limits (the largest map,
  400 units, allowances of 20 MP over roads, walls and mazes of water, a megabyte of broken scenario), each loaded
  and asked as the API does; target 0.5 s of CPU.
* ``engine.mpbs.instructions.<question>``: instructions per API call counted under valgrind's callgrind, steady
  where the clock is not (bench/instructions.py; skipped when valgrind is missing, and in ``--quick`` and
  ``--smoke``).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
import instructions  # noqa: E402
from engine_timing import interleaved, p50, worst_ms  # noqa: E402

from rulesref.engine import InvalidScenarioError, ask  # noqa: E402
from rulesref.engine.hexgrid import HexMap, hex_distance  # noqa: E402
from rulesref.engine.mpbs import QUESTIONS, load_scenario  # noqa: E402
from rulesref.engine.mpbs.retreat import RetreatGround, candidates, cheapest_exit  # noqa: E402

TERRAIN = ["clear"] * 12 + ["woods", "rough", "marsh"]
CLASSES = ("cavalry", "light-infantry", "heavy-infantry", "artillery", "limbered-artillery", "leader", "wagon")
API_TARGET_MS = 3.0
FRESH_TARGETS_MS = {"can-intercept": 1.0, "reactions": 1.0, "retreat": 2.0}
WORST_TARGET_S = 0.5


def make_scenario(columns: int, rows: int, units: int = 60, seed: int = 1) -> dict[str, Any]:
    """A reproducible position: two lines of units facing each other across the middle of the map, some terrain,
    a blue heavy infantry unit that has just moved, red cavalry near it, a red unit beaten in close combat."""
    rnd = random.Random(seed)
    hexmap = HexMap(columns, rows, "pointy", "odd")
    terrain = {hexmap.label(h): rnd.choice(TERRAIN) for h in hexmap.hexes() if rnd.random() < 0.25}
    mid_c, mid_r = columns // 2, rows // 2
    placed: set = set()
    out: list[dict[str, Any]] = []

    def put(uid, side, kind, col, row, facing, **extra):
        h = hexmap.hex_at(col, row)
        if h in placed:
            return False
        placed.add(h)
        label = hexmap.label(h)
        terrain.pop(label, None)
        unit = {"id": uid, "side": side, "wing": f"W-{side}", "type": kind, "hexes": [label], "facing": facing,
                "morale": {"rating": 8 if kind == "cavalry" else 6}, "formation": {"name": "line", "hits_before_disorder": 2},
                "movement": {"allowance": 6 if kind == "cavalry" else 4}}
        unit.update(extra)
        out.append(unit)
        return True

    # The key units, in the middle of the map.
    put("BLUE-HI", "blue", "heavy-infantry", mid_c, mid_r + 1, "N")
    put("RED-BEATEN", "red", "heavy-infantry", mid_c, mid_r, "S")
    put("RED-CAV", "red", "cavalry", mid_c + 3, mid_r - 2, "SW")
    put("RED-RALLY", "red", "light-infantry", mid_c - 2, mid_r, "S", order="rally")
    n = 0
    while len(out) < units:
        side = "red" if n % 2 else "blue"
        kind = rnd.choice(["cavalry", "light-infantry", "heavy-infantry", "heavy-infantry", "artillery"])
        row = mid_r - rnd.randint(2, 6) if side == "red" else mid_r + rnd.randint(3, 7)
        col = rnd.randrange(columns)
        put(f"{side[0].upper()}{n}", side, kind, col, max(0, min(rows - 1, row)), "S" if side == "red" else "N")
        n += 1
    return {
        "book": "mpbs",
        "map": {"columns": columns, "rows": rows, "terrain": terrain, "dead_zones": [],
                "friendly_edges": {"red": ["north"], "blue": ["south"]}},
        "terrain_types": {t: {"formation_hits": {k: 1 for k in ("cavalry", "light-infantry", "heavy-infantry", "artillery")}}
                          for t in ("woods", "rough", "marsh")},
        "tables": {"hedgehog_formations": ["line"]},
        "wings": [{"id": "W-blue", "side": "blue", "order": "charge"}, {"id": "W-red", "side": "red", "order": "make-ready"}],
        "units": out,
        "moment": {"active_side": "blue", "active_wing": "W-blue", "phase": "orders-change",
                   "event": {"unit": "BLUE-HI", "action": "move", "from": [hexmap.label(hexmap.hex_at(mid_c, mid_r + 2))], "mp": 1}},
    }



PARAMS = {
    "facing-cost": {"unit": "RED-CAV", "facing": "S"},
    "orders-change": {"to": "receive-charge"},
    "mandatory-rally": {},
    "reactions": {},
    "can-intercept": {"unit": "RED-CAV"},
    "interception-chance": {"unit": "RED-CAV"},
    "retreat": {"unit": "RED-BEATEN", "result": "broken", "fought": "BLUE-HI"},
    "advance": {"vacated": "RED-BEATEN", "winners": "BLUE-HI", "role": "attacker"},
}


def api_call(text: str, question: str, params: dict[str, Any], lang: str = "en") -> str:
    """What POST /api/v1/mpbs/rulings/<question> costs the engine: read the JSON, load, ask, write the ruling."""
    try:
        ruling = ask("mpbs", question, json.loads(text), params)
    except InvalidScenarioError as exc:
        return json.dumps(exc.to_dict(lang), ensure_ascii=False)
    return json.dumps(ruling.to_dict(lang), ensure_ascii=False)


def api_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    text = json.dumps(make_scenario(40, 30))
    calls: dict[str, tuple] = {"load": (lambda: load_scenario(json.loads(text)), None)}
    for question in QUESTIONS:
        calls[f"api.{question}"] = (lambda q=question: api_call(text, q, PARAMS[q]), None)
        # The question alone, on a scenario loaded (untimed) from a fresh copy of the JSON: as the API pays it.
        calls[f"fresh.{question}"] = (lambda s, q=question: QUESTIONS[q](s, PARAMS[q]),
                                      lambda: load_scenario(json.loads(text)))
    times = interleaved(calls, rounds=scale.pick(8, 2), repeat=scale.pick(40, 5), warmup=scale.pick(3, 3, 0))
    yield "engine.mpbs.load_scenario.40x30.p50", round(p50(times["load"]), 3), "ms", ""
    for question in QUESTIONS:
        yield f"engine.mpbs.api.{question}.40x30.p50", round(p50(times[f"api.{question}"]), 3), "ms", \
            f"<= {API_TARGET_MS:g}"
    for question in QUESTIONS:
        target = FRESH_TARGETS_MS.get(question)
        yield f"engine.mpbs.fresh.{question}.40x30.p50", round(p50(times[f"fresh.{question}"]), 3), "ms", \
            f"<= {target:g}" if target else ""


# --- the retreat search against networkx -------------------------------------------------------------------------


def retreat_search(data: dict[str, Any]) -> tuple[Any, Any, dict, Any]:
    """The scenario, a fresh ground for the beaten unit, the ends of its retreats (the search's sources) and
    networkx's graph of the same ground (every anchor the unit may stand on, its steps and their costs)."""
    import networkx as nx  # the benchmark's baseline only: not a dependency of the engine

    scenario = load_scenario(data)
    unit, fought = scenario.by_id["RED-BEATEN"], scenario.by_id["BLUE-HI"]
    edge = scenario.friendly_edges["red"][0]

    def fresh_ground() -> RetreatGround:
        return RetreatGround(replace(scenario), unit, [fought], edge)

    ground = fresh_ground()
    sources: dict = {}
    for i, c in enumerate(c for c in candidates(ground, 2, None) if not c.off_map and c.length == 2):
        g, tags = sources.get(c.anchors[-1], (float("inf"), frozenset()))
        sources[c.anchors[-1]] = (min(g, c.cost), tags | {i})
    graph = nx.DiGraph()
    for h in scenario.hexmap.hexes():
        for d in range(6):
            new_anchor, new_hexes, cost, off = ground.step(h, d)
            if off:
                if ground.crosses_friendly_edge(new_hexes):
                    graph.add_edge(h, "EDGE", weight=0.0)
            elif cost is not None and ground.enter(h) is not None:
                graph.add_edge(h, new_anchor, weight=cost)
    for anchor, (g, _) in sources.items():
        graph.add_edge("START", anchor, weight=g)
    return fresh_ground, sources, graph, ground


def search_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    """The engine's search as the retreat question pays it (working out, as it goes, which hexes the unit may enter
    and the estimate of each: "cold"), and the search alone over costs already worked out, as networkx's graph has
    them ("search only"); networkx's A* is given the engine's estimate."""
    import networkx as nx  # the benchmark's baseline only: not a dependency of the engine

    for columns, rows in scale.pick(((20, 15), (40, 30), (100, 100)), ((20, 15), (40, 30)), ((20, 15), (40, 30))):
        tag = f"{columns}x{rows}"
        fresh_ground, sources, graph, ground = retreat_search(make_scenario(columns, rows, units=min(60, columns * 2)))
        expected, _, expanded = cheapest_exit(fresh_ground(), sources)
        assert abs(nx.single_source_dijkstra(graph, "START", target="EDGE")[0] - expected) < 1e-9
        estimate = {n: 0.0 if n in ("START", "EDGE") else ground.to_edge(n) for n in graph}
        warm = fresh_ground()
        cheapest_exit(warm, sources)  # its costs and estimates now worked out, as networkx's graph holds them
        times = interleaved({
            "cold": (lambda g: cheapest_exit(g, sources), fresh_ground),
            "warm": (lambda: cheapest_exit(warm, sources), None),
            "dijkstra": (lambda: nx.single_source_dijkstra(graph, "START", target="EDGE"), None),
            "astar": (lambda: nx.astar_path_length(graph, "START", "EDGE", heuristic=lambda a, _b: estimate[a]), None),
        }, rounds=scale.pick(6, 2), repeat=scale.pick(30, 5), warmup=scale.pick(3, 3, 0))
        cold, warm_, dijkstra, astar = (p50(times[k]) for k in ("cold", "warm", "dijkstra", "astar"))
        prefix = f"engine.mpbs.retreat_search.{tag}"
        yield f"{prefix}.engine.p50", round(cold, 4), "ms", ""
        yield f"{prefix}.engine_search_only.p50", round(warm_, 4), "ms", ""
        yield f"{prefix}.expanded", expanded, "placements", ""
        yield f"{prefix}.networkx_dijkstra.p50", round(dijkstra, 4), "ms", ""
        yield f"{prefix}.networkx_astar.p50", round(astar, 4), "ms", ""
        yield f"{prefix}.speedup_vs_networkx_dijkstra", round(dijkstra / cold, 2), "x", ">= 1"
        yield f"{prefix}.speedup_vs_networkx_astar", round(astar / warm_, 2), "x", ">= 1"
        yield f"{prefix}.speedup_vs_networkx_astar_cold", round(astar / cold, 2), "x", ""


# --- worst cases within the limits -------------------------------------------------------------------------------


def _largest_map(default: str = "clear") -> dict[str, Any]:
    """The largest map, a cheap road type (half a point, the least the schema allows) for every class."""
    return {"book": "mpbs",
            "map": {"columns": 100, "rows": 100, "terrain_default": default, "terrain": {}, "dead_zones": [],
                    "friendly_edges": {"red": ["north"], "blue": ["south"]}},
            "terrain_types": {"road": {"cost": {k: 0.5 for k in CLASSES}, "formation_hits": {k: 0 for k in CLASSES},
                                       "blocks_los": False}},
            "wings": [{"id": "R", "side": "red", "order": "rally"}, {"id": "B", "side": "blue", "order": "charge"}],
            "units": [], "moment": {"active_side": "blue", "active_wing": "B"}}


def _unit(uid: str, side: str, kind: str, label: str, facing: str, allowance: float = 20) -> dict[str, Any]:
    return {"id": uid, "side": side, "wing": "R" if side == "red" else "B", "type": kind, "hexes": [label],
            "facing": facing, "movement": {"allowance": allowance}, "morale": {"rating": 8},
            "formation": {"name": "line", "hits_before_disorder": 20}}


BIG = HexMap(100, 100, "pointy", "odd")


def _at(column: int, row: int) -> str:
    return BIG.label(BIG.hex_at(column, row))


def largest() -> dict[str, Any]:
    """Everything at its limit: 100 x 100 hexes each with its terrain, every hex a dead zone and blocking line of
    sight, 400 units, 40 wings."""
    data = _largest_map()
    labels = [BIG.label(h) for h in BIG.hexes()]
    data["map"].update(terrain={label: TERRAIN[i % len(TERRAIN)] for i, label in enumerate(labels)},
                       dead_zones=labels, los_blocking=labels)
    data["wings"] = [{"id": f"W{i}", "side": "red" if i % 2 else "blue", "order": "charge"} for i in range(40)]
    data["units"] = [{**_unit(f"U{i:03d}", "red" if i % 2 else "blue", "light-infantry", labels[i * 25], "N"),
                      "wing": f"W{i % 40}"} for i in range(400)]
    data["moment"] = {"active_side": "blue", "event": {"unit": "U000", "action": "move", "mp": 1}}
    return data


def broken_megabyte() -> dict[str, Any]:
    """The largest scenario with a wrong value in every field: the most problems to find."""
    data = largest()
    data["map"]["terrain"] = {label: 5 for label in data["map"]["terrain"]}
    for u in data["units"]:
        u["movement"]["allowance"] = 99
        u["morale"] = {"rating": 99}
    return data


def intercept_far() -> tuple[dict, str, dict]:
    """#12: cavalry with the largest allowance, on roads, the moving enemy at the far corner of the largest map."""
    data = _largest_map("road")
    data["units"] = [_unit("CAV", "red", "cavalry", _at(0, 0), "S"),
                     _unit("HI", "blue", "heavy-infantry", _at(99, 99), "N", 4)]
    data["moment"]["event"] = {"unit": "HI", "action": "move", "mp": 1}
    return data, "can-intercept", {"unit": "CAV"}


def intercept_blocked() -> tuple[dict, str, dict]:
    """Cavalry four hexes off, every way to the enemy closed but through enemy guns: four searches to explain it."""
    data, question, params = intercept_far()
    data["units"] = [_unit("CAV", "red", "cavalry", _at(50, 46), "S"),
                     _unit("HI", "blue", "heavy-infantry", _at(50, 50), "N", 4)]
    ring = [h for h in BIG.hexes() if hex_distance(h, BIG.hex_at(50, 50)) == 1]
    data["units"] += [{**_unit(f"G{i}", "blue", "artillery", BIG.label(h), "N"), "movement": {"allowance": 0}}
                      for i, h in enumerate(ring)]
    return data, question, params


def reactions_crowd() -> tuple[dict, str, dict]:
    """399 units under Rally orders within two hexes of an enemy's move, each able to withdraw 20 MP over roads."""
    data = _largest_map("road")
    centre = BIG.hex_at(50, 50)
    ring = sorted((h for h in BIG.hexes() if 1 <= hex_distance(h, centre) <= 2), key=BIG.label)
    data["units"] = [_unit("HI", "blue", "heavy-infantry", BIG.label(centre), "N", 4)]
    data["units"] += [_unit(f"R{i:03d}", "red", "light-infantry", BIG.label(ring[i % len(ring)]), "S")
                      for i in range(399)]
    data["moment"]["event"] = {"unit": "HI", "action": "move", "mp": 1}
    return data, "reactions", {}


def reactions_widest_withdraw() -> tuple[dict, str, dict]:
    """One unit under Rally orders whose withdraw over roads fills nearly the whole budget, listing every
    placement it can reach with its path (the largest answer)."""
    data = _largest_map("road")
    data["units"] = [_unit("HI", "blue", "heavy-infantry", _at(50, 50), "N", 4),
                     _unit("R", "red", "light-infantry", _at(50, 52), "S", 14)]
    data["moment"]["event"] = {"unit": "HI", "action": "move", "mp": 1}
    return data, "reactions", {}


def _beaten(data: dict, column: int, row: int) -> tuple[dict, str, dict]:
    data["units"] = [_unit("RED", "red", "heavy-infantry", _at(column, row), "S"),
                     _unit("BLUE", "blue", "heavy-infantry", _at(column, row + 1), "N")]
    return data, "retreat", {"unit": "RED", "result": "broken", "fought": "BLUE"}


def retreat_open() -> tuple[dict, str, dict]:
    """97 rows from its friendly edge across open ground, a road across the map."""
    data, question, params = _beaten(_largest_map(), 50, 97)
    data["map"]["terrain"] = {_at(c, 10): "road" for c in range(100)}
    return data, question, params


def retreat_wall() -> tuple[dict, str, dict]:
    """A row of water across the map between the unit and its friendly edge."""
    data, question, params = _beaten(_largest_map(), 50, 70)
    data["map"]["terrain"] = {_at(c, 40): "water" for c in range(100)}
    return data, question, params


def retreat_maze() -> tuple[dict, str, dict]:
    """Walls of water across the map, each with one gap, alternately at either side: the longest way round."""
    data, question, params = _beaten(_largest_map(), 50, 98)
    data["map"]["terrain"] = {_at(c, r): "water" for r in range(2, 97, 2) for c in range(100)
                              if c != (99 if (r // 2) % 2 else 0)}
    return data, question, params


def retreat_roads_maze() -> tuple[dict, str, dict]:
    """The maze on roads (half a point a hex): the cheapest ways are the longest to tell apart."""
    data, question, params = retreat_maze()
    data["map"]["terrain_default"] = "road"
    return data, question, params


WORST_CASES = {
    "load_largest": lambda: (largest(), "mandatory-rally", {"wing": "W0"}),
    "broken_megabyte": lambda: (broken_megabyte(), "reactions", {}),
    "can_intercept_far": intercept_far,
    "can_intercept_blocked": intercept_blocked,
    "reactions_crowd": reactions_crowd,
    "reactions_widest_withdraw": reactions_widest_withdraw,
    "retreat_open": retreat_open,
    "retreat_wall": retreat_wall,
    "retreat_maze": retreat_maze,
    "retreat_roads_maze": retreat_roads_maze,
}


def worst_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    for name, make in WORST_CASES.items():
        data, question, params = make()
        text = json.dumps(data)
        assert len(text.encode()) <= 1024 * 1024, f"{name}: {len(text)} bytes, over the API's 1 MB"
        seconds = worst_ms(lambda: api_call(text, question, params), scale.pick(3, 1)) / 1000
        yield f"engine.mpbs.worst.{name}.cpu", round(seconds, 4), "s", f"<= {WORST_TARGET_S:g}"


def instruction_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    if scale != harness.FULL or not instructions.available():
        return
    for question in ("can-intercept", "reactions", "retreat"):
        yield f"engine.mpbs.instructions.api.{question}", round(instructions.per_call("mpbs", question) / 1e6, 2), \
            "Minstr", ""


def figures(scale: harness.Scale = harness.FULL) -> Iterator[tuple[str, float, str, str]]:
    yield from api_figures(scale)
    yield from search_figures(scale)
    yield from worst_figures(scale)
    yield from instruction_figures(scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    harness.Scale.add_arguments(parser)
    for name, value, unit, target in figures(harness.Scale.parsed(parser.parse_args())):
        print(f"{name} {value} {unit} {target}".rstrip(), flush=True)


if __name__ == "__main__":
    main()
