"""Moving a unit hex by hex: the moves open to it from a placement, and cheapest-path searches over them.

Chapter 7 (movement) is not in the corpus; the engine uses the usual hex-and-counter reading, written in
docs/geometry-hex.md: a unit with a facing enters only its front hexes and keeps its facing; it turns in place
(6.2.1), wheels if it occupies two hexes (6.2.1), or counter-marches (6.2.2). A two-hex unit moving forward shifts
both halves one hex in the same direction and pays the dearer of the two hexes entered. A unit without a facing
(6.1: leaders, limbered guns, wagons, Morale Broken units) steps to any neighbouring hex.

Searches are Dijkstra over placements (hexes + facing). Ties between equal-cost paths are broken by the order in
which moves are generated (Red Blob direction order), so answers are deterministic; the set of destinations and
their costs do not depend on it.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import count
from typing import Callable, Iterator, NamedTuple

from ..hexgrid import HEX_DIRECTIONS, Hex, hex_neighbor, rotate_facing
from .facing_rules import COUNTER_MARCH_COST, COUNTER_MARCH_VERTICES, WHEEL_BASE_COST, may_counter_march, vertex_turn_cost, wheels
from .scenario import Scenario, Unit
from .terrain import UNKNOWN, TerrainCosts


class Placement(NamedTuple):
    """Where a unit stands: its hexes (a two-hex unit's second hex is its first plus direction facing + 2)."""

    hexes: tuple[Hex, ...]
    facing: int | None


class Move(NamedTuple):
    kind: str  # "enter", "turn", "wheel", "counter-march"
    to: Placement
    cost: float
    entered: tuple[Hex, ...]


def placement_of(unit: Unit) -> Placement:
    return Placement(unit.hexes, unit.facing if unit.has_facing else None)


class Mover:
    """The moves one unit may make on one scenario's map.

    ``may_enter(hex)`` says whether the unit may enter a hex at all (map edge, units in it), ``avoid`` lists hexes it
    must not enter (9.2.4: adjacent to an enemy); terrain costs come
    from :class:`TerrainCosts`, and hexes whose cost is unknown are not entered (``costs.missing`` names them).
    """

    def __init__(self, scenario: Scenario, unit: Unit, may_enter: Callable[[Hex], bool] | None = None,
                 avoid: frozenset[Hex] = frozenset()):
        self.scenario = scenario
        self.unit = unit
        self.costs = TerrainCosts(scenario, unit.movement_class)
        self.avoid = avoid
        self.may_enter = may_enter or self.default_may_enter
        self.turn_cost = vertex_turn_cost(unit)
        self.wheels = wheels(unit)
        self.counter_marches = may_counter_march(unit)
        self.supported = not (unit.is_two_hex and unit.facing is None and unit.has_facing)
        self._entry: dict[Hex, float | None] = {}

    def default_may_enter(self, h: Hex) -> bool:
        """On the map, no enemy unit in it, no friendly unit other than a leader (chapter 8 is not in the corpus)."""
        if h not in self.scenario.hexmap:
            return False
        return all(u.id == self.unit.id or (u.side == self.unit.side and u.type.value == "leader")
                   for u in self.scenario.units_in(h))

    def _enter_cost(self, hexes: tuple[Hex, ...]) -> float | None:
        worst = 0.0
        for h in hexes:
            try:
                c = self._entry[h]
            except KeyError:
                c = self._entry[h] = self._entry_cost(h)
            if c is None:
                return None
            if c > worst:
                worst = c
        return worst

    def _entry_cost(self, h: Hex) -> float | None:
        if h in self.avoid or not self.may_enter(h):
            return None
        c = self.costs.cost(h)
        return None if c is None or c is UNKNOWN else c  # type: ignore[return-value]

    def moves(self, at: Placement) -> Iterator[Move]:
        hexes, facing = at
        make = Hex._make
        if facing is None:
            if len(hexes) == 1:
                q, r, s = hexes[0]
                for dq, dr, ds in HEX_DIRECTIONS:
                    n = make((q + dq, r + dr, s + ds))
                    c = self._enter_cost((n,))
                    if c is not None:
                        yield Move("enter", Placement((n,), None), c, (n,))
            return
        # Forward: into the front hexes, facing kept (two-hex: both halves shift the same way).
        for d in (facing, (facing + 1) % 6):
            dq, dr, ds = HEX_DIRECTIONS[d]
            new = tuple(make((h[0] + dq, h[1] + dr, h[2] + ds)) for h in hexes)
            entered = tuple(h for h in new if h not in hexes)
            c = self._enter_cost(entered)
            if c is not None:
                yield Move("enter", Placement(new, facing), c, entered)
        if self.turn_cost is not None:
            for turn in (-1, 1):
                yield Move("turn", Placement(hexes, rotate_facing(facing, turn)), self.turn_cost, ())
        if self.wheels and len(hexes) == 2:
            a, b = hexes
            front = hex_neighbor(a, facing + 1)  # the front hex both halves share
            c = self._enter_cost((front,))
            if c is not None:
                yield Move("wheel", Placement((a, front), rotate_facing(facing, -1)), WHEEL_BASE_COST + c, (front,))
                yield Move("wheel", Placement((front, b), rotate_facing(facing, 1)), WHEEL_BASE_COST + c, (front,))
        if self.counter_marches:
            turned = rotate_facing(facing, COUNTER_MARCH_VERTICES)
            yield Move("counter-march", Placement(hexes[::-1], turned), COUNTER_MARCH_COST, ())


@dataclass
class SearchResult:
    cost: dict[Placement, float]
    parent: dict[Placement, tuple[Placement, Move] | None]
    goals: list[Placement]

    def path(self, end: Placement) -> list[tuple[Placement, Move | None]]:
        """The placements from the start to ``end``, each with the move that reached it."""
        steps: list[tuple[Placement, Move | None]] = []
        at: Placement | None = end
        while at is not None:
            link = self.parent[at]
            steps.append((at, link[1] if link else None))
            at = link[0] if link else None
        return steps[::-1]


def search(
    mover: Mover,
    start: Placement,
    budget: float | None,
    allowed: Callable[[Placement, Move], bool] | None = None,
    is_goal: Callable[[Placement], bool] | None = None,
    estimate: Callable[[Placement], float] | None = None,
) -> SearchResult:
    """Cheapest paths from ``start`` within ``budget`` MP over moves that ``allowed`` accepts.

    With ``is_goal``, stops once every goal placement as cheap as the cheapest goal has been reached; ``estimate``
    (a consistent lower bound of the cost still to pay, 0 at a goal) turns the Dijkstra search into A*.
    """
    cost: dict[Placement, float] = {start: 0}
    parent: dict[Placement, tuple[Placement, Move] | None] = {start: None}
    done: set[Placement] = set()
    tie = count()
    heap: list[tuple[float, int, float, Placement]] = [(estimate(start) if estimate else 0, next(tie), 0, start)]
    goals: list[Placement] = []
    best_goal: float | None = None
    limit = None if budget is None else budget + 1e-9
    while heap:
        f, _, g, at = heapq.heappop(heap)
        if at in done:
            continue
        if best_goal is not None and f > best_goal + 1e-9:
            break
        done.add(at)
        if is_goal is not None and is_goal(at):
            goals.append(at)
            best_goal = g
            continue
        for move in mover.moves(at):
            new_cost = g + move.cost
            if limit is not None and new_cost > limit:
                continue
            if allowed is not None and not allowed(at, move):
                continue
            if new_cost < cost.get(move.to, _INF):
                cost[move.to] = new_cost
                parent[move.to] = (at, move)
                heapq.heappush(heap, (new_cost + (estimate(move.to) if estimate else 0), next(tie), new_cost, move.to))
    return SearchResult(cost, parent, goals)


_INF = float("inf")
