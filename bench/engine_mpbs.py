"""Benchmarks of the mpbs rules engine.

``run()`` returns ``[(name, value, unit), …]`` for bench/run.py; ``python bench/engine_mpbs.py`` prints them.

Times are CPU time of the process (``time.process_time``), so other processes on a shared machine do not inflate
them; ``mpbs.calibration.python_loop_1e6`` says how fast the machine runs plain Python.

* Each question on a 40 x 30 map with 60 units, the scenario already loaded (p50 and p95 over many calls; targets:
  p50 <= 1 ms for reactions and interception, <= 2 ms for retreat), and ``load_scenario`` itself.
* Retreat and interception on 50 x 50, 100 x 100 and 200 x 200 maps, the unit in the middle, to show the growth.
* The retreat path search (11.4.2 priority 3: the cheapest way on to the friendly edge) against networkx's Dijkstra
  (and A*) on the same graph in the same run; the ratio is networkx time / engine time (above 1: the engine is
  faster). The networkx graph is built beforehand and not timed; the engine's search works out which hexes it may
  enter as it goes, inside the timing.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesref.engine.hexgrid import HexMap
from rulesref.engine.mpbs import QUESTIONS, load_scenario
from rulesref.engine.mpbs.retreat import RetreatGround, candidates, cheapest_exit

TERRAIN = ["clear"] * 12 + ["woods", "rough", "marsh"]


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


# CPU time of this process: steadier than wall time on a shared machine (other processes' time is not counted).
CLOCK = time.process_time


def timings(fn: Callable[[], Any], repeat: int, setup: Callable[[], Any] | None = None) -> list[float]:
    """Milliseconds per call; ``setup`` runs untimed before each call and its value is passed in."""
    result = []
    for _ in range(repeat):
        arg = setup() if setup else None
        start = CLOCK()
        fn(arg) if setup else fn()
        result.append((CLOCK() - start) * 1000)
    return result


def calibration() -> float:
    """Milliseconds for a bare Python loop of a million additions, to compare machines (about 40 ms on a recent
    desktop CPU with CPython 3.11)."""
    def loop():
        total = 0
        for i in range(1_000_000):
            total += i
        return total
    return min(timings(loop, 5))


def p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1] if len(values) > 1 else values[0]


def question_times(data: dict[str, Any], question: str, repeat: int) -> list[float]:
    loaded = load_scenario(data)
    answer = QUESTIONS[question]
    # A fresh copy each time, so no cached lookup of one call helps the next (as in one web request).
    return timings(lambda scenario: answer(scenario, PARAMS[question]), repeat, setup=lambda: replace(loaded))


def retreat_search_vs_networkx(data: dict[str, Any], repeat: int) -> tuple[float, float, float, int]:
    """p50 ms of the engine's cheapest-exit search, networkx Dijkstra and networkx A* on the same graph."""
    import networkx as nx

    scenario = load_scenario(data)
    unit, fought = scenario.by_id["RED-BEATEN"], scenario.by_id["BLUE-HI"]
    edge = scenario.friendly_edges["red"][0]

    def fresh_ground() -> RetreatGround:
        return RetreatGround(replace(scenario), unit, [fought], edge)

    ground = fresh_ground()
    options = [c for c in candidates(ground, 2, None) if not c.off_map and c.length == 2]
    sources = {}
    for i, c in enumerate(options):
        g, tags = sources.get(c.anchors[-1], (float("inf"), frozenset()))
        sources[c.anchors[-1]] = (min(g, c.cost), tags | {i})

    # The same graph for networkx: every anchor the retreat may stand on, its allowed steps and their costs.
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
    mine = timings(lambda g: cheapest_exit(g, sources), repeat, setup=fresh_ground)
    expected, _, expanded = cheapest_exit(fresh_ground(), sources)
    theirs = timings(lambda: nx.single_source_dijkstra(graph, "START", target="EDGE"), repeat)
    assert abs(nx.single_source_dijkstra(graph, "START", target="EDGE")[0] - expected) < 1e-9

    cheapest = ground.cheapest

    def heuristic(a, _b):
        if a in ("START", "EDGE"):
            return 0.0
        return max(scenario.hexmap.edge_steps(a, edge) - 1, 0) * cheapest

    astar = timings(lambda: nx.astar_path_length(graph, "START", "EDGE", heuristic=heuristic), repeat)
    return p(mine, 50), p(theirs, 50), p(astar, 50), expanded


def run(repeat: int = 200) -> list[tuple[str, float, str]]:
    rows: list[tuple[str, float, str]] = [("mpbs.calibration.python_loop_1e6", round(calibration(), 1), "ms")]
    data = make_scenario(40, 30)
    load = timings(lambda: load_scenario(data), max(20, repeat // 10))
    rows.append(("mpbs.load_scenario.40x30.60units.p50", round(p(load, 50), 3), "ms"))
    for question in QUESTIONS:
        t = question_times(data, question, repeat)
        rows.append((f"mpbs.{question}.40x30.60units.p50", round(p(t, 50), 3), "ms"))
        rows.append((f"mpbs.{question}.40x30.60units.p95", round(p(t, 95), 3), "ms"))
    for size in (50, 100, 200):
        big = make_scenario(size, size)
        for question in ("retreat", "can-intercept"):
            t = question_times(big, question, max(10, repeat // 10))
            rows.append((f"mpbs.{question}.{size}x{size}.p50", round(p(t, 50), 3), "ms"))
    for size in (40, 100, 200):
        grid = make_scenario(size, 30 if size == 40 else size)
        mine, dijkstra, astar, expanded = retreat_search_vs_networkx(grid, max(10, repeat // 4))
        tag = "40x30" if size == 40 else f"{size}x{size}"
        rows.append((f"mpbs.retreat_search.{tag}.engine.p50", round(mine, 4), "ms"))
        rows.append((f"mpbs.retreat_search.{tag}.engine.expanded", expanded, "placements"))
        rows.append((f"mpbs.retreat_search.{tag}.networkx_dijkstra.p50", round(dijkstra, 4), "ms"))
        rows.append((f"mpbs.retreat_search.{tag}.networkx_astar.p50", round(astar, 4), "ms"))
        rows.append((f"mpbs.retreat_search.{tag}.speedup_vs_networkx_dijkstra", round(dijkstra / mine, 1), "x"))
        rows.append((f"mpbs.retreat_search.{tag}.speedup_vs_networkx_astar", round(astar / mine, 1), "x"))
    return rows


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name} {value} {unit}")
