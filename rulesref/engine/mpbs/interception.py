"""Interception (9.3): may an inactive cavalry unit intercept a moving enemy, by which path, with what chance."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..hexgrid import Hex, Sector, footprint_distance, sector_of
from ..i18n import msg, nmsg
from ..ruling import Finding, Ruling, Status, verdict_from
from .clauses import BOOK, TERRAIN_HITS, checked, failed, passed, unknown
from .describe import entered_hexes, hexes_count, mp, percent, placement_dict, steps_dict, unit_name, where
from .movement import Move, Mover, Placement, SearchResult, placement_of, search
from .params import coerce
from .scenario import Scenario, Unit
from .tables import success_rolls
from .terms import ACTION_NAMES, ORDER_NAMES, Action, FormationState, UnitType
from .terrain import TerrainCosts, line_of_sight
from ..work import TooLarge, Work, too_large
from ..coverage import decides, undetermined_without

INTERCEPTION_RANGE = 4  # 9.3.1a: within four hexes
# Placements the path searches of one question may expand: within four hexes, each hex entered closer, a path
# search expands a few dozen; four searches explain a failure (bench/engine_mpbs.py: the worst case).
INTERCEPTION_WORK = 5_000


@dataclass(frozen=True)
class Route:
    """The outcome of the interception path search (9.3.3) under one set of restrictions."""

    result: SearchResult | None
    end: Placement | None
    cost: float | None
    through_friendly_artillery: tuple[str, ...]
    missing_costs: tuple[str, ...]


def _may_enter(scenario: Scenario, unit: Unit, *, enemy_artillery: bool, dead_zones: frozenset[Hex]):
    """9.3.7: through friendly artillery, never through enemy artillery; never an enemy or other friendly unit."""

    def may_enter(h: Hex) -> bool:
        if h not in scenario.hexmap or h in dead_zones:
            return False
        for other in scenario.units_in(h):
            if other.id == unit.id or (other.side == unit.side and other.type is UnitType.LEADER):
                continue
            if other.type is UnitType.ARTILLERY and (other.side == unit.side or enemy_artillery):
                continue
            return False
        return True

    return may_enter


def interception_route(
    scenario: Scenario, unit: Unit, target: Unit, *, budget: float | None, enemy_artillery: bool = False,
    avoid_dead_zones: bool = True, work: Work | None = None,
) -> Route:
    """9.3.3: the cheapest path to a hex adjacent to ``target``, each hex entered one hex closer to it.

    Facing changes on the way are paid (6.2.1). The path may pass friendly artillery but not end on it (9.3.7).
    Every hex entered is closer, so from within four hexes (9.3.1a) the path enters at most three; the placements
    expanded are spent from ``work``.
    """
    dead = scenario.dead_zones if (avoid_dead_zones and scenario.dead_zones) else frozenset()
    mover = Mover(scenario, unit, _may_enter(scenario, unit, enemy_artillery=enemy_artillery, dead_zones=dead))
    if not mover.supported:
        return Route(None, None, None, (), ())
    goal_hexes = target.hexes
    distances: dict[tuple[Hex, ...], int] = {}

    def distance(hexes: tuple[Hex, ...]) -> int:
        try:
            return distances[hexes]
        except KeyError:
            d = distances[hexes] = footprint_distance(hexes, goal_hexes)
            return d

    def closer(at: Placement, move: Move) -> bool:
        return not move.entered or distance(move.to.hexes) == distance(at.hexes) - 1

    def is_goal(at: Placement) -> bool:
        return distance(at.hexes) == 1 and not any(
            o.type is UnitType.ARTILLERY and o.id != unit.id for h in at.hexes for o in scenario.units_in(h)
        )

    cheapest = mover.costs.cheapest
    result = search(mover, placement_of(unit), budget, closer, is_goal,
                    estimate=lambda at: (distance(at.hexes) - 1) * cheapest, work=work)
    if not result.goals:
        return Route(result, None, None, (), tuple(sorted(mover.costs.missing)))
    end = min(result.goals, key=lambda p: (result.cost[p], scenario.labels(p.hexes)))
    passed_artillery = sorted(
        {o.id for h in entered_hexes(result.path(end)) for o in scenario.units_in(h) if o.type is UnitType.ARTILLERY}
    )
    return Route(result, end, result.cost[end], tuple(passed_artillery), tuple(sorted(mover.costs.missing)))


def _params(scenario: Scenario, params: Mapping[str, Any], question: str) -> tuple[Unit, Unit | None]:
    values = coerce(question, scenario, params)
    target = values["target"] or scenario.event_unit()
    return values["unit"], target


@decides(BOOK, "9.3.1", "9.3.1c", "9.3.1f")
def eligibility(scenario: Scenario, cavalry: Unit, target: Unit | None) -> tuple[list[Finding], dict[str, Any]]:
    """9.3.1 a–g, 9.3.3 and 9.3.7, each as its own finding, and what was found (path, cost, line of sight)."""
    findings: list[Finding] = []
    result: dict[str, Any] = {"unit": cavalry.id, "target": target.id if target else None}
    event = scenario.moment.event
    active = scenario.moment.active_side
    who = unit_name(cavalry)

    # 9.3.1: an inactive cavalry unit, on the map, against an active enemy unit.
    if target is None or event is None:
        findings.append(unknown("9.3.1", msg("The scenario names no triggering event (moment.event): there is no moving unit to intercept.")))
        return findings, result
    findings.append(checked(
        "9.3.1", cavalry.type is UnitType.CAVALRY and cavalry.on_map,
        msg("{unit} is a cavalry unit on the map.", unit=who),
        msg("{unit} is not a cavalry unit on the map: only cavalry may intercept.", unit=who),
    ))
    inactive = None if active is None else cavalry.side != active
    findings.append(checked(
        "9.3.1", inactive,
        msg("{unit} belongs to the inactive side.", unit=who),
        msg("{unit} belongs to the active side: only inactive cavalry may intercept.", unit=who),
        msg("The scenario does not say which side is active (moment.active_side)."),
    ))
    findings.append(checked(
        "9.3.1", target.side != cavalry.side and target.id == event.unit and target.on_map,
        msg("{target} is the moving enemy unit.", target=unit_name(target)),
        msg("{target} is not the enemy unit of the triggering event ({event}).", target=unit_name(target), event=event.unit),
    ))
    if event.action is Action.INTERCEPTION:
        findings.append(failed("9.3.2", msg("A cavalry unit may not intercept an interception.")))
    if not (cavalry.on_map and target.on_map and target.side != cavalry.side):
        return findings, result

    distance = footprint_distance(cavalry.hexes, target.hexes)
    result["distance"] = distance
    in_range = distance <= INTERCEPTION_RANGE
    findings.append(_trigger_action(event.action, event.movement_trigger, target))
    findings.append(checked(
        "9.3.1a", in_range,
        msg("{target} spends movement points {distance} from {unit} (at most four hexes).",
            target=target.id, distance=hexes_count(distance), unit=cavalry.id),
        msg("{target} is {distance} from {unit}: more than four hexes.",
            target=target.id, distance=hexes_count(distance), unit=cavalry.id),
    ))
    findings.append(_sector_finding(scenario, cavalry, target))
    findings.append(checked(
        "9.3.1c", cavalry.formation_state is not FormationState.DISORDERED,
        msg("{unit} is not disordered.", unit=who),
        msg("{unit} is disordered.", unit=who),
    ))
    findings.append(_sight_finding(scenario, cavalry, target, result))
    # Beyond four hexes 9.3.1a has decided: no path is sought (none of an interception is longer, 9.3.3).
    if in_range:
        try:
            findings.extend(_route_findings(scenario, cavalry, target, result, Work(INTERCEPTION_WORK, "placements")))
        except TooLarge as exc:
            findings.append(unknown("9.3.3", too_large(exc)))
    findings.extend(_attempt_findings(scenario, cavalry, who))
    findings.append(_allowance_finding(cavalry, target))
    return findings, result


def _attempt_findings(scenario: Scenario, cavalry: Unit, who: Any) -> list[Finding]:
    """9.3.1f: one attempt per enemy activation; the note of 9.3.1: an extended activation counts as a new one, so
    an attempt made before the extension does not count."""
    if cavalry.interception_attempted:
        return [failed("9.3.1f", msg("{unit} has already tried to intercept during this enemy activation (Interception Done marker).", unit=who))]
    if cavalry.interception_attempted_before_extension:
        if scenario.moment.extended_activation:
            return [
                passed("9.3.1", msg("The enemy wing's activation has been extended, which counts as a new activation: the attempt {unit} made before the extension does not count.", unit=who), term="Продление активации"),
                passed("9.3.1f", msg("{unit} has not yet tried to intercept during this (extended) enemy activation.", unit=who)),
            ]
        return [failed("9.3.1f", msg("{unit} tried to intercept before the activation was extended, but the scenario does not say it has been (moment.extended_activation): it is the same activation.", unit=who))]
    return [passed("9.3.1f", msg("{unit} has not yet tried to intercept during this enemy activation.", unit=who))]


@decides(BOOK, "9.3.1a")
def _trigger_action(action: Action, declared: bool | None, target: Unit) -> Finding:
    """9.3.1a: the enemy performs one of the movement triggers of 9.1.3 (its first two items)."""
    if declared is not None:
        is_trigger = declared
    elif action is Action.MOVE:
        is_trigger = True  # 9.3.1a itself calls them the triggers "concerning movement"
    elif action in (Action.FIRE, Action.RETREAT, Action.OTHER, Action.INTERCEPTION):
        is_trigger = False
    else:
        is_trigger = None
    return checked(
        "9.3.1a", is_trigger,
        msg("{target} {action}: a movement trigger.", target=target.id, action=ACTION_NAMES[action]),
        msg("{target} {action}: not a movement trigger.", target=target.id, action=ACTION_NAMES[action]),
        msg("Whether \"{action}\" is one of the movement triggers of 9.1.3 is not in the corpus; "
            "set moment.event.movement_trigger.", action=ACTION_NAMES[action]),
    )


@decides(BOOK, "9.3.1b")
def _sector_finding(scenario: Scenario, cavalry: Unit, target: Unit) -> Finding:
    """9.3.1b: the enemy is in the cavalry's front or flank sectors (docs/geometry-hex.md)."""
    if cavalry.facing is None:
        return unknown("9.3.1b", msg("{unit} has no vertex facing to trace its sectors from.", unit=cavalry.id))
    sectors = {sector_of(cavalry.hexes, cavalry.facing, h) for h in target.hexes}
    ok = bool(sectors & {Sector.FRONT, Sector.FLANK})
    return checked(
        "9.3.1b", ok,
        msg("{target} is in the front or flank sectors of {unit}.", target=target.id, unit=cavalry.id),
        msg("{target} is in the rear sector of {unit}.", target=target.id, unit=cavalry.id),
    )


@decides(BOOK, "9.3.1d")
def _sight_finding(scenario: Scenario, cavalry: Unit, target: Unit, result: dict[str, Any]) -> Finding:
    """9.3.1d: a clear line of sight from the cavalry to the moving unit."""
    los, line = _best_line(scenario, cavalry, target)
    result["line_of_sight"] = scenario.labels(line)
    return checked(
        "9.3.1d", los,
        msg("{unit} has a clear line of sight to {target}.", unit=cavalry.id, target=target.id),
        msg("The line of sight from {unit} to {target} is blocked.", unit=cavalry.id, target=target.id),
        msg("Whether the line of sight from {unit} to {target} is clear depends on terrain the scenario does not "
            "describe (blocks_los).", unit=cavalry.id, target=target.id),
    )


@decides(BOOK, "9.3.3", "9.3.7")
@undetermined_without(BOOK, "9.3.1d", needs=msg("the dead-zone hexes of 10.9.3b, not in the corpus (map.dead_zones)"))
@undetermined_without(BOOK, "9.3.3", needs=msg("the movement costs of the terrain crossed, from the Terrain Effects Chart, not in the corpus (terrain_types.*.cost)"))
def _route_findings(scenario: Scenario, cavalry: Unit, target: Unit, result: dict[str, Any], work: Work) -> list[Finding]:
    """9.3.1d (route clear of dead zones), 9.3.3 (path), 9.3.1e (MP, formation hits), 9.3.7."""
    findings: list[Finding] = []
    available = cavalry.movement_left
    # First the route as the rules allow it (within the MP left, clear of dead zones); the other searches only
    # explain a failure.
    route = interception_route(scenario, cavalry, target, budget=available, work=work)
    if route.result is None:
        findings.append(unknown("9.3.3", msg("The movement of a two-hex unit in column (6.3.4) is not in the corpus.")))
        return findings
    if route.end is None:
        route = _explain_no_route(scenario, cavalry, target, findings, work)
        if route is None:
            return findings
    else:
        findings.append(passed("9.3.3", msg("A path reaches a hex adjacent to {target}, each hex entered one hex closer.", target=target.id)))
        if scenario.dead_zones is None:
            findings.append(unknown("9.3.1d", msg("The dead-zone hexes (10.9.3b, not in the corpus) are not given (map.dead_zones).")))
        else:
            findings.append(passed("9.3.1d", msg("A path to {target} avoids the dead zones.", target=target.id)))

    steps = route.result.path(route.end)
    result.update({
        "path": [placement_dict(scenario, at) for at, _ in steps],
        "steps": steps_dict(scenario, steps),
        "cost": route.cost,
        "mp_available": available,
        "end": placement_dict(scenario, route.end),
    })
    if target.facing is not None:
        # 9.3 example: "attacking it from the rear": the sector of the target the cavalry ends in.
        sectors = {sector_of(target.hexes, target.facing, h) for h in route.end.hexes} - {None}
        result["attacks_from"] = min(sectors, key=lambda s: list(Sector).index(s)) if sectors else None
    if available is None:
        findings.append(unknown("9.3.1e", msg("The movement allowance of {unit} is not given.", unit=cavalry.id)))
    else:
        enough = route.cost <= available
        findings.append(checked(
            "9.3.1e", enough or (None if route.missing_costs else False),
            msg("{unit} needs {cost} to reach {hex} and has {left}.", unit=cavalry.id, cost=mp(route.cost),
                hex=where(scenario, route.end.hexes), left=mp(available)),
            msg("{unit} needs {cost} to reach {hex} but has only {left}.", unit=cavalry.id, cost=mp(route.cost),
                hex=where(scenario, route.end.hexes), left=mp(available)),
            _missing_costs(route.missing_costs),
        ))
    findings.append(_hits_finding(scenario, cavalry, entered_hexes(steps)))
    result["momentum_lost"] = bool(route.through_friendly_artillery)
    if route.through_friendly_artillery:
        findings.append(passed("9.3.7", msg("The path passes friendly artillery ({units}): allowed, but the cavalry loses its momentum.", units=list(route.through_friendly_artillery))))
    else:
        findings.append(passed("9.3.7", msg("The path passes no artillery.")))
    return findings


def _explain_no_route(scenario: Scenario, cavalry: Unit, target: Unit, findings: list[Finding],
                      work: Work) -> Route | None:
    """No path within the MP left and clear of dead zones: say which rule stops it (9.3.3, 9.3.7, 9.3.1d), and
    return the cheapest path regardless of MP (for 9.3.1e to report), or None."""
    anywhere = interception_route(scenario, cavalry, target, budget=None, avoid_dead_zones=False, work=work)
    if anywhere.end is None:
        via_enemy_guns = interception_route(scenario, cavalry, target, budget=None, avoid_dead_zones=False,
                                            enemy_artillery=True, work=work)
        if via_enemy_guns.end is not None:
            findings.append(failed("9.3.7", msg("The only paths pass through enemy artillery: cavalry may not intercept through it.")))
        elif anywhere.missing_costs:
            findings.append(unknown("9.3.3", _missing_costs(anywhere.missing_costs)))
        else:
            findings.append(failed("9.3.3", msg("No path reaches a hex adjacent to {target} with every hex entered one hex closer to it.", target=target.id)))
        return None
    findings.append(passed("9.3.3", msg("A path reaches a hex adjacent to {target}, each hex entered one hex closer.", target=target.id)))
    if scenario.dead_zones is None:
        findings.append(unknown("9.3.1d", msg("The dead-zone hexes (10.9.3b, not in the corpus) are not given (map.dead_zones).")))
        return anywhere
    clear = interception_route(scenario, cavalry, target, budget=None, work=work)
    findings.append(checked(
        "9.3.1d", clear.end is not None,
        msg("A path to {target} avoids the dead zones.", target=target.id),
        msg("Every path to {target} crosses a dead zone (10.9.3b).", target=target.id),
    ))
    return clear if clear.end is not None else None


def _best_line(scenario: Scenario, cavalry: Unit, target: Unit) -> tuple[bool | None, list[Hex]]:
    """The clearest line between any hex of the cavalry and any hex of the target (two-hex units have two)."""
    best: tuple[bool | None, list[Hex]] | None = None
    rank = {True: 0, None: 1, False: 2}
    for a in cavalry.hexes:
        for b in target.hexes:
            candidate = line_of_sight(scenario, a, b)
            if best is None or rank[candidate[0]] < rank[best[0]]:
                best = candidate
    return best  # type: ignore[return-value]


@decides(BOOK, "9.3.1e")
@undetermined_without(BOOK, "9.3.1e", needs=TERRAIN_HITS)
def _hits_finding(scenario: Scenario, cavalry: Unit, entered: list[Hex]) -> Finding:
    hits, unknown_terrain = TerrainCosts(scenario, cavalry.movement_class).hits_along(entered)
    if unknown_terrain:
        return unknown("9.3.1e", msg("The formation hits caused by entering {terrain} (formation-hit causes) are not given.", terrain=unknown_terrain))
    if hits == 0:
        return passed("9.3.1e", msg("The path causes no formation hit."))
    if cavalry.hits_before_disorder is None:
        return unknown("9.3.1e", nmsg(
            "The path causes {n} formation hit; how many {unit} can take (formation.hits_before_disorder) is not given.",
            "The path causes {n} formation hits; how many {unit} can take (formation.hits_before_disorder) is not given.",
            hits, unit=cavalry.id))
    m = cavalry.hits_before_disorder
    return checked(
        "9.3.1e", hits <= m,
        nmsg("The path causes {n} formation hit; {unit} can take {m} without becoming disordered.",
             "The path causes {n} formation hits; {unit} can take {m} without becoming disordered.", hits, unit=cavalry.id, m=m),
        nmsg("The path causes {n} formation hit; {unit} can take only {m} without becoming disordered.",
             "The path causes {n} formation hits; {unit} can take only {m} without becoming disordered.", hits, unit=cavalry.id, m=m),
    )


def _missing_costs(missing: tuple[str, ...]):
    return msg("Movement costs not given (terrain/movement class): {pairs}.", pairs=list(missing))


@decides(BOOK, "9.3.1g")
def _allowance_finding(cavalry: Unit, target: Unit) -> Finding:
    """9.3.1g: the cavalry's movement allowance (after formation hits) is the same or greater than the enemy's."""
    a, b = cavalry.movement_allowance, target.movement_allowance
    return checked(
        "9.3.1g", None if a is None or b is None else a >= b,
        msg("Movement allowance {a} of {unit} is not less than {b} of {target}.", a=a, unit=cavalry.id, b=b, target=target.id),
        msg("Movement allowance {a} of {unit} is less than {b} of {target}.", a=a, unit=cavalry.id, b=b, target=target.id),
        msg("The movement allowances of {unit} and {target} are needed (movement.allowance).", unit=cavalry.id, target=target.id),
    )


def can_intercept(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """9.3.1 a–g, 9.3.3, 9.3.7: may this cavalry unit attempt to intercept the moving enemy unit, and by which path."""
    cavalry, target = _params(scenario, params, "can-intercept")
    findings, result = eligibility(scenario, cavalry, target)
    return Ruling("can-intercept", verdict_from(findings), tuple(findings), result)


@decides(BOOK, "9.3.2")
@undetermined_without(BOOK, "9.3.2", needs=msg("the rows and modifiers of the Interception Table the corpus does not give (tables.interception)"))
def chance(scenario: Scenario, cavalry: Unit) -> tuple[list[Finding], dict[str, Any]]:
    """9.3.2: the Interception Table row for the cavalry's current order, its modifiers, and the chance of success."""
    order = scenario.order_of(cavalry)
    findings: list[Finding] = []
    result: dict[str, Any] = {"order": order}
    if order is None:
        findings.append(unknown("9.3.2", msg("The order of {unit} is not given (its wing's order or its own).", unit=cavalry.id)))
        return findings, result
    rows = scenario.tables.interception_rows
    if order not in rows:
        findings.append(unknown("9.3.2", msg("The Interception Table row for {order} orders is not in the corpus; supply it in tables.interception.rows.", order=ORDER_NAMES[order])))
        return findings, result
    row = rows[order]
    if row is None:
        findings.append(failed("9.3.2", msg("Under {order} orders the table allows no interception.", order=ORDER_NAMES[order])))
        result["chance"] = 0.0
        return findings, result
    findings.append(passed("9.3.2", msg("Under {order} orders an interception succeeds on {range} (source: {source}).", order=ORDER_NAMES[order], range=str(row), source=row.source)))
    result["success_range"] = str(row)
    total = 0
    for factor in scenario.tables.interception_modifiers:
        value = getattr(cavalry, factor.factor, None)
        if value is None:
            findings.append(unknown("9.3.2", msg("The morale rating of {unit} is not given (morale.rating).", unit=cavalry.id)))
            return findings, result
        if str(value) in factor.values:
            total += factor.values[str(value)]
            findings.append(passed("9.3.2", msg("Morale rating {rating}: modifier {mod:+d} (source: {source}).", rating=value, mod=factor.values[str(value)], source=factor.source)))
        elif factor.complete:
            findings.append(passed("9.3.2", msg("Morale rating {rating}: no modifier.", rating=value)))
        else:
            findings.append(unknown("9.3.2", msg("The Interception Table modifier for a morale rating of {rating} is not in the corpus; supply it in tables.interception.modifiers.", rating=value)))
            return findings, result
    rolls = success_rolls(row, total)
    result.update({"modifier": total, "succeeds_on": list(rolls), "chance": len(rolls) / 10})
    findings.append(passed("9.3.2", msg("With modifier {mod:+d}, natural rolls {rolls} succeed: {chance}.", mod=total, rolls=_roll_span(rolls), chance=percent(len(rolls) / 10))))
    return findings, result


def _roll_span(rolls: tuple[int, ...]) -> str:
    if not rolls:
        return "—"
    return str(rolls[0]) if len(rolls) == 1 else f"{rolls[0]}–{rolls[-1]}"


def interception_chance(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """9.3.2 (with 9.3.1 a–g): the chance that this cavalry unit's interception attempt succeeds.

    The verdict is yes when the attempt is allowed and its chance is known; the chance itself is in ``result``.
    """
    cavalry, target = _params(scenario, params, "interception-chance")
    findings, result = eligibility(scenario, cavalry, target)
    more, odds = chance(scenario, cavalry)
    findings.extend(more)
    result.update(odds)
    verdict = verdict_from(findings)
    if verdict.value == "no":
        result["chance"] = 0.0
    return Ruling("interception-chance", verdict, tuple(findings), result)


__all__ = ["can_intercept", "interception_chance", "interception_route", "eligibility", "chance", "Status"]
