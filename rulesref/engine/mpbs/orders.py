"""Orders (5.7, 5.8): may a wing attempt an orders change now, with what chance; is Rally forced on it."""
from __future__ import annotations

from typing import Any, Mapping

from ..hexgrid import adjacent_hexes
from ..i18n import msg, nmsg
from ..ruling import Finding, Ruling, Status, Verdict, verdict_from
from ..coverage import decides, undetermined_without
from ..interpretations import name_in
from .clauses import BOOK, checked, failed, passed, unknown
from .describe import percent
from .params import coerce
from .scenario import Scenario, Unit, Wing
from .tables import Modifier, success_rolls
from .terms import ORDER_NAMES, FormationState, LeaderRole, Morale, Order, UnitType

ORDERS_CHANGE_PHASES = ("activation-start", "orders-change")
IGNORED_IN_5_7_3 = (UnitType.ARTILLERY, UnitType.WAGON, UnitType.LEADER)
COUNTED_IN_5_8 = (UnitType.CAVALRY, UnitType.HEAVY_INFANTRY)


def _wing(scenario: Scenario, wing: Wing | None) -> Wing | None:
    if wing is not None:
        return wing
    return scenario.wings.get(scenario.moment.active_wing or "")


# --- 5.8 ---------------------------------------------------------------------------------------------------------


def out_of_the_fight(unit: Unit) -> bool:
    """5.8: eliminated, off the map, disordered, Morale Shaken or Morale Broken."""
    return (
        unit.eliminated or unit.off_map or unit.off_map_pursuer
        or unit.formation_state is FormationState.DISORDERED
        or unit.morale in (Morale.SHAKEN, Morale.BROKEN)
    )


@decides(BOOK, "5.8")
def rally_forced(scenario: Scenario, wing: Wing) -> tuple[bool, list[Finding]]:
    """5.8: at the start of its activation a wing whose cavalry and heavy infantry are all eliminated, off the map,
    disordered, Morale Shaken or Morale Broken is placed under Rally orders, unless some of its reinforcements have
    not yet entered play. A wing with none is not (interpretation rally-needs-horse-or-foot: the rule speaks of a
    wing's battered horse and foot; read literally, «все подразделения кавалерии и тяжелой пехоты» of a wing with
    none are all out of the fight)."""
    units = scenario.wing_units(wing.id)
    waiting = [u.id for u in units if u.reinforcement]
    counted = [u for u in units if u.type in COUNTED_IN_5_8 and not u.reinforcement]
    if waiting:
        return False, [failed("5.8", msg("Wing {wing} still has reinforcements to enter ({units}): 5.8 does not apply.", wing=wing.id, units=waiting))]
    if not counted:
        return False, [failed("5.8", msg("Wing {wing} has no cavalry or heavy infantry: 5.8 does not apply.", wing=wing.id))]
    fit = [u.id for u in counted if not out_of_the_fight(u)]
    if fit:
        return False, [failed("5.8", nmsg(
            "{n} cavalry or heavy infantry unit of wing {wing} is still fit ({units}): Rally is not forced.",
            "{n} cavalry or heavy infantry units of wing {wing} are still fit ({units}): Rally is not forced.",
            len(fit), wing=wing.id, units=fit))]
    return True, [passed("5.8", nmsg(
        "All {n} cavalry and heavy infantry unit of wing {wing} is eliminated, off the map, disordered, shaken or broken: its commander is placed under Rally orders automatically, may not attempt an orders change and may not pass this activation.",
        "All {n} cavalry and heavy infantry units of wing {wing} are eliminated, off the map, disordered, shaken or broken: its commander is placed under Rally orders automatically, may not attempt an orders change and may not pass this activation.",
        len(counted), wing=wing.id))]


def mandatory_rally(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """5.8: is this wing forced onto Rally orders at the start of its activation?"""
    values = coerce("mandatory-rally", scenario, params)
    wing = _wing(scenario, values["wing"])
    if wing is None:
        finding = unknown("5.8", msg("No wing given, and the scenario names no active wing."), field="moment.active_wing")
        return Ruling("mandatory-rally", Verdict.UNDETERMINED, (finding,), {})
    forced, findings = rally_forced(scenario, wing)
    result = {"wing": wing.id, "order": wing.order, "forced": forced, "new_order": Order.RALLY if forced else wing.order,
              "may_attempt_orders_change": not forced, "may_pass": False if forced else None}
    _name_readings(scenario, wing, None, result)
    if forced and scenario.moment.wing_passes:
        findings.append(failed("5.8", msg("The scenario has the player pass this activation, but a wing forced onto Rally may not pass."), field="moment.wing_passes"))
    return Ruling("mandatory-rally", Verdict.YES if forced else Verdict.NO, tuple(findings), result)


def _name_readings(scenario: Scenario, wing: Wing, wanted: Order | None, result: dict[str, Any]) -> None:
    """The written interpretations an answer about this wing follows: 5.8 for a wing with no cavalry or heavy
    infantry at all (rally-needs-horse-or-foot), 5.7.3's and 5.8's «потрясены» for a wing with a unit in a shaken
    formation but not Morale Shaken (shaken-is-the-morale-state), and the 5.7.3 count for a change to Rally in a
    wing with leaders
    (rally-modifier-without-leaders)."""
    units = scenario.wing_units(wing.id)
    if not any(u.type in COUNTED_IN_5_8 for u in units):
        name_in(result, "rally-needs-horse-or-foot")
    if any(u.formation_state is FormationState.SHAKEN and u.morale is not Morale.SHAKEN for u in units):
        name_in(result, "shaken-is-the-morale-state")
    if wanted is Order.RALLY and any(u.type is UnitType.LEADER for u in units):
        name_in(result, "rally-modifier-without-leaders")


# --- 5.7 ---------------------------------------------------------------------------------------------------------


@decides(BOOK, "5.7.2")
@undetermined_without(BOOK, "5.7.2", needs=msg("the rows and modifiers of the Orders Change Table the corpus does not give (tables.orders_change)"))
def orders_change(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """5.7.1–5.7.3 (and 5.8): may the wing attempt to change its order now, and with what chance of success."""
    values = coerce("orders-change", scenario, params)
    wing = _wing(scenario, values["wing"])
    wanted: Order = values["to"]
    if wing is None:
        finding = unknown("5.7.1", msg("No wing given, and the scenario names no active wing."), field="moment.active_wing")
        return Ruling("orders-change", Verdict.UNDETERMINED, (finding,), {})
    findings: list[Finding] = []
    result: dict[str, Any] = {"wing": wing.id, "from": wing.order, "to": wanted}
    findings.extend(_when(scenario, wing))
    _name_readings(scenario, wing, wanted, result)
    forced, rally_findings = rally_forced(scenario, wing)
    if forced:
        # 5.8: the change to Rally is automatic and no attempt may be made: there is no chance to show.
        findings.append(failed("5.8", msg("Rally is forced on wing {wing} (5.8): its commander may not attempt an orders change this activation.", wing=wing.id)))
        result.update({"rally_forced": True, "new_order": Order.RALLY, "may_attempt": False})
        return Ruling("orders-change", Verdict.NO, tuple(findings), result)
    if any(f.status is Status.FAIL for f in findings):
        # 5.7.1: not now (another wing, another step, a unit has acted): no attempt, so no chance to give.
        result["may_attempt"] = False
        return Ruling("orders-change", Verdict.NO, tuple(findings), result)
    if wanted is wing.order:
        findings.append(failed("5.7.2", msg("Wing {wing} is already under {order} orders.", wing=wing.id, order=ORDER_NAMES[wanted])))
        return Ruling("orders-change", Verdict.NO, tuple(findings), result)
    rows = scenario.tables.orders_change_rows
    key = (wing.order, wanted)
    if key not in rows:
        findings.append(unknown("5.7.2", msg("The Orders Change Table row from {a} to {b} is not known; the scenario may supply it.", a=ORDER_NAMES[wing.order], b=ORDER_NAMES[wanted]), field="tables.orders_change.rows"))
        return Ruling("orders-change", verdict_from(findings), tuple(findings), result)
    row = rows[key]
    if row is None:
        findings.append(failed("5.7.2", msg("A change from {a} to {b} is impossible (Orders Change Table).", a=ORDER_NAMES[wing.order], b=ORDER_NAMES[wanted])))
        return Ruling("orders-change", Verdict.NO, tuple(findings), result)
    findings.append(passed("5.7.2", msg("Orders Change Table, {a} to {b}: success on {range} or lower.", a=ORDER_NAMES[wing.order], b=ORDER_NAMES[wanted], range=str(row)), source=row.source))
    result["success_range"] = str(row)
    modifiers, total = _modifiers(scenario, wing, wanted, findings)
    result["modifiers"] = modifiers
    if total is not None:
        rolls = success_rolls(row, total)
        result.update({"modifier": total, "succeeds_on": list(rolls), "chance": len(rolls) / 10})
        findings.append(passed("5.7.2", msg("Total modifier {mod:+d}: the change succeeds on {chance} of rolls; if it fails the wing activates under its old order.", mod=total, chance=percent(len(rolls) / 10))))
    # A modifier that does not apply (5.7.3 failing) says nothing about whether the attempt may be made.
    gates = [f for f in findings if f.citation.clause != "5.7.3" or f.status is Status.UNKNOWN]
    return Ruling("orders-change", verdict_from(gates), tuple(findings), result)


@decides(BOOK, "5.7.1")
def _when(scenario: Scenario, wing: Wing) -> list[Finding]:
    """5.7.1: only the activated wing, only in the orders change step, before any of its units has acted."""
    moment = scenario.moment
    findings = [checked(
        "5.7.1", None if moment.active_wing is None else moment.active_wing == wing.id,
        msg("Wing {wing} is the activated wing.", wing=wing.id),
        msg("Wing {wing} is not the activated wing ({active}).", wing=wing.id, active=moment.active_wing),
        msg("The scenario does not say which wing is activated."), field="moment.active_wing",
    )]
    phase_ok = None if moment.phase is None else moment.phase in ORDERS_CHANGE_PHASES
    findings.append(checked(
        "5.7.1", phase_ok,
        msg("It is the orders change step of the activation."),
        msg("It is not the orders change step (phase: {phase}).", phase=moment.phase),
        msg("The scenario does not say the step of the activation."), field="moment.phase",
    ))
    if moment.wing_has_acted is not None:
        findings.append(checked(
            "5.7.1", not moment.wing_has_acted,
            msg("No unit of the wing has acted yet."),
            msg("A unit of the wing has already acted: too late to change orders."),
        ))
    return findings


@decides(BOOK, "5.7.3")
def _modifiers(scenario: Scenario, wing: Wing, wanted: Order, findings: list[Finding]) -> tuple[list[dict[str, Any]], int | None]:
    """The Orders Change Table modifiers (values from fixtures/tables/mpbs/orders_change.json, TERMS.md: likely)."""
    table = scenario.tables.orders_change_modifiers
    applied: list[dict[str, Any]] = []
    total: int | None = 0
    commander = scenario.by_id.get(wing.commander or "")

    def apply(mod_id: str, clause: str, why, leader: Unit | None = None) -> None:
        nonlocal total
        mod = table.get(mod_id)
        if mod is None:
            findings.append(unknown(clause, msg("The value of modifier \"{id}\" is not known; the scenario may supply it.", id=mod_id), field="tables.orders_change.modifiers"))
            total = None
            return
        value = _value(mod, leader)
        if value is None:
            findings.append(unknown(clause, msg("The leadership rating of the commander is needed for modifier \"{id}\".", id=mod_id)))
            total = None
            return
        applied.append({"id": mod_id, "value": value, "source": mod.source})
        if total is not None:
            total += value
        findings.append(passed(clause, msg("Modifier {value:+d}: {why}.", value=value, why=why), source=mod.source))

    if commander is None:
        findings.append(unknown("5.7.2", msg("Wing {wing} names no Wing Commander (wings[].commander): its leadership rating is a modifier.", wing=wing.id)))
        total = None
    else:
        apply("wing-commander-leadership", "5.7.2", msg("leadership of Wing Commander {id}", id=commander.id), commander)
        army = _army_commander_near(scenario, commander)
        if army is not None:
            apply("army-commander-leadership", "5.7.2",
                  msg("Army Commander {id} is with or next to the Wing Commander", id=army.id), army)
        enemies = [e.id for e in scenario.enemies_of(commander) if e.morale is not Morale.BROKEN
                   and any(h in adjacent_hexes(commander.hexes) for h in e.hexes)]
        if enemies:
            apply("leader-adjacent-to-enemy", "5.7.2", msg("the Wing Commander is adjacent to enemy {units}, not Morale Broken", units=enemies))
    if _cavalry_wing(scenario, wing):
        if wanted is Order.CHARGE:
            apply("cavalry-wing-to-charge", "5.7.2", msg("a cavalry wing changing to Charge"))
        elif wanted is Order.RECEIVE_CHARGE:
            apply("cavalry-wing-to-receive-charge", "5.7.2", msg("a cavalry wing changing to Receive Charge"))
    if wanted is Order.RALLY:
        mostly, count, out = _mostly_broken(scenario, wing)
        if mostly:
            apply("rally-wing-mostly-broken", "5.7.3", nmsg(
                "{k} of {n} unit counted is shaken, broken or eliminated (more than half)",
                "{k} of {n} units counted are shaken, broken or eliminated (more than half)", count, k=out))
        else:
            findings.append(failed("5.7.3", nmsg(
                "{k} of {n} unit counted is shaken, broken or eliminated: not more than half, no modifier.",
                "{k} of {n} units counted are shaken, broken or eliminated: not more than half, no modifier.",
                count, k=out)))
    return applied, total


def _value(mod: Modifier, leader: Unit | None) -> int | None:
    if isinstance(mod.value, int):
        return mod.value
    if leader is None or leader.leadership is None:
        return None
    return -leader.leadership if str(mod.value).startswith("-") else leader.leadership


def _army_commander_near(scenario: Scenario, commander: Unit) -> Unit | None:
    for u in scenario.units:
        if u.type is UnitType.LEADER and u.role is LeaderRole.ARMY_COMMANDER and u.side == commander.side and u.on_map:
            if set(u.hexes) & (set(commander.hexes) | set(adjacent_hexes(commander.hexes))):
                return u
    return None


def _cavalry_wing(scenario: Scenario, wing: Wing) -> bool:
    """A wing whose units, leaders aside, are all cavalry (interpretation: docs/scenario-format-mpbs.md)."""
    troops = [u for u in scenario.wing_units(wing.id) if u.type is not UnitType.LEADER]
    return bool(troops) and all(u.type is UnitType.CAVALRY for u in troops)


def _mostly_broken(scenario: Scenario, wing: Wing) -> tuple[bool, int, int]:
    """5.7.3: more than half of the wing's units are Morale Broken, Morale Shaken or eliminated; pursuers off the map
    count as eliminated; artillery and wagons (and leaders, which are not units of the wing's strength) are ignored."""
    counted = [u for u in scenario.wing_units(wing.id) if u.type not in IGNORED_IN_5_7_3]
    out = [u for u in counted if u.eliminated or u.off_map_pursuer or u.morale in (Morale.SHAKEN, Morale.BROKEN)]
    return 2 * len(out) > len(counted), len(counted), len(out)


__all__ = ["orders_change", "mandatory_rally", "rally_forced", "Status"]
