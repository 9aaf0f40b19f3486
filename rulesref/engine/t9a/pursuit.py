"""Pursuit Distance and Pursuing Units (``XIII.7.C``): where each pursuer ends up, step by step.

Pursuers move one by one in the order their pursuit rolls were made.  Enemy units that fled from the melee count
as Impassable Terrain; friendly units of the same melee count as open terrain.  Only a pursuer's Front Facing
matters: whatever touches its other parts is ignored.

Step 1, ``pursuit-pivot``: the pursuer pivots about its centre to face the way the pursued unit faces.  What its
front meets during the pivot decides, the highest case first: the Board Edge (pursuit off the board), an enemy's
Unit Boundary (a charge, its arc fixed before the pivot), a friendly unit or Impassable Terrain (pivot as far as
possible, stop 1″ short, pursuit over), or nothing (step 2).

Step 2, ``pursuit-straight-forward``: straight ahead to the first of the Board Edge (``pursuit-board-edge``), a
Unit Boundary (an enemy: ``pursuit-enemy-unit``, a charge with the pursuit roll as charge range), Impassable
Terrain, or the full pursuit distance.  Unit Spacing is ignored in both steps.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, Mapping

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from ..i18n import Message, msg, nmsg
from ..outside import outside_rule
from ..ruling import Finding, InvalidScenarioError, Ruling, Status, Verdict, unless_undetermined
from . import dice
from .geometry import (
    EPS,
    Arc,
    UnitBoundary,
    closer_than,
    located_in,
    rounded_points,
    same_distance,
    within,
    rotate_point,
    turn_between,
)
from .obstacles import Obstacle, ObstacleKind, Obstacles, UnitObstacles, terrain_obstacles
from .params import unit_params
from .scenario import Pursuer, Pursuit, Scenario, Unit
from ..work import TooLarge, Work, too_large
from ..coverage import decides, undetermined_without
from .text import (
    BOOK,
    FLEE,
    PURSUING_OFF_THE_BOARD,
    PURSUIT,
    PURSUIT_BOARD_EDGE,
    PURSUIT_ENEMY_UNIT,
    PURSUIT_PIVOT,
    PURSUIT_STRAIGHT_FORWARD,
    arc_name,
    degrees,
    inches,
)

QUESTION = "pursuit"
PIVOT_STEP = 2.0  # degrees between sampled positions of the front while pivoting
STOP_SHORT = 1.0  # inches: "stops 1 inch from the obstacle"
PLACEMENT_STEP = 0.1  # inches between tried positions along the charged facing
HALF_TURN_TOLERANCE = 1e-6
BISECTION_STEPS = 40
# Positions one pursuit question may test (pivot samples, stop-short angles and bisections, placements in base
# contact), all pursuers together: a pursuer blocked while it pivots tests about 500, one that must turn about
# both ways and charge at most about 1,500 (bench/engine_t9a.py measures the worst case); the example pursuits
# test a few hundred in all.
PURSUIT_WORK = 10_000


class PivotCase(str, enum.Enum):
    """The four situations after the pivot, highest first (``pursuit-pivot``)."""

    BOARD_EDGE = "board-edge"
    CHARGE = "charge"
    STOPPED_SHORT = "stopped-short"
    CLEAR = "clear"


class ForwardOutcome(str, enum.Enum):
    """What the straight-forward move meets first (``pursuit-straight-forward``)."""

    BOARD_EDGE = "board-edge"
    ENEMY_UNIT = "enemy-unit"
    OBSTACLE = "obstacle"
    FULL_DISTANCE = "full-distance"


@dataclass(frozen=True)
class PivotResult:
    case: PivotCase
    turn: float  # degrees actually turned, clockwise positive
    position: UnitBoundary
    met: Obstacle | None = None
    charge_arc: Arc | None = None
    placed: UnitBoundary | None = None  # for a charge: the pursuer placed in base contact, or None: no room
    contact: float = 0.0
    aimed: float = 0.0  # the turn the pivot set out to make (one stopped short turns less)
    over_others: bool = False  # a charge: the front also came over a friend or Impassable Terrain in the pivot
    other_places: tuple[UnitBoundary, ...] = ()  # a charge: places as good as ``placed``, the player's choice

    def to_dict(self, as_dict: Callable[[UnitBoundary], dict] = UnitBoundary.to_dict) -> dict[str, Any]:
        return {
            "step": "pivot",
            "case": self.case,
            "turn": round(self.turn, 4),
            "position": as_dict(self.placed or self.position),
            "pivoted": as_dict(self.position),
            "met": self.met.to_dict() if self.met else None,
            "charge_arc": self.charge_arc,
            "base_contact": round(self.contact, 4) if self.placed else None,
        }


@dataclass(frozen=True)
class ForwardResult:
    outcome: ForwardOutcome
    distance: float
    start: UnitBoundary
    position: UnitBoundary
    met: Obstacle | None = None
    charge_arc: Arc | None = None

    def to_dict(self, as_dict: Callable[[UnitBoundary], dict] = UnitBoundary.to_dict) -> dict[str, Any]:
        fl, fr = self.start.corners[:2]
        gl, gr = self.position.corners[:2]
        return {
            "step": "straight-forward",
            "outcome": self.outcome,
            "distance": round(self.distance, 4),
            "position": as_dict(self.position),
            "path": rounded_points((fl, fr, gr, gl)) if self.distance > EPS else [],
            "met": self.met.to_dict() if self.met else None,
            "charge_arc": self.charge_arc,
        }


Steps = tuple["PivotResult | ForwardResult", ...]


@dataclass(frozen=True)
class PursuitMove:
    """One pursuer's move: its steps, decided; or, when the corpus does not decide them (which way round it turns),
    every way it may go (``ways``), each with its steps."""

    pursuer: Pursuer
    start: UnitBoundary
    steps: Steps
    findings: tuple[Finding, ...]
    catch: dict[str, Any] = field(default_factory=dict)
    alternatives: tuple[PivotResult, ...] = ()  # the other way round, which the shorter turn leaves aside
    ways: tuple[Steps, ...] = ()  # the undecided move's possible ways, none of them the answer's
    ignored: tuple[Obstacle, ...] = ()  # what touched a part other than the front as it began: not in steps 1-3

    @property
    def final(self) -> UnitBoundary | None:
        """Where the pursuer ends; None when that is not decided (``ways``)."""
        return None if self.ways else _end_of(self.steps, self.start)

    @property
    def outcomes(self) -> list:
        """The case of each step; for a move of several ways, their cases when all ways share them (placed at the
        player's choice), else ["undetermined"]."""
        if not self.ways:
            return [_step_case(s) for s in self.steps]
        cases = {tuple(_step_case(s) for s in way) for way in self.ways}
        return list(cases.pop()) if len(cases) == 1 else ["undetermined"]

    @property
    def determined(self) -> bool:
        return all(f.status is not Status.UNKNOWN for f in self.findings)

    @property
    def interpretations(self) -> list[str]:
        """The written interpretations this move follows (docs/geometry-tabletop.md): the shorter turn; the highest
        case over the whole pivot, when a charge wins over a friend or Impassable Terrain the front also met; what
        touched another part of the pursuer as it started ignored throughout, when there was such a thing."""
        first = self.steps[0] if self.steps else None
        found = []
        if self.alternatives and isinstance(first, PivotResult) and pivot_decided([first, *self.alternatives]):
            found.append(SHORTER_TURN)
        steps = [s for way in (self.ways or (self.steps,)) for s in way]
        if any(isinstance(s, PivotResult) and s.case is PivotCase.CHARGE and s.over_others for s in steps):
            found.append("pursuit-highest-case")
        if self.ignored:
            found.append("pursuit-touching-ignored")
        return found

    def to_dict(self) -> dict[str, Any]:
        known: dict[UnitBoundary, dict] = {}  # a position that several steps share is written out once

        def as_dict(boundary: UnitBoundary) -> dict:
            if boundary not in known:
                known[boundary] = boundary.to_dict()
            return dict(known[boundary])

        final = self.final
        return {
            "unit": self.pursuer.unit,
            "pursues": self.pursuer.pursues,
            "roll": self.pursuer.roll,
            "start": as_dict(self.start),
            "steps": [s.to_dict(as_dict) for s in self.steps],
            "final": as_dict(final) if final is not None else None,
            "outcome": self.outcomes[-1] if self.outcomes else None,
            "determined": self.determined,
            "catch_odds": self.catch,
            "other_way_round": [p.to_dict(as_dict) for p in self.alternatives],
            "ways": [{"steps": [s.to_dict(as_dict) for s in way], "final": as_dict(_end_of(way, self.start)),
                      "outcome": _step_case(way[-1]) if way else None} for way in self.ways],
            "interpretations": self.interpretations,
        }


def touching_behind_the_front(start: UnitBoundary, obstacles: Obstacles) -> list[Obstacle]:
    """``XIII.7.C`` «подразделения, непроходимый ландшафт и край стола, которые соприкасаются с другими частями
    преследующего подразделения, игнорируются на шаге 1-3»: what touches a part of the pursuer other than its
    Front Facing where the pursuit begins (and not the front itself), ignored throughout steps 1 to 3, even where
    the pivot later brings the front over it (the interpretation ``pursuit-touching-ignored``)."""
    # The spatial index holds shapes shrunk by EPS: ask it a little wider, then measure the outlines themselves.
    return [o for o in obstacles.near(start.polygon, 3 * EPS)
            if float(shapely.distance(o.shape, start.polygon)) <= EPS
            and float(shapely.distance(o.shape, start.front_facing)) > EPS]


def _end_of(steps: Steps, start: UnitBoundary) -> UnitBoundary:
    last = steps[-1] if steps else None
    if isinstance(last, PivotResult):
        return last.placed or last.position
    return last.position if last else start


def _step_case(step: "PivotResult | ForwardResult"):
    return step.case if isinstance(step, PivotResult) else step.outcome


# --------------------------------------------------------------------------------------------- the question

def pursuit(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """``XIII.7.C``: every pursuer of the scenario's pursuit, in the order of its roll."""
    unit_params(scenario, QUESTION, params)  # it takes none: refuses any, and parameters that are not an object
    if scenario.pursuit is None:
        raise InvalidScenarioError([("pursuit", msg("the scenario has no pursuit: give fled units and pursuers"))])
    plan = scenario.pursuit
    findings: list[Finding] = list(melee_findings(scenario, plan))
    moves, more, undecided = _move_pursuers(scenario, plan)
    findings.extend(more)
    verdict = unless_undetermined(findings, Verdict.YES)
    result = {
        "pursuers": [m.to_dict() for m in moves],
        "fled": [
            {"unit": f.unit, "destroyed": f.destroyed, "roll": f.roll,
             "position": scenario.unit(f.unit).boundary.to_dict()}
            for f in plan.fled
        ],
        "catch_odds": dice.chance_pursuit_catches(ties_catch=scenario.rules.ties_catch),
        "chance_to_catch": str(dice.chance_pursuit_catches(ties_catch=scenario.rules.ties_catch)),
        "outcomes": {m.pursuer.unit: m.outcomes for m in moves},
        "undecided": undecided,
        "interpretations": sorted({i for m in moves for i in m.interpretations}),
    }
    return Ruling(QUESTION, verdict, tuple(findings), result)


def _move_pursuers(scenario: Scenario, plan: Pursuit) -> tuple[list[PursuitMove], list[Finding], list[str]]:
    """``XIII.7.C``: «в порядке, в котором делались их броски»: each pursuer moves after the ones before it. The
    pursuers are units of the melee, open terrain to one another (steps 1 and 2), so none depends on where another
    ended (one whose way is not decided, among them). Returns the moves, their findings, and the pursuers not
    placed (past the work budget)."""
    moves: list[PursuitMove] = []
    findings: list[Finding] = []
    work = Work(PURSUIT_WORK, "positions")
    for index, pursuer in enumerate(plan.pursuers):
        try:
            move = pursue(scenario, pursuer, _obstacles(scenario, plan, pursuer), work)
        except TooLarge as exc:
            undecided = [p.unit for p in plan.pursuers[index:]]
            findings.append(Finding(PURSUIT, Status.UNKNOWN, msg(
                "{units}: {why}", units=[scenario.unit(u).label for u in undecided], why=too_large(exc))))
            return moves, findings, undecided
        moves.append(move)
        findings.extend(move.findings)
    return moves, findings, []


def _obstacles(scenario: Scenario, plan: Pursuit, pursuer: Pursuer) -> Obstacles:
    """What a pursuer's front can meet; pursuers of one melee are friends of one another, and so open terrain: one
    set of obstacles per side, kept with the scenario."""
    unit = scenario.unit(pursuer.unit)
    key = ("pursuit-obstacles", unit.side)
    if key not in scenario.derived:
        scenario.derived[key] = pursuit_obstacles(scenario, plan, unit)
    return scenario.derived[key]


@decides(BOOK, "XIII.7.C")
def melee_findings(scenario: Scenario, plan: Pursuit) -> Iterator[Finding]:
    """``XIII.7.C`` for the melee as a whole: the order the pursuers move in, whether each fled unit was caught,
    and the fled units that now count as Impassable Terrain."""
    yield _order_finding(scenario, plan)
    yield from _caught_findings(scenario, plan)
    # Enemy units that fled from this melee now count as Impassable Terrain.
    standing = [scenario.unit(f.unit).label for f in plan.fled if not f.destroyed]
    if standing:
        yield Finding(PURSUIT.on("Непроходимого ландшафта"), Status.PASS, msg(
            "the units that fled from this melee count as Impassable Terrain: {units}", units=standing))


def _order_finding(scenario: Scenario, plan: Pursuit) -> Finding:
    """``XIII.7.C`` «в порядке, в котором делались их броски»: pursuers move in the order of their pursuit rolls;
    a melee nobody pursues from is said in words."""
    order = [scenario.unit(p.unit).label for p in plan.pursuers]
    if not order:
        return Finding(PURSUIT, Status.PASS, msg(
            "nobody pursues: no unit of the melee pursues {fled}", fled=[scenario.unit(f.unit).label for f in plan.fled]))
    return Finding(PURSUIT.on("в порядке"), Status.PASS, nmsg(
        "{n} pursuer moves, in the order of the pursuit rolls: {order}",
        "{n} pursuers move one at a time, in the order of their pursuit rolls: {order}", len(order), order=order))


def _caught_findings(scenario: Scenario, plan: Pursuit) -> Iterator[Finding]:
    """Whether each fled unit was caught: a pursuit roll equal to or higher than its flee roll catches it (a rule
    outside the corpus, ``pursuit-catches``, which a scenario may change); without the roll nor the outcome it is
    not known."""
    catches = outside_rule("t9a", "pursuit-catches").citation
    for i, fled in enumerate(plan.fled):
        name = scenario.unit(fled.unit).label
        rolls = [p.roll for p in plan.pursuers if p.pursues == fled.unit]
        if fled.destroyed is None:
            yield Finding(catches, Status.UNKNOWN, msg(
                "whether {fled} was caught is not known: the scenario gives neither its flee roll "
                "nor whether it was caught; it is shown "
                "still on the board, as Impassable Terrain", fled=name), field=f"pursuit.fled[{i}].roll")
        elif not fled.given and fled.roll is not None:
            rule = (msg("a pursuit roll equal to or higher than the flee roll catches") if scenario.rules.ties_catch
                    else msg("only a pursuit roll higher than the flee roll catches (as the scenario says)"))
            yield Finding(catches, Status.PASS, msg(
                "{fled} fled {flee}; pursuit rolls {rolls}: {outcome} ({rule})", fled=name, flee=fled.roll,
                rolls=rolls or [msg("none")], rule=rule,
                outcome=msg("caught and destroyed") if fled.destroyed else msg("it escapes")))


def pursue(scenario: Scenario, pursuer: Pursuer, obstacles: Obstacles, work: Work | None = None) -> PursuitMove:
    """One pursuer's Pursuit Move: step 1, then step 2 if the pivot met nothing; the positions it tests are spent
    from ``work`` (the question's budget)."""
    work = work or Work(PURSUIT_WORK, "positions")
    plan = scenario.pursuit
    assert plan is not None
    unit = scenario.unit(pursuer.unit)
    fled = scenario.unit(pursuer.pursues)
    findings: list[Finding] = []
    steps: list[PivotResult | ForwardResult] = []
    ignored = tuple(touching_behind_the_front(unit.boundary, obstacles))
    if ignored:
        obstacles = obstacles.without(*(o.id for o in ignored))
        findings.append(Finding(PURSUIT_PIVOT.on("игнорируются на шаге 1-3"), Status.PASS, msg(
            "what touches {pursuer} elsewhere than its front as the pursuit begins is ignored in steps 1 to 3: "
            "{things}", things=[o.describe() for o in ignored], pursuer=unit.label)))
    near = anything_within_reach(unit.boundary, obstacles)  # the same both ways round
    pivots = [replace(pivot(scenario, unit, fled.boundary.facing, obstacles, turn, work, near), aimed=turn)
              for turn in pivot_turns(unit, fled)]
    findings.extend(pivot_findings(unit, fled, pivots))
    catch = catch_odds(plan, pursuer, scenario.rules.ties_catch)
    if not pivot_decided(pivots):
        # Which way round is not decided: each way with where it leads, none of them the answer's.
        ways = tuple(way for p in pivots for way in _ways_of(scenario, unit, p, pursuer.roll, obstacles))
        return PursuitMove(pursuer, unit.boundary, (), tuple(findings), catch, (), ways, ignored)
    first = pivots[0]
    if first.other_places:
        # Placed in base contact at two places equally near (XIII.7.C «сохраняя центр … как можно ближе»): the
        # player's choice, each a way of the move; the charge itself is decided.
        findings.append(Finding(PURSUIT_PIVOT, Status.PASS, nmsg(
            "{pursuer} may be placed in base contact at {n} place, equally near where it was: the player chooses",
            "{pursuer} may be placed in base contact at {n} places, equally near where it was: the player chooses",
            1 + len(first.other_places), pursuer=unit.label)))
        ways = tuple((replace(first, placed=p, other_places=()),) for p in (first.placed, *first.other_places))
        return PursuitMove(pursuer, unit.boundary, (), tuple(findings), catch, (), ways, ignored)
    steps.append(first)
    if first.case is PivotCase.CLEAR:
        forward = straight_forward(scenario, unit, first.position, pursuer.roll, obstacles)
        steps.append(forward)
        findings.extend(forward_findings(unit, pursuer.roll, forward, scenario))
    alternatives = tuple(pivots[1:]) if len({_outcome(p) for p in pivots}) > 1 else ()
    return PursuitMove(pursuer, unit.boundary, tuple(steps), tuple(findings), catch, alternatives, ignored=ignored)


def _ways_of(scenario: Scenario, unit: Unit, turned: PivotResult, roll: int, obstacles: Obstacles) -> list[Steps]:
    """The ways one way round leads to: the pivot, then the move straight forward when the pivot met nothing; a
    charge placed at any of its equally good places."""
    if turned.case is PivotCase.CHARGE and turned.other_places:
        return [(replace(turned, placed=p, other_places=()),) for p in (turned.placed, *turned.other_places)]
    if turned.case is not PivotCase.CLEAR:
        return [(turned,)]
    return [(turned, straight_forward(scenario, unit, turned.position, roll, obstacles))]


def pursuit_obstacles(scenario: Scenario, plan: Pursuit, unit: Unit) -> Obstacles:
    """What a pursuer's front can meet: enemies, fled units, friendly units outside the melee, impassable terrain
    (the units through the scenario's spatial index, each made an obstacle only when the front comes near it)."""
    fled = {f.unit: f for f in plan.fled}
    melee = plan.units_in_melee

    def kind_of(other: Unit) -> ObstacleKind | None:
        if other.id in fled:
            return None if fled[other.id].destroyed else ObstacleKind.FLED_UNIT
        if other.is_enemy_of(unit):
            return ObstacleKind.ENEMY_UNIT
        return None if other.id in melee else ObstacleKind.FRIENDLY_UNIT  # friends of the melee are open terrain

    pursuers = frozenset(p.unit for p in plan.pursuers)
    return UnitObstacles(scenario, kind_of, then=terrain_obstacles(scenario), excluded=pursuers)


def catch_odds(plan: Pursuit, pursuer: Pursuer, ties_catch: bool = True) -> dict[str, Any]:
    """The chance that a pursuit roll catches the fled unit: 2D6 against 2D6, equal or higher (``pursuit-catches``,
    ``pursuit-distance``, ``flee-distance``: rules outside the corpus)."""
    fled = plan.fled_unit(pursuer.pursues)
    odds: dict[str, Any] = {"before_the_rolls": dice.chance_pursuit_catches(ties_catch=ties_catch)}
    if fled.roll is not None:
        odds["given_flee_roll"] = dice.chance_pursuit_catches(fled.roll, ties_catch)
        odds["caught"] = pursuer.roll >= fled.roll if ties_catch else pursuer.roll > fled.roll
    return odds


# ------------------------------------------------------------------------------------------------ step 1

def pivot_turns(unit: Unit, fled: Unit) -> tuple[float, ...]:
    """Both ways round to the pursued unit's facing, the shorter first: the text says the pursuer turns to face
    that way but not which way it turns (``pursuit-pivot``); no turn at all when it already faces it."""
    turn = turn_between(unit.boundary.facing, fled.boundary.facing)
    if abs(turn) < HALF_TURN_TOLERANCE:
        return (0.0,)
    if abs(abs(turn) - 180.0) < HALF_TURN_TOLERANCE:
        return (180.0, -180.0)
    return (turn, turn - math.copysign(360.0, turn))


def _case(p: PivotResult) -> tuple:
    """Which of the four cases a way of pivoting ends in, and what its front met."""
    return (p.case, p.met.id if p.met else None)


def _outcome(p: PivotResult) -> tuple:
    """What tells two ways of pivoting apart: the case, what the front met, and where the pursuer ends up."""
    final = p.placed or p.position
    return (*_case(p), tuple(round(c, 3) for c in final.centre), round(final.facing % 360.0, 3))


def pivot_decided(pivots: list[PivotResult]) -> bool:
    """Whether the pivot is decided: both ways end alike, or they end in the same case at different places and
    the pursuer follows the written interpretation, the shorter turn (there is none for a half turn)."""
    if len({_outcome(p) for p in pivots}) == 1:
        return True
    return len({_case(p) for p in pivots}) == 1 and abs(abs(pivots[0].aimed) - 180.0) >= HALF_TURN_TOLERANCE


#: The written interpretation a pivot follows when both ways round end in the same case (docs/geometry-tabletop.md).
SHORTER_TURN = "pursuit-pivot-shorter-turn"


def front_at(boundary: UnitBoundary, turn: float) -> tuple[tuple[float, float], tuple[float, float]]:
    fl, fr = boundary.corners[:2]
    return rotate_point(fl, boundary.centre, turn), rotate_point(fr, boundary.centre, turn)


def fronts_at(boundary: UnitBoundary, turns: np.ndarray) -> np.ndarray:
    """The Front Facing after each of several turns about the centre: shape (turns, 2 ends, 2)."""
    corners = np.array(boundary.corners[:2]) - np.array(boundary.centre)
    radians = np.radians(turns)[:, None]
    cos, sin = np.cos(radians), np.sin(radians)
    x = corners[None, :, 0] * cos + corners[None, :, 1] * sin
    y = -corners[None, :, 0] * sin + corners[None, :, 1] * cos
    return np.stack((x, y), axis=2) + np.array(boundary.centre)


def front_positions(boundary: UnitBoundary, turn: float) -> np.ndarray:
    """The Front Facing at sampled angles of a pivot, every PIVOT_STEP degrees or less: (angles, 2 ends, 2)."""
    return fronts_at(boundary, np.linspace(0.0, turn, pivot_samples(turn) + 1))


def pivot_samples(turn: float) -> int:
    """How many steps of at most PIVOT_STEP degrees a pivot of ``turn`` degrees is sampled in."""
    return max(1, math.ceil(abs(turn) / PIVOT_STEP))


def front_sweep(fronts: np.ndarray) -> list:
    """The ground the Front Facing covers between each pair of sampled positions, in the order of the pivot."""
    if len(fronts) < 2 or np.allclose(fronts[0], fronts[-1], atol=EPS):
        return [LineString(fronts[0])]
    quads = np.concatenate((fronts[:-1], fronts[1:]), axis=1)
    return list(shapely.convex_hull(shapely.multipoints(quads)))


def anything_within_reach(boundary: UnitBoundary, obstacles: Obstacles) -> bool:
    """Whether any obstacle comes within the half-diagonal of the centre: no point of the front is ever farther
    from it, so with nothing that near a pivot meets nothing, whichever way and however far it turns."""
    return bool(obstacles.near(shapely.Point(boundary.centre), math.hypot(boundary.width, boundary.depth) / 2))


def pivot(scenario: Scenario, unit: Unit, facing: float, obstacles: Obstacles, turn: float,
          work: Work | None = None, near: bool | None = None) -> PivotResult:
    """``pursuit-pivot``: turn about the centre; the highest of the four cases met by the front decides.

    As the text reads, the Board Edge counts *after* the pivot: the front, facing the way the fled unit faces, is
    not strictly inside the board (it touches or crosses the edge); an edge the front only sweeps over while it
    turns is not a case (docs/geometry-tabletop.md). An enemy's Unit Boundary counts when the front comes over it
    *during* the pivot, a friendly unit or Impassable Terrain when it is *in the way* of the pivot.
    The hull of all the sampled fronts holds every piece of the sweep: when it is clear of every obstacle, so is
    the sweep (the usual case), and the pieces need not be tested one by one.
    """
    work = work or Work(PURSUIT_WORK, "positions")
    start = unit.boundary
    pivoted = start.pivoted(turn)
    work.spend(pivot_samples(turn) + 1)
    # 1. After the pivot the front touches the Board Edge: pursuit off the board.
    front = LineString(pivoted.corners[:2])
    if not scenario.board.holds(front) or shapely.distance(front, scenario.board.edge) <= EPS:
        return PivotResult(PivotCase.BOARD_EDGE, turn, pivoted)
    # Nothing within reach of the front (the usual case, and the cheapest test; ``near`` when the caller knows).
    if not (anything_within_reach(start, obstacles) if near is None else near):
        return PivotResult(PivotCase.CLEAR, turn, pivoted)
    fronts = front_positions(start, turn)
    whole = shapely.convex_hull(shapely.multipoints(fronts.reshape(-1, 2)))
    if not obstacles.overlapping(whole):
        return PivotResult(PivotCase.CLEAR, turn, pivoted)
    pieces = front_sweep(fronts)
    hits = obstacles.overlapping_any(pieces)
    # 2. The front comes over an enemy's Unit Boundary: a charge, its arc fixed before the pivot.
    enemies = [o for _, o in hits if o.kind is ObstacleKind.ENEMY_UNIT]
    if enemies:
        return _charge_case(scenario, unit, turn, pivoted, enemies[0], hits, obstacles, work)
    # 3. A friendly unit or Impassable Terrain in the way: pivot as far as possible, stop 1" short.
    # Each obstacle once, in the order the sweep meets it (one piece of terrain is in the way of many pieces).
    blocking = list({(o.kind, o.id): o for _, o in hits if o.kind is not ObstacleKind.ENEMY_UNIT}.values())
    if blocking:
        stop = stop_short_turn(start, turn, Obstacles(blocking), work)
        return PivotResult(PivotCase.STOPPED_SHORT, stop, start.pivoted(stop), blocking[0])
    # 4. Nothing met: on to step 2.
    return PivotResult(PivotCase.CLEAR, turn, pivoted)


def _charge_case(scenario: Scenario, unit: Unit, turn: float, pivoted: UnitBoundary, met: Obstacle,
                 hits: list[tuple[int, Obstacle]], obstacles: Obstacles, work: Work) -> PivotResult:
    """Case 2 of the pivot: «совершает нападение на это подразделение противника» into the arc fixed before the
    pivot, placed in base contact (the places equally good, the player's choice)."""
    enemy = scenario.unit(met.id)
    arc = located_in(unit.boundary, enemy.boundary)
    places = place_in_contact(scenario, unit, enemy, arc, obstacles, work)
    placed = places[0] if places else None
    contact = base_contact(placed, enemy.boundary, arc) if placed else 0.0
    others = any(o.kind is not ObstacleKind.ENEMY_UNIT for _, o in hits)
    return PivotResult(PivotCase.CHARGE, turn, pivoted, met, arc, placed, contact, over_others=others,
                       other_places=places[1:])


def stop_short_turn(start: UnitBoundary, turn: float, obstacles: Obstacles, work: Work | None = None) -> float:
    """The largest part of the turn after which the front is still 1" from every obstacle it would meet.

    The front is sampled every half of PIVOT_STEP, then the angle bisected between the last sample that keeps its
    distance and the first that does not. No point of the front moves more than the half-diagonal times the angle
    turned, so between those two samples only the obstacles that come within that much of 1" can be met: the
    bisection measures those alone (the answer is the same as measuring every one)."""
    work = work or Work(PURSUIT_WORK, "positions")
    shapes = np.array([o.shape for o in obstacles], dtype=object)

    def clearance(angle: float, among: np.ndarray = shapes) -> float:
        return float(np.min(shapely.distance(LineString(front_at(start, angle)), among)))

    work.spend()
    if closer_than(clearance(0.0), STOP_SHORT):
        return 0.0
    angles = np.linspace(0.0, turn, max(2, math.ceil(abs(turn) / (PIVOT_STEP / 4)) + 1))
    work.spend(len(angles))
    fronts = shapely.linestrings(fronts_at(start, angles))
    gaps = shapely.distance(fronts[None, :], shapes[:, None])  # (obstacles, angles)
    too_close = np.nonzero([closer_than(g, STOP_SHORT) for g in gaps.min(axis=0)])[0]
    if not len(too_close):
        return turn
    k = int(too_close[0])
    low, high = float(angles[k - 1]), float(angles[k])
    reach = math.hypot(start.width, start.depth) / 2 * math.radians(abs(high - low)) + EPS
    near = shapes[gaps[:, k - 1] < STOP_SHORT + reach]
    work.spend(BISECTION_STEPS)
    for _ in range(BISECTION_STEPS):  # to well below any measurable angle
        middle = (low + high) / 2
        low, high = (middle, high) if clearance(middle, near) >= STOP_SHORT else (low, middle)
    return low


def charge_facing(target: UnitBoundary, arc: Arc) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The charged side: its midpoint, its direction along (left to right seen from outside), and its length."""
    left, right = target.facing_segment(arc)
    length = math.dist(left, right)
    along = ((right[0] - left[0]) / length, (right[1] - left[1]) / length)
    middle = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
    return middle, along, length


def place_in_contact(scenario: Scenario, unit: Unit, enemy: Unit, arc: Arc, obstacles: Obstacles,
                     work: Work | None = None) -> tuple[UnitBoundary, ...]:
    """The pursuer put back in base contact with the charged facing, in ``arc``, maximising base contact, its
    centre as near as possible to where it was (``pursuit-pivot``): the places that do so equally well (one, unless
    two are equally near: then the choice is the player's), or none when there is no room. Positions are tried every
    PLACEMENT_STEP along the side, out from its middle both ways (so that a mirror image tries the mirrored ones),
    and the exact best one; they are spent from ``work``."""
    candidates = _contact_candidates(unit.boundary, enemy.boundary, arc, work)
    if not candidates:
        return ()
    blocked = {i for i, _ in obstacles.without(enemy.id).overlapping_any([c[2].core for c in candidates])}
    on_board = scenario.board.holds_each(np.array([c[2].polygon for c in candidates], dtype=object))
    free = [c for i, c in enumerate(candidates) if i not in blocked and on_board[i]]
    if not free:
        return ()
    return _best_places(free)


def _best_places(free: list[tuple[float, float, UnitBoundary]]) -> tuple[UnitBoundary, ...]:
    """Of the free places, those with the most base contact and, among them, the centre nearest the old one (ties
    within EPS; one place tried twice counts once)."""
    most = max(c[0] for c in free)
    fullest = [c for c in free if same_distance(c[0], most)]
    nearest = min(c[1] for c in fullest)
    places: list[UnitBoundary] = []
    for _, d, place in fullest:
        if same_distance(d, nearest) and not any(same_distance(math.dist(place.centre, p.centre), 0.0) for p in places):
            places.append(place)
    return tuple(places)


def _contact_candidates(start: UnitBoundary, target: UnitBoundary, arc: Arc,
                        work: Work | None) -> list[tuple[float, float, UnitBoundary]]:
    """(base contact, distance from the old centre, place) for each place tried along the charged side, in ``arc``."""
    middle, along, length = charge_facing(target, arc)
    outward = (along[1], -along[0])  # seen from outside, "right" along the side turns the normal outward
    facing = math.degrees(math.atan2(-outward[0], -outward[1])) % 360.0
    half_width, half_depth = start.width / 2, start.depth / 2
    reach = length / 2 + half_width
    steps = np.arange(0.0, reach + PLACEMENT_STEP / 2, PLACEMENT_STEP)
    offsets = np.unique(np.concatenate((-steps, steps, [_nearest_offset(start.centre, middle, along, length,
                                                                         half_width)])))
    (work or Work(PURSUIT_WORK, "positions")).spend(len(offsets))
    candidates = []
    for s in offsets:
        centre = (middle[0] + along[0] * s + outward[0] * half_depth, middle[1] + along[1] * s + outward[1] * half_depth)
        placed = UnitBoundary(centre, start.width, start.depth, facing)
        contact = min(s + half_width, length / 2) - max(s - half_width, -length / 2)
        if contact > EPS and located_in(placed, target) is arc:
            candidates.append((contact, math.dist(centre, start.centre), placed))
    return candidates


def _nearest_offset(centre, middle, along, length, half_width) -> float:
    """The offset along the side that keeps full contact and brings the centre nearest to where it was."""
    slack = abs(length / 2 - half_width)
    projected = (centre[0] - middle[0]) * along[0] + (centre[1] - middle[1]) * along[1]
    return min(max(projected, -slack), slack)


def base_contact(placed: UnitBoundary, target: UnitBoundary, arc: Arc) -> float:
    left, right = target.facing_segment(arc)
    return float(shapely.intersection(LineString([left, right]), placed.polygon.buffer(EPS)).length)


@decides(BOOK, "pursuit-pivot")
def pivot_findings(unit: Unit, fled: Unit, pivots: list[PivotResult]) -> Iterator[Finding]:
    name = unit.label
    first = pivots[0]
    yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
        "{pursuer} pivots about its centre to face the way {fled} faces (bearing {bearing})",
        pursuer=name, fled=fled.label, bearing=degrees(fled.boundary.facing)))
    # The corpus does not say which way the pursuer turns; it matters only where the two ways end differently:
    # in different cases it is undetermined; in the same case at different places the shorter turn is taken, as
    # a written interpretation named in the answer.
    if len({_outcome(p) for p in pivots}) > 1 and pivot_decided(pivots):
        yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
            "interpretation: the corpus does not say which way {pursuer} turns; it "
            "takes the shorter turn ({turn}); the other way round ({other_turn}) it would end in the same case at "
            "another place: "
            "{other}", pursuer=name, turn=degrees(abs(pivots[0].aimed)), other_turn=degrees(abs(pivots[1].aimed)),
            other=pivot_summary(pivots[1])), source="docs/geometry-tabletop.md")
        yield from pivot_case_findings(unit, first)
        return
    if len({_outcome(p) for p in pivots}) > 1:
        one, other = pivots[0], pivots[1]
        if one.turn < 0:
            one, other = other, one
        yield Finding(PURSUIT_PIVOT, Status.UNKNOWN, msg(
            "the corpus does not say which way {pursuer} turns, and the two ways end differently: turning "
            "clockwise ({one_turn}): {one}; anticlockwise ({other_turn}): {other}", pursuer=name,
            one_turn=degrees(abs(one.aimed)), one=pivot_summary(one),
            other_turn=degrees(abs(other.aimed)), other=pivot_summary(other)))
        return
    if len(pivots) > 1:
        yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
            "whichever way {pursuer} turns, clockwise or anticlockwise, the pivot ends the same", pursuer=name))
    yield from pivot_case_findings(unit, first)


def pivot_summary(result: PivotResult) -> Message:
    met = result.met.describe() if result.met else msg("nothing")
    return {
        PivotCase.BOARD_EDGE: msg("the front touches the Board Edge"),
        PivotCase.CHARGE: msg("a charge on {met}", met=met),
        PivotCase.STOPPED_SHORT: msg("stops 1″ short of {met}", met=met),
        PivotCase.CLEAR: msg("the front meets nothing"),
    }[result.case]


def pivot_case_findings(unit: Unit, result: PivotResult) -> Iterator[Finding]:
    name = unit.label
    if result.case is PivotCase.BOARD_EDGE:
        yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
            "after the pivot the front of {pursuer} touches the Board Edge: it has pursued off the board",
            pursuer=name))
        yield Finding(PURSUING_OFF_THE_BOARD, Status.UNKNOWN, msg(
            "{pursuer} pursues off the board; what happens next is not in the corpus", pursuer=name))
        return
    if result.case is PivotCase.CHARGE:
        assert result.met is not None
        yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
            "the front of {pursuer} comes over {enemy} during the pivot: a charge into its {arc}, the arc in which "
            "{pursuer} was Located before pivoting", pursuer=name, enemy=result.met.label,
            arc=arc_name(result.charge_arc)))
        if result.placed is None:
            yield Finding(PURSUING_OFF_THE_BOARD, Status.UNKNOWN, msg(
                "there is no room to place {pursuer} in base contact with {enemy}, which now counts as Impassable "
                "Terrain; the rule refers to Pursuing off the Board, which is not in the corpus",
                pursuer=name, enemy=result.met.label))
        else:
            yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
                "{pursuer} is placed in base contact with {enemy} ({contact} of contact), its centre as near as "
                "possible to where it was", pursuer=name, enemy=result.met.label, contact=inches(result.contact)))
        return
    if result.case is PivotCase.STOPPED_SHORT:
        assert result.met is not None
        yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
            "{met} is in the way of the pivot: {pursuer} turns {turn} only, stops 1″ from it, and its pursuit "
            "ends", met=result.met.describe(), pursuer=name, turn=degrees(abs(result.turn))))
        return
    yield Finding(PURSUIT_PIVOT, Status.PASS, msg(
        "the front of {pursuer} meets nothing while pivoting {turn}: on to step 2",
        pursuer=name, turn=degrees(abs(result.turn))))


# ------------------------------------------------------------------------------------------------ step 2

def straight_forward(scenario: Scenario, unit: Unit, start: UnitBoundary, roll: int,
                     obstacles: Obstacles) -> ForwardResult:
    """``pursuit-straight-forward``: the first of Board Edge, a Unit Boundary, Impassable Terrain, full distance."""
    # The strip reaches EPS past the roll: a Unit Boundary or Impassable Terrain whose edge is exactly the roll ahead
    # (its core EPS beyond) is met there — base contact at exactly the pursuit distance is contact.
    ahead_of_front = obstacles.overlapping(front_strip(start, roll + 2 * EPS))
    edge_distance, *distances = distances_ahead(start, [scenario.board.outline, *(o.shape for o in ahead_of_front)])
    events = [(float(roll), 3, ForwardOutcome.FULL_DISTANCE, None)]
    if within(edge_distance, roll):
        events.append((float(edge_distance), 0, ForwardOutcome.BOARD_EDGE, None))
    for obstacle, ahead in zip(ahead_of_front, distances):
        if within(ahead, roll):  # base contact at exactly the pursuit roll is contact
            kind = ForwardOutcome.ENEMY_UNIT if obstacle.kind is ObstacleKind.ENEMY_UNIT else ForwardOutcome.OBSTACLE
            events.append((float(ahead), 1 if kind is ForwardOutcome.ENEMY_UNIT else 2, kind, obstacle))
    # The first met; what is met at the same distance (within EPS) is taken Board Edge, enemy, other.
    nearest = min(e[0] for e in events)
    distance, _, outcome, met = min((e for e in events if same_distance(e[0], nearest)), key=lambda e: e[1])
    arc = None
    if outcome is ForwardOutcome.ENEMY_UNIT:
        arc = located_in(unit.boundary, scenario.unit(met.id).boundary)  # fixed in step 1, before the pivot
    return ForwardResult(outcome, distance, start, start.advanced(distance), met, arc)


def front_strip(boundary: UnitBoundary, length: float) -> Polygon:
    """The ground the Front Facing sweeps moving straight ahead; its sides pulled in by EPS so that anything
    flush with the unit's flanks is not in the way."""
    a, b = boundary.width / 2 - EPS, boundary.depth / 2
    (cx, cy), (rx, ry), (fx, fy) = boundary.centre, boundary.right, boundary.forward
    u = np.array((-a, a, a, -a))
    v = np.array((b, b, b + length, b + length))
    return shapely.polygons(np.column_stack((cx + u * rx + v * fx, cy + u * ry + v * fy)))


def distance_ahead(boundary: UnitBoundary, shape: Polygon) -> float:
    """How far the Front Facing moves straight ahead before it touches the outline of ``shape`` (inf: never)."""
    return float(distances_ahead(boundary, [shape])[0])


def distances_ahead(boundary: UnitBoundary, shapes: list[Polygon]) -> np.ndarray:
    """For each shape, how far the Front Facing moves straight ahead before it touches its outline (inf: never).

    In the unit's own coordinates the front sweeps the band |u| < half its width ahead of it; the answer is the
    nearest point of the outline inside that band: a vertex in it, or where an edge crosses its sides.  The band
    is narrowed by EPS so that what is flush with the unit's flanks is not in the way.  The outlines' points are
    fetched in one call.
    """
    half = boundary.width / 2 - EPS
    (rx, ry), (fx, fy), (ox, oy) = boundary.right, boundary.forward, boundary.front_centre
    coords, owner = shapely.get_coordinates(shapely.get_exterior_ring(shapes), return_index=True)
    rings: list[list[list[float]]] = [[] for _ in shapes]
    for point, index in zip(coords.tolist(), owner.tolist()):
        rings[index].append(point)
    nearest = []
    # Outlines have a handful of corners: plain arithmetic beats array calls on arrays this small.
    for ring in rings:
        best = math.inf
        points = [((x - ox) * rx + (y - oy) * ry, (x - ox) * fx + (y - oy) * fy) for x, y in ring]
        for u, v in points:
            if -half <= u <= half and -EPS <= v < best:
                best = v
        for (u0, v0), (u1, v1) in zip(points, points[1:]):
            for side in (-half, half):
                if (u0 - side) * (u1 - side) < 0:
                    at = v0 + (side - u0) / (u1 - u0) * (v1 - v0)
                    if -EPS <= at < best:
                        best = at
        nearest.append(max(best, 0.0))
    return np.array(nearest)


@decides(BOOK, "pursuit-straight-forward", "pursuit-board-edge", "pursuit-enemy-unit")
@undetermined_without(BOOK, "pursuing-off-the-board", needs=msg("the rules of Pursuing off the Board (page 58), which the corpus does not contain"))
@undetermined_without(BOOK, "pursuit-enemy-unit", needs=msg("the general rules of the Charge Move, which the corpus does not contain"))
def forward_findings(unit: Unit, roll: int, result: ForwardResult, scenario: Scenario) -> Iterator[Finding]:
    name = unit.label
    moved = inches(result.distance)
    if result.outcome is ForwardOutcome.FULL_DISTANCE:
        yield Finding(PURSUIT_STRAIGHT_FORWARD, Status.PASS, msg(
            "{pursuer} moves straight forward its full pursuit distance, {distance}, meeting nothing",
            pursuer=name, distance=moved))
        return
    if result.outcome is ForwardOutcome.BOARD_EDGE:
        yield Finding(PURSUIT_BOARD_EDGE, Status.PASS, msg(
            "the Board Edge comes first: {pursuer} moves {distance} until its front touches it, and pursues off "
            "the board", pursuer=name, distance=moved))
        yield Finding(PURSUING_OFF_THE_BOARD, Status.UNKNOWN, msg(
            "{pursuer} pursues off the board; what happens next is not in the corpus", pursuer=name))
        return
    assert result.met is not None
    if result.outcome is ForwardOutcome.ENEMY_UNIT:
        enemy = scenario.unit(result.met.id)
        yield Finding(PURSUIT_ENEMY_UNIT, Status.PASS, nmsg(
            "after {distance} {pursuer} reaches {enemy}: a charge into its {arc} (fixed in step 1), with the "
            "pursuit roll of {n} inch as its charge range",
            "after {distance} {pursuer} reaches {enemy}: a charge into its {arc} (fixed in step 1), with the "
            "pursuit roll of {n} inches as its charge range", roll, distance=moved, pursuer=name,
            enemy=enemy.label, arc=arc_name(result.charge_arc)))
        if enemy.is_fleeing:
            yield Finding(FLEE, Status.PASS, msg(
                "{enemy} is already fleeing, so it may react to this charge, and must Flee", enemy=enemy.label))
        else:
            yield Finding(PURSUIT_ENEMY_UNIT, Status.PASS, msg(
                "{enemy} may not declare a charge reaction: it is not fleeing", enemy=enemy.label))
        yield Finding(PURSUIT_ENEMY_UNIT, Status.UNKNOWN, msg(
            "{pursuer} now makes a Charge Move by the general rules, which are not in the corpus; the position "
            "shown is where its front first touches {enemy}", pursuer=name, enemy=enemy.label))
        return
    yield Finding(PURSUIT_STRAIGHT_FORWARD, Status.PASS, msg(
        "the first obstacle ahead is {met}: {pursuer} moves {distance} until its front touches it",
        met=result.met.describe(), pursuer=name, distance=moved))
    yield Finding(PURSUIT_STRAIGHT_FORWARD, Status.UNKNOWN, msg(
        "what a pursuer does when it meets a friendly unit or Impassable Terrain in step 2 is not in the corpus "
        "(only the Board Edge and an enemy unit are described)"))
