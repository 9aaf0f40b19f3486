"""The optimised Withdraw search (9.2.4) gives exactly the answer of a plain reference search: the same
destinations, costs, facings and paths (ties broken the same way), and the same missing terrain costs.

The reference below is the straightforward reading, written without any of the engine's shortcuts: a Dijkstra over
placements (hexes + facing) that builds every move as a named tuple, asks the scenario for every hex, and filters
by distance afterwards.
"""
from __future__ import annotations

import heapq
import sys
from itertools import count
from pathlib import Path
from typing import NamedTuple

from hypothesis import HealthCheck, given, settings

from rulesref.engine.hexgrid import HEX_DIRECTIONS, Hex, footprint_distance, hex_neighbor, hex_neighbors
from rulesref.engine.mpbs import load_scenario
from rulesref.engine.mpbs.facing_rules import (
    COUNTER_MARCH_COST, COUNTER_MARCH_VERTICES, WHEEL_BASE_COST, may_counter_march, vertex_turn_cost, wheels,
)
from rulesref.engine.mpbs.reaction import withdraw_destinations
from rulesref.engine.mpbs.terms import UnitType

from test_mpbs_properties import scenarios

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import engine_mpbs  # noqa: E402


class Placement(NamedTuple):
    hexes: tuple
    facing: int | None


def reference_withdraw(scenario, trigger, unit):
    """9.2.4 the plain way (the engine's algorithm before it was optimised)."""
    enemies = [u for u in scenario.units if u.on_map and u.side != unit.side]
    near_enemy = {n for e in enemies for h in e.hexes for n in hex_neighbors(h) if n not in e.hexes}
    if unit.is_two_hex and unit.facing is None and unit.has_facing:
        return [], ["column/6.3.4"]
    missing: set[str] = set()
    entry: dict = {}

    def hex_cost(h):
        if h not in entry:
            entry[h] = plain_cost(h)
        return entry[h]

    def plain_cost(h):
        if h in near_enemy or h not in scenario.hexmap:
            return None
        if any(not (o.id == unit.id or (o.side == unit.side and o.type is UnitType.LEADER)) for o in scenario.units_in(h)):
            return None
        kind = scenario.terrain_type(h)
        if kind is None or unit.movement_class not in kind.cost:
            missing.add(f"{scenario.terrain_at(h)}/{unit.movement_class}")
            return None
        return kind.cost[unit.movement_class]

    def enter_cost(hexes):
        worst = 0.0
        for h in hexes:
            c = hex_cost(h)
            if c is None:
                return None
            worst = max(worst, c) if c > worst else worst
        return worst

    def moves(at):
        hexes, facing = at
        if facing is None:
            if len(hexes) == 1:
                for d in range(6):
                    n = hex_neighbor(hexes[0], d)
                    c = enter_cost((n,))
                    if c is not None:
                        yield Placement((n,), None), c
            return
        for d in (facing, (facing + 1) % 6):
            new = tuple(hex_neighbor(h, d) for h in hexes)
            c = enter_cost(tuple(h for h in new if h not in hexes))
            if c is not None:
                yield Placement(new, facing), c
        turn = vertex_turn_cost(unit)
        if turn is not None:
            for side in (-1, 1):
                yield Placement(hexes, (facing + side) % 6), turn
        if wheels(unit) and len(hexes) == 2:
            a, b = hexes
            front = hex_neighbor(a, facing + 1)
            c = enter_cost((front,))
            if c is not None:
                yield Placement((a, front), (facing - 1) % 6), WHEEL_BASE_COST + c
                yield Placement((front, b), (facing + 1) % 6), WHEEL_BASE_COST + c
        if may_counter_march(unit):
            yield Placement(hexes[::-1], (facing + COUNTER_MARCH_VERTICES) % 6), COUNTER_MARCH_COST

    start = Placement(unit.hexes, unit.facing if unit.has_facing else None)
    budget = (unit.movement_allowance or 0) + 1e-9  # 9.2.4: up to the full allowance
    cost, parent, done, tie = {start: 0}, {start: None}, set(), count()
    heap = [(0, next(tie), start)]
    while heap:
        g, _, at = heapq.heappop(heap)
        if at in done:
            continue
        done.add(at)
        for to, c in moves(at):
            if g + c > budget:
                continue
            if g + c < cost.get(to, float("inf")):
                cost[to], parent[to] = g + c, at
                heapq.heappush(heap, (g + c, next(tie), to))

    start_distance = footprint_distance(unit.hexes, trigger.hexes)
    best, facings = {}, {}
    for at, c in cost.items():
        if footprint_distance(at.hexes, trigger.hexes) <= start_distance:
            continue
        key = tuple(sorted(at.hexes))
        if key not in best or c < best[key][0]:
            best[key] = (c, at)
        if at.facing is not None:
            facings.setdefault(key, set()).add(at.facing)
    out = []
    for key in sorted(best, key=scenario.labels):
        c, at = best[key]
        path, node = [], at
        while node is not None:
            path.append(scenario.labels(node.hexes))
            node = parent[node]
        out.append({"hexes": scenario.labels(at.hexes), "cost": c,
                    "facings": [scenario.hexmap.vertex_name(f) for f in sorted(facings.get(key, ()))],
                    "path": path[::-1]})
    return out, sorted(missing)


def assert_same_withdrawals(scenario):
    checked = 0
    for trigger in scenario.units:
        if not trigger.on_map:
            continue
        for unit in scenario.units:
            if unit.on_map and unit.side != trigger.side:
                expected = reference_withdraw(scenario, trigger, unit)
                assert withdraw_destinations(scenario, trigger, unit) == expected, (trigger.id, unit.id)
                checked += 1
    return checked


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scenarios(min_units=2, max_units=12))
def test_withdraw_destinations_match_the_reference_search(data):
    assert_same_withdrawals(load_scenario(data))


def test_withdraw_destinations_match_the_reference_on_the_benchmark_map():
    for seed in (1, 2):
        scenario = load_scenario(engine_mpbs.make_scenario(24, 18, units=24, seed=seed))
        assert assert_same_withdrawals(scenario) > 100


def test_hex_neighbours_are_in_direction_order():
    h = Hex(3, -5)
    assert hex_neighbors(h) == tuple(Hex(h.q + d.q, h.r + d.r) for d in HEX_DIRECTIONS)
    assert all(type(n) is Hex for n in hex_neighbors(h))
