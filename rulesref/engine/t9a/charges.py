"""Declaring Charges: may this unit declare a charge on that one? (``declaring-charges``)

A charge may be declared when the target is in the charger's Line of Sight, within its maximum possible charge
range (Advance Rate + 2D6, so Advance Rate + 12), and the charger can physically advance to it, taking into account
the moves of the units that have already declared their charges; that the target may Flee is disregarded.
The interpretations (sight lines, the straight approach, the disc test) are in docs/geometry-tabletop.md.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterator, Mapping

import numpy as np
import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from ..i18n import msg
from ..outside import outside_rule
from ..ruling import Finding, Ruling, Status, Verdict, verdict_from
from ..coverage import decides, undetermined_without
from .geometry import EPS, Arc, beyond, closest_points, coordinates, gap, shrunk_each, translation_sweep, within
from .obstacles import Obstacle, ObstacleKind, Obstacles, terrain_obstacles
from .reactions import arcs_of
from .params import unit_params
from .scenario import DeclaredCharge, Scenario, Terrain, Unit
from .text import BOOK, DECLARING_CHARGES, inches

QUESTION = "can-charge"
SIGHT_POINTS_ON_FRONT = 9
SIGHT_SPACING = 0.5  # inches between sampled points on the target
#: Sight lines tried in turn until one is clear: (points on the Front Facing, spacing on the target or None for
#: its corners and one inner point); the last is the finest sampling, on which a "blocked" answer rests.
SIGHT_LEVELS = ((3, None), (5, 4 * SIGHT_SPACING), (SIGHT_POINTS_ON_FRONT, SIGHT_SPACING))
BUFFER_SEGMENTS = 2  # per quarter circle; fewer make obstacles smaller, which keeps the "no" answer sound


@dataclass(frozen=True)
class Declaration:
    """Whether ``charger`` may declare a charge on ``target`` (``declaring-charges``), and what that rests on."""

    findings: tuple[Finding, ...]
    sight: "SightResult"
    approach: "Approach"
    paths: list[Obstacle]

    @property
    def verdict(self) -> Verdict:
        return verdict_from(self.findings)


def declaration(scenario: Scenario, charger: Unit, target: Unit) -> Declaration:
    """The findings of ``can-charge`` without its drawing: ``charge-reactions`` asks this too."""
    paths = declared_paths(scenario, exclude=charger.id)
    sight = line_of_sight(scenario, charger, target)
    approach = straight_approach(scenario, charger, target, paths)
    findings = (
        *declaration_findings(scenario, charger, target),
        *sight_findings(charger, target, sight),
        *range_findings(charger, target, scenario.rules.charge_dice),
        *reach_findings(scenario, charger, target, approach),
    )
    return Declaration(findings, sight, approach, paths)


def can_charge(scenario: Scenario, params: Mapping[str, Any]) -> Ruling:
    """``can-charge``: may ``charger`` declare a charge on ``target``?"""
    charger, target = unit_params(scenario, QUESTION, params)
    declared = declaration(scenario, charger, target)
    findings, sight, approach, paths = declared.findings, declared.sight, declared.approach, declared.paths
    result = {
        "charger": charger.id,
        "target": target.id,
        "distance": round(gap(charger.boundary, target.boundary), 4),
        "max_charge_range": max_charge_range(charger, scenario.rules.charge_dice),
        "charge_dice": scenario.rules.charge_dice,
        "line_of_sight": sight.to_dict(),
        "approach": approach.to_dict(),
        "declared_paths": [{"charger": o.id, "path": coordinates(o.shape)} for o in paths],
        "positions": {u.id: u.boundary.to_dict() for u in (charger, target)},
        "arcs": arcs_of(scenario, charger),
    }
    return Ruling(QUESTION, declared.verdict, findings, result)


def max_charge_range(charger: Unit, dice: int = 2) -> float:
    """Advance Rate + the highest roll of the charge dice (``charge-range``, a rule outside the corpus: 2D6, so
    + 12)."""
    return charger.advance_rate + 6 * dice


# --------------------------------------------------------------------------------------------- declaration

@decides(BOOK, "declaring-charges")
@undetermined_without(BOOK, "declaring-charges", needs=msg(
    "the rule on whether a fleeing or engaged unit may declare a charge, which the corpus does not contain"))
def declaration_findings(scenario: Scenario, charger: Unit, target: Unit) -> Iterator[Finding]:
    # A charge is declared against an enemy unit.
    if not charger.is_enemy_of(target):
        yield Finding(DECLARING_CHARGES.on("противника"), Status.FAIL, msg(
            "{target} is on the same side as {charger}: a charge is declared against an enemy unit",
            target=target.label, charger=charger.label))
    # Charges are declared one unit at a time: a unit that has declared one has no second.
    if scenario.charge_declared_by(charger.id) is not None:
        declared = scenario.charge_declared_by(charger.id)
        yield Finding(DECLARING_CHARGES.on("одно за раз"), Status.FAIL, msg(
            "{charger} has already declared a charge against {target}",
            charger=charger.label, target=scenario.unit(declared.target).label))
    # The corpus does not say whether a fleeing or engaged unit may declare a charge.
    if charger.is_fleeing or charger.is_engaged:
        yield Finding(DECLARING_CHARGES, Status.UNKNOWN, msg(
            "{charger} is fleeing or engaged; whether such a unit may declare a charge is not in the corpus",
            charger=charger.label))
    # The target may Flee (or must, if already fleeing): that is disregarded when declaring.
    if target.is_fleeing:
        yield Finding(DECLARING_CHARGES.on("реакцию Бежать"), Status.PASS, msg(
            "{target} is fleeing and will have to Flee; this is disregarded when declaring the charge",
            target=target.label))


# ------------------------------------------------------------------------------------------ line of sight

@dataclass(frozen=True)
class SightResult:
    """Sight lines from the charger's Front Facing to the part of the target inside its Front Arc."""

    in_front_arc: bool
    clear_line: tuple | None  # a line free of obscuring terrain and of other units
    line_past_units: tuple | None  # free of obscuring terrain, but crossing another unit
    terrain: tuple[Obstacle, ...]  # obscuring terrain crossed by the lines
    units: tuple[Obstacle, ...]  # units crossed by the lines free of terrain

    @property
    def clear(self) -> bool | None:
        if self.clear_line is not None:
            return True
        if self.line_past_units is not None:
            return None
        return False

    def to_dict(self) -> dict[str, Any]:
        line = self.clear_line or self.line_past_units
        return {
            "clear": self.clear,
            "in_front_arc": self.in_front_arc,
            "sight_line": [[round(x, 4), round(y, 4)] for x, y in line] if line else None,
            "blocked_by": [o.to_dict() for o in self.terrain] if self.clear is False else [],
            "units_in_the_way": [o.to_dict() for o in self.units] if self.clear is None else [],
        }


def line_of_sight(scenario: Scenario, charger: Unit, target: Unit) -> SightResult:
    """Sampled sight lines inside the charger's Front Arc; obscuring terrain blocks them."""
    front_arc = charger.boundary.arc_region(Arc.FRONT, scenario.board.size)
    visible = shapely.intersection(front_arc, target.boundary.polygon)
    if visible.is_empty or visible.area <= EPS * EPS and visible.length <= EPS:
        return SightResult(False, None, None, (), ())
    terrain = terrain_obstacles(scenario, obscuring=True)
    # Every sight line lies in the hull of the Front Facing and the visible part: if nothing is in it, all are clear.
    between = shapely.convex_hull(shapely.union(charger.boundary.front_facing, visible))
    units = Obstacles(
        Obstacle.of_unit(u, ObstacleKind.FRIENDLY_UNIT) for u in scenario.units_near(between)
        if u.id not in (charger.id, target.id)
    )
    if not terrain.overlapping(between) and not units:
        middle = shapely.get_coordinates(shapely.point_on_surface(visible))[0]
        line = (charger.boundary.front_centre, (float(middle[0]), float(middle[1])))
        return SightResult(True, line, None, (), ())
    terrain = Obstacles(terrain.overlapping(between))  # only what is between can block a line
    # A few lines first (to the visible part's corners and a point inside it), then ever finer samples while none
    # is clear: any clear line answers, only a "blocked" needs every sample.
    for level in SIGHT_LEVELS:
        sight = _trace(_sight_lines(charger, visible, *level), terrain, units)
        if sight.clear:
            return sight
    return sight


def _trace(lines: list[BaseGeometry], terrain: Obstacles, units: Obstacles) -> SightResult:
    blocked_by_terrain = terrain.overlapping_any(lines)
    blocked = {i for i, _ in blocked_by_terrain}
    free = [i for i in range(len(lines)) if i not in blocked]
    terrain_hit = _unique(o for _, o in blocked_by_terrain)
    if not free:
        return SightResult(True, None, None, terrain_hit, ())
    crossing = units.overlapping_any([lines[i] for i in free])
    crossed = {free[i] for i, _ in crossing}
    clear = [i for i in free if i not in crossed]
    as_tuple = lambda i: tuple((float(x), float(y)) for x, y in shapely.get_coordinates(lines[i]))  # noqa: E731
    if clear:
        return SightResult(True, as_tuple(_middle(clear)), None, terrain_hit, ())
    return SightResult(True, None, as_tuple(_middle(free)), terrain_hit, _unique(o for _, o in crossing))


def _sight_lines(charger: Unit, visible: BaseGeometry, eyes_on_front: int,
                 spacing: float | None) -> list[BaseGeometry]:
    """Lines from ``eyes_on_front`` points along the Front Facing to points of the visible part of the target: its
    corners, and either a point inside it (``spacing`` None) or points ``spacing`` apart along its outline (at most
    48 of them)."""
    (x1, y1), (x2, y2) = charger.boundary.corners[:2]
    t = np.linspace(0.0, 1.0, eyes_on_front)
    eyes = np.column_stack((x1 + (x2 - x1) * t, y1 + (y2 - y1) * t))
    outline = visible.boundary if visible.area > 0 else visible
    corners = shapely.get_coordinates(outline)
    if spacing is None:
        points = np.vstack((shapely.get_coordinates(shapely.point_on_surface(visible)), corners))
    else:
        step = max(spacing, outline.length / 48)
        marks = shapely.line_interpolate_point(outline, np.arange(0.0, outline.length, step))
        points = np.vstack((shapely.get_coordinates(marks), corners))
    pairs = np.stack(np.broadcast_arrays(eyes[:, None, :], points[None, :, :]), axis=2).reshape(-1, 2, 2)
    return list(shapely.linestrings(pairs))


def _middle(indices: list[int]) -> int:
    return indices[len(indices) // 2]


def _unique(obstacles) -> tuple[Obstacle, ...]:
    seen: dict[tuple[str, str], Obstacle] = {}
    for o in obstacles:
        seen.setdefault((o.kind.value, o.id), o)
    return tuple(seen.values())


def sight_findings(charger: Unit, target: Unit, sight: SightResult) -> Iterator[Finding]:
    names = {"charger": charger.label, "target": target.label}
    # Line of Sight is traced inside the charger's Front Arc.
    if not sight.in_front_arc:
        yield Finding(DECLARING_CHARGES.on("Линии Видимости"), Status.FAIL, msg(
            "{target} is not in the Front Arc of {charger}, so it is not in its Line of Sight", **names))
        return
    # Obscuring terrain blocks Line of Sight.
    if sight.clear is False:
        yield Finding(DECLARING_CHARGES.on("Линии Видимости"), Status.FAIL, msg(
            "every line of sight from {charger} to {target} is blocked by obscuring terrain: {blockers}",
            blockers=[o.label for o in sight.terrain], **names))
        return
    # Whether units block Line of Sight is not in the corpus.
    if sight.clear is None:
        yield Finding(DECLARING_CHARGES.on("Линии Видимости"), Status.UNKNOWN, msg(
            "every line of sight from {charger} to {target} that misses obscuring terrain crosses another unit "
            "({units}); whether units block Line of Sight is not in the corpus",
            units=[o.label for o in sight.units], **names))
        return
    yield Finding(DECLARING_CHARGES.on("Линии Видимости"), Status.PASS, msg(
        "{target} is in the Line of Sight of {charger}", **names))


# ------------------------------------------------------------------------------------------------- range

def range_findings(charger: Unit, target: Unit, dice: int = 2) -> Iterator[Finding]:
    # The target is within the maximum possible charge range (declaring-charges); that range is Advance Rate +
    # 2D6, so Advance Rate + 12 (charge-range, a rule outside the corpus).
    distance = gap(charger.boundary, target.boundary)
    reach = max_charge_range(charger, dice)
    values = {
        "target": target.label, "charger": charger.label, "distance": inches(distance),
        "range": inches(reach), "advance_rate": inches(charger.advance_rate), "dice": dice, "most": 6 * dice,
    }
    yield Finding(outside_rule(BOOK, "charge-range").citation, Status.PASS, msg(
        "the charge range of {charger} is its Advance Rate {advance_rate} + {dice}D6, at most {range} "
        "(Advance Rate + {most})", **values))
    if within(distance, reach):
        yield Finding(DECLARING_CHARGES.on("максимально возможной"), Status.PASS, msg(
            "{target} is {distance} away, within the maximum possible charge range of {charger}, {range}",
            **values))
    else:
        yield Finding(DECLARING_CHARGES.on("максимально возможной"), Status.FAIL, msg(
            "{target} is {distance} away, beyond the maximum possible charge range of {charger}, {range}",
            **values))


# ---------------------------------------------------------------------------------------------- approach

@dataclass(frozen=True)
class Approach:
    """The charger moved straight, without wheeling, until its boundary touches the target's."""

    vector: tuple[float, float]
    path: BaseGeometry
    on_board: bool
    blocked_by: tuple[Obstacle, ...]
    terrain_crossed: tuple[str, ...]

    @property
    def clear(self) -> bool:
        return self.on_board and not self.blocked_by

    def to_dict(self) -> dict[str, Any]:
        return {
            "straight": True,
            "clear": self.clear,
            "vector": [round(self.vector[0], 4), round(self.vector[1], 4)],
            "length": round(math.hypot(*self.vector), 4),
            "path": coordinates(self.path),
            "leaves_board": not self.on_board,
            "blocked_by": [o.to_dict() for o in self.blocked_by],
            "terrain_crossed": list(self.terrain_crossed),
        }


def approach_vector(charger: Unit, target: Unit) -> tuple[float, float]:
    """From the charger's closest point to the target's: the shortest move into contact."""
    (px, py), (qx, qy) = closest_points(charger.boundary, target.boundary)
    return (qx - px, qy - py)


def declared_paths(scenario: Scenario, exclude: str = "") -> list[Obstacle]:
    """The ground covered by each charge already declared, on its own straight approach (each swept once per
    scenario)."""
    return [path for charge, path in _declared_paths(scenario) if charge.charger != exclude]


def _declared_paths(scenario: Scenario) -> tuple[tuple[DeclaredCharge, Obstacle], ...]:
    try:
        return scenario.derived[("declared-paths",)]
    except KeyError:
        pass
    chargers = [scenario.unit(c.charger) for c in scenario.declared_charges]
    sweeps = [translation_sweep(charger.boundary, approach_vector(charger, scenario.unit(charge.target)))
              for charge, charger in zip(scenario.declared_charges, chargers)]
    found = scenario.derived[("declared-paths",)] = tuple(
        (charge, Obstacle.of_path(charger, path, core))
        for charge, charger, path, core in zip(scenario.declared_charges, chargers, sweeps, shrunk_each(sweeps)))
    return found


def blockers(scenario: Scenario, charger: Unit, target: Unit, paths: list[Obstacle], near: BaseGeometry,
             distance: float = 0.0) -> list[Obstacle]:
    """The footprints a charger may not pass through that overlap ``near`` (or, with ``distance``, come within it):
    other units, impassable terrain, and the paths of charges already declared, in that order."""
    units = [
        Obstacle.of_unit(u, ObstacleKind.ENEMY_UNIT if charger.is_enemy_of(u) else ObstacleKind.FRIENDLY_UNIT)
        for u in scenario.units_near(near, distance) if u.id not in (charger.id, target.id)
    ]
    ground = _ground(scenario, paths)
    return units + (ground.near(near, distance) if distance > 0 else ground.overlapping(near))


def _ground(scenario: Scenario, paths: list[Obstacle]) -> Obstacles:
    """Impassable terrain and the given paths of declared charges, indexed once per scenario and set of paths (the
    same path objects: declared_paths keeps them with the scenario)."""
    key = ("ground", tuple(p.id for p in paths))
    known = scenario.derived.get(key)
    if known is not None and len(known[0]) == len(paths) and all(a is b for a, b in zip(known[0], paths)):
        return known[1]
    ground = Obstacles([*terrain_obstacles(scenario), *paths])
    scenario.derived[key] = (tuple(paths), ground)
    return ground


def straight_approach(scenario: Scenario, charger: Unit, target: Unit, paths: list[Obstacle]) -> Approach:
    vector = approach_vector(charger, target)
    path = translation_sweep(charger.boundary, vector)
    # Crossing a piece means entering its core (touching is not crossing); the core lies inside the outline, so only
    # the pieces whose outline the path meets need their core worked out.
    passable = [t for t, hit in zip(scenario.terrain, shapely.intersects(path, [t.outline for t in scenario.terrain]))
                if hit and not t.impassable]
    Terrain.work_out_cores(passable)
    crossed = tuple(t.id for t, hit in zip(passable, shapely.intersects(path, [t.core for t in passable])) if hit)
    return Approach(
        vector=vector,
        path=path,
        on_board=scenario.board.holds(path),
        blocked_by=tuple(blockers(scenario, charger, target, paths, near=path)),
        terrain_crossed=crossed,
    )


def reach_findings(scenario: Scenario, charger: Unit, target: Unit, approach: Approach) -> Iterator[Finding]:
    names = {"charger": charger.label, "target": target.label}
    # The charger can physically advance to the target: first, straight ahead without wheeling.
    if approach.clear:
        if approach.terrain_crossed:
            yield Finding(DECLARING_CHARGES.on("физически продвинуться"), Status.PASS, msg(
                "{charger} can reach {target} moving straight, crossing passable terrain ({terrain}); "
                "the corpus gives terrain no other effect on movement",
                terrain=[scenario_terrain_label(scenario, t) for t in approach.terrain_crossed], **names))
        else:
            yield Finding(DECLARING_CHARGES.on("физически продвинуться"), Status.PASS, msg(
                "{charger} can reach {target} moving straight, with nothing in its way", **names))
        return
    named = [o.describe() for o in approach.blocked_by]
    if not approach.on_board:
        named.append(msg("the Board Edge"))
    # Beyond the maximum charge range the answer is decided: no other way is sought.
    if beyond(gap(charger.boundary, target.boundary), max_charge_range(charger, scenario.rules.charge_dice)):
        yield Finding(DECLARING_CHARGES.on("физически продвинуться"), Status.FAIL, msg(
            "the straight way from {charger} to {target} is blocked ({blockers}); no other way is sought, since "
            "{target} is beyond the maximum charge range", blockers=named, **names))
        return
    # No path at all, whatever the turns: even a disc as wide as the charger's narrower side cannot get round
    # the units and impassable terrain (declared charges' paths are only approximate, so they cannot say no).
    if not disc_can_reach(scenario, charger, target):
        yield Finding(DECLARING_CHARGES.on("физически продвинуться"), Status.FAIL, msg(
            "{charger} cannot physically reach {target}: every way is closed ({blockers})",
            blockers=named, **names))
        return
    yield Finding(DECLARING_CHARGES.on("физически продвинуться"), Status.UNKNOWN, msg(
        "the straight way from {charger} to {target} is blocked ({blockers}); whether it can get round by "
        "wheeling depends on the Charge Move rules, which are not in the corpus", blockers=named, **names))


def scenario_terrain_label(scenario: Scenario, terrain_id: str) -> str:
    return next(t.label for t in scenario.terrain if t.id == terrain_id)


def disc_can_reach(scenario: Scenario, charger: Unit, target: Unit) -> bool:
    """Could a disc of the charger's narrower side reach contact range of the target within charge range?

    The disc fits inside the Unit Boundary in any orientation, so where the disc cannot pass the unit cannot
    either: a "no" here is sound.  The disc's centre must stay within the maximum charge range of its start and
    end within half the boundary's diagonal of the target.
    """
    boundary = charger.boundary
    radius = min(boundary.width, boundary.depth) / 2 * (1 - 1e-6)
    half_diagonal = math.hypot(boundary.width, boundary.depth) / 2
    around = reachable_area(boundary.centre, target.boundary, max_charge_range(charger, scenario.rules.charge_dice) + radius, half_diagonal)
    start = ShapelyPoint(boundary.centre)
    obstacles = blockers(scenario, charger, target, [], near=around, distance=radius)
    room = shapely.intersection(scenario.board.inset(radius), around)
    if obstacles:
        # Growing the union is growing each obstacle: the Minkowski sum distributes over the union.
        grown = shapely.buffer(shapely.union_all([o.core for o in obstacles]), radius, quad_segs=BUFFER_SEGMENTS)
        room = shapely.difference(room, grown)
    # The part of the free ground the disc starts in must come within half the diagonal of the target.
    parts = shapely.get_parts(room)
    here = parts[shapely.distance(parts, start) <= 1e-5]
    return bool(np.any(shapely.distance(here, target.boundary.polygon) <= half_diagonal + EPS))


def reachable_area(start: tuple[float, float], target, travel: float, half_diagonal: float) -> BaseGeometry:
    """Where a centre that travels at most ``travel`` and ends within ``half_diagonal`` of the target can pass.

    Every such point p has |p - start| + |p - target centre| <= travel + half_diagonal + the target's own half
    diagonal: an ellipse with those foci, drawn as a polygon around it (a superset keeps the "no" sound).
    """
    (sx, sy), (tx, ty) = start, target.centre
    spread = travel + half_diagonal + math.hypot(target.width, target.depth) / 2
    focal = math.dist(start, target.centre) / 2
    if spread <= 2 * focal:
        return ShapelyPoint(start).buffer(travel, quad_segs=8)  # out of range anyway: judge the obstacles alone
    major, minor = spread / 2, math.sqrt((spread / 2) ** 2 - focal ** 2)
    angle = math.atan2(ty - sy, tx - sx)
    steps = 32
    grow = 1 / math.cos(math.pi / steps)  # the polygon's edges lie outside the ellipse
    t = np.linspace(0.0, 2 * math.pi, steps, endpoint=False)
    x, y = major * grow * np.cos(t), minor * grow * np.sin(t)
    cos, sin = math.cos(angle), math.sin(angle)
    return shapely.polygons(np.column_stack(((sx + tx) / 2 + x * cos - y * sin, (sy + ty) / 2 + x * sin + y * cos)))
