#!/usr/bin/env python
"""Benchmarks of the t9a engine: each question on a board with 40 units and 20 terrain pieces.

Run alone (`python bench/engine_t9a.py` prints `name value unit` lines) or from bench/run.py.
Target (docs/benchmarks.md): p50 <= 2 ms per question, the scenario already loaded.

Times are CPU time of the process (``time.process_time``), as in bench/engine_mpbs.py, so that other processes on
a shared machine do not inflate them.
"""
from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesref.engine import ask  # noqa: E402
from rulesref.engine.t9a.scenario import load_scenario  # noqa: E402

BOARD = {"width": 72, "depth": 48}
UNITS, TERRAIN = 40, 20


def busy_board(seed: int = 9) -> dict:
    """40 units in two battle lines and 20 terrain pieces, none overlapping; a pursuit in the middle."""
    rng = random.Random(seed)
    terrain = []
    while len(terrain) < TERRAIN:
        x, y = rng.uniform(4, 66), rng.uniform(14, 24)
        w, d = rng.uniform(1.5, 4), rng.uniform(1.5, 4)
        box = (x, y, x + w, y + d)
        if any(_overlap(box, t["_box"], 0.5) for t in terrain):
            continue
        kind = len(terrain) % 3
        terrain.append({"id": f"t{len(terrain)}", "_box": box,
                        "polygon": [[x, y], [x + w, y + rng.uniform(-0.5, 0.5)], [x + w, y + d], [x, y + d]],
                        "impassable": kind == 0, "obscuring": kind == 1})
    units = []
    for i in range(UNITS):
        side, row = ("south", i % 2) if i < UNITS // 2 else ("north", i % 2)
        column = (i % (UNITS // 2)) // 2
        x = 4 + column * 6.8
        y = (6 + row * 5) if side == "south" else (33 - row * 5)
        units.append({"id": f"{side[0]}{i}", "side": side, "centre": [x, y], "facing": 0 if side == "south" else 180,
                      "width": 5, "depth": 2, "advance_rate": rng.choice([4, 5, 7, 8]),
                      "missile_weapons": i % 3 == 0})
    # A melee in the middle: two northern units fled, three southern units pursue.
    units[22]["centre"], units[22]["facing"], units[22]["state"] = [20, 42], 30, ["fleeing"]
    units[24]["centre"], units[24]["facing"], units[24]["state"] = [40, 42], 330, ["fleeing"]
    units[4]["centre"] = [20, 37]
    units[6]["centre"] = [27, 38]
    units[8]["centre"] = [40, 37]
    for t in terrain:
        del t["_box"]
    return {
        "book": "t9a", "board": BOARD, "terrain": _clear_of_units(terrain, units), "units": units,
        "declared_charges": [{"charger": "s10", "target": "n31"}],
        "pursuit": {"fled": [{"unit": "n22", "roll": 7}, {"unit": "n24", "roll": 9}],
                    "pursuers": [{"unit": "s4", "pursues": "n22", "roll": 6}, {"unit": "s6", "pursues": "n22", "roll": 8},
                                 {"unit": "s8", "pursues": "n24", "roll": 5}]},
    }


def _overlap(a, b, gap=0.0) -> bool:
    return not (a[2] + gap < b[0] or b[2] + gap < a[0] or a[3] + gap < b[1] or b[3] + gap < a[1])


def _clear_of_units(terrain, units):
    """Drop terrain that would stand under a unit (the scenario would be invalid) and top up elsewhere."""
    kept = []
    for t in terrain:
        xs, ys = [p[0] for p in t["polygon"]], [p[1] for p in t["polygon"]]
        box = (min(xs), min(ys), max(xs), max(ys))
        if not any(_overlap(box, (u["centre"][0] - 3, u["centre"][1] - 3, u["centre"][0] + 3, u["centre"][1] + 3))
                   for u in units):
            kept.append(t)
    x = 2.0
    while len(kept) < TERRAIN:
        kept.append({"id": f"edge{len(kept)}", "polygon": [[x, 24], [x + 1.5, 24], [x + 1.5, 25.5], [x, 25.5]],
                     "impassable": len(kept) % 2 == 0, "obscuring": True})
        x += 3.4
    return kept


QUESTIONS = [
    ("can_charge", "can-charge", {"charger": "s17", "target": "n37"}),
    ("can_charge_blocked", "can-charge", {"charger": "s9", "target": "n29"}),
    ("charge_reactions", "charge-reactions", {"charger": "s17", "target": "n37"}),
    ("pursuit_3_pursuers", "pursuit", {}),
]


# CPU time of this process: steadier than wall time on a shared machine (other processes' time is not counted).
CLOCK = time.process_time


def p50(call, repeat: int = 200, warmup: int = 20) -> float:
    for _ in range(warmup):
        call()
    times = []
    for _ in range(repeat):
        start = CLOCK()
        call()
        times.append(CLOCK() - start)
    return statistics.median(times) * 1000


def interleaved_p50(calls: dict[str, object], rounds: int = 8, repeat: int = 40, warmup: int = 10) -> dict[str, float]:
    """p50 of each call over ``rounds`` rounds that take turns, so that a slow spell of a shared machine falls on
    every question alike rather than on whichever happened to run then."""
    for call in calls.values():
        for _ in range(warmup):
            call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            for _ in range(repeat):
                start = CLOCK()
                call()
                times[name].append(CLOCK() - start)
    return {name: statistics.median(found) * 1000 for name, found in times.items()}


def run() -> list[tuple[str, float, str]]:
    data = busy_board()
    scenario = load_scenario(data)
    figures = [("engine.t9a.load_scenario_40_units.p50", p50(lambda: load_scenario(data), repeat=50), "ms")]
    calls = {name: (lambda question=question, params=params: ask("t9a", question, scenario, params))
             for name, question, params in QUESTIONS}
    figures.extend((f"engine.t9a.{name}.p50", value, "ms") for name, value in interleaved_p50(calls).items())
    return figures


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name} {value:.3f} {unit}")
