"""Reaction movement (9.2.1–9.2.4): which reactions each inactive unit may make to an enemy movement event."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..hexgrid import Hex, Sector, hex_neighbor, adjacent_by_sector, adjacent_hexes, footprint_distance, rotate_facing, sector_of
from ..i18n import msg, nmsg
from ..ruling import Finding, Ruling, Status, Verdict
from .clauses import BOOK, checked, failed, passed, unknown
from .describe import mp, unit_name, where
from .facing_rules import WHEEL_BASE_COST, vertex_turn_cost, wheels
from .movement import Mover, Placement, placement_of, search
from .params import coerce
from .scenario import Event, Scenario, Unit
from .terms import ACTION_NAMES, ORDER_NAMES, Action, FormationState, Order, UnitType
from .terrain import UNKNOWN, TerrainCosts
from ..work import TooLarge, Work, too_large
from ..coverage import decides, undetermined_without
from ..interpretations import name_in

REACTION_RANGE = 2  # 9.2.3, 9.2.4: within two hexes
# Placements the withdraw searches of one question may expand, all units together: a withdraw of 8 MP over clear
# ground expands under 600, so a whole wing under Rally orders about the event stays well within it
# (bench/engine_mpbs.py measures the worst case).
REACTIONS_WORK = 10_000
MAX_REACTION_VERTICES = 2  # 9.2.2a: up to two vertices; 9.2.2b: a wheel of up to two hexes
SPENDS_MP = (Action.MOVE, Action.CHANGE_FACING, Action.CHANGE_FORMATION)
ENTERS_HEX = (Action.MOVE, Action.ADVANCE)


@dataclass
class UnitReactions:
    unit: Unit
    findings: list[Finding] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def available(self) -> list[str]:
        return [name for name, value in self.options.items() if value]


def reactions(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """9.2.1–9.2.4 (with 11.4.1 and 11.4.9): the reaction movements open to inactive units after the event."""
    values = coerce("reactions", scenario, params)
    event, trigger = scenario.moment.event, scenario.event_unit()
    findings: list[Finding] = []
    result: dict[str, Any] = {}
    if event is None or trigger is None:
        findings.append(unknown("9.2.1", msg("The scenario names no triggering event."), field="moment.event"))
        return Ruling("reactions", Verdict.UNDETERMINED, tuple(findings), result)
    result["event"] = {"unit": trigger.id, "action": event.action.value, "hexes": scenario.labels(trigger.hexes)}
    if event.action is Action.RETREAT:
        findings.append(failed("11.4.1", msg("A retreat after close combat triggers no reaction.")))
        return Ruling("reactions", Verdict.NO, tuple(findings), result)
    if event.action is Action.ADVANCE:
        findings.append(passed("11.4.9", msg("An advance after combat triggers reactions, except by the units of that close combat.")))

    chosen: Unit | None = values["unit"]
    if chosen is not None and chosen.side == trigger.side:
        findings.append(failed("9.2.1", msg("{unit} is on the active side: only inactive units react.", unit=unit_name(chosen))))
        return Ruling("reactions", Verdict.NO, tuple(findings), result)
    near = _within_reach(scenario, trigger, chosen, findings)
    work = Work(REACTIONS_WORK, "placements")
    per_unit = [unit_reactions(scenario, event, trigger, u, work) for u in near]
    result["units"] = {r.unit.id: {**r.options, "available": r.available} for r in per_unit}
    for r in per_unit:
        findings.extend(r.findings)
    _name_readings(findings, result, event.action)
    if any(r.available for r in per_unit):
        verdict = Verdict.YES
    elif any(f.status is Status.UNKNOWN for f in findings):
        verdict = Verdict.UNDETERMINED
    else:
        verdict = Verdict.NO
    return Ruling("reactions", verdict, tuple(findings), result)


def _within_reach(scenario: Scenario, trigger: Unit, chosen: Unit | None, findings: list[Finding]) -> list[Unit]:
    """The inactive units asked about: the one chosen, or those within two hexes of the trigger (9.2.3, 9.2.4;
    9.2.2 needs an adjacent hex), the others counted in a finding."""
    if chosen is not None:
        return [chosen]
    inactive = [u for u in scenario.units if u.side != trigger.side and u.on_map]
    near = [u for u in inactive if footprint_distance(u.hexes, trigger.hexes) <= REACTION_RANGE]
    far = len(inactive) - len(near)
    if far:
        findings.append(passed("9.2.1", nmsg(
            "{n} other inactive unit is more than two hexes from {trigger}: no reaction of 9.2.2–9.2.4 reaches it.",
            "{n} other inactive units are more than two hexes from {trigger}: no reaction of 9.2.2–9.2.4 reaches them.",
            far, trigger=trigger.id)))
    return near


def _name_readings(findings: list[Finding], result: dict[str, Any], action: Action) -> None:
    """The written interpretations an answer followed, by the clauses it decided: 9.2.2's «вплотную к гексу
    фланга или тыла», 9.2.3's «в пределах двух гексов от фронта или фланга», and 9.2.3–9.2.4's «расходует пункты
    движения» met by an enemy that spends them without leaving its hexes (its facing or formation changed)."""
    if action in (Action.CHANGE_FACING, Action.CHANGE_FORMATION) and any(
            f.citation.clause in ("9.2.3", "9.2.4") for f in findings):
        name_in(result, "reaction-to-spending-in-place")
    if any(f.citation.clause == "9.2.2" for f in findings):
        name_in(result, "reaction-into-flank-or-rear-hex")
    # Hedgehog findings that come before the distance is measured (light infantry, no facing, already formed) do
    # not rest on the reading.
    before = ("{unit} is light infantry", "{unit} has no vertex facing", "{unit} is already in Hedgehog")
    if any(f.citation.clause == "9.2.3" and not f.message.text.startswith(before) for f in findings):
        name_in(result, "hedgehog-two-hexes-of-the-unit")


@decides(BOOK, "9.2.1", "11.4.9")
def unit_reactions(scenario: Scenario, event: Event, trigger: Unit, unit: Unit, work: Work | None = None) -> UnitReactions:
    """Every reaction type for one inactive unit, each with its findings (9.2.1 limits first); the withdraw search
    spends from ``work``, the question's budget."""
    r = UnitReactions(unit)
    who = unit_name(unit)
    if not unit.on_map:
        r.findings.append(failed("9.2.1", msg("{unit} is not on the map.", unit=who)))
        return r
    if event.action is Action.ADVANCE and unit.id in event.combatants:
        r.findings.append(failed("11.4.9", msg("{unit} took part in the close combat that caused this advance: it does not react to it.", unit=who)))
        return r
    if unit.id in event.reacted:
        r.findings.append(failed("9.2.1", msg("{unit} has already made a reaction movement to this event: one type per triggering event.", unit=who)))
        return r
    r.findings.append(passed("9.2.1", msg("{unit} may make one type of reaction movement to this event, within its current movement allowance (even in an enemy's front hex).", unit=who)))
    r.options["facing_change"] = facing_change(scenario, event, trigger, unit, r.findings)
    r.options["hedgehog"] = hedgehog(scenario, event, trigger, unit, r.findings)
    r.options["withdraw"] = withdraw(scenario, event, trigger, unit, r.findings, work)
    return r


def _allowance_not_less(trigger: Unit, unit: Unit) -> bool | None:
    """9.2.2, 9.2.4: the enemy's movement allowance (after formation hits) is the same or lower than the reactor's."""
    if trigger.movement_allowance is None or unit.movement_allowance is None:
        return None
    return trigger.movement_allowance <= unit.movement_allowance


def _allowance_finding(clause: str, trigger: Unit, unit: Unit) -> Finding:
    return checked(
        clause, _allowance_not_less(trigger, unit),
        msg("The movement allowance of {trigger} ({a}) is not greater than that of {unit} ({b}).", trigger=trigger.id, a=trigger.movement_allowance, unit=unit.id, b=unit.movement_allowance),
        msg("The movement allowance of {trigger} ({a}) is greater than that of {unit} ({b}).", trigger=trigger.id, a=trigger.movement_allowance, unit=unit.id, b=unit.movement_allowance),
        msg("The movement allowances of {trigger} and {unit} are needed.", trigger=trigger.id, unit=unit.id),
        field="units[].movement.allowance",
    )


# --- 9.2.2 facing change --------------------------------------------------------------------------------------------


@decides(BOOK, "9.2.2")
def facing_change(scenario: Scenario, event: Event, trigger: Unit, unit: Unit, findings: list[Finding]) -> list[dict[str, Any]] | None:
    """9.2.2 a/b: the facings the unit may take when an enemy moves into one of its flank or rear hexes."""
    if not unit.has_facing or unit.facing is None:
        if unit.has_facing and unit.column_heading is not None:
            findings.append(unknown("9.2.2", msg("The flank and rear hexes of a two-hex unit in column (6.3.4) are not in the corpus.")))
        return None
    sectors = adjacent_by_sector(unit.hexes, unit.facing)
    entered = [h for h in trigger.hexes if h in sectors[Sector.FLANK] or h in sectors[Sector.REAR]]
    if event.action not in ENTERS_HEX or not entered:
        findings.append(failed("9.2.2", msg("{trigger} did not move into a flank or rear hex of {unit}.", trigger=trigger.id, unit=unit.id)))
        return None
    findings.append(passed("9.2.2", msg("{trigger} moved into {hex}, a flank or rear hex of {unit}.", trigger=trigger.id, hex=where(scenario, entered), unit=unit.id)))
    allowance = _allowance_finding("9.2.2", trigger, unit)
    findings.append(allowance)
    if allowance.status is not Status.PASS:
        return None
    # 9.2.1 «не должно превышать своего текущего потенциала движения»: the allowance (after formation hits), not
    # what the unit's own activation left of it (known here: the 9.2.2 allowance finding has passed).
    budget = unit.movement_allowance or 0
    if unit.is_two_hex:
        return _reaction_wheels(scenario, unit, budget, findings)
    return _reaction_turns(scenario, unit, budget, findings)


@decides(BOOK, "9.2.2a")
def _reaction_turns(scenario: Scenario, unit: Unit, budget: float, findings: list[Finding]) -> list[dict[str, Any]] | None:
    """9.2.2a «Неартиллерийские подразделения, фишки которых занимают один гекс, могут изменить ориентацию в
    диапазоне до двух углов»: each turn of up to two vertices the allowance pays for (6.2.1)."""
    if unit.type is UnitType.ARTILLERY:
        findings.append(failed("9.2.2a", msg("Artillery does not change facing as a reaction (9.2.2a is for non-artillery units).")))
        return None
    step_cost = vertex_turn_cost(unit)
    options = []
    for turn in (-2, -1, 1, 2):
        cost = abs(turn) * (step_cost or 0)
        if cost <= budget:
            options.append({"facing": scenario.hexmap.vertex_name(rotate_facing(unit.facing, turn)), "vertices": turn, "cost": cost})
    findings.append(checked(
        "9.2.2a", bool(options),
        nmsg("{unit} may turn up to two vertices; {n} new facing within its {mp}.",
             "{unit} may turn up to two vertices; {n} new facings within its {mp}.", len(options), unit=unit.id, mp=mp(budget)),
        msg("{unit} cannot pay for a one-vertex turn ({cost}) with its {mp}.", unit=unit.id, cost=mp(step_cost or 0), mp=mp(budget)),
    ))
    return options or None


@decides(BOOK, "9.2.2b")
def _reaction_wheels(scenario: Scenario, unit: Unit, budget: float, findings: list[Finding]) -> list[dict[str, Any]] | None:
    """9.2.2b: a two-hex unit wheels one half up to two hexes; the new hexes may not be adjacent to an enemy unless it
    is under Charge orders, or the stationary half is already adjacent to that enemy and the moving half enters no
    hex adjacent to another."""
    if not wheels(unit):
        findings.append(unknown("9.2.2b", msg("A two-hex heavy infantry unit in column turns rather than wheels; its reaction is not described by 9.2.2b.")))
        return None
    charge = scenario.order_of(unit) is Order.CHARGE
    costs = TerrainCosts(scenario, unit.movement_class)
    enemies = [u for u in scenario.enemies_of(unit)]
    options = []
    for pivot in unit.hexes:  # the half that stays in place
        hexes, facing, cost, entered = unit.hexes, unit.facing, 0.0, []
        for _ in range(MAX_REACTION_VERTICES):
            hexes, facing, new_hex = _wheel(hexes, facing, pivot)
            c = costs.cost(new_hex)
            if (new_hex not in scenario.hexmap or c is None or c is UNKNOWN
                    or any(o.id != unit.id and o.type is not UnitType.LEADER for o in scenario.units_in(new_hex))):
                break
            cost += WHEEL_BASE_COST + c  # type: ignore[operator]
            entered.append(new_hex)
            if cost > budget:
                break
            if _wheel_adjacency_ok(enemies, pivot, entered, charge):
                options.append({"facing": scenario.hexmap.vertex_name(facing), "hexes": scenario.labels(hexes),
                                "pivot": scenario.label(pivot), "cost": cost})
    findings.append(checked(
        "9.2.2b", bool(options),
        nmsg("{unit} may wheel one half up to two hexes: {n} placement within its {mp}.",
             "{unit} may wheel one half up to two hexes: {n} placements within its {mp}.", len(options), unit=unit.id, mp=mp(budget)),
        msg("{unit} has no wheel of one or two hexes within its {mp} that keeps clear of enemy units as 9.2.2b requires.", unit=unit.id, mp=mp(budget)),
    ))
    return options or None


def _wheel(hexes: tuple[Hex, ...], facing: int, pivot: Hex) -> tuple[tuple[Hex, Hex], int, Hex]:
    """One forward wheel around ``pivot`` (6.2.1): the other half moves into the front hex both halves share."""
    a, b = hexes
    front = hex_neighbor(a, facing + 1)
    if pivot == a:
        return (a, front), rotate_facing(facing, -1), front
    return (front, b), rotate_facing(facing, 1), front


def _wheel_adjacency_ok(enemies: list[Unit], pivot: Hex, entered: list[Hex], charge: bool) -> bool:
    """9.2.2b: the hexes the moving half enters are adjacent to no enemy unit (any order: unless the stationary half
    is already adjacent to that enemy; Charge orders: always allowed)."""
    if charge:
        return True
    touching = [e for e in enemies if any(h in adjacent_hexes(e.hexes) for h in entered)]
    return all(pivot in adjacent_hexes(e.hexes) for e in touching)


# --- 9.2.3 Hedgehog --------------------------------------------------------------------------------------------------


@decides(BOOK, "9.2.3")
@undetermined_without(BOOK, "9.2.3", needs=msg("the formations of 6.3.2b, not in the corpus, in which heavy infantry may form Hedgehog (units[].formation, tables.hedgehog_formations)"))
def hedgehog(scenario: Scenario, event: Event, trigger: Unit, unit: Unit, findings: list[Finding]) -> str | bool | None:
    """9.2.3: heavy infantry may attempt Hedgehog (a morale check) when enemy cavalry spends MP within two hexes of its
    front or flank, and must attempt it when enemy cavalry enters one of its rear hexes (not flank)."""
    if trigger.type is not UnitType.CAVALRY:
        return None
    arises = _hedgehog_arises(unit, findings)
    if arises is not True:
        return arises
    spends = event.action in SPENDS_MP or (event.mp or 0) > 0
    into_rear = event.action in ENTERS_HEX and any(h in adjacent_by_sector(unit.hexes, unit.facing)[Sector.REAR]
                                                   for h in trigger.hexes)
    if not spends or not (_front_or_flank_near(trigger, unit) or into_rear):
        findings.append(failed("9.2.3", msg("Cavalry {trigger} did not spend movement points within two hexes of the front or flank of {unit}, nor enter its rear.", trigger=trigger.id, unit=unit.id)))
        return None
    if not _formation_may_form_hedgehog(scenario, unit, findings):
        return None
    if into_rear:
        findings.append(passed("9.2.3", msg("Cavalry {trigger} entered a rear hex of {unit}: {unit} MUST attempt Hedgehog (a morale check; failure worsens its morale by one).", trigger=trigger.id, unit=unit.id)))
        return "must"
    findings.append(passed("9.2.3", msg("Cavalry {trigger} spent movement points within two hexes of the front or flank of {unit}: it may attempt Hedgehog (a morale check; failure worsens its morale by one).", trigger=trigger.id, unit=unit.id)))
    return "may"


def _hedgehog_arises(unit: Unit, findings: list[Finding]) -> bool | None:
    """9.2.3 "тяжелой пехоты": True when the question arises for ``unit`` (heavy infantry with a vertex facing, not
    in Hedgehog yet); False for light infantry, which never forms it; None where it does not arise or is not known."""
    if unit.type is UnitType.LIGHT_INFANTRY:
        findings.append(failed("9.2.3", msg("{unit} is light infantry: Hedgehog is for heavy infantry only, so it never forms one.", unit=unit.id), term="тяжелой пехоты"))
        return False  # never: an explicit "no", where None means the question does not arise
    if unit.type is not UnitType.HEAVY_INFANTRY:
        return None
    if unit.facing is None:
        findings.append(unknown("9.2.3", msg("{unit} has no vertex facing to tell its front, flank and rear.", unit=unit.id)))
        return None
    if unit.in_hedgehog:
        findings.append(failed("9.2.3", msg("{unit} is already in Hedgehog.", unit=unit.id)))
        return None
    return True


def _front_or_flank_near(trigger: Unit, unit: Unit) -> bool:
    """9.2.3: the cavalry is within two hexes of the unit, in its front or flank sectors."""
    return any(footprint_distance((h,), unit.hexes) <= REACTION_RANGE
               and sector_of(unit.hexes, unit.facing, h) in (Sector.FRONT, Sector.FLANK) for h in trigger.hexes)


def _formation_may_form_hedgehog(scenario: Scenario, unit: Unit, findings: list[Finding]) -> bool:
    """9.2.3 with 6.3.2b: the unit's formation is one of those listed (the list is data the corpus lacks)."""
    able = _hedgehog_formation(scenario, unit)
    formation = unit.formation or "?"
    if able is None:
        findings.append(unknown("9.2.3", msg("Whether formation \"{formation}\" ({state}) may form Hedgehog depends on the list of 6.3.2b, which is not in the corpus.", formation=formation, state=unit.formation_state.value), field="tables.hedgehog_formations"))
    elif not able:
        findings.append(failed("9.2.3", msg("Formation \"{formation}\" of {unit} is not one of those listed in 6.3.2b.", formation=formation, unit=unit.id)))
    return bool(able)


def _hedgehog_formation(scenario: Scenario, unit: Unit) -> bool | None:
    """In a formation listed in 6.3.2b (data), a shaken formation included (9.2.3); None when the list is unknown."""
    listed = scenario.tables.hedgehog_formations
    if listed is None or unit.formation is None:
        return None
    if unit.formation_state is FormationState.DISORDERED and "disordered" not in listed:
        return None
    return unit.formation.lower() in listed


# --- 9.2.4 Withdraw --------------------------------------------------------------------------------------------------


@decides(BOOK, "9.2.4")
def withdraw(scenario: Scenario, event: Event, trigger: Unit, unit: Unit, findings: list[Finding],
             work: Work | None = None) -> list[dict[str, Any]] | None:
    """9.2.4: Withdraw up to the full movement allowance («вплоть до своего полного потенциала движения»), ending
    farther from the trigger, never adjacent to an enemy;
    once per enemy activation; only under Rally orders, a leader alone in its hex, or cavalry not under Charge
    orders approached by enemy heavy infantry."""
    distance = footprint_distance(unit.hexes, trigger.hexes)
    spends = event.action in SPENDS_MP or event.action is Action.ADVANCE or (event.mp or 0) > 0
    if not spends or distance > REACTION_RANGE:
        findings.append(failed("9.2.4", msg("{trigger} did not spend movement points within two hexes of {unit}.", trigger=trigger.id, unit=unit.id)))
        return None
    eligible = _withdraw_eligible(scenario, event, trigger, unit)
    if eligible is None:
        findings.append(unknown("9.2.4", msg("Whether heavy infantry {trigger} approaches {unit} needs the hexes it came from.", trigger=trigger.id, unit=unit.id), field="moment.event.from"))
        return None
    reason, ok = eligible
    findings.append(checked("9.2.4", ok, reason, reason))
    if not ok:
        return None
    allowance = _allowance_finding("9.2.4", trigger, unit)
    findings.append(allowance)
    if allowance.status is not Status.PASS:
        return None
    if unit.withdrawn:
        findings.append(failed("9.2.4", msg("{unit} has already withdrawn during this enemy activation.", unit=unit.id)))
        return None
    try:
        destinations, missing = withdraw_destinations(scenario, trigger, unit, work)
    except TooLarge as exc:
        findings.append(unknown("9.2.4", too_large(exc)))
        return None
    if destinations:
        findings.append(passed("9.2.4", nmsg(
            "{unit} may withdraw to {n} placement farther from {trigger}, never adjacent to an enemy unit.",
            "{unit} may withdraw to {n} placements farther from {trigger}, never adjacent to an enemy unit.",
            len(destinations), unit=unit.id, trigger=trigger.id)))
        return destinations
    if missing:
        findings.append(unknown("9.2.4", msg("Movement costs not given (terrain/movement class): {pairs}.", pairs=missing)))
    else:
        findings.append(failed("9.2.4", msg("{unit} has no hex within its movement allowance farther from {trigger} that it can reach without moving adjacent to an enemy unit.", unit=unit.id, trigger=trigger.id)))
    return None


def _withdraw_eligible(scenario: Scenario, event: Event, trigger: Unit, unit: Unit):
    order = scenario.order_of(unit)
    if order is Order.RALLY:
        return msg("{unit} is under Rally orders: it may withdraw.", unit=unit.id), True
    if unit.type is UnitType.LEADER:
        alone = all(o.id == unit.id for h in unit.hexes for o in scenario.units_in(h))
        return (msg("{unit} is a leader alone in its hex: it may withdraw.", unit=unit.id) if alone
                else msg("{unit} is a leader but not alone in its hex.", unit=unit.id)), alone
    if unit.type is UnitType.CAVALRY and order is not Order.CHARGE and trigger.type is UnitType.HEAVY_INFANTRY:
        if not event.from_hexes:
            return None
        approaching = footprint_distance(unit.hexes, trigger.hexes) < footprint_distance(unit.hexes, event.from_hexes)
        if approaching:
            return msg("{unit} is cavalry not under Charge orders, approached by enemy heavy infantry: it may withdraw.", unit=unit.id), True
        return msg("Heavy infantry {trigger} is not approaching {unit}.", trigger=trigger.id, unit=unit.id), False
    order_name = ORDER_NAMES[order] if order else msg("no order")
    return msg("{unit} may not withdraw: not under Rally orders ({order}), not a lone leader, not cavalry (outside Charge orders) approached by heavy infantry.", unit=unit.id, order=order_name), False


def withdraw_destinations(scenario: Scenario, trigger: Unit, unit: Unit,
                          work: Work | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """9.2.4: the placements the unit can reach within its movement allowance, by normal movement and facing rules,
    that end farther from the triggering unit than it started, entering no hex adjacent to an enemy unit.

    One cheapest-path search over placements (hexes and facing) within the allowance, which never enters a hex next
    to an enemy (those hexes are worked out once per scenario and side); then, per hex, whether it ends farther from
    the trigger (worked out once per hex, not per facing), the cheapest placement there and the facings reached.
    """
    near_enemy = scenario.hexes_adjacent_to_enemy(unit.side)
    mover = Mover(scenario, unit, avoid=near_enemy)
    if not mover.supported:
        return [], ["column/6.3.4"]
    # «вплоть до своего полного потенциала движения (учитывая эффекты хитов построения)»: the full allowance.
    found = search(mover, placement_of(unit), unit.movement_allowance or 0, work=work)
    farther = _farther_from(trigger, footprint_distance(unit.hexes, trigger.hexes))
    best: dict[tuple[Hex, ...], tuple[float, Placement]] = {}
    facings_at: dict[tuple[Hex, ...], set[int]] = {}
    for at, cost in found.cost.items():
        hexes, facing = at
        if not farther(hexes):
            continue
        key = hexes if len(hexes) == 1 else tuple(sorted(hexes))
        if key not in best or cost < best[key][0]:
            best[key] = (cost, at)
        if facing is not None:
            facings_at.setdefault(key, set()).add(facing)
    labels = _Labels(scenario)
    destinations = []
    for key in sorted(best, key=labels.of):
        cost, at = best[key]
        facings = sorted(facings_at.get(key, ()))
        destinations.append({
            "hexes": labels.of(at.hexes), "cost": cost,
            "facings": [scenario.hexmap.vertex_name(f) for f in facings],
            "path": [labels.of(p.hexes) for p, _ in found.path(at)],
        })
    return destinations, sorted(mover.costs.missing)


def _farther_from(trigger: Unit, start_distance: int):
    """9.2.4 "farther from the triggering unit": whether hexes end farther from it than ``start_distance``, worked out
    once per set of hexes (a search reaches each hex with up to six facings)."""
    known: dict[tuple[Hex, ...], bool] = {}

    def farther(hexes: tuple[Hex, ...]) -> bool:
        try:
            return known[hexes]
        except KeyError:
            answer = known[hexes] = footprint_distance(hexes, trigger.hexes) > start_distance
            return answer

    return farther


class _Labels:
    """The map labels of hexes, each hex labelled once per answer (paths share most of their hexes)."""

    def __init__(self, scenario: Scenario):
        self.label = scenario.hexmap.label
        self.known: dict[Hex, str] = {}

    def of(self, hexes: tuple[Hex, ...]) -> list[str]:
        known = self.known
        out = []
        for h in hexes:
            try:
                out.append(known[h])
            except KeyError:
                text = known[h] = self.label(h)
                out.append(text)
        return out


__all__ = ["reactions", "unit_reactions", "withdraw_destinations", "ORDER_NAMES", "ACTION_NAMES"]
