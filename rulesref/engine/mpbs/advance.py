"""Advance after close combat (11.4.6–11.4.10): who must or may advance, into which hexes, facing which way."""
from __future__ import annotations

from typing import Any, Mapping

from ..hexgrid import HEX_DIRECTIONS, Hex, direction_to, hex_add, hex_distance
from ..i18n import msg, nmsg
from ..ruling import Finding, Ruling, Verdict, unless_undetermined
from ..coverage import decides, undetermined_without
from ..interpretations import name_in
from .clauses import BOOK, TERRAIN_HITS, failed, passed, unknown
from .describe import unit_name, where
from .params import coerce
from .scenario import Scenario, Unit
from .terms import UnitType
from .terrain import TerrainCosts

ONE_HEX_ADVANCE_TURN = 1  # 11.4.7: a one-hex unit may change facing by one vertex when it advances


@decides(BOOK, "11.4.6", "11.4.9")
def advance(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """11.4.6–11.4.10: after a close combat emptied the losers' hexes, must or may the winners advance, and how."""
    values = coerce("advance", scenario, params)
    losers: tuple[Unit, ...] = values["vacated"]
    winners: tuple[Unit, ...] = tuple(u for u in values["winners"] if u.on_map)
    attacker = values["role"] == "attacker"
    findings: list[Finding] = []
    vacated = _vacated(scenario, losers)
    result: dict[str, Any] = {"role": values["role"], "vacated": scenario.labels(vacated)}
    if not vacated:
        findings.append(failed("11.4.6", msg("No hex of {units} is left empty: there is nothing to advance into.", units=[u.id for u in losers])))
        return Ruling("advance", Verdict.NO, tuple(findings), result)
    findings.extend(_must_or_may(scenario, vacated, attacker))
    movers = [u for u in winners if _next_to(u, vacated)]
    if not movers:
        findings.append(failed("11.4.6", msg("None of {units} is adjacent to the empty hexes.", units=[u.id for u in winners])))
        return Ruling("advance", Verdict.NO, tuple(findings), result)
    chosen = _who_advances(movers, attacker, findings)
    if len(movers) > 1 and attacker:
        name_in(result, "advance-morale-rating")
    result["advancing"] = [u.id for u in chosen] if chosen is not None else None
    if chosen is None:
        return Ruling("advance", Verdict.UNDETERMINED, tuple(findings), result)
    return _advancing(scenario, chosen, vacated, attacker, findings, result)


def _advancing(scenario: Scenario, chosen: list[Unit], vacated: list[Hex], attacker: bool, findings: list[Finding],
               result: dict[str, Any]) -> Ruling:
    """11.4.7, 11.4.8, 11.4.10: where the advancing units may go, facing how, at what cost in formation hits."""
    options: list[dict[str, Any]] = []
    for unit in chosen:
        options.extend(_placements(scenario, unit, vacated, findings))
        if unit.is_two_hex and len(vacated) == 2:
            name_in(result, "advance-two-hex-both-halves")
    result["options"] = options
    result["must"] = attacker and bool(options)
    findings.append(passed("11.4.6", msg("An advance spends no movement points: a unit may advance with none left.")))
    findings.append(passed("11.4.9", msg("The advance triggers reactions (9.0), except by the units of this close combat.")))
    findings.extend(_hits(scenario, chosen, options))
    if not options:
        return Ruling("advance", Verdict.NO, tuple(findings), result)
    return Ruling("advance", unless_undetermined(findings, Verdict.YES), tuple(findings), result)


def _next_to(unit: Unit, vacated: list[Hex]) -> bool:
    return any(hex_distance(h, v) == 1 for h in unit.hexes for v in vacated)


def _vacated(scenario: Scenario, losers: tuple[Unit, ...]) -> list[Hex]:
    """The losers' hexes left empty (leaders aside), by label."""
    leaving = {u.id for u in losers}
    return sorted({h for u in losers if u.on_map for h in u.hexes
                   if all(o.id in leaving or o.type is UnitType.LEADER for o in scenario.units_in(h))},
                  key=scenario.label)


def _must_or_may(scenario: Scenario, vacated: list[Hex], attacker: bool) -> list[Finding]:
    """11.4.6 «Если гекс обороняющегося подразделения пуст, то атакующее подразделение должно продвигаться, а
    обороняющееся подразделение может продвинуться»; «Если отступает сдвоенное подразделение, то победивший игрок
    может выбрать, продвинуться ему только в один освободившийся гекс, или в оба»."""
    if attacker:
        findings = [passed("11.4.6", msg("The defender's hex {hex} is empty: the attacker must advance into it.", hex=where(scenario, vacated)))]
    else:
        findings = [passed("11.4.6", msg("The attacker's hex {hex} is empty: the defender may advance into it or stay.", hex=where(scenario, vacated)))]
    if len(vacated) == 2:
        findings.append(passed("11.4.6", msg("A two-hex unit has left: the winner may advance into one of its hexes or both.")))
    return findings


def _who_advances(movers: list[Unit], attacker: bool, findings: list[Finding]) -> list[Unit] | None:
    """11.4.6 «только одно из них продвигается … необходимо выбрать подразделение с самым высоким уровнем морали»: of
    two or more attackers only one advances, the one with the highest morale; a tie is the player's choice. The
    morale rating, by the written interpretation advance-morale-rating (the other reading: the morale state)."""
    if len(movers) == 1 or not attacker:
        return movers
    ratings = {u.id: u.morale_rating for u in movers}
    if any(r is None for r in ratings.values()):
        findings.append(unknown("11.4.6", msg("Only the attacker with the highest morale advances; the morale ratings of {units} are needed.", units=[k for k, v in ratings.items() if v is None])))
        return None
    top = max(ratings.values())
    best = [u for u in movers if u.morale_rating == top]
    if len(best) == 1:
        findings.append(passed("11.4.6", msg("Of the attackers, only {unit} advances: it has the highest morale ({rating}).", unit=best[0].id, rating=top)))
    else:
        findings.append(passed("11.4.6", msg("Attackers {units} share the highest morale ({rating}): the player chooses which one advances.", units=[u.id for u in best], rating=top)))
    return best


@decides(BOOK, "11.4.7")
def _placements(scenario: Scenario, unit: Unit, vacated: list[Hex], findings: list[Finding]) -> list[dict[str, Any]]:
    if unit.is_two_hex:
        return _two_hex_placements(scenario, unit, vacated, findings)
    options = []
    for v in vacated:
        if hex_distance(unit.hexes[0], v) != 1:
            continue
        facings = [] if unit.facing is None else [
            scenario.hexmap.vertex_name((unit.facing + turn) % 6) for turn in (0, -ONE_HEX_ADVANCE_TURN, ONE_HEX_ADVANCE_TURN)
        ]
        options.append({"unit": unit.id, "kind": "advance", "hexes": [scenario.label(v)], "entered": [scenario.label(v)], "facings": facings})
    if unit.facing is not None:
        findings.append(passed("11.4.7", msg("{unit} advances in any direction whatever its facing, and may change facing by one vertex (before any reaction).", unit=unit_name(unit))))
    return options


@decides(BOOK, "11.4.8")
def _two_hex_placements(scenario: Scenario, unit: Unit, vacated: list[Hex], findings: list[Finding]) -> list[dict[str, Any]]:
    """11.4.8: both halves advance if they can; if only one hex was vacated the unit wheels so that one half enters it.
    A two-hex unit does not change facing after advancing (beyond what its wheel does)."""
    options = _shifts(scenario, unit, vacated) if len(vacated) == 2 else []
    if len(vacated) == 1 or not any(o["kind"] == "both-halves" for o in options):
        options.extend(_wheels(scenario, unit, vacated))
    if not options:
        findings.append(failed("11.4.8", msg("{unit} can neither shift both halves nor wheel one half into the vacated hexes.", unit=unit_name(unit))))
    elif len(vacated) == 1:
        findings.append(passed("11.4.8", msg("Only one hex was vacated: {unit} wheels so that one half advances into it.", unit=unit_name(unit))))
    else:
        findings.append(passed("11.4.8", msg("Both halves of {unit} advance if they can; it does not change facing after advancing.", unit=unit_name(unit))))
    findings.append(failed("11.4.7", msg("{unit} occupies two hexes: only a one-hex unit may change facing when it advances.", unit=unit_name(unit))))
    return options


def _shifts(scenario: Scenario, unit: Unit, vacated: list[Hex]) -> list[dict[str, Any]]:
    """11.4.8: the two-hex unit moved one hex in a direction whose new hexes were all vacated: both halves into the
    two vacated hexes, or a shift along its row into one of them."""
    own, free = set(unit.hexes), set(vacated)
    facings = [scenario.hexmap.vertex_name(unit.facing)] if unit.facing is not None else []
    options = []
    for d in HEX_DIRECTIONS:
        new = tuple(hex_add(h, d) for h in unit.hexes)
        entered = [h for h in new if h not in own]
        if entered and all(h in free for h in entered):
            both = all(h in free for h in new)
            options.append({"unit": unit.id, "kind": "both-halves" if both else "shift",
                            "hexes": scenario.labels(new), "entered": scenario.labels(entered), "facings": facings})
    return options


def _wheels(scenario: Scenario, unit: Unit, vacated: list[Hex]) -> list[dict[str, Any]]:
    """11.4.8: one half stays (the pivot), the other wheels into a vacated hex next to both halves."""
    options = []
    for pivot, moving in (unit.hexes, unit.hexes[::-1]):
        for v in vacated:
            if hex_distance(v, pivot) == 1 and hex_distance(v, moving) == 1:
                facing = _wheeled_facing(unit.facing, pivot, v)
                options.append({"unit": unit.id, "kind": "wheel", "pivot": scenario.label(pivot),
                                "hexes": scenario.labels((pivot, v)), "entered": [scenario.label(v)],
                                "facings": [] if facing is None else [scenario.hexmap.vertex_name(facing)]})
    return options


def _wheeled_facing(facing: int | None, pivot: Hex, moved_to: Hex) -> int | None:
    """The facing after a wheel: perpendicular to the new row, one vertex from the old facing."""
    if facing is None:
        return None
    axis = direction_to(pivot, moved_to)
    return next(f for f in ((facing + 1) % 6, (facing - 1) % 6) if (f + 2) % 3 == axis % 3)


@decides(BOOK, "11.4.10")
@undetermined_without(BOOK, "11.4.10", needs=TERRAIN_HITS)
def _hits(scenario: Scenario, units: list[Unit], options: list[dict[str, Any]]) -> list[Finding]:
    """11.4.10: entering a hex that causes a formation hit causes one when advancing too."""
    findings = []
    for unit in units:
        costs = TerrainCosts(scenario, unit.movement_class)
        for option in (o for o in options if o["unit"] == unit.id):
            hits, missing = costs.hits_along(scenario.hexmap.parse(label) for label in option["entered"])
            option["formation_hits"] = None if missing else hits
            if missing:
                findings.append(unknown("11.4.10", msg("The formation hits caused by entering {terrain} are not given.", terrain=missing), field="terrain_types.*.formation_hits"))
    if options and not findings:
        total = max(o["formation_hits"] for o in options)
        if total:
            findings.append(failed("11.4.10", nmsg("Advancing causes up to {n} formation hit.", "Advancing causes up to {n} formation hits.", total)))
        else:
            findings.append(passed("11.4.10", msg("Advancing causes no formation hit.")))
    return findings
