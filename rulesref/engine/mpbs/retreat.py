"""Retreat after close combat (11.4.1–11.4.5, 11.4.10): every legal destination and path, ranked by 11.4.2.

How the priorities of 11.4.2 are applied, in their order (docs/geometry-hex.md has the pictures):

1. Hard rule: no hex entered may be adjacent to the enemy unit(s) the retreating unit fought. Enemy units block;
   friendly units block except as 11.4.3 allows (through artillery, which is then marked, and wagons, never ending on
   them; light infantry may end stacked with cavalry and vice versa, never passing it). A Morale Shaken retreat also
   moves *away from the attacker*: each hex entered is farther from it than the last (11.4.1).
2. Among the retreats of the full length (or, if none, the longest), those that end closest to the friendly map edge
   (the nearest one for a Morale Broken unit, 11.4.1): the most hexes of progress toward it.
3. Among those, the path of least resistance: the fewest movement points for the whole way to the friendly map edge,
   i.e. the cost of the retreat hexes plus the cheapest continuation from where they end to beyond the edge (an
   A* search over the same ground). Paths still tied are the owning player's choice; all are listed.

A two-hex unit retreats both halves together, shifting without pivoting (11.4.4), and pays the dearer of the hexes
its halves enter. A retreat that leaves the map eliminates the unit (11.4.2).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import count
from typing import Any, Callable, Iterable, Mapping

from ..hexgrid import Hex, MapEdge, adjacent_hexes, footprint_distance, hex_neighbor, hex_subtract, hex_add
from ..i18n import Message, msg, nmsg
from ..ruling import Finding, Ruling, Verdict, unless_undetermined
from .clauses import BOOK, checked, failed, passed, unknown
from .describe import mp, percent, unit_name
from .params import coerce
from .scenario import Scenario, Unit
from .terms import CombatResult, UnitType
from .terrain import UNKNOWN, TerrainCosts
from ..work import TooLarge, Work, too_large
from ..coverage import decides, undetermined_without
from ..interpretations import name_in

BROKEN_RETREAT_HEXES = 2  # 11.4.1: Morale Broken retreats 2 hexes
# Placements the search for the path of least resistance (priority 3) may expand in one question: on the largest
# map a retreat toward an edge across open ground expands a few hundred; a maze of impassable terrain, at most
# the whole map once (bench/engine_mpbs.py measures the worst case).
RETREAT_WORK = 20_000
EDGE_NAMES: dict[MapEdge, Message] = {
    MapEdge.NORTH: msg("north"),
    MapEdge.SOUTH: msg("south"),
    MapEdge.WEST: msg("west"),
    MapEdge.EAST: msg("east"),
}
# 11.4.2 priority 3 when no path leads on to the friendly edge (docs/geometry.md, rulesref/engine/interpretations.py).
NO_WAY_TO_THE_EDGE = "retreat-no-way-to-the-edge"
OFF_MAP = "off-map"  # a step of a retreat's path that leaves the map
_PASS_THROUGH = (UnitType.ARTILLERY, UnitType.WAGON)
_SHARES_HEX_WITH = {UnitType.LIGHT_INFANTRY: UnitType.CAVALRY, UnitType.CAVALRY: UnitType.LIGHT_INFANTRY}  # 11.4.3
_INF = float("inf")


class RetreatGround:
    """The ground a retreating unit may cross (11.4.2 priority 1, 11.4.3), with terrain costs, for one retreat.

    A unit is placed by its first hex (``anchor``); a two-hex unit keeps the offset to its second hex (11.4.4).
    """

    def __init__(self, scenario: Scenario, unit: Unit, fought: Iterable[Unit], edge: MapEdge | None,
                 ignore_friends: bool = False):
        self.scenario = scenario
        self.ignore_friends = ignore_friends
        self.unit = unit
        self.hexmap = scenario.hexmap
        self.edge = edge
        self.costs = TerrainCosts(scenario, unit.movement_class)
        self.offsets = tuple(hex_subtract(h, unit.hexes[0]) for h in unit.hexes)
        self.single = len(self.offsets) == 1
        self.on_map = self.hexmap._on_map
        self.near_fought = frozenset(h for u in fought for h in adjacent_hexes(u.hexes))
        self.enemy = scenario.enemy_hexes(unit.side)
        self._enter: dict[tuple[Hex, bool], float | None] = {}
        self._to_edge: list[float] | None = None
        self._onward: dict[Hex, tuple[bool, tuple[tuple[Hex, float, float], ...]]] = {}

    def hexes_at(self, anchor: Hex) -> tuple[Hex, ...]:
        if self.single:
            return (anchor,)
        return tuple(hex_add(anchor, o) for o in self.offsets)

    # 11.4.3, friendly units: «не могут отступить на или через дружественные подразделения. Исключение: …
    # через артиллерийское подразделение …; через гекс с повозками»: guns and wagons may be passed, not ended on;
    # «Подразделение легкой пехоты … может закончить свое отступление будучи сгруппировано с кавалерийским
    # подразделением, и наоборот»: light infantry and cavalry may end together, not pass each other. Leaders do
    # not block (chapter 8, not in the corpus, as for movement).

    def friends(self, h: Hex) -> list[Unit]:
        """The friendly units in ``h`` that 11.4.3 speaks of (leaders aside; none when friends are ignored)."""
        if self.ignore_friends:
            return []
        return [u for u in self.scenario.units_in(h)
                if u.id != self.unit.id and u.side == self.unit.side and u.type is not UnitType.LEADER]

    def blocks_passing(self, friend: Unit) -> bool:
        """11.4.3: only artillery and wagons may be retreated through."""
        return friend.type not in _PASS_THROUGH

    def blocks_ending(self, friend: Unit) -> bool:
        """11.4.3: only light infantry with cavalry (and cavalry with light infantry) may end a retreat together."""
        return friend.type is not _SHARES_HEX_WITH.get(self.unit.type)

    def friendly_blockers(self, h: Hex) -> list[Unit]:
        """Friendly units a retreat may neither pass nor end on (11.4.3)."""
        return [u for u in self.friends(h) if self.blocks_passing(u) and self.blocks_ending(u)]

    def partners(self, hexes: Iterable[Hex]) -> list[Unit]:
        """Friendly units in ``hexes`` the retreat may end with but not pass: where it meets one, it stops."""
        return [u for h in hexes for u in self.friends(h) if not self.blocks_ending(u)]

    def refusing(self, h: Hex, last: bool) -> list[Unit]:
        """The friendly units in ``h`` that keep a retreat from passing it, or (``last``) from ending in it."""
        return [u for u in self.friends(h) if (self.blocks_ending(u) if last else self.blocks_passing(u))]

    def enter(self, h: Hex, last: bool = False) -> float | None:
        """The MP cost of entering ``h`` on the way, or None if the retreat may not enter it (unknown cost: None).
        ``last``: the retreat may end in ``h`` with a unit it may not pass (light infantry with cavalry); such a
        hex is not entered on the way on (the continuation to the edge of priority 3 included)."""
        key = (h, last)
        try:
            return self._enter[key]
        except KeyError:
            pass
        cost: float | None
        if h in self.enemy or h in self.near_fought or self.friendly_blockers(h):
            cost = None
        elif not last and self.partners((h,)):
            cost = None
        else:
            c = self.costs.cost(h)
            cost = None if c is None or c is UNKNOWN else float(c)  # type: ignore[arg-type]
        self._enter[key] = cost
        return cost

    def may_end(self, h: Hex) -> bool:
        """11.4.3: a retreat passes artillery and wagons but does not stop on them."""
        return not any(self.blocks_ending(u) for u in self.friends(h))

    def edge_steps(self, hexes: Iterable[Hex]) -> int:
        return min(self.hexmap.edge_steps(h, self.edge) for h in hexes)  # type: ignore[arg-type]

    def step(self, anchor: Hex, direction: int, last: bool = False) -> tuple[Hex, tuple[Hex, ...], float | None, bool]:
        """Shift the unit one hex: (new anchor, new hexes, cost or None if not allowed, left the map); ``last``:
        the shift may end the retreat with a unit it may not pass (``enter``)."""
        new_anchor = hex_neighbor(anchor, direction)
        if self.single:
            if new_anchor not in self.on_map:
                return new_anchor, (new_anchor,), 0.0, True
            cost = self.enter(new_anchor, last)
            return new_anchor, (new_anchor,), cost, False
        old = self.hexes_at(anchor)
        new = self.hexes_at(new_anchor)
        leaves = any(h not in self.on_map for h in new)
        worst = 0.0
        for h in new:
            if h in old or h not in self.on_map:
                continue
            c = self.enter(h, last)  # a half that stays on the map enters its hex, even as the other half leaves
            if c is None:
                return new_anchor, new, None, False
            worst = max(worst, c)
        return new_anchor, new, 0.0 if leaves else worst, leaves

    def onward(self, anchor: Hex) -> tuple[bool, tuple[tuple[Hex, float, float], ...]]:
        """From ``anchor`` on toward the friendly edge: whether a step leaves the map across it (leaving is free),
        and each step on the map the retreat may make, in direction order, with its cost and the estimate (``to_edge``)
        from where it ends (none where that is infinite); worked out once per anchor, for every search that passes."""
        try:
            return self._onward[anchor]
        except KeyError:
            pass
        leaves, steps = False, []
        for d in range(6):
            new_anchor, new_hexes, cost, off = self.step(anchor, d)
            if off:
                leaves = leaves or self.crosses_friendly_edge(new_hexes)
            elif cost is not None:
                estimate = self.to_edge(new_anchor)
                if estimate < _INF:  # a row on the way to the edge has no hex the retreat may enter
                    steps.append((new_anchor, cost, estimate))
        found = self._onward[anchor] = (leaves, tuple(steps))
        return found

    def to_edge(self, anchor: Hex) -> float:
        """A lower bound of the MP still to pay from ``anchor`` to beyond the friendly edge (inf: no way there).

        Each step changes the row (column) by at most one, so a way to the edge enters a hex in every row between
        the unit's leading hex and the edge: the bound is the sum of the least entry cost of each such row, from
        the map's terrain (its listed hexes and, where a row has others, its default). It never overestimates and
        never drops by more than a step costs (a consistent A* estimate), and it is nearly exact in open ground,
        however cheap a terrain type elsewhere on the map.
        """
        if self._to_edge is None:
            self._to_edge = self._line_bounds()
        bounds, line = self._to_edge, self._line
        if self.single:
            return bounds[line(anchor)]
        return min(bounds[line(hex_add(anchor, o))] for o in self.offsets)

    @cached_property
    def _line(self) -> Callable[[Hex], int]:
        """The row (toward a north or south edge) or the column (west, east) of a hex, counted from 0."""
        across = self.edge in (MapEdge.NORTH, MapEdge.SOUTH)
        if across and self.hexmap.layout == "pointy":
            return lambda h: h[1]  # a pointy map's row is the cube r coordinate
        if not across and self.hexmap.layout == "flat":
            return lambda h: h[0]  # a flat map's column is the cube q coordinate
        column_row = self.hexmap._column_row
        return (lambda h: column_row(h)[1]) if across else (lambda h: column_row(h)[0])

    def _line_bounds(self) -> list[float]:
        """For each row (column), the least MP from a hex in it to beyond the friendly edge (see ``to_edge``)."""
        hexmap, costs, scenario, line_of = self.hexmap, self.costs, self.scenario, self._line
        across = self.edge in (MapEdge.NORTH, MapEdge.SOUTH)
        count, length = (hexmap.rows, hexmap.columns) if across else (hexmap.columns, hexmap.rows)
        least = [_INF] * count
        listed = [0] * count

        def entry(kind: str) -> float:
            c = costs.of_terrain(kind)
            return _INF if c is None or c is UNKNOWN else float(c)  # type: ignore[arg-type]

        cost_of = {kind: entry(kind) for kind in set(scenario.terrain.values())}
        for h, kind in scenario.terrain.items():
            line = line_of(h)
            listed[line] += 1
            if cost_of[kind] < least[line]:
                least[line] = cost_of[kind]
        default = entry(scenario.terrain_default)
        least = [min(c, default) if n < length else c for c, n in zip(least, listed)]
        toward = self.edge in (MapEdge.NORTH, MapEdge.WEST)  # the edge is line -1, else line ``count``
        bounds = [0.0] * count
        for i in (range(1, count) if toward else range(count - 2, -1, -1)):
            bounds[i] = bounds[i - 1 if toward else i + 1] + least[i - 1 if toward else i + 1]
        return bounds

    def crosses_friendly_edge(self, hexes: Iterable[Hex]) -> bool:
        return self.edge is not None and any(
            h not in self.hexmap and self.hexmap.edge_steps(h, self.edge) == 0 for h in hexes
        )


def cheapest_exit(ground: RetreatGround, sources: Mapping[Hex, tuple[float, frozenset[int]]],
                  work: Work | None = None) -> tuple[float, frozenset[int], int]:
    """11.4.2 priority 3: the least MP to go from any source on to beyond the friendly map edge.

    ``sources`` maps a starting anchor to (cost already paid, tags). Returns the least total, the tags of every
    source from which that least total is reached, and the number of placements expanded (each spent from
    ``work``, the question's budget: TooLarge when it is spent).

    One A* search per source, each bounded by the best total found so far, so a source that cannot tie stops early;
    the placements on a cheapest path found are remembered with their exact cost to the edge, and a later search
    that meets one of them takes the known rest of the way as a single step; the placements of a search that found
    no way at all are remembered as leading nowhere. The estimate (``RetreatGround.to_edge``) never overestimates
    and is consistent; ties in the queue go to the placement nearer the edge, so in open ground a search runs
    straight to the edge instead of sweeping the cone of equally short paths.
    """
    work = work or Work(RETREAT_WORK, "placements")
    best_total, winners, expanded = _INF, frozenset(), 0
    known: dict[Hex, float] = {}
    for anchor, (g0, tags) in sorted(sources.items(), key=lambda item: (item[1][0], item[0])):
        total, count_ = _exit_cost(ground, anchor, g0, best_total, known, work)
        expanded += count_
        if total < best_total - 1e-9:
            best_total, winners = total, tags
        elif abs(total - best_total) <= 1e-9 and total < _INF:
            winners = winners | tags
    return best_total, winners, expanded


def _exit_cost(ground: RetreatGround, start: Hex, g0: float, bound: float, known: dict[Hex, float],
               work: Work) -> tuple[float, int]:
    """A* from ``start`` (``g0`` MP already paid) to beyond the friendly edge; inf if not within ``bound``.

    ``known`` holds exact costs to the edge from placements on earlier cheapest paths (inf: no way to the edge at
    all); it is extended here.
    """
    assert ground.edge is not None
    onward = ground.onward
    limit = bound + 1e-9
    best: dict[Hex, float] = {start: g0}
    parent: dict[Hex, Hex | None] = {start: None}
    tie = count()
    h0 = ground.to_edge(start)
    if h0 == _INF:
        return _INF, 0
    # Entries: (f, h, tie, g, placement, exit) where ``exit`` is the placement a goal entry leaves the map from.
    heap: list[tuple[float, float, int, float, Hex | None, Hex | None]] = [(g0 + h0, h0, next(tie), g0, start, None)]
    expanded = 0
    while heap:
        f, _, _, g, at, leaving = heapq.heappop(heap)
        if f > limit:
            break
        if at is None:  # the goal: beyond the friendly edge
            node = leaving
            while node is not None:  # sub-paths of a cheapest path are cheapest: remember them
                known.setdefault(node, g - best[node])
                node = parent[node]
            return g, expanded
        if g > best.get(at, _INF) + 1e-9:
            continue
        expanded += 1
        work.spend()
        if at in known:
            if known[at] < _INF:
                heapq.heappush(heap, (g + known[at], 0.0, next(tie), g + known[at], None, at))
            continue
        leaves, steps = onward(at)
        if leaves:
            heapq.heappush(heap, (g, 0.0, next(tie), g, None, at))  # leaving costs nothing
        for new_anchor, cost, new_h in steps:
            new_g = g + cost
            if new_g < best.get(new_anchor, _INF) - 1e-9:
                best[new_anchor] = new_g
                parent[new_anchor] = at
                heapq.heappush(heap, (new_g + new_h, new_h, next(tie), new_g, new_anchor, None))
    if bound == _INF:  # every way from here was tried: none of these placements leads to the edge
        for node in best:
            known[node] = _INF
    return _INF, expanded


@dataclass
class Candidate:
    """One way to make (part of) the retreat: the placements the unit passes, start excluded."""

    anchors: list[Hex]
    hexes: list[tuple[Hex, ...]]
    cost: float
    off_map: bool
    entered: list[Hex] = field(default_factory=list)
    cost_to_edge: float | None = None  # set by the ranking (11.4.2 priority 3)
    hits: int | None = None  # set by the formation-hit check (11.4.10)

    @property
    def length(self) -> int:
        return len(self.anchors)


def candidates(ground: RetreatGround, distance: int, away_from: tuple[Hex, ...] | None) -> list[Candidate]:
    """Every sequence of up to ``distance`` one-hex shifts the retreat may make (11.4.2 priority 1, 11.4.3).

    With ``away_from`` (a Morale Shaken retreat), each shift must end farther from the attacker than the last.
    A shift that leaves the map ends the retreat there (the unit is eliminated).
    """
    start = ground.unit.hexes[0]
    found: list[Candidate] = []

    def extend(anchor: Hex, path: Candidate, seen: set[Hex], stop: bool = False) -> None:
        if path.length:
            found.append(path)
        if path.length == distance or path.off_map or stop:
            return  # 11.4.3: a unit it may end with but not pass stops it where it meets it
        here = ground.hexes_at(anchor)
        for d in range(6):
            new_anchor, new_hexes, cost, off = ground.step(anchor, d, last=True)
            if new_anchor in seen or cost is None:
                continue
            if away_from and footprint_distance(new_hexes, away_from) <= footprint_distance(here, away_from):
                continue
            entered = [h for h in new_hexes if h not in here and not off]
            extend(new_anchor, Candidate(path.anchors + [new_anchor], path.hexes + [new_hexes], path.cost + cost, off,
                                         path.entered + entered), seen | {new_anchor}, bool(ground.partners(entered)))

    extend(start, Candidate([], [], 0.0, False), {start})
    return [c for c in found if c.off_map or all(ground.may_end(h) for h in c.hexes[-1])]


def _nearest_edge(scenario: Scenario, unit: Unit) -> tuple[MapEdge | None, list[MapEdge]]:
    edges = scenario.friendly_edges.get(unit.side, ())
    if not edges:
        return None, []
    steps = {e: min(scenario.hexmap.edge_steps(h, e) for h in unit.hexes) for e in edges}
    nearest = min(steps.values())
    tied = sorted((e for e in edges if steps[e] == nearest), key=lambda e: e.value)
    return tied[0], tied


def _toward_either(scenario: Scenario, params: Mapping[str, Any], unit: Unit, edges: list[MapEdge]) -> Ruling:
    """11.4.1 sends the unit toward *the* nearest friendly map edge and 11.4.2 ranks retreats toward it; the corpus
    does not say which when two are equally near. Both are offered: the retreats toward each edge, each ranked as
    11.4.2 ranks them toward that edge; where the two differ in verdict the answer is undetermined."""
    rulings = {e: retreat(replace(scenario, friendly_edges={**scenario.friendly_edges, unit.side: (e,)}), params)
               for e in edges}
    verdicts = {r.verdict for r in rulings.values()}
    names = [EDGE_NAMES[e] for e in edges]
    if len(verdicts) == 1:
        tie = passed("11.4.1", msg("{unit} is equally near the friendly map edges {edges}, and the corpus does not say "
                                   "toward which it retreats: the retreats toward each are offered, ranked by 11.4.2 "
                                   "toward that edge.", unit=unit_name(unit), edges=names))
        verdict = verdicts.pop()
    else:
        tie = unknown("11.4.1", msg("{unit} is equally near the friendly map edges {edges}, the corpus does not say "
                                    "toward which it retreats, and the answers differ by edge.",
                                    unit=unit_name(unit), edges=names))
        verdict = Verdict.UNDETERMINED
    findings: list[Finding] = [tie]
    for r in rulings.values():
        findings.extend(f for f in r.findings if f not in findings)
    return Ruling("retreat", verdict, tuple(findings), _by_edge(rulings))


def _by_edge(rulings: dict[MapEdge, Ruling]) -> dict[str, Any]:
    """The answer of a retreat toward either of two edges: what the retreats toward every edge agree on is the
    answer's own (the outcome, how far it retreats); the rest is given edge by edge: no edge's answer stands for
    the others (the first in some order would)."""
    results = [r.result for r in rulings.values()]
    answer = {k: v for k, v in results[0].items() if k not in ("edge", "destinations")
              and all(r.get(k) == v for r in results)}
    answer["edges_tied"] = [e.value for e in rulings]
    answer["interpretations"] = list(dict.fromkeys(
        ["retreat-edge-tie", *(i for r in results for i in r.get("interpretations", ()))]))
    answer["by_edge"] = {e.value: r.result for e, r in rulings.items()}
    answer["destinations"] = [{**d, "edge": e.value} for e, r in rulings.items() for d in r.result.get("destinations", [])]
    return answer


@decides(BOOK, "11.4.1", "11.4.4")
def retreat(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """11.4.1–11.4.5, 11.4.10: where a unit must retreat after a close combat result, or what befalls it if it cannot."""
    values = coerce("retreat", scenario, params)
    unit: Unit = values["unit"]
    result = CombatResult(values["result"])
    fought: tuple[Unit, ...] = values["fought"]
    answer: dict[str, Any] = {"unit": unit.id, "result": result.value, "fought": [u.id for u in fought]}
    refused = _no_retreat(unit, result, fought, answer)
    if refused is not None:
        return refused
    edge, tied_edges = _nearest_edge(scenario, unit)
    if len(tied_edges) > 1:
        return _toward_either(scenario, params, unit, tied_edges)
    findings: list[Finding] = []
    distance = _distance(unit, result, values["hexes"], findings)
    if distance is None:
        return Ruling("retreat", Verdict.UNDETERMINED, tuple(findings), answer)
    answer["distance"] = distance
    return _retreat_toward(scenario, unit, result, fought, edge, distance, findings, answer)


def _no_retreat(unit: Unit, result: CombatResult, fought: tuple[Unit, ...], answer: dict[str, Any]) -> Ruling | None:
    """11.4.1: nothing to retreat (off the map; eliminated: removed); 11.4.2: the units fought must be enemies."""
    who = unit_name(unit)
    if not unit.on_map:
        return Ruling("retreat", Verdict.NO, (failed("11.4.1", msg("{unit} is not on the map.", unit=who)),), answer)
    if result is CombatResult.ELIMINATED:
        answer.update({"outcome": "eliminated", "destinations": []})
        return Ruling("retreat", Verdict.YES, (passed("11.4.1", msg("{unit} is eliminated: it is removed from the map (cavalry may pursue, 11.7).", unit=who)),), answer)
    bad = [u.id for u in fought if u.side == unit.side or not u.on_map]
    if bad:
        return Ruling("retreat", Verdict.NO, (failed("11.4.2", msg("The units fought must be enemy units on the map: {units}.", units=bad)),), answer)
    return None


def _distance(unit: Unit, result: CombatResult, hexes: int | None, findings: list[Finding]) -> int | None:
    """11.4.1: Morale Broken retreats 2 hexes toward the nearest friendly edge; Morale Shaken 1 or 2 (the Close
    Combat Table says which) away from the attacker; no MP spent, no reaction."""
    who = unit_name(unit)
    if result is CombatResult.MORALE_BROKEN:
        distance = BROKEN_RETREAT_HEXES
        findings.append(passed("11.4.1", msg("Morale Broken: {unit} is marked Morale Broken and retreats 2 hexes toward the nearest friendly map edge.", unit=who)))
    else:
        if hexes is None:
            findings.append(unknown("11.4.1", msg("Morale Shaken: the Close Combat Table result says whether the retreat is 1 or 2 hexes; give the number of hexes."), field="params.hexes"))
            return None
        distance = hexes
        findings.append(passed("11.4.1", nmsg(
            "Morale Shaken: {unit} retreats {n} hex away from the attacker, keeping its formation and facing.",
            "Morale Shaken: {unit} retreats {n} hexes away from the attacker, keeping its formation and facing.",
            distance, unit=who)))
    findings.append(passed("11.4.1", msg("The retreat spends no movement points and triggers no reaction.")))
    return distance


def _retreat_toward(scenario: Scenario, unit: Unit, result: CombatResult, fought: tuple[Unit, ...],
                    edge: MapEdge | None, distance: int, findings: list[Finding], answer: dict[str, Any]) -> Ruling:
    """11.4.2–11.4.5, 11.4.10 toward one friendly edge (or none known): the retreats priority 1 and 11.4.3 allow,
    ranked by priorities 2 and 3, and what follows when none is of the full distance."""
    ground = RetreatGround(scenario, unit, fought, edge)
    findings.extend(_ground_answer(ground, answer))
    away = tuple(h for u in fought for h in u.hexes) if result is CombatResult.MORALE_SHAKEN else None
    options = candidates(ground, distance, away)
    longest = max((c.length if not c.off_map else distance for c in options), default=0)
    findings.append(_priority_one(scenario, unit, fought, ground, longest, distance))
    findings.extend(_two_hex_finding(unit, longest >= distance))
    findings.extend(_friends_in_the_way(scenario, unit, fought, edge, distance, away, longest))
    if longest == 0:
        findings.extend(_stacking_findings(scenario, unit, ground, []))
        findings.extend(_unable(scenario, unit, result, distance, 0, answer))
        return Ruling("retreat", _verdict(findings, False), tuple(findings), answer)
    full = [c for c in options if c.off_map or c.length == longest]
    chosen, ranking = _rank(ground, full, distance, Work(RETREAT_WORK, "placements"))
    findings.extend(ranking)
    if any(f.message.text.startswith("Priority 3: no route leads on") for f in ranking):
        name_in(answer, NO_WAY_TO_THE_EDGE)
    findings.extend(_stacking_findings(scenario, unit, ground, chosen))
    findings.extend(_hits_findings(scenario, unit, ground, chosen))
    answer["destinations"] = [_describe(scenario, ground, c) for c in chosen]
    answer["retreated"] = longest
    return _conclude(unit, result, chosen, distance, longest, findings, answer, scenario)


def _ground_answer(ground: RetreatGround, answer: dict[str, Any]) -> list[Finding]:
    """The hexes priority 1 forbids (those on the map: a label of a hex beyond the edge names nothing) and the
    friendly edge priorities 2 and 3 aim at (11.4.2), into ``answer``; a finding when the edge is not given."""
    scenario, unit = ground.scenario, ground.unit
    answer["excluded"] = scenario.labels(sorted((h for h in ground.near_fought - set(unit.hexes)
                                                 if h in scenario.hexmap), key=scenario.label))
    if ground.edge is None:
        return [unknown("11.4.2", msg("The friendly map edge of side {side} is not given.", side=unit.side), field="map.friendly_edges")]
    answer["edge"] = ground.edge.value
    return []


def _two_hex_finding(unit: Unit, in_full: bool) -> list[Finding]:
    """11.4.4: both halves of a two-hex unit retreat; it may not retreat by pivoting."""
    if not unit.is_two_hex:
        return []
    return [checked(
        "11.4.4", in_full,
        msg("Both halves of {unit} retreat together; it may not retreat by pivoting.", unit=unit_name(unit)),
        msg("Both halves of {unit} must retreat and it may not pivot: shifting both halves, it cannot retreat in full.", unit=unit_name(unit)),
    )]


def _conclude(unit: Unit, result: CombatResult, chosen: list[Candidate], distance: int, longest: int,
              findings: list[Finding], answer: dict[str, Any], scenario: Scenario) -> Ruling:
    """11.4.2 (off the map: eliminated) and 11.4.5 (short of the distance)."""
    if any(c.off_map for c in chosen):
        findings.append(passed("11.4.2", msg("The retreat leaves the map: {unit} is eliminated.", unit=unit_name(unit))))
        answer["outcome"] = "eliminated" if all(c.off_map for c in chosen) else "retreat-or-eliminated"
    else:
        answer["outcome"] = "retreat"
    if longest < distance:
        findings.extend(_unable(scenario, unit, result, distance, longest, answer))
        return Ruling("retreat", _verdict(findings, False), tuple(findings), answer)
    findings.append(passed("11.4.5", msg("{unit} can retreat the full distance: 11.4.5 does not apply.", unit=unit_name(unit))))
    return Ruling("retreat", _verdict(findings, True), tuple(findings), answer)


@decides(BOOK, "11.4.3")
def _friends_in_the_way(scenario, unit, fought, edge, distance, away, longest) -> list[Finding]:
    """11.4.3: when the retreat falls short, whether friendly units are what stops it, and which: those standing
    where a retreat that ignored friends would pass (guns or wagons allowed), or end (light infantry with cavalry
    allowed) — not units merely nearby."""
    if longest >= distance:
        # In full: the friends that stand where it might otherwise have gone are named, as avoided.
        avoided = _friends_refusing(scenario, unit, fought, edge, distance, away, lambda length: length >= distance)
        return [passed("11.4.3", msg("Friendly units {units} stand where the retreat might otherwise go; it may not be retreated onto or through them and avoids them.", units=avoided))] if avoided else []
    blockers = _friends_refusing(scenario, unit, fought, edge, distance, away, lambda length: length > longest)
    if not blockers:
        return []
    return [failed("11.4.3", msg("Friendly units {units} may not be retreated onto or through (only artillery and wagons may be passed through, and light infantry and cavalry may end a retreat together): they cut the retreat short.", units=blockers))]


def _friends_refusing(scenario, unit, fought, edge, distance, away, reaches) -> list[str]:
    """The friendly units that refuse the retreats a unit could make if friends did not count, of a length that
    ``reaches`` accepts: each in a hex such a retreat passes (and the friend may not be passed) or ends in (and
    may not be ended with)."""
    free = RetreatGround(scenario, unit, fought, edge, ignore_friends=True)
    strict = RetreatGround(scenario, unit, fought, edge)
    found: set[str] = set()
    for c in candidates(free, distance, away):
        if not reaches(distance if c.off_map else c.length):
            continue
        for i, hexes in enumerate(c.hexes):
            last = i == len(c.hexes) - 1 and not c.off_map
            found.update(u.id for h in hexes if h in scenario.hexmap and h not in unit.hexes
                         for u in strict.refusing(h, last))
    return sorted(found)


def _verdict(findings: list[Finding], in_full: bool) -> Verdict:
    if not in_full:
        return Verdict.NO
    return unless_undetermined(findings, Verdict.YES)


@decides(BOOK, "11.4.2")
def _priority_one(scenario, unit, fought, ground: RetreatGround, longest: int, distance: int) -> Finding:
    names = [u.id for u in fought]
    if longest >= distance:
        return passed("11.4.2", msg("Priority 1: the retreat enters no hex adjacent to {units}.", units=names))
    if ground.costs.missing:
        return unknown("11.4.2", msg("Movement costs not given (terrain/movement class): {pairs}.", pairs=sorted(ground.costs.missing)))
    return failed("11.4.2", nmsg(
        "Priority 1: avoiding hexes adjacent to {units}, enemy units and blocking friendly units, the unit can retreat only {n} hex.",
        "Priority 1: avoiding hexes adjacent to {units}, enemy units and blocking friendly units, the unit can retreat only {n} hexes.",
        longest, units=names))


def _rank(ground: RetreatGround, full: list[Candidate], distance: int,
          work: Work) -> tuple[list[Candidate], list[Finding]]:
    """11.4.2 priorities 2 and 3 over the candidates of the greatest length; when the search for the path of least
    resistance outgrows ``work``, priority 3 is undetermined and every retreat of priority 2 is listed."""
    findings: list[Finding] = []
    scenario = ground.scenario
    if ground.edge is None:
        chosen = sorted(full, key=lambda c: (c.cost, _key(scenario, c)))
        findings.append(unknown("11.4.2", msg("Without the friendly map edge, priorities 2 and 3 cannot rank the retreats.")))
        return chosen, findings
    start = ground.edge_steps(ground.unit.hexes)

    def progress(c: Candidate) -> int:
        return start - (0 if c.off_map and ground.crosses_friendly_edge(c.hexes[-1]) else ground.edge_steps(c.hexes[-1]))

    best = max(progress(c) for c in full)
    closest = [c for c in full if progress(c) == best]
    findings.append(passed("11.4.2", nmsg(
        "Priority 2: {k} of {total} retreats end {n} hex nearer the {edge} map edge, the most possible.",
        "Priority 2: {k} of {total} retreats end {n} hexes nearer the {edge} map edge, the most possible.",
        best, k=len(closest), total=len(full), edge=EDGE_NAMES[ground.edge])))

    return _least_resistance(ground, closest, work, findings)


def _least_resistance(ground: RetreatGround, closest: list[Candidate], work: Work,
                      findings: list[Finding]) -> tuple[list[Candidate], list[Finding]]:
    """11.4.2 priority 3: «путь наименьшего сопротивления, то есть путем, ведущим к дружественному краю карты,
    который стоит наименьшего числа пунктов движения» — of the retreats priority 2 kept, those whose way on to the
    friendly edge costs least."""
    scenario = ground.scenario
    sources: dict[Hex, tuple[float, frozenset[int]]] = {}
    exits: dict[int, float] = {}
    for i, c in enumerate(closest):
        if c.off_map:
            exits[i] = c.cost if ground.crosses_friendly_edge(c.hexes[-1]) else _INF
            continue
        g, tags = sources.get(c.anchors[-1], (_INF, frozenset()))
        if c.cost < g - 1e-9:
            sources[c.anchors[-1]] = (c.cost, frozenset({i}))
        elif abs(c.cost - g) <= 1e-9:
            sources[c.anchors[-1]] = (g, tags | {i})
    try:
        total, winners, _ = cheapest_exit(ground, sources, work) if sources else (_INF, frozenset(), 0)
    except TooLarge as exc:
        findings.append(unknown("11.4.2", msg("Priority 3: {why}", why=too_large(exc))))
        return sorted(closest, key=lambda c: (c.cost, _key(scenario, c))), findings
    for i, cost in exits.items():
        if cost < total - 1e-9:
            total, winners = cost, frozenset({i})
        elif abs(cost - total) <= 1e-9:
            winners = winners | {i}
    status = unknown if ground.costs.missing else passed
    if total == _INF:
        # Priority 3 ranks by the path to the friendly edge; with none it ranks nothing, and 11.4.2 leaves the
        # choice among the retreats of priority 2 to the owning player (no cheapest-first rule of our own).
        chosen = sorted(closest, key=lambda c: _key(scenario, c))
        findings.append(status("11.4.2", nmsg(
            "Priority 3: no route leads on to the friendly map edge, so it ranks nothing: {n} retreat is left (interpretation; the other reading would take the cheapest retreat hexes).",
            "Priority 3: no route leads on to the friendly map edge, so it ranks nothing: {n} retreats are left, the owning player chooses (interpretation; the other reading would take the cheapest retreat hexes).",
            len(chosen))))
        return chosen, findings
    chosen = sorted((closest[i] for i in winners), key=lambda c: _key(scenario, c))
    for c in chosen:
        c.cost_to_edge = total
    findings.append(status("11.4.2", nmsg(
        "Priority 3: the path of least resistance costs {cost} to the friendly map edge; {n} retreat takes it.",
        "Priority 3: the path of least resistance costs {cost} to the friendly map edge; {n} retreats take it (the owning player chooses).",
        len(chosen), cost=mp(total))))
    return chosen, findings


def _key(scenario: Scenario, c: Candidate) -> list[str]:
    """A retreat's path by the labels of its placements (a step off the map: "off-map", as in the answer's path)."""
    return [scenario.label(hs[0]) if hs[0] in scenario.hexmap else OFF_MAP for hs in c.hexes]


def _path_words(scenario: Scenario, c: Candidate) -> Message | str:
    """A retreat's path for a message: its hexes one after another, a step off the map said in words."""
    steps: list[Message | str] = [scenario.label(hs[0]) if hs[0] in scenario.hexmap else msg("off the map")
                                  for hs in c.hexes]
    words = steps[0]
    for step in steps[1:]:
        words = msg("{before} → {after}", before=words, after=step)
    return words


def _stacking_findings(scenario: Scenario, unit: Unit, ground: RetreatGround, chosen: list[Candidate]) -> list[Finding]:
    """11.4.3 as the chosen retreats meet it: guns passed (marked out of action), wagons passed, a light infantry or
    cavalry unit it is stacked with (they may retreat together), and the one it ends stacked with."""
    findings = []
    passed_through = {kind: sorted({u.id for c in chosen for h in c.entered for u in ground.friends(h)
                                    if u.type is kind}) for kind in _PASS_THROUGH}
    if passed_through[UnitType.ARTILLERY]:
        findings.append(passed("11.4.3", msg("The retreat may pass through friendly artillery {units}, which is then marked out of action.", units=passed_through[UnitType.ARTILLERY])))
    if passed_through[UnitType.WAGON]:
        findings.append(passed("11.4.3", msg("The retreat passes wagons {units} without effect.", units=passed_through[UnitType.WAGON])))
    partners = sorted({u.id for u in ground.partners(unit.hexes)})
    if partners:
        findings.append(passed("11.4.3", msg("{units} stacked with it may retreat together with it.", units=partners)))
    ends_with = sorted({u.id for c in chosen if not c.off_map for u in ground.partners(c.hexes[-1])})
    if ends_with:
        findings.append(passed("11.4.3", msg("{unit} ends its retreat stacked with {units}: light infantry may end a retreat with cavalry, and cavalry with light infantry.", unit=unit.id, units=ends_with)))
    return findings


@decides(BOOK, "11.4.10")
def _hits_findings(scenario: Scenario, unit: Unit, ground: RetreatGround, chosen: list[Candidate]) -> list[Finding]:
    """11.4.10: entering a hex that causes a formation hit causes one in a retreat too (the finding fails when the
    retreat costs formation hits; the retreat is still made)."""
    findings = []
    for c in chosen:
        hits, missing = ground.costs.hits_along(c.entered)
        c.hits = None if missing else hits
        if missing:
            findings.append(unknown("11.4.10", msg("The formation hits caused by entering {terrain} are not given.", terrain=missing), field="terrain_types.*.formation_hits"))
        elif hits:
            findings.append(failed("11.4.10", nmsg("Retreat by {path}: {n} formation hit on the way.",
                                                   "Retreat by {path}: {n} formation hits on the way.",
                                                   hits, path=_path_words(scenario, c))))
        else:
            findings.append(passed("11.4.10", msg("Retreat by {path}: no formation hit on the way.", path=_path_words(scenario, c))))
    return findings


def _describe(scenario: Scenario, ground: RetreatGround, c: Candidate) -> dict[str, Any]:
    return {
        "hexes": [] if c.off_map else scenario.labels(c.hexes[-1]),
        "path": [[scenario.hexmap.label(h) if h in scenario.hexmap else OFF_MAP for h in hs] for hs in c.hexes],
        "off_map": c.off_map,
        "cost": c.cost,
        "cost_to_edge": c.cost_to_edge,
        "formation_hits": c.hits,
        "through_artillery": sorted({u.id for h in c.entered for u in scenario.units_in(h)
                                     if u.side == ground.unit.side and u.type is UnitType.ARTILLERY}),
    }


@decides(BOOK, "11.4.5")
@undetermined_without(BOOK, "11.4.5", needs=msg("the rows of the Unable to Retreat Table the corpus does not give (tables.unable_to_retreat)"))
def _unable(scenario: Scenario, unit: Unit, result: CombatResult, distance: int, made: int, answer: dict[str, Any]) -> list[Finding]:
    """11.4.5: a unit that cannot retreat the full distance. «Если мораль подразделения в начале отступления …
    имеет уровень «потрясены»»: the morale the combat result gives (interpretation unable-to-retreat-by-result:
    Morale Shaken, casualty points; Morale Broken, the Unable to Retreat Table)."""
    short = distance - made
    answer["outcome"] = "unable-to-retreat"
    name_in(answer, "unable-to-retreat-by-result")
    answer["retreated"] = made
    if result is CombatResult.MORALE_SHAKEN:
        answer["casualty_points"] = short
        return [failed("11.4.5", nmsg(
            "{unit} was Morale Shaken at the start of its retreat and cannot retreat {n} of its hexes: it takes a casualty point for each ({n}).",
            "{unit} was Morale Shaken at the start of its retreat and cannot retreat {n} of its hexes: it takes a casualty point for each ({n}).",
            short, unit=unit.id))]
    findings = [failed("11.4.5", nmsg(
        "{unit} is Morale Broken and can retreat only {n} hex of 2: it retreats that far, then rolls on the Unable to Retreat Table.",
        "{unit} is Morale Broken and can retreat only {n} hexes of 2: it retreats that far, then rolls on the Unable to Retreat Table.",
        made, unit=unit.id))]
    rows = scenario.tables.unable_to_retreat_rows
    if not rows:
        findings.append(unknown("11.4.5", msg("The rows of the Unable to Retreat Table are not in the corpus (only its result \"Stands\" is); the scenario may supply them."), field="tables.unable_to_retreat.rows"))
        answer["unable_to_retreat"] = {"table": "unable_to_retreat", "rows_known": False}
        return findings
    modifier = sum(m.value for m in scenario.tables.unable_to_retreat_modifiers)
    outcomes: dict[str, int] = {}
    for roll in range(10):
        result_name = next((r for rng, r in rows if rng.low <= roll + modifier <= rng.high), None)
        outcomes[result_name or "?"] = outcomes.get(result_name or "?", 0) + 1
    stands = outcomes.get("stands", 0) / 10
    answer["unable_to_retreat"] = {"modifier": modifier, "outcomes": {k: v / 10 for k, v in sorted(outcomes.items())}, "stands": stands}
    findings.append(checked(
        "11.4.5", "?" not in outcomes,
        msg("Unable to Retreat Table: \"Stands\" (morale back to Morale Shaken, disordered: a free Rally) on {chance} of rolls.", chance=percent(stands)),
        msg("The Unable to Retreat Table rows given do not cover every roll."),
        msg("The Unable to Retreat Table rows given do not cover every roll."),
    ))
    if "?" in outcomes:
        findings[-1] = unknown("11.4.5", msg("The Unable to Retreat Table rows given do not cover every roll."))
    return findings


__all__ = ["retreat", "RetreatGround", "cheapest_exit", "candidates"]
