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
from typing import Callable, NamedTuple

from ..hexgrid import HEX_DIRECTIONS, Hex, hex_neighbor, rotate_facing
from ..work import Work
from .facing_rules import COUNTER_MARCH_COST, COUNTER_MARCH_VERTICES, WHEEL_BASE_COST, may_counter_march, vertex_turn_cost, wheels
from .scenario import Scenario, Unit
from .terrain import UNKNOWN, TerrainCosts

# Placements one search may expand when its caller gives it no budget of its own (bench/engine_mpbs.py measures
# the worst case; a withdraw of 8 MP over clear ground expands under 600).
SEARCH_WORK = 20_000

_INF = float("inf")
_new = tuple.__new__  # builds a Hex, Placement or Move from a tuple without the NamedTuple constructor's overhead


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
        occupants = self.scenario.units_in(h)
        return not occupants or all(u.id == self.unit.id or (u.side == self.unit.side and u.type.value == "leader")
                                    for u in occupants)

    def _enter_cost(self, hexes: tuple[Hex, ...]) -> float | None:
        """The MP to enter ``hexes`` together (a two-hex unit pays the dearer), or None if one may not be entered."""
        worst = 0.0
        for h in hexes:
            c = self._hex_cost(h)
            if c is None:
                return None
            if c > worst:
                worst = c
        return worst

    def _hex_cost(self, h: Hex) -> float | None:
        """The MP to enter one hex, or None if it may not be entered; memoised per hex."""
        try:
            return self._entry[h]
        except KeyError:
            c = self._entry[h] = self._entry_cost(h)
            return c

    def _entry_cost(self, h: Hex) -> float | None:
        if h in self.avoid or not self.may_enter(h):
            return None
        c = self.costs.cost(h)
        return None if c is None or c is UNKNOWN else c  # type: ignore[return-value]

    def moves(self, at: Placement, spent: float = 0, limit: float = _INF) -> list[Move]:
        """Every move open from ``at`` that a unit which has spent ``spent`` MP can pay without going over
        ``limit``, in a fixed order (forward, turns, wheels, counter-march): the order breaks ties between equally
        cheap paths, so searches are deterministic. Leaving out the moves it cannot pay is the search's own test
        (``spent + cost > limit``), made before anything is built: this is the search's inner loop."""
        hexes, facing = at
        if facing is None:
            return self._steps_without_facing(hexes, spent, limit) if len(hexes) == 1 else []
        found = self._forward(hexes, facing, spent, limit)
        turn = self.turn_cost
        if turn is not None and not spent + turn > limit:
            for side in (-1, 1):
                found.append(_new(Move, ("turn", _new(Placement, (hexes, (facing + side) % 6)), turn, ())))
        if self.wheels and len(hexes) == 2:
            found.extend(self._wheels(hexes, facing, spent, limit))
        if self.counter_marches and not spent + COUNTER_MARCH_COST > limit:
            turned = rotate_facing(facing, COUNTER_MARCH_VERTICES)
            found.append(_new(Move, ("counter-march", _new(Placement, (hexes[::-1], turned)), COUNTER_MARCH_COST, ())))
        return found

    def _steps_without_facing(self, hexes: tuple[Hex, ...], spent: float, limit: float) -> list[Move]:
        """6.1: a one-hex unit without a facing steps into any neighbouring hex."""
        found = []
        q, r, s = hexes[0]
        for dq, dr, ds in HEX_DIRECTIONS:
            n = _new(Hex, (q + dq, r + dr, s + ds))
            c = self._hex_cost(n)
            if c is None:
                continue
            c = c if c > 0.0 else 0.0  # as _enter_cost((n,)) answers
            if not spent + c > limit:
                entered = (n,)
                found.append(_new(Move, ("enter", _new(Placement, (entered, None)), c, entered)))
        return found

    def _forward(self, hexes: tuple[Hex, ...], facing: int, spent: float, limit: float) -> list[Move]:
        """Into the front hexes, facing kept; a two-hex unit shifts both halves the same way."""
        found = []
        single = len(hexes) == 1
        for d in (facing, (facing + 1) % 6):
            dq, dr, ds = HEX_DIRECTIONS[d]
            if single:
                q, r, s = hexes[0]
                new = entered = (_new(Hex, (q + dq, r + dr, s + ds)),)
            else:
                new = tuple(_new(Hex, (h[0] + dq, h[1] + dr, h[2] + ds)) for h in hexes)
                entered = tuple(h for h in new if h not in hexes)
            c = self._enter_cost(entered)
            if c is not None and not spent + c > limit:
                found.append(_new(Move, ("enter", _new(Placement, (new, facing)), c, entered)))
        return found

    def _wheels(self, hexes: tuple[Hex, ...], facing: int, spent: float, limit: float) -> list[Move]:
        """6.2.1: a two-hex unit wheels one half forward into the front hex both halves share."""
        a, b = hexes
        front = hex_neighbor(a, facing + 1)
        c = self._enter_cost((front,))
        if c is None or spent + (WHEEL_BASE_COST + c) > limit:
            return []
        return [
            Move("wheel", Placement((a, front), rotate_facing(facing, -1)), WHEEL_BASE_COST + c, (front,)),
            Move("wheel", Placement((front, b), rotate_facing(facing, 1)), WHEEL_BASE_COST + c, (front,)),
        ]


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


def _work_of(work: Work | None) -> Work:
    """The question's budget of placements, or a search's own."""
    return work or Work(SEARCH_WORK, "placements")


def _limit(budget: float | None) -> float:
    """The most a path may cost: the budget (and a hair more, for sums of halves), or no limit."""
    return _INF if budget is None else budget + 1e-9


def search(
    mover: Mover,
    start: Placement,
    budget: float | None,
    allowed: Callable[[Placement, Move], bool] | None = None,
    is_goal: Callable[[Placement], bool] | None = None,
    estimate: Callable[[Placement], float] | None = None,
    work: Work | None = None,
) -> SearchResult:
    """Cheapest paths from ``start`` within ``budget`` MP over moves that ``allowed`` accepts.

    With ``is_goal``, stops once every goal placement as cheap as the cheapest goal has been reached; ``estimate``
    (a consistent lower bound of the cost still to pay, 0 at a goal) turns the Dijkstra search into A*. Each
    placement expanded is spent from ``work`` (the question's budget: TooLarge when it is spent).
    """
    spend = _work_of(work).spend
    cost: dict[Placement, float] = {start: 0}
    parent: dict[Placement, tuple[Placement, Move] | None] = {start: None}
    done: set[Placement] = set()
    tie = count()
    heap: list[tuple[float, int, float, Placement]] = [(estimate(start) if estimate else 0, next(tie), 0, start)]
    goals: list[Placement] = []
    best_goal: float | None = None
    limit = _limit(budget)
    moves, push, pop, known = mover.moves, heapq.heappush, heapq.heappop, cost.get
    while heap:
        f, _, g, at = pop(heap)
        if at in done:
            continue
        if best_goal is not None and f > best_goal + 1e-9:
            break
        done.add(at)
        spend()
        if is_goal is not None and is_goal(at):
            goals.append(at)
            best_goal = g
            continue
        for move in moves(at, g, limit):
            new_cost = g + move[2]
            if new_cost > limit:
                continue
            if allowed is not None and not allowed(at, move):
                continue
            to = move[1]
            if new_cost < known(to, _INF):
                cost[to] = new_cost
                parent[to] = (at, move)
                push(heap, (new_cost + estimate(to) if estimate else new_cost, next(tie), new_cost, to))
    return SearchResult(cost, parent, goals)

