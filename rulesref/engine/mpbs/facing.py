"""Facing change (6.1, 6.2.1–6.2.4): what a change of facing costs this unit, and whether it draws reaction fire."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..hexgrid import Hex, adjacent_hexes, facing_steps, hex_neighbor, rotate_facing
from ..hexgrid import reason
from ..i18n import msg, nmsg
from ..ruling import Finding, InvalidScenarioError, Ruling, Status, Verdict, unless_undetermined, verdict_from
from ..coverage import decides, undetermined_without
from .clauses import BOOK, checked, failed, passed, unknown
from .describe import mp, unit_name
from .facing_rules import COUNTER_MARCH_COST, COUNTER_MARCH_VERTICES, WHEEL_BASE_COST, vertex_turn_cost, wheels
from .params import Heading, coerce
from .scenario import Scenario, Unit
from .terms import Morale, UnitType
from .terrain import UNKNOWN, TerrainCosts


@dataclass(frozen=True)
class Way:
    """One way to reach the new facing: how, for how many MP, ending on which hexes."""

    how: str  # "turn", "counter-march", "wheel", "instead-of-fire", "free"
    cost: float | None  # None: cannot be done
    hexes: tuple[Hex, ...]
    entered: tuple[Hex, ...] = ()
    pivot: Hex | None = None
    why_not: Any = None
    unknown: bool = False  # closed only for want of data (a terrain cost not given)


@decides(BOOK, "6.1")
def facing_cost(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """6.1, 6.2.1–6.2.4: the MP cost of changing this unit's facing to the vertex asked for."""
    values = coerce("facing-cost", scenario, params)
    unit: Unit = values["unit"]
    target: int = values["facing"]
    findings: list[Finding] = []
    if unit.facing is None and unit.column_heading is not None:
        return _column_turn(scenario, unit, params.get("facing"), findings)
    if isinstance(target, Heading):
        raise InvalidScenarioError([("params.facing", msg("{unit} faces a hex vertex (6.1): one of {vertices}", unit=unit.id, vertices=", ".join(scenario.hexmap.vertex_name(v) for v in range(6))))])
    result: dict[str, Any] = {"unit": unit.id, "to": scenario.hexmap.vertex_name(target)}
    early = _without_facing(unit, findings, result)
    if early is not None:
        return early
    result["from"] = scenario.hexmap.vertex_name(unit.facing)
    findings.append(passed("6.1", msg("{unit} faces the {vertex} vertex of its hex.", unit=unit_name(unit), vertex=result["from"])))
    steps = facing_steps(unit.facing, target)
    result["vertices"] = steps
    if steps == 0:
        findings.append(passed("6.2.1", msg("{unit} already faces that vertex: nothing to pay.", unit=unit_name(unit))))
        result.update({"cost": 0, "ways": []})
        return Ruling("facing-cost", Verdict.YES, tuple(findings), result)
    ways, closed = _ways(scenario, unit, target, values["pivot"], steps, findings, result)
    possible = [w for w in ways if w.cost is not None]
    result["ways"] = [_way_dict(scenario, w) for w in ways]
    if possible:
        _cheapest(scenario, unit, possible, findings, result)
        # The player chooses the way (class 4): one that is closed does not forbid the change another makes.
        verdict = verdict_from(f for f in findings if f not in closed)
    else:
        verdict = unless_undetermined(closed, Verdict.NO)
    # 6.2.4 does not forbid the change; its finding fails when the change draws reaction fire.
    findings.append(_reaction_fire(scenario, unit, possible, result))
    return Ruling("facing-cost", verdict, tuple(findings), result)


def _without_facing(unit: Unit, findings: list[Finding], result: dict[str, Any]) -> Ruling | None:
    """6.2.3: a limbered gun has no facing and is turned free; 6.1: leaders, wagons and Morale Broken units have
    none to change."""
    who = unit_name(unit)
    if unit.type is UnitType.ARTILLERY and unit.limbered:
        findings.append(passed("6.2.3", msg("{unit} is limbered: it has no facing and may be turned to face any way free of cost.", unit=who)))
        result.update({"cost": 0, "ways": [{"how": "free", "cost": 0}]})
        return Ruling("facing-cost", Verdict.YES, tuple(findings), result)
    if not unit.has_facing:
        reason = msg("it is Morale Broken") if unit.morale is Morale.BROKEN else msg("leaders and wagons have none")
        findings.append(failed("6.1", msg("{unit} has no facing to change ({reason}).", unit=who, reason=reason)))
        return Ruling("facing-cost", Verdict.NO, tuple(findings), result)
    return None


def _ways(scenario: Scenario, unit: Unit, target: int, pivot: Hex | None, steps: int, findings: list[Finding],
          result: dict[str, Any]) -> tuple[list[Way], list[Finding]]:
    """Every way to the new facing (6.2.1 turns or wheels, 6.2.2 the Counter March, 6.2.3 for guns), and the
    findings of the ways that are closed."""
    before = len(findings)
    if unit.type is UnitType.ARTILLERY:
        ways = [_artillery(unit, findings)]
        # 6.2.3: the turn is made instead of firing, and the counter is then flipped to its "Fired" side.
        result["instead_of_fire"] = True
        result["becomes_fired"] = not unit.fired
    elif unit.is_two_hex and wheels(unit):
        ways = _wheels(scenario, unit, target, pivot, findings)
    else:
        ways = _turns(unit, steps, findings)
    closed = [f for f in findings[before:] if f.status is not Status.PASS]
    if steps == COUNTER_MARCH_VERTICES and unit.type is not UnitType.ARTILLERY:
        ways.append(Way("counter-march", COUNTER_MARCH_COST, unit.hexes[::-1] if unit.is_two_hex else unit.hexes))
        findings.append(passed("6.2.2", msg("A counter march turns {unit} about (180 degrees) for 2 MP.", unit=unit_name(unit))))
    return ways, closed


def _cheapest(scenario: Scenario, unit: Unit, possible: list[Way], findings: list[Finding],
              result: dict[str, Any]) -> None:
    """The cheapest way's cost, and whether the MP left pay it; where the unit then stands when every cheapest way
    leaves it on the same hexes (else the ways list the player's choices)."""
    cost = min(w.cost for w in possible)
    cheapest = [w for w in possible if w.cost == cost]
    best = min(cheapest, key=lambda w: w.how)
    result["cost"] = cost
    places = {tuple(sorted(w.hexes)) for w in cheapest}
    result["hexes"] = scenario.labels(best.hexes) if len(places) == 1 else None
    findings.append(_affordable(unit, best))
    result["mp_available"] = unit.movement_left


@decides(BOOK, "6.2.1")
def _column_turn(scenario: Scenario, unit: Unit, name: Any, findings: list[Finding]) -> Ruling:
    """6.2.1 «Тяжелая пехота в построении «колонна» платит 2 ПД за поворот на один угол гекса»: the cost of a
    column's turn is decided, and whether the MP left pay it, though where its two hexes then lie (6.3.4) is not
    in the corpus (class 6: a partial answer). The turn asked for is the column's new heading (a direction)."""
    result: dict[str, Any] = {"unit": unit.id}
    per_vertex = vertex_turn_cost(unit)
    where = unknown("6.1", msg("A two-hex unit in column does not face a vertex (6.3.4, not in the corpus); heavy infantry in column pays 2 MP per vertex turned (6.2.1)."))
    if per_vertex is None:
        return Ruling("facing-cost", Verdict.UNDETERMINED, (*findings, where), result)
    try:
        heading = scenario.hexmap.parse_direction(str(name))
    except ValueError as exc:
        raise InvalidScenarioError([("params.facing", msg("a column turns its head to a direction: {error}", error=reason(exc)))]) from None
    steps = facing_steps(unit.column_heading, heading)
    cost = steps * per_vertex
    result.update({"heading_from": scenario.hexmap.direction_name(unit.column_heading),
                   "heading_to": scenario.hexmap.direction_name(heading), "vertices": steps, "cost": cost,
                   "mp_available": unit.movement_left})
    findings.append(passed("6.2.1", nmsg(
        "{unit} pays {per} per vertex: {n} vertex costs {cost}.",
        "{unit} pays {per} per vertex: {n} vertices cost {cost}.",
        steps, unit=unit_name(unit), per=mp(per_vertex), cost=mp(cost))))
    affordable = _affordable(unit, Way("turn", cost, unit.hexes))
    findings.extend((affordable, where))
    verdict = Verdict.NO if affordable.status is Status.FAIL else Verdict.UNDETERMINED
    return Ruling("facing-cost", verdict, tuple(findings), result)


@decides(BOOK, "6.2.1")
@undetermined_without(BOOK, "6.2.1", needs=msg("the facing cost of a unit type 6.2.1 does not list (units[].type)"))
def _turns(unit: Unit, steps: int, findings: list[Finding]) -> list[Way]:
    """6.2.1: cavalry and light infantry 1 MP per vertex, one-hex heavy infantry (or heavy infantry in column) 2 MP."""
    per_vertex = vertex_turn_cost(unit)
    if per_vertex is None:
        findings.append(unknown("6.2.1", msg("6.2.1 gives no facing cost for {unit}.", unit=unit_name(unit))))
        return []
    cost = steps * per_vertex
    findings.append(passed("6.2.1", nmsg(
        "{unit} pays {per} per vertex: {n} vertex costs {cost}.",
        "{unit} pays {per} per vertex: {n} vertices cost {cost}.",
        steps, unit=unit_name(unit), per=mp(per_vertex), cost=mp(cost))))
    return [Way("turn", cost, unit.hexes)]


@decides(BOOK, "6.2.3")
def _artillery(unit: Unit, findings: list[Finding]) -> Way:
    """6.2.3: artillery not on its "Fired" side may turn to any vertex instead of firing, then flips to "Fired"."""
    if unit.fired:
        findings.append(failed("6.2.3", msg("{unit} is on its \"Fired\" side: it cannot change facing now.", unit=unit_name(unit))))
        return Way("instead-of-fire", None, unit.hexes, why_not="fired")
    findings.append(passed("6.2.3", msg("{unit} may face any vertex instead of firing (normal or reaction fire); it is then flipped to its \"Fired\" side.", unit=unit_name(unit))))
    return Way("instead-of-fire", 0, unit.hexes)


def _wheels(scenario: Scenario, unit: Unit, target: int, pivot: Hex | None, findings: list[Finding]) -> list[Way]:
    """6.2.1: a two-hex unit wheels forward, one half pivoting on the other; each wheel costs 1 MP plus the terrain
    the moving half enters. It may not wheel backward. Wheeling around its first hex turns it one way, around its
    second hex the other way."""
    costs = TerrainCosts(scenario, unit.movement_class)
    turn = (target - unit.facing) % 6
    pivots = {unit.hexes[0]: -1, unit.hexes[1]: +1}
    if pivot is not None and pivot not in pivots:
        findings.append(failed("6.2.1", msg("{hex} is not a hex of {unit}: the pivot is one of its halves.", hex=scenario.label(pivot), unit=unit.id)))
        return []
    ways = []
    for stay, sense in pivots.items():
        if pivot is not None and stay != pivot:
            continue
        wheels_needed = turn if sense > 0 else (6 - turn) % 6
        ways.append(_wheel_sequence(scenario, unit, costs, stay, sense, wheels_needed))
    for way in ways:
        if way.cost is None:
            closed = unknown if way.unknown else failed
            findings.append(closed("6.2.1", msg("Wheeling on {pivot}: {why}.", pivot=scenario.label(way.pivot), why=way.why_not)))
        else:
            findings.append(passed("6.2.1", nmsg(
                "Wheeling on {pivot}: {n} wheel, 1 MP each plus the terrain entered, costs {cost}.",
                "Wheeling on {pivot}: {n} wheels, 1 MP each plus the terrain entered, cost {cost}.",
                len(way.entered), pivot=scenario.label(way.pivot), cost=mp(way.cost))))
    return ways


def _wheel_sequence(scenario: Scenario, unit: Unit, costs: TerrainCosts, stay: Hex, sense: int, count: int) -> Way:
    hexes, facing, total, entered = unit.hexes, unit.facing, 0.0, []
    for _ in range(count):
        a, b = hexes
        front = hex_neighbor(a, facing + 1)  # the front hex both halves share: the moving half goes there
        c = costs.cost(front)
        if front not in scenario.hexmap:
            return Way("wheel", None, hexes, tuple(entered), stay, msg("{hex} is off the map", hex=scenario.label(front)))
        if c is UNKNOWN:
            return Way("wheel", None, hexes, tuple(entered), stay, msg("the movement cost of {terrain} is not given", terrain=scenario.terrain_at(front)), True)
        if c is None:
            return Way("wheel", None, hexes, tuple(entered), stay, msg("{hex} cannot be entered", hex=scenario.label(front)))
        blockers = [o.id for o in scenario.units_in(front) if o.id != unit.id and o.type is not UnitType.LEADER]
        if blockers:
            return Way("wheel", None, hexes, tuple(entered), stay, msg("{hex} holds {units}", hex=scenario.label(front), units=blockers))
        total += WHEEL_BASE_COST + c  # type: ignore[operator]
        entered.append(front)
        hexes = (a, front) if sense < 0 else (front, b)
        facing = rotate_facing(facing, sense)
    return Way("wheel", total, hexes, tuple(entered), stay)


@decides(BOOK, "6.2.2")
def _affordable(unit: Unit, best: Way) -> Finding:
    """6.2.1 (6.2.2 for a counter march): facing changes are paid in movement points."""
    left = unit.movement_left
    clause = {"counter-march": "6.2.2", "instead-of-fire": "6.2.3"}.get(best.how, "6.2.1")
    return checked(
        clause, None if left is None else best.cost <= left,
        msg("{unit} has {left} left, enough for {cost}.", unit=unit.id, left=mp(left or 0), cost=mp(best.cost)),
        msg("{unit} has only {left} left, less than {cost}.", unit=unit.id, left=mp(left or 0), cost=mp(best.cost)),
        msg("The movement allowance of {unit} is not given.", unit=unit.id), field="units[].movement.allowance",
    )


@decides(BOOK, "6.2.4")
def _reaction_fire(scenario: Scenario, unit: Unit, ways: list[Way], result: dict[str, Any]) -> Finding:
    """6.2.4: changing facing while adjacent to an enemy unit triggers reaction fire (9.4).

    The finding fails when the change draws reaction fire; that does not make the change illegal."""
    places = {unit.hexes} | {w.hexes for w in ways}
    adjacent = sorted({e.id for e in scenario.enemies_of(unit) for hexes in places
                       if any(h in adjacent_hexes(hexes) for h in e.hexes)})
    result["reaction_fire"] = bool(adjacent)
    result["reaction_fire_by"] = adjacent
    if adjacent:
        return failed("6.2.4", msg("{unit} is adjacent to enemy {enemies}: the facing change triggers reaction fire (9.4).", unit=unit.id, enemies=adjacent))
    return passed("6.2.4", msg("{unit} is adjacent to no enemy unit: no reaction fire.", unit=unit.id))


def _way_dict(scenario: Scenario, way: Way) -> dict[str, Any]:
    data: dict[str, Any] = {"how": way.how, "cost": way.cost, "hexes": scenario.labels(way.hexes)}
    if way.entered:
        data["entered"] = scenario.labels(way.entered)
    if way.pivot is not None:
        data["pivot"] = scenario.label(way.pivot)
    return data
