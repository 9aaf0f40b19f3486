"""Charge Reactions: which of Hold, Stand and Shoot and Flee a charged unit may declare (``charge-reactions``).

Each reaction is decided by a run of guard clauses, one per condition of its section (``hold``,
``stand-and-shoot``, ``flee``), each yielding a finding; a reaction is allowed when all of its findings pass.
The ruling also draws the Flee direction and gives the exact odds that the charge reaches: against the unit where
it stands (Hold, Stand and Shoot), and against the unit after a 2D6 Flee directly away (Flee).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping

import numpy as np
import shapely

from ..i18n import msg
from ..outside import outside_rule
from ..ruling import Finding, Ruling, Status, Verdict, verdict_from
from . import dice
from ..coverage import decides, undetermined_without
from .geometry import (
    Arc,
    beyond,
    UnitBoundary,
    bearing_of,
    bearing_vector,
    gap,
    located_in,
    rounded,
    rounded_points,
    translation_sweeps,
)
from .obstacles import Obstacle, ObstacleKind, terrain_obstacles
from .params import unit_params
from .scenario import DeclaredCharge, Scenario, Unit, UnitState
from .text import (
    BOOK,
    CHARGE_REACTIONS,
    FLEE,
    HOLD,
    REACTION_NAMES,
    STAND_AND_SHOOT,
    arc_name,
    degrees,
    inches,
)

QUESTION = "charge-reactions"
MAX_FLEE_DISTANCE = 12  # 2D6
DRAWN_FLEE_ROLLS = (2, 7, 12)  # the shortest, the likeliest and the longest Flee, outlined on the board


def charge_reactions(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """``charge-reactions``: the reactions open to ``target`` when ``charger`` declares a charge on it."""
    charger, target = unit_params(scenario, QUESTION, params)
    distance = gap(charger.boundary, target.boundary)
    earlier = scenario.reactions_declared_by(target.id, excluding=charger.id)
    # What the target declared to earlier charges binds it as the text says: Stand and Shoot once per round, and a
    # unit that declared Flee is fleeing, so it must Flee again; Hold binds it to nothing.
    target = replace(target, state=target.state | _state_from(earlier))
    by_reaction = {
        "hold": tuple(hold_findings(target)),
        "stand-and-shoot": tuple(stand_and_shoot_findings(charger, target, distance)),
        "flee": tuple(flee_findings(charger, target)),
    }
    # A unit reacts to a charge declared on it (charge-reactions): none is open when the charge cannot be declared
    # (declaring-charges), and which are is open as long as whether it can be is.
    charge = (*_enemy_findings(charger, target), *_declaration_findings(scenario, charger, target),
              *_earlier_findings(scenario, target, earlier))
    dice = scenario.rules.charge_dice
    findings = (*charge, *(f for fs in by_reaction.values() for f in fs), *odds_findings(charger, target, dice))
    odds = charge_odds(charger.advance_rate, distance, dice)
    # Yes when every reaction is decided: one ruled out by a condition the text decides is decided, whatever else
    # about it is unknown (a Shooting Weapon not given, for a charge that comes into the flank: class 6).
    decided = [verdict_from(charge + fs) for fs in by_reaction.values()]
    verdict = Verdict.UNDETERMINED if Verdict.UNDETERMINED in decided else Verdict.YES
    if any(f.status is Status.FAIL for f in charge):
        verdict = Verdict.NO
    result = {
        "charger": charger.id,
        "target": target.id,
        "distance": round(distance, 4),
        "charger_located_in": located_in(charger.boundary, target.boundary),
        "reactions": {name: _reaction_result(name, charge + fs) for name, fs in by_reaction.items()},
        "allowed": [name for name, fs in by_reaction.items() if verdict_from(charge + fs) is Verdict.YES],
        "charge_can_be_declared": verdict_from(charge),
        "declared_earlier": [{"charger": c.charger, "reaction": c.reaction} for c in earlier],
        "flee_direction": flee_direction(charger, target),
        "charge_odds": odds,
        "chance_to_reach": str(odds["chance"]),
        **flee_odds_result(scenario, charger, target),
        "positions": {u.id: u.boundary.to_dict() for u in (charger, target)},
        "arcs": arcs_of(scenario, target),
    }
    return Ruling(QUESTION, verdict, findings, result)


@decides(BOOK, "charge-reactions")
def _enemy_findings(charger: Unit, target: Unit) -> Iterator[Finding]:
    # A charge is made on an enemy unit; only the Reactive player's charged units react.
    if not charger.is_enemy_of(target):
        yield Finding(CHARGE_REACTIONS, Status.FAIL, msg(
            "{target} is on the same side as {charger}: only an enemy unit can be charged and react",
            target=target.label, charger=charger.label))


@decides(BOOK, "hold")
def _state_from(earlier: tuple[DeclaredCharge, ...]) -> frozenset[UnitState]:
    reactions = {c.reaction for c in earlier}
    return frozenset(
        ({UnitState.STOOD_AND_SHOT} if "stand-and-shoot" in reactions else set())
        | ({UnitState.FLEEING} if "flee" in reactions else set()))


def _earlier_findings(scenario: Scenario, target: Unit, earlier: tuple[DeclaredCharge, ...]) -> Iterator[Finding]:
    """What the target declared to earlier charges (``charge-reactions``: a reaction to each charge; ``stand-and-
    shoot``: once per round; ``flee``: an already fleeing unit must Flee)."""
    for c in earlier:
        names = {"target": target.label, "charger": scenario.unit(c.charger).label}
        if c.reaction == "hold":
            yield Finding(CHARGE_REACTIONS.on("должно объявить свою реакцию"), Status.PASS, msg(
                "{target} declared Hold to the charge of {charger}; it declares its reaction to this charge anew",
                **names))
        elif c.reaction == "stand-and-shoot":
            yield Finding(STAND_AND_SHOOT.on("один раз"), Status.PASS, msg(
                "{target} declared Stand and Shoot to the charge of {charger}, and may choose it only once per round",
                **names))
        else:
            yield Finding(FLEE.on("Уже Отступающее"), Status.PASS, msg(
                "{target} declared Flee to the charge of {charger}: it is fleeing, and must declare Flee again",
                **names))


def _declaration_findings(scenario: Scenario, charger: Unit, target: Unit) -> tuple[Finding, ...]:
    """Why the charge cannot be declared, or is not known to be (``declaring-charges``: Line of Sight, the
    maximum possible charge range, a way to the target): the findings of ``can-charge`` that do not pass."""
    if not charger.is_enemy_of(target):
        return ()  # said once, by _enemy_findings
    from .charges import declaration

    asked = scenario.charge_declared_by(charger.id)
    if asked is not None and asked.target == target.id:
        # The charge asked about is already declared (the usual order: declare, then ask how the target may react):
        # whether it could be is judged as when it was, without itself among the declared charges.
        scenario = replace(scenario, declared_charges=tuple(c for c in scenario.declared_charges if c is not asked))
    declared = declaration(scenario, charger, target)
    if declared.verdict is Verdict.YES:
        return ()
    why = tuple(f for f in declared.findings if f.status is not Status.PASS)
    status = Status.FAIL if declared.verdict is Verdict.NO else Status.UNKNOWN
    names = {"charger": charger.label, "target": target.label}
    if status is Status.FAIL:
        message = msg("{charger} cannot declare a charge on {target}, so {target} declares no charge reaction",
                      **names)
    else:
        message = msg("whether {charger} can declare a charge on {target} is not known, nor therefore whether "
                      "{target} reacts", **names)
    return (*why, Finding(CHARGE_REACTIONS.on("подвергается нападению"), status, message))


def odds_findings(charger: Unit, target: Unit, dice: int) -> Iterator[Finding]:
    """The dice behind the odds: rules outside the corpus (``charge-range``, ``flee-distance``)."""
    yield Finding(outside_rule(BOOK, "charge-range").citation, Status.PASS, msg(
        "the odds that {charger} reaches {target} take its charge range as its Advance Rate {advance_rate} + "
        "{dice}D6", charger=charger.label, target=target.label, advance_rate=inches(charger.advance_rate), dice=dice))
    if not target.is_engaged:
        yield Finding(outside_rule(BOOK, "flee-distance").citation, Status.PASS, msg(
            "if {target} Flees, it moves 2D6 inches", target=target.label))


def hold_findings(target: Unit) -> Iterator[Finding]:
    """``hold``: always open, except to a unit that is already fleeing (``flee``)."""
    if target.is_fleeing:
        yield Finding(FLEE.on("Уже Отступающее"), Status.FAIL, msg(
            "Hold: {target} is already fleeing, so it must declare Flee", target=target.label))
        return
    if target.is_engaged:
        yield Finding(HOLD.on("связанные в ближнем бою"), Status.PASS, msg(
            "Hold: {target} is engaged in a melee, and Hold is the only reaction it may choose",
            target=target.label))
        return
    yield Finding(HOLD, Status.PASS, msg(
        "Hold: {target} may do nothing and receive the charge", target=target.label))


@decides(BOOK, "stand-and-shoot")
@undetermined_without(BOOK, "stand-and-shoot", needs=msg("whether the charged unit has a Shooting Weapon (units[].missile_weapons)"))
def stand_and_shoot_findings(charger: Unit, target: Unit, distance: float) -> Iterator[Finding]:
    """``stand-and-shoot``: a Shooting Weapon, a charge into the Front Arc from farther than the Advance Rate, once."""
    name = target.label
    # Engaged units may only Hold (hold).
    if target.is_engaged:
        yield Finding(HOLD.on("связанные в ближнем бою"), Status.FAIL, msg(
            "Stand and Shoot: {target} is engaged in a melee and may only Hold", target=name))
    # An already fleeing unit must Flee (flee).
    if target.is_fleeing:
        yield Finding(FLEE.on("Уже Отступающее"), Status.FAIL, msg(
            "Stand and Shoot: {target} is already fleeing, so it must declare Flee", target=name))
    # The unit has a Shooting Weapon (the glossary's English for «стрелковое оружие»).
    if target.missile_weapons is None:
        yield Finding(STAND_AND_SHOOT.on("стрелковое оружие"), Status.UNKNOWN, msg(
            "Stand and Shoot: the scenario does not say whether {target} has a Shooting Weapon", target=name),
            field="units[].missile_weapons")
    elif target.missile_weapons:
        yield Finding(STAND_AND_SHOOT.on("стрелковое оружие"), Status.PASS, msg(
            "Stand and Shoot: {target} has a Shooting Weapon", target=name))
    else:
        yield Finding(STAND_AND_SHOOT.on("стрелковое оружие"), Status.FAIL, msg(
            "Stand and Shoot: {target} has no Shooting Weapon", target=name))
    # The charge comes into the Front Arc: the charger is Located in it.
    arc = located_in(charger.boundary, target.boundary)
    if arc is Arc.FRONT:
        yield Finding(STAND_AND_SHOOT.on("фронтовой сектор"), Status.PASS, msg(
            "Stand and Shoot: {charger} is Located in the Front Arc of {target}", charger=charger.label, target=name))
    else:
        yield Finding(STAND_AND_SHOOT.on("фронтовой сектор"), Status.FAIL, msg(
            "Stand and Shoot: {charger} is Located in the {arc} of {target}, not in its Front Arc",
            charger=charger.label, arc=arc_name(arc), target=name))
    # The charge starts farther away than the charger's Advance Rate (the lowest of several): "с расстояния
    # большего, чем", so a charge from exactly the Advance Rate allows no Stand and Shoot.
    if beyond(distance, charger.advance_rate):
        yield Finding(STAND_AND_SHOOT.on("показатель Движения"), Status.PASS, msg(
            "Stand and Shoot: the charge starts {distance} away, farther than the Advance Rate of {charger} "
            "({advance_rate})", distance=inches(distance), charger=charger.label,
            advance_rate=inches(charger.advance_rate)))
    else:
        yield Finding(STAND_AND_SHOOT.on("показатель Движения"), Status.FAIL, msg(
            "Stand and Shoot: the charge starts {distance} away, not farther than the Advance Rate of {charger} "
            "({advance_rate})", distance=inches(distance), charger=charger.label,
            advance_rate=inches(charger.advance_rate)))
    # «лишь один раз в раунд, даже если подвергается нападению нескольких подразделений сразу»: once per round.
    if target.has_stood_and_shot:
        yield Finding(STAND_AND_SHOOT.on("один раз"), Status.FAIL, msg(
            "Stand and Shoot: {target} has already chosen Stand and Shoot this round", target=name))
    else:
        yield Finding(STAND_AND_SHOOT.on("один раз"), Status.PASS, msg(
            "Stand and Shoot: {target} has not yet chosen Stand and Shoot this round", target=name))


@decides(BOOK, "flee")
def flee_findings(charger: Unit, target: Unit) -> Iterator[Finding]:
    """``flee``: away from the charger along the line joining the centres; forced on a fleeing unit."""
    if target.is_engaged:
        yield Finding(HOLD.on("связанные в ближнем бою"), Status.FAIL, msg(
            "Flee: {target} is engaged in a melee and may only Hold", target=target.label))
        return
    bearing = flee_bearing(charger, target)
    if target.is_fleeing:
        yield Finding(FLEE.on("Уже Отступающее"), Status.PASS, msg(
            "Flee: {target} is already fleeing and must declare Flee; it flees directly away from {charger} "
            "(bearing {bearing})", target=target.label, charger=charger.label, bearing=degrees(bearing)))
        return
    yield Finding(FLEE, Status.PASS, msg(
        "Flee: {target} may flee directly away from {charger}, along the line through both centres "
        "(bearing {bearing}); then {charger} may try to Redirect the Charge, which the corpus does not detail",
        target=target.label, charger=charger.label, bearing=degrees(bearing)))


def _reaction_result(name: str, findings: tuple[Finding, ...]) -> dict[str, Any]:
    return {
        "name": REACTION_NAMES[name],
        "allowed": verdict_from(findings),
        "reasons": [{"clause": str(f.citation), "status": f.status, "message": f.message} for f in findings],
    }


def flee_bearing(charger: Unit, target: Unit) -> float:
    """The bearing from the charger's centre through the target's centre: directly away (``flee``)."""
    (cx, cy), (tx, ty) = charger.boundary.centre, target.boundary.centre
    return bearing_of((tx - cx, ty - cy))


def flee_direction(charger: Unit, target: Unit) -> dict[str, Any]:
    """The Flee line for drawing: from the target's centre, away from the charger, as far as 2D6 can go."""
    bearing = flee_bearing(charger, target)
    (tx, ty), (dx, dy) = target.boundary.centre, bearing_vector(bearing)
    return {
        "bearing": round(bearing, 4),
        "line": [[round(tx, 4), round(ty, 4)],
                 [round(tx + dx * MAX_FLEE_DISTANCE, 4), round(ty + dy * MAX_FLEE_DISTANCE, 4)]],
        "through": [[round(c, 4) for c in charger.boundary.centre], [round(tx, 4), round(ty, 4)]],
        "max_distance": MAX_FLEE_DISTANCE,
    }


def charge_odds(advance_rate: float, distance: float, charge_dice: int = 2) -> dict[str, Any]:
    """The chance that Advance Rate + 2D6 (``charge_dice`` D6) covers the distance between the Unit Boundaries."""
    needed = dice.charge_roll_needed(advance_rate, distance)
    return {
        "advance_rate": advance_rate,
        "distance": round(distance, 4),
        "dice": charge_dice,
        "roll_needed": max(needed, charge_dice) if needed <= 6 * charge_dice else None,
        "chance": dice.chance_charge_reaches(advance_rate, distance, charge_dice),
        "by_roll": {str(total): advance_rate + total >= distance - dice.EPS for total in dice.d6_sum(charge_dice)},
    }


@dataclass(frozen=True)
class FleeOutcome:
    """Where a Flee roll takes the target, and the gap then left to the charger (None: the corpus cannot say)."""

    roll: int
    start: UnitBoundary
    offset: tuple[float, float]
    met: tuple[Obstacle, ...] = ()
    off_board: bool = False
    distance: float | None = None

    @property
    def position(self) -> UnitBoundary:
        return self.start.moved_by(self.offset)

    def to_dict(self) -> dict[str, Any]:
        (x, y), (dx, dy) = self.start.centre, self.offset
        out: dict[str, Any] = {"roll": self.roll, "centre": [rounded(x + dx), rounded(y + dy)]}
        if self.roll in DRAWN_FLEE_ROLLS:
            out["polygon"] = rounded_points(np.asarray(self.start.corners) + self.offset)
        if self.distance is not None:
            out["distance"] = round(self.distance, 4)
        else:
            out["met"] = [o.to_dict() for o in self.met]
            out["off_board"] = self.off_board
        return out


def flee_outcomes(scenario: Scenario, charger: Unit, target: Unit) -> tuple[FleeOutcome, ...]:
    """``flee``: for each Flee roll (2D6), the target moved that far directly away from the charger, along the line
    through both centres, keeping its facing (the corpus describes no turn).  Where the move would cross the Board
    Edge, another unit or Impassable Terrain, the corpus does not say where the unit ends up: no distance.

    The eleven positions and the ground swept to each are built and tested at once (shapely's array functions).
    """
    (dx, dy) = bearing_vector(flee_bearing(charger, target))
    start = target.boundary
    rolls = np.array(list(dice.two_d6()), dtype=float)
    offsets = np.column_stack((rolls * dx, rolls * dy))
    sweeps = translation_sweeps(start, offsets)
    in_the_way = [
        *(Obstacle.of_unit(u, ObstacleKind.ENEMY_UNIT if u.is_enemy_of(target) else ObstacleKind.FRIENDLY_UNIT)
          for u in scenario.units_near(sweeps[-1]) if u.id != target.id),
        *terrain_obstacles(scenario).overlapping(sweeps[-1]),
    ]
    if in_the_way:
        hits = shapely.intersects(sweeps[:, None], np.array([o.core for o in in_the_way], dtype=object)[None, :])
    else:
        hits = np.zeros((len(rolls), 0), dtype=bool)
    off_board = ~scenario.board.holds_each(sweeps)
    clear = ~off_board & ~hits.any(axis=1)
    gaps = np.full(len(rolls), np.nan)
    if clear.any():
        moved = np.asarray(start.corners)[None, :, :] + offsets[clear][:, None, :]
        gaps[clear] = shapely.distance(charger.boundary.polygon, shapely.polygons(moved))
    return tuple(
        FleeOutcome(int(roll), start, (float(ox), float(oy)),
                    tuple(o for o, hit in zip(in_the_way, row) if hit), bool(off),
                    float(g) if ok else None)
        for roll, (ox, oy), row, off, ok, g in zip(rolls, offsets, hits, off_board, clear, gaps)
    )


def flee_odds_result(scenario: Scenario, charger: Unit, target: Unit) -> dict[str, Any]:
    """The odds that the charge still reaches the target after it Flees: a 2D6 Flee, then Advance Rate + 2D6
    against the gap left.  Rolls whose Flee the corpus cannot place are counted apart: the chance is then at least
    ``chance`` and at most ``chance`` + ``undetermined``.  Absent for a unit that may not Flee (engaged)."""
    if target.is_engaged:
        return {}
    outcomes = flee_outcomes(scenario, charger, target)
    reaches, unknown = dice.chance_charge_reaches_after_flee(
        charger.advance_rate, {o.roll: o.distance for o in outcomes}, scenario.rules.charge_dice)
    odds = {
        "chance": reaches,
        "undetermined": unknown,
        "by_flee_roll": [o.to_dict() for o in outcomes],
        "undetermined_rolls": [o.roll for o in outcomes if o.distance is None],
    }
    return {"flee_odds": odds, "chance_to_reach_after_flee": str(reaches) if not unknown.value else None}


def arcs_of(scenario: Scenario, unit: Unit) -> dict[str, Any]:
    """The unit's four arcs as quadrilaterals reaching past the whole board (a drawing clips them to it)."""
    reach = scenario.board.size
    return {"unit": unit.id, **{arc.value: unit.boundary.arc_corners(arc, reach) for arc in Arc}}
