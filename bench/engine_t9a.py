#!/usr/bin/env python
"""Benchmarks of the t9a rules engine, measured as the JSON API pays them.

``figures(scale)`` yields ``(name, value, unit, target)`` (bench/run.py collects it); ``python bench/engine_t9a.py
[--quick|--smoke]`` prints them as ``name value unit target`` lines. Targets are from issues #11 and #12
(docs/benchmarks.md).

* ``engine.t9a.api.<question>``: ``load_scenario``, the question and the ruling as JSON on a fresh copy of the JSON
  text each call, on a board with 40 units and 20 terrain pieces; ``engine.t9a.fresh.<question>``: the question
  alone on a freshly loaded scenario (target 2 ms each). CPU time, the questions taking turns in interleaved rounds
  (bench/engine_timing.py).
* ``engine.t9a.worst.<case>``: the worst cases we could construct within the scenario limits (150 units, 100 terrain
  pieces of 64 corners, the widest units, ten pursuers each blocked while it pivots), loaded and asked as the API
  does; target 0.5 s of CPU.
* ``engine.t9a.instructions.<question>``: instructions per API call under valgrind's callgrind
  (bench/instructions.py; skipped when valgrind is missing, and in ``--quick`` and ``--smoke``).
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
import instructions  # noqa: E402
from engine_timing import interleaved, p50, worst_ms  # noqa: E402

from rulesref.engine import InvalidScenarioError, ask  # noqa: E402
from rulesref.engine.t9a import QUESTIONS as ENGINE_QUESTIONS  # noqa: E402
from rulesref.engine.t9a.scenario import load_scenario  # noqa: E402

FRESH_TARGET_MS = 2.0
WORST_TARGET_S = 0.5

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


def api_call(text: str, question: str, params: dict[str, Any], lang: str = "en") -> str:
    """What POST /api/v1/t9a/rulings/<question> costs the engine: read the JSON, load, ask, write the ruling."""
    try:
        ruling = ask("t9a", question, json.loads(text), params)
    except InvalidScenarioError as exc:
        return json.dumps(exc.to_dict(lang), ensure_ascii=False)
    return json.dumps(ruling.to_dict(lang), ensure_ascii=False)


def api_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    text = json.dumps(busy_board())
    calls: dict[str, tuple] = {"load": (lambda: load_scenario(json.loads(text)), None)}
    for name, question, params in QUESTIONS:
        calls[f"api.{name}"] = (lambda q=question, p=params: api_call(text, q, p), None)
        calls[f"fresh.{name}"] = (lambda s, q=question, p=params: ENGINE_QUESTIONS[q](s, p),
                                  lambda: load_scenario(json.loads(text)))
    times = interleaved(calls, rounds=scale.pick(8, 2), repeat=scale.pick(30, 5), warmup=scale.pick(3, 3, 0))
    yield "engine.t9a.load_scenario_40_units.p50", round(p50(times["load"]), 3), "ms", ""
    for name, _, _ in QUESTIONS:
        yield f"engine.t9a.api.{name}.p50", round(p50(times[f"api.{name}"]), 3), "ms", ""
    for name, _, _ in QUESTIONS:
        yield f"engine.t9a.fresh.{name}.p50", round(p50(times[f"fresh.{name}"]), 3), "ms", f"<= {FRESH_TARGET_MS:g}"


# --- worst cases within the limits -------------------------------------------------------------------------------


def _ring(cx: float, cy: float, r: float, corners: int, lobes: int = 5) -> list[list[float]]:
    """A wavy outline (star-shaped, so simple) of ``corners`` corners about (cx, cy)."""
    def radius(a: int) -> float:
        return r * (1 + 0.1 * math.sin(lobes * a / corners * math.tau))

    return [[round(cx + radius(a) * math.cos(a / corners * math.tau), 4),
             round(cy + radius(a) * math.sin(a / corners * math.tau), 4)] for a in range(corners)]


def crowded(seed: int = 1) -> dict[str, Any]:
    """Everything at its limit: a 144" x 96" board, 150 units in two lines of 75, 100 terrain pieces of 64 corners
    between them (half obscuring, a third impassable), the largest Advance Rates, 15 charges declared."""
    units = []
    for side, y0, facing in (("south", 3, 0), ("north", 93, 180)):
        for k in range(75):
            row, col = divmod(k, 15)
            units.append({"id": f"{side[0]}{k}", "side": side, "centre": [4.8 + col * 9.4, y0 + (3.2 if side == "south" else -3.2) * row],
                          "facing": facing, "width": 9, "depth": 2, "advance_rate": 20, "missile_weapons": True})
    terrain = [{"id": f"t{k}", "polygon": _ring(3.6 + (k % 20) * 7.2, 30 + (k // 20) * 8.5, 2.8, 64, seed + k % 4),
                "obscuring": k % 2 == 0, "impassable": k % 3 == 0} for k in range(100)]
    charges = [{"charger": f"s{k}", "target": f"n{k}"} for k in range(60, 75)]
    return {"book": "t9a", "board": {"width": 144, "depth": 96}, "units": units, "terrain": terrain,
            "declared_charges": charges}


def crowded_pursuit() -> dict[str, Any]:
    """Ten of the widest pursuers at once, each turning nearly about with a wood of 64 corners in the way of its
    pivot, on the crowded board."""
    data = crowded()
    data["declared_charges"] = []
    data["units"] = [u for u in data["units"] if u["side"] == "north" and int(u["id"][1:]) >= 30]
    data["terrain"] = [t for t in data["terrain"] if t["polygon"][0][1] > 55]
    for k in range(10):
        x = 12.5 + k * 13
        data["units"] += [
            {"id": f"p{k}", "side": "south", "centre": [x, 40], "facing": 0, "width": 12, "depth": 3, "advance_rate": 20},
            {"id": f"f{k}", "side": "north", "centre": [x, 25], "facing": 179, "width": 12, "depth": 3, "advance_rate": 20}]
        data["terrain"].append({"id": f"w{k}", "impassable": True, "polygon": [
            [x + 5 + 1.2 * math.cos(a / 64 * math.tau), 36.5 + 1.2 * math.sin(a / 64 * math.tau)] for a in range(64)]})
    data["pursuit"] = {"fled": [{"unit": f"f{k}", "destroyed": True} for k in range(10)],
                       "pursuers": [{"unit": f"p{k}", "pursues": f"f{k}", "roll": 12} for k in range(10)]}
    return data


def charging_through() -> dict[str, Any]:
    """The crowded board with the lines 30" apart and the 100 pieces, all obscuring, half impassable, between them:
    every sight line crosses terrain, and the straight way is closed, so the reach test joins the pieces."""
    data = crowded()
    for u in data["units"]:
        if u["side"] == "north":
            u["centre"][1] = 40 + 3.2 * (int(u["id"][1:]) // 15)
    data["terrain"] = [{"id": f"t{k}", "polygon": _ring(3.6 + (k % 20) * 7.2, 20 + (k // 20) * 4, 1.8, 64, 3 + k % 4),
                        "obscuring": True, "impassable": k % 2 == 0} for k in range(100)]
    return data


def broken_board() -> dict[str, Any]:
    """150 units stacked in one place over 100 impassable pieces: the most overlaps to find."""
    data = crowded()
    for u in data["units"]:
        u["centre"], u["width"] = [120, 50], 20
    for k, t in enumerate(data["terrain"]):
        t["polygon"], t["impassable"] = _ring(120, 50, 2.8, 64, 3 + k % 4), True
    return data


# name: (scenario, question, params, whether the scenario is valid)
WORST_CASES = {
    "load_largest": lambda: (crowded(), "can-charge", {"charger": "s0", "target": "s1"}, True),
    "broken_board": lambda: (broken_board(), "can-charge", {"charger": "s0", "target": "n0"}, False),
    "can_charge_across_the_board": lambda: (crowded(), "can-charge", {"charger": "s37", "target": "n37"}, True),
    "can_charge_through_terrain": lambda: (charging_through(), "can-charge", {"charger": "s67", "target": "n7"}, True),
    "charge_reactions_through_terrain": lambda: (charging_through(), "charge-reactions",
                                                 {"charger": "s67", "target": "n7"}, True),
    "pursuit_ten_blocked": lambda: (crowded_pursuit(), "pursuit", {}, True),
}


def worst_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    for name, make in WORST_CASES.items():
        data, question, params, valid = make()
        text = json.dumps(data)
        assert ('"error"' not in api_call(text, question, params)) is valid, f"{name}: not the case meant"
        assert len(text.encode()) <= 1024 * 1024, f"{name}: {len(text)} bytes, over the API's 1 MB"
        seconds = worst_ms(lambda: api_call(text, question, params), scale.pick(3, 1)) / 1000
        yield f"engine.t9a.worst.{name}.cpu", round(seconds, 4), "s", f"<= {WORST_TARGET_S:g}"


def instruction_figures(scale: harness.Scale) -> Iterator[tuple[str, float, str, str]]:
    if scale != harness.FULL or not instructions.available():
        return
    for name, _, _ in QUESTIONS:
        yield f"engine.t9a.instructions.api.{name}", round(instructions.per_call("t9a", name) / 1e6, 2), "Minstr", ""


def figures(scale: harness.Scale = harness.FULL) -> Iterator[tuple[str, float, str, str]]:
    yield from api_figures(scale)
    yield from worst_figures(scale)
    yield from instruction_figures(scale)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    harness.Scale.add_arguments(parser)
    for name, value, unit, target in figures(harness.Scale.parsed(parser.parse_args())):
        print(f"{name} {value} {unit} {target}".rstrip(), flush=True)


if __name__ == "__main__":
    main()
