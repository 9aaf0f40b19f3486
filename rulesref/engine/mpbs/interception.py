"""Interception (9.3): may an inactive cavalry unit intercept a moving enemy, by which path, with what chance."""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from itertools import count
from typing import Any, Mapping

from ..hexgrid import Hex, Sector, footprint_distance, sector_of
from ..i18n import msg, nmsg
from ..ruling import Finding, Ruling, Status, Verdict, verdict_from
from .clauses import BOOK, TERRAIN_HITS, checked, failed, passed, unknown
from .describe import SECTOR_NAMES, hexes_count, mp, percent, placement_dict, steps_dict, unit_name, where
from .movement import Move, Mover, Placement, SearchResult, placement_of
from .params import coerce
from .scenario import Scenario, Unit
from .tables import success_rolls
from .terms import ACTION_NAMES, ORDER_NAMES, Action, FormationState, UnitType
from .terrain import UNKNOWN, line_of_sight
from ..work import TooLarge, Work, too_large
from ..coverage import decides, undetermined_without

INTERCEPTION_RANGE = 4  # 9.3.1a: within four hexes
FULL_ALLOWANCE = "interception-full-allowance"  # rulesref/engine/interpretations.py
# Placements the path searches of one question may expand: within four hexes, each hex entered closer, a path
# search expands a few dozen; four searches explain a failure (bench/engine_mpbs.py: the worst case).
INTERCEPTION_WORK = 5_000


@dataclass(frozen=True)
class Way:
    """One way to end an interception move (9.3.3): the placement it ends on, what it costs, the formation hits it
    causes (``unknown_hits``: the terrain types entered whose hits the data does not give), and the artillery it
    passes (9.3.7), with the moves that make it."""

    end: Placement
    cost: float
    hits: int
    unknown_hits: frozenset[str]
    artillery: frozenset[str]
    steps: tuple[tuple[Placement, Move | None], ...]

    @property
    def rank(self) -> tuple:
        """Cheapest first, then fewest formation hits, then past no artillery: the way an answer draws."""
        return (self.cost, self.hits + (0.5 if self.unknown_hits else 0), len(self.artillery))


@dataclass(frozen=True)
class Route:
    """What the interception path search (9.3.3) found under one set of restrictions: every way to end the move
    that no other way beats on cost, formation hits and artillery passed together, and the drawn one (``end``:
    the cheapest, then the fewest hits, then past no artillery; the answer lists the others as the player's
    choices). ``result`` is None when the movement of the unit is not in the corpus."""

    result: SearchResult | None
    end: Placement | None
    cost: float | None
    through_friendly_artillery: tuple[str, ...]
    missing_costs: tuple[str, ...]
    ways: tuple[Way, ...] = ()
    drawn: Way | None = None


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
    """9.3.3: every way to a hex adjacent to ``target`` within ``budget`` MP, each hex entered one hex closer to it.

    Facing changes on the way are paid (6.2.1). A way may pass friendly artillery but not end on it (9.3.7). The
    player moves the cavalry (9.3.3: "игрок должен переместить"), so where it ends, facing which way, and by which
    path are the player's to choose: the search keeps, for each placement, every way that no other beats on cost,
    formation hits (9.3.1e) and artillery passed (9.3.7) together. Every hex entered is closer, so from within four
    hexes (9.3.1a) a way enters at most three; the placements expanded are spent from ``work``.
    """
    dead = scenario.dead_zones if (avoid_dead_zones and scenario.dead_zones) else frozenset()
    mover = Mover(scenario, unit, _may_enter(scenario, unit, enemy_artillery=enemy_artillery, dead_zones=dead))
    if not mover.supported:
        return Route(None, None, None, (), ())
    ways = _ways(scenario, unit, target, mover, budget, work or Work(INTERCEPTION_WORK, "placements"))
    missing = tuple(sorted(mover.costs.missing))
    if not ways:
        return Route(SearchResult({}, {}, []), None, None, (), missing)
    drawn = min(ways, key=lambda w: (*w.rank, sorted(w.artillery), scenario.labels(w.end.hexes), w.end.facing or 0))
    return Route(SearchResult({}, {}, []), drawn.end, drawn.cost, tuple(sorted(drawn.artillery)), missing,
                 tuple(ways), drawn)


def _ways(scenario: Scenario, unit: Unit, target: Unit, mover: Mover, budget: float | None,
          work: Work) -> list[Way]:
    """The search behind :func:`interception_route`: cheapest first over (placement, hits, artillery passed); a
    label another at the same placement matches or beats on all three (and so on cost, popped earlier) is
    dropped, so turning about in place never loops."""
    goal_hexes = target.hexes
    distances: dict[tuple[Hex, ...], int] = {}

    def distance(hexes: tuple[Hex, ...]) -> int:
        if hexes not in distances:
            distances[hexes] = footprint_distance(hexes, goal_hexes)
        return distances[hexes]

    def is_goal(at: Placement) -> bool:
        return distance(at.hexes) == 1 and not any(
            o.type is UnitType.ARTILLERY and o.id != unit.id for h in at.hexes for o in scenario.units_in(h))

    limit = float("inf") if budget is None else budget + 1e-9
    start = placement_of(unit)
    tie = count()
    heap: list[tuple] = [(0, 0, 0, next(tie), start, frozenset(), frozenset(), ((start, None),))]
    settled: dict[Placement, list[tuple[int, frozenset[str], frozenset[str]]]] = {}
    ways: list[Way] = []
    while heap:
        cost, hits, _, _, at, unknown_hits, artillery, steps = heapq.heappop(heap)
        seen = settled.setdefault(at, [])
        if any(h <= hits and u <= unknown_hits and a <= artillery for h, u, a in seen):
            continue
        seen.append((hits, unknown_hits, artillery))
        work.spend()
        if is_goal(at):
            ways.append(Way(at, cost, hits, unknown_hits, artillery, steps))
            continue
        for move in mover.moves(at, cost, limit):
            if move.entered and distance(move.to.hexes) != distance(at.hexes) - 1:
                continue  # 9.3.3: every hex entered one hex closer
            more, unknown_more, passed = _price(scenario, mover, move)
            heapq.heappush(heap, (cost + move.cost, hits + more, len(artillery | passed), next(tie), move.to,
                                  unknown_hits | unknown_more, artillery | passed, (*steps, (move.to, move))))
    return ways


def _price(scenario: Scenario, mover: Mover, move: Move) -> tuple[int, frozenset[str], frozenset[str]]:
    """What entering a move's hexes costs besides MP: formation hits (9.3.1e; unknown ones by terrain type) and the
    artillery passed (9.3.7)."""
    hits, unknown_hits, artillery = 0, set(), set()
    for h in move.entered:
        found = mover.costs.formation_hits(h)
        if found is UNKNOWN:
            unknown_hits.add(scenario.terrain_at(h))
        else:
            hits += found  # type: ignore[operator]
        artillery.update(o.id for o in scenario.units_in(h) if o.type is UnitType.ARTILLERY)
    return hits, frozenset(unknown_hits), frozenset(artillery)


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
        findings.append(unknown("9.3.1", msg("The scenario names no triggering event: there is no moving unit to intercept."), field="moment.event"))
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
        msg("The scenario does not say which side is active."), field="moment.active_side",
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
        return [failed("9.3.1f", msg("{unit} tried to intercept before the activation was extended, but the scenario does not say it has been: it is the same activation.", unit=who), field="moment.extended_activation")]
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
            "the scenario may say whether it is.", action=ACTION_NAMES[action]), field="moment.event.movement_trigger",
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
            "describe.", unit=cavalry.id, target=target.id), field="terrain_types.*.blocks_los",
    )


@decides(BOOK, "9.3.3", "9.3.7")
@undetermined_without(BOOK, "9.3.1d", needs=msg("the dead-zone hexes of 10.9.3b, not in the corpus (map.dead_zones)"))
@undetermined_without(BOOK, "9.3.3", needs=msg("the movement costs of the terrain crossed, from the Terrain Effects Chart, not in the corpus (terrain_types.*.cost)"))
def _route_findings(scenario: Scenario, cavalry: Unit, target: Unit, result: dict[str, Any], work: Work) -> list[Finding]:
    """9.3.1d (route clear of dead zones), 9.3.3 (path), 9.3.1e (MP, formation hits), 9.3.7."""
    findings: list[Finding] = []
    # 9.3.1e «имеет достаточно ПД»: read as the movement allowance, as for every reaction (9.2.1 «не должно
    # превышать своего текущего потенциала движения»; 9.3.5: a wing that has finished its activation may still
    # intercept), not what the unit's own activation left of it: a written interpretation, named where it matters.
    available = cavalry.movement_allowance
    if cavalry.mp_spent:
        result.setdefault("interpretations", []).append(FULL_ALLOWANCE)
    # First the route as the rules allow it (within the allowance, clear of dead zones); the other searches only
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
            findings.append(unknown("9.3.1d", msg("The dead-zone hexes (10.9.3b, not in the corpus) are not given."), field="map.dead_zones"))
        else:
            findings.append(passed("9.3.1d", msg("A path to {target} avoids the dead zones.", target=target.id)))

    drawn = route.drawn
    assert drawn is not None and route.end is not None and route.cost is not None
    steps = list(drawn.steps)
    result.update({
        "path": [placement_dict(scenario, at) for at, _ in steps],
        "steps": steps_dict(scenario, steps),
        "cost": route.cost,
        "mp_available": available,
        "end": placement_dict(scenario, route.end),
    })
    findings.extend(_choice_findings(scenario, cavalry, target, route, result))
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
    findings.append(_hits_finding(cavalry, route.ways))
    findings.append(_momentum_finding(route.ways, result))
    return findings


def _sector_attacked(target: Unit, end: Placement) -> Sector | None:
    """9.3 example, "attacking it from the rear": the sector of the target the cavalry ends in (the most
    favourable when a two-hex cavalry unit ends in two)."""
    if target.facing is None:
        return None
    sectors = {sector_of(target.hexes, target.facing, h) for h in end.hexes} - {None}
    return min(sectors, key=lambda s: list(Sector).index(s)) if sectors else None


def _choice_findings(scenario: Scenario, cavalry: Unit, target: Unit, route: Route,
                     result: dict[str, Any]) -> list[Finding]:
    """9.3.3: the player moves the cavalry ("игрок должен переместить"): every way the search keeps is the
    player's to choose, listed with what it leads to (where it ends, facing which way, the sector it attacks,
    its cost, formation hits and artillery passed); the sector attacked is one answer only when every way gives
    it."""
    choices = sorted((_choice_dict(scenario, target, w) for w in route.ways),
                     key=lambda c: (c["hexes"], c["facing"] or "", c["cost"], c["formation_hits"] is None,
                                    c["formation_hits"] or 0, c["through_artillery"]))
    result["choices"] = choices
    sectors = sorted({c["attacks_from"] for c in choices if c["attacks_from"] is not None},
                     key=lambda s: list(Sector).index(s))
    if target.facing is not None:
        result["attacks_from"] = sectors[0] if len(sectors) == 1 else None
        result["attack_sectors"] = sectors
    ends: dict[tuple[str, ...], Sector | None] = {}
    for c in choices:
        ends.setdefault(tuple(c["hexes"]), c["attacks_from"])
    if len(ends) < 2:
        return []
    listed = [msg("{hex} ({sector})", hex="–".join(h), sector=SECTOR_NAMES[s]) if s is not None else "–".join(h)
              for h, s in ends.items()]
    return [passed("9.3.3", msg("Where {unit} ends its move is the player's choice: {ends}.", unit=cavalry.id,
                                ends=listed), term="игрок должен переместить")]


def _choice_dict(scenario: Scenario, target: Unit, way: Way) -> dict[str, Any]:
    return {
        **placement_dict(scenario, way.end),
        "attacks_from": _sector_attacked(target, way.end),
        "cost": way.cost,
        "formation_hits": None if way.unknown_hits else way.hits,
        "through_artillery": sorted(way.artillery),
    }


@decides(BOOK, "9.3.7")
def _momentum_finding(ways: tuple[Way, ...], result: dict[str, Any]) -> Finding:
    """9.3.7: cavalry may intercept through friendly artillery (never enemy, which the search does not enter) but
    then loses its momentum: lost when every way passes artillery; the player's choice when some way does not."""
    passing = [w for w in ways if w.artillery]
    result["momentum_lost"] = bool(ways) and len(passing) == len(ways)
    if not passing:
        return passed("9.3.7", msg("The path passes no artillery."))
    units = sorted(set().union(*(w.artillery for w in passing)))
    if result["momentum_lost"]:
        return passed("9.3.7", msg("The path passes friendly artillery ({units}): allowed, but the cavalry loses its momentum.", units=units))
    return passed("9.3.7", msg("A path past friendly artillery ({units}) would cost the cavalry its momentum; the player may take one that passes none.", units=units))


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
        findings.append(unknown("9.3.1d", msg("The dead-zone hexes (10.9.3b, not in the corpus) are not given."), field="map.dead_zones"))
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
def _hits_finding(cavalry: Unit, ways: tuple[Way, ...]) -> Finding:
    """9.3.1e: the cavalry can withstand the formation hits its move causes: some way open to it causes no more
    than it can take without becoming disordered (the player chooses the way, 9.3.3)."""
    known = [w.hits for w in ways if not w.unknown_hits]
    fewest = min(known, default=None)
    m = cavalry.hits_before_disorder
    if fewest == 0:
        return passed("9.3.1e", msg("The path causes no formation hit."))
    if fewest is not None and m is not None and fewest <= m:
        return passed("9.3.1e", nmsg(
            "The path causes {n} formation hit; {unit} can take {m} without becoming disordered.",
            "The path causes {n} formation hits; {unit} can take {m} without becoming disordered.",
            fewest, unit=cavalry.id, m=m))
    unknown_terrain = sorted(set().union(*(w.unknown_hits for w in ways)))
    if unknown_terrain:
        return unknown("9.3.1e", msg("The formation hits caused by entering {terrain} (formation-hit causes) are not given.", terrain=unknown_terrain))
    assert fewest is not None
    if m is None:
        return unknown("9.3.1e", nmsg(
            "The path causes {n} formation hit; how many {unit} can take is not given.",
            "The path causes {n} formation hits; how many {unit} can take is not given.",
            fewest, unit=cavalry.id), field="units[].formation.hits_before_disorder")
    return failed("9.3.1e", nmsg(
        "Every path causes at least {n} formation hit; {unit} can take only {m} without becoming disordered.",
        "Every path causes at least {n} formation hits; {unit} can take only {m} without becoming disordered.",
        fewest, unit=cavalry.id, m=m))


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
        msg("The movement allowances of {unit} and {target} are needed.", unit=cavalry.id, target=target.id),
        field="units[].movement.allowance",
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
        findings.append(unknown("9.3.2", msg("The Interception Table row for {order} orders is not in the corpus; the scenario may supply it.", order=ORDER_NAMES[order]), field="tables.interception.rows"))
        return findings, result
    row = rows[order]
    if row is None:
        findings.append(failed("9.3.2", msg("Under {order} orders the table allows no interception.", order=ORDER_NAMES[order])))
        result["chance"] = 0.0
        return findings, result
    findings.append(passed("9.3.2", msg("Under {order} orders an interception succeeds on {range}.", order=ORDER_NAMES[order], range=str(row)), source=row.source))
    result["success_range"] = str(row)
    total = 0
    for factor in scenario.tables.interception_modifiers:
        value = getattr(cavalry, factor.factor, None)
        if value is None:
            findings.append(unknown("9.3.2", msg("The morale rating of {unit} is not given.", unit=cavalry.id), field="units[].morale.rating"))
            return findings, result
        if str(value) in factor.values:
            total += factor.values[str(value)]
            findings.append(passed("9.3.2", msg("Morale rating {rating}: modifier {mod:+d}.", rating=value, mod=factor.values[str(value)]), source=factor.source))
        elif factor.complete:
            findings.append(passed("9.3.2", msg("Morale rating {rating}: no modifier.", rating=value)))
        else:
            findings.append(unknown("9.3.2", msg("The Interception Table modifier for a morale rating of {rating} is not in the corpus; the scenario may supply it.", rating=value)))
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
    if verdict_from(findings) is Verdict.NO:
        # An attempt the rules refuse has no chance to roll for: 0, and no table chance beside it.
        result["chance"] = 0.0
        return Ruling("interception-chance", Verdict.NO, tuple(findings), result)
    more, odds = chance(scenario, cavalry)
    findings.extend(more)
    result.update(odds)
    verdict = verdict_from(findings)
    if verdict is Verdict.NO:
        result["chance"] = 0.0
    return Ruling("interception-chance", verdict, tuple(findings), result)


__all__ = ["can_intercept", "interception_chance", "interception_route", "eligibility", "chance", "Status"]
