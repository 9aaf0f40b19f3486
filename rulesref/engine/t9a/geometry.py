"""Tabletop geometry for The 9th Age: Unit Boundaries, arcs, "Located in", distances and sweeps.

Conventions (docs/geometry-tabletop.md draws them):

- The board is measured in inches; ``x`` runs right along the near board edge, ``y`` runs away from the player.
- A unit's facing is a bearing in degrees, clockwise from ``+y``: 0 faces the far board edge, 90 faces right.
- A unit's Unit Boundary is a rectangle: its centre, its width (the Front Facing) and its depth (the flanks).
- Local coordinates of a point relative to a unit: ``u`` to the unit's right, ``v`` forward, from its centre.

The four arcs are bounded by the lines leaving the boundary's corners at 135° to both facings that meet there
(the diagonals at 45° to the forward direction).  A point on such a line is in a Flank Arc; a point on the Front
Facing itself (not its corners) is in the Front Arc.  Points strictly inside the boundary are in no arc.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Point as ShapelyPoint, Polygon
from shapely.geometry.base import BaseGeometry

#: Tolerance in inches for "exactly on a line" and "just touching": far below any measurement at the table,
#: far above floating-point noise after rotating a board.
EPS = 1e-7

Point = tuple[float, float]


# --- comparing distances ---------------------------------------------------------------------------------------
# Every comparison of a distance with a limit the rules set (an Advance Rate, a charge range, a roll, 1″) goes
# through these, with the one tolerance EPS: a distance exactly equal to its limit falls on the side the text
# says, whatever noise turning the board adds to either.


def beyond(distance: float, limit: float) -> bool:
    """``distance`` is greater than ``limit`` ("farther than", "больше"): by more than EPS."""
    return distance > limit + EPS


def within(distance: float, limit: float) -> bool:
    """``distance`` is at most ``limit`` ("within", "up to"): equal within EPS counts."""
    return distance <= limit + EPS


def closer_than(distance: float, limit: float) -> bool:
    """``distance`` is less than ``limit`` ("closer than 1″"): by more than EPS."""
    return distance < limit - EPS


def same_distance(a: float, b: float) -> bool:
    """Two distances equal within EPS (a tie)."""
    return abs(a - b) <= EPS


class Arc(str, enum.Enum):
    """The four arcs of a unit (Front, Rear, Left Flank, Right Flank)."""

    FRONT = "front"
    REAR = "rear"
    LEFT_FLANK = "left-flank"
    RIGHT_FLANK = "right-flank"

    @property
    def is_flank(self) -> bool:
        return self in (Arc.LEFT_FLANK, Arc.RIGHT_FLANK)


# --------------------------------------------------------------------------------------------------- vectors

def bearing_vector(bearing: float) -> Point:
    """The unit vector of a bearing (degrees clockwise from +y)."""
    radians = math.radians(bearing)
    return (math.sin(radians), math.cos(radians))


def bearing_of(vector: Point) -> float:
    """The bearing of a vector, in [0, 360)."""
    return math.degrees(math.atan2(vector[0], vector[1])) % 360.0


def normalise_bearing(bearing: float) -> float:
    result = bearing % 360.0
    return 0.0 if math.isclose(result, 360.0, abs_tol=1e-12) else result


def turn_between(start: float, end: float) -> float:
    """The signed smaller turn from one bearing to another, in (-180, 180]; positive is clockwise."""
    turn = (end - start) % 360.0
    return turn - 360.0 if turn > 180.0 else turn


def rotate_point(point: Point, pivot: Point, degrees_clockwise: float) -> Point:
    radians = math.radians(degrees_clockwise)
    cos, sin = math.cos(radians), math.sin(radians)
    dx, dy = point[0] - pivot[0], point[1] - pivot[1]
    return (pivot[0] + dx * cos + dy * sin, pivot[1] - dx * sin + dy * cos)


@dataclass(frozen=True)
class Motion:
    """An isometry of the whole board: mirror (``mirrored``: x -> -x), then rotate clockwise about the origin, then
    translate. A mirror turns bearings the other way round (a unit's left flank becomes its right)."""

    degrees_clockwise: float = 0.0
    dx: float = 0.0
    dy: float = 0.0
    mirrored: bool = False

    def point(self, point: Point) -> Point:
        x, y = rotate_point((-point[0] if self.mirrored else point[0], point[1]), (0.0, 0.0), self.degrees_clockwise)
        return (x + self.dx, y + self.dy)

    def bearing(self, bearing: float) -> float:
        return normalise_bearing((-bearing if self.mirrored else bearing) + self.degrees_clockwise)

    def geometry(self, geometry: BaseGeometry) -> BaseGeometry:
        return shapely.transform(geometry, lambda xy: _motion_array(self, xy))


def _motion_array(motion: Motion, xy):
    radians = math.radians(motion.degrees_clockwise)
    cos, sin = math.cos(radians), math.sin(radians)
    x, y = xy[:, 0].copy(), xy[:, 1].copy()
    if motion.mirrored:
        x = -x
    xy[:, 0] = x * cos + y * sin + motion.dx
    xy[:, 1] = -x * sin + y * cos + motion.dy
    return xy


# --------------------------------------------------------------------------------------------- unit boundary

@dataclass(frozen=True)
class UnitBoundary:
    """A unit's rectangular Unit Boundary: centre, width (Front Facing), depth, facing bearing."""

    centre: Point
    width: float
    depth: float
    facing: float

    @cached_property
    def forward(self) -> Point:
        return bearing_vector(self.facing)

    @cached_property
    def right(self) -> Point:
        fx, fy = self.forward
        return (fy, -fx)

    def at(self, u: float, v: float) -> Point:
        """The board point at local coordinates (u to the right, v forward)."""
        (cx, cy), (rx, ry), (fx, fy) = self.centre, self.right, self.forward
        return (cx + u * rx + v * fx, cy + u * ry + v * fy)

    def local(self, point: Point) -> Point:
        """Local coordinates (u, v) of a board point."""
        dx, dy = point[0] - self.centre[0], point[1] - self.centre[1]
        (rx, ry), (fx, fy) = self.right, self.forward
        return (dx * rx + dy * ry, dx * fx + dy * fy)

    @cached_property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Front-left, front-right, rear-right, rear-left (clockwise)."""
        a, b = self.width / 2, self.depth / 2
        return (self.at(-a, b), self.at(a, b), self.at(a, -b), self.at(-a, -b))

    @cached_property
    def polygon(self) -> Polygon:
        return Polygon(self.corners)

    @cached_property
    def core(self) -> Polygon:
        """The boundary shrunk by EPS: overlapping it means overlapping the unit, not merely touching it."""
        return replace(self, width=max(self.width - 2 * EPS, EPS), depth=max(self.depth - 2 * EPS, EPS)).polygon

    def facing_segment(self, side: Arc) -> tuple[Point, Point]:
        """The facing on one side, as (left end, right end) seen from outside the unit looking in."""
        fl, fr, rr, rl = self.corners
        return {
            Arc.FRONT: (fr, fl),
            Arc.RIGHT_FLANK: (rr, fr),
            Arc.REAR: (rl, rr),
            Arc.LEFT_FLANK: (fl, rl),
        }[side]

    @cached_property
    def front_facing(self) -> LineString:
        fl, fr, _, _ = self.corners
        return LineString([fl, fr])

    @cached_property
    def front_centre(self) -> Point:
        return self.at(0.0, self.depth / 2)

    def arc_of(self, point: Point) -> Arc | None:
        """The arc holding a point; a point on an arc's bounding line counts as Flank; inside the boundary, None."""
        u, v = self.local(point)
        a, b = self.width / 2, self.depth / 2
        beyond_flank = abs(u) - a
        if v >= b - EPS and (v - b) > beyond_flank + EPS:
            return Arc.FRONT
        if v <= -b + EPS and (-v - b) > beyond_flank + EPS:
            return Arc.REAR
        if beyond_flank < -EPS and abs(v) < b - EPS:
            return None
        return Arc.RIGHT_FLANK if u > 0 else Arc.LEFT_FLANK

    def _arc_outline(self, arc: Arc, reach: float) -> list[Point]:
        """The two corners of the arc's facing and the two ends of its 135° lines, ``reach`` inches out."""
        a, b, r = self.width / 2, self.depth / 2, reach
        local = {
            Arc.FRONT: [(-a, b), (a, b), (a + r, b + r), (-a - r, b + r)],
            Arc.RIGHT_FLANK: [(a, b), (a, -b), (a + r, -b - r), (a + r, b + r)],
            Arc.REAR: [(a, -b), (-a, -b), (-a - r, -b - r), (a + r, -b - r)],
            Arc.LEFT_FLANK: [(-a, -b), (-a, b), (-a - r, b + r), (-a - r, -b - r)],
        }[arc]
        return [self.at(u, v) for u, v in local]

    def arc_corners(self, arc: Arc, reach: float) -> list[list[float]]:
        """The arc as a quadrilateral reaching ``reach`` inches beyond the boundary: [[x, y], ...]."""
        return rounded_points(self._arc_outline(arc, reach))

    def arc_region(self, arc: Arc, reach: float) -> Polygon:
        """The arc as a polygon reaching ``reach`` inches beyond the boundary."""
        return Polygon(self._arc_outline(arc, reach))

    # ---- moves
    # Moves build the new boundary directly (dataclasses.replace costs several times as much on these paths).
    def pivoted(self, degrees_clockwise: float) -> "UnitBoundary":
        """Turned about its centre."""
        return UnitBoundary(self.centre, self.width, self.depth, normalise_bearing(self.facing + degrees_clockwise))

    def facing_to(self, bearing: float) -> "UnitBoundary":
        return UnitBoundary(self.centre, self.width, self.depth, normalise_bearing(bearing))

    def advanced(self, distance: float) -> "UnitBoundary":
        """Moved straight forward."""
        fx, fy = self.forward
        return self.moved_by((fx * distance, fy * distance))

    def moved_by(self, vector: Point) -> "UnitBoundary":
        return UnitBoundary((self.centre[0] + vector[0], self.centre[1] + vector[1]), self.width, self.depth,
                            self.facing)

    def transformed(self, motion: Motion) -> "UnitBoundary":
        return replace(self, centre=motion.point(self.centre), facing=motion.bearing(self.facing))

    def to_dict(self) -> dict:
        centre, *corners = rounded_points((self.centre, *self.corners))
        return {
            "centre": centre,
            "facing": rounded(self.facing),
            "width": rounded(self.width),
            "depth": rounded(self.depth),
            "polygon": corners,
            "front": corners[:2],
        }


def work_out_shapes(boundaries: Sequence[UnitBoundary]) -> None:
    """Work out the corners, polygon and core of many boundaries at once, with array calls, as each would itself
    (the same arithmetic in the same order: the same numbers), so that loading a scenario does not build its
    polygons one by one."""
    if not boundaries:
        return
    forward = [b.forward for b in boundaries]
    fx, fy = (np.array(c) for c in zip(*forward))
    cx, cy = (np.array(c) for c in zip(*(b.centre for b in boundaries)))
    widths = np.array([b.width for b in boundaries])
    depths = np.array([b.depth for b in boundaries])
    shapes = []
    for w, d in ((widths, depths), (np.maximum(widths - 2 * EPS, EPS), np.maximum(depths - 2 * EPS, EPS))):
        a, b = w / 2, d / 2
        us, vs = (-a, a, a, -a), (b, b, -b, -b)  # front-left, front-right, rear-right, rear-left
        corners = np.stack([np.stack((cx + u * fy + v * fx, cy + u * -fx + v * fy), axis=1)
                            for u, v in zip(us, vs)], axis=1)  # (boundaries, 4 corners, x/y), as ``at`` does
        shapes.append((corners, shapely.polygons(corners)))
    (corners, polygons), (_, cores) = shapes
    for boundary, (x, y), points, polygon, core in zip(boundaries, forward, corners.tolist(), polygons, cores):
        boundary.__dict__.update(  # the cached properties, filled in
            forward=(x, y), right=(y, -x), corners=tuple(map(tuple, points)), polygon=polygon, core=core)


def located_in(unit: UnitBoundary, other: UnitBoundary) -> Arc | None:
    """The arc of ``other`` in which ``unit`` is Located: the one holding the centre of its Front Facing."""
    return other.arc_of(unit.front_centre)


def gap(a: BaseGeometry | UnitBoundary, b: BaseGeometry | UnitBoundary) -> float:
    """The shortest distance between two boundaries (0 when touching or overlapping)."""
    return float(shapely.distance(_geom(a), _geom(b)))


def closest_points(a: BaseGeometry | UnitBoundary, b: BaseGeometry | UnitBoundary) -> tuple[Point, Point]:
    from shapely.ops import nearest_points

    pa, pb = nearest_points(_geom(a), _geom(b))
    return (pa.x, pa.y), (pb.x, pb.y)


def translation_sweep(unit: UnitBoundary, vector: Point) -> Polygon:
    """The ground a Unit Boundary covers moving straight by ``vector`` without turning."""
    return translation_sweeps(unit, np.asarray([vector], dtype=float))[0]


def translation_sweeps(unit: UnitBoundary, vectors: np.ndarray) -> np.ndarray:
    """``translation_sweep`` for each of several vectors (an (n, 2) array), built in one array call."""
    corners = np.asarray(unit.corners)
    moved = corners[None, :, :] + vectors[:, None, :]  # (vectors, 4 corners, x/y)
    both = np.concatenate((np.broadcast_to(corners, moved.shape), moved), axis=1)
    return shapely.convex_hull(shapely.multipoints(both))


def shrunk(polygon: Polygon) -> BaseGeometry:
    """A polygon shrunk by EPS, so that touching it is not overlapping it."""
    return polygon.buffer(-EPS, join_style="mitre")


def coordinates(geometry: BaseGeometry) -> list:
    """A polygon's outer ring, a line's points or a point, as rounded [x, y] lists (for drawings and JSON)."""
    if geometry.is_empty:
        return []
    if isinstance(geometry, Polygon):
        return rounded_points(shapely.get_coordinates(geometry.exterior)[:-1])
    if isinstance(geometry, ShapelyPoint):
        return [rounded(geometry.x), rounded(geometry.y)]
    if hasattr(geometry, "geoms"):
        return [coordinates(part) for part in geometry.geoms]
    return rounded_points(shapely.get_coordinates(geometry))


def rounded(value: float) -> float:
    """A coordinate for output: four decimals (a ten-thousandth of an inch), never -0.0."""
    return round(float(value), 4) or 0.0  # -0.0 rounds to 0.0


def rounded_points(points) -> list[list[float]]:
    """Points for output, ``[[x, y], ...]`` rounded as ``rounded`` does, in one array operation."""
    return (np.round(np.asarray(points, dtype=float), 4) + 0.0).tolist()  # + 0.0 turns -0.0 into 0.0


def _geom(shape: BaseGeometry | UnitBoundary) -> BaseGeometry:
    return shape.polygon if isinstance(shape, UnitBoundary) else shape


# --------------------------------------------------------------------------------------------------- board

@dataclass(frozen=True)
class Board:
    """The playing surface; its outline is a polygon so that the whole board can be rotated."""

    outline: Polygon

    @classmethod
    def of_size(cls, width: float, depth: float) -> "Board":
        """The board of this size, shared: what it works out (its edge with a margin, its insets) serves every
        scenario on a board of the same size."""
        return _board_of_size(float(width), float(depth))

    @cached_property
    def edge(self) -> BaseGeometry:
        return self.outline.exterior

    @cached_property
    def _with_margin(self) -> Polygon:
        return self.outline.buffer(EPS, join_style="mitre")

    @cached_property
    def _insets(self) -> dict[float, BaseGeometry]:
        return {}

    def inset(self, margin: float) -> BaseGeometry:
        """The board shrunk by ``margin`` on every side (where a disc of that radius fits), once per margin (the
        last few dozen margins are kept)."""
        try:
            return self._insets[margin]
        except KeyError:
            if len(self._insets) >= 64:
                self._insets.clear()
            shape = self._insets[margin] = self.outline.buffer(-margin, join_style="mitre")
            return shape

    def holds(self, geometry: BaseGeometry) -> bool:
        """On the board, touching the Board Edge allowed."""
        return bool(shapely.covers(self._with_margin, geometry))

    def holds_each(self, geometries: np.ndarray) -> np.ndarray:
        """``holds`` for an array of geometries at once."""
        return shapely.covers(self._with_margin, geometries)

    def transformed(self, motion: Motion) -> "Board":
        return Board(motion.geometry(self.outline))

    @property
    def size(self) -> float:
        minx, miny, maxx, maxy = self.outline.bounds
        return math.hypot(maxx - minx, maxy - miny)


@lru_cache(maxsize=8)
def _board_of_size(width: float, depth: float) -> Board:
    return Board(Polygon([(0, 0), (width, 0), (width, depth), (0, depth)]))


def polygons_of(outlines: Sequence[Sequence[Sequence[float]]]) -> list[Polygon]:
    """A polygon for each outline ([[x, y], ...]), all made in one array call."""
    if not outlines:
        return []
    points = [(float(x), float(y)) for outline in outlines for x, y in outline]
    ring = [k for k, outline in enumerate(outlines) for _ in outline]
    return list(shapely.polygons(shapely.linearrings(points, indices=ring)))


def shrunk_each(polygons: Sequence[Polygon]) -> list[BaseGeometry]:
    """``shrunk`` for many polygons at once (one array call)."""
    if not polygons:
        return []
    return list(shapely.buffer(np.asarray(polygons, dtype=object), -EPS, join_style="mitre"))
