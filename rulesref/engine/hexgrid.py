"""Hex geometry: cube coordinates, neighbours, distance, rings, lines, vertex facings, sectors and map labels.

The maths follows Red Blob Games' hex library (https://www.redblobgames.com/grids/hexagons/implementation.html):
``Hex(q, r, s)`` with ``q + r + s == 0``, the six directions in its order, ``hex_linedraw`` nudged by 1e-6 to break
ties, offset coordinates only at the edges (the labels players use, such as ``0504``). Its published test vectors
are ported in tests/engine/test_hexgrid.py.

What the game adds (6.1, 9.3.1b), written down with pictures in docs/geometry-hex.md:

* A unit faces a **vertex** of its hex. Vertex ``v`` is the corner shared with the neighbours in directions ``v`` and
  ``v + 1``; those two neighbours are the unit's front hexes.
* A two-hex unit lies along the hex row perpendicular to its facing: its second hex is its first hex plus direction
  ``v + 2``. Its front hexes are the three neighbours on the facing side.
* The **flank row** is the straight hex row through the unit's hex(es) perpendicular to its facing. Every hex on the
  facing side of that row is in the front sector, every hex on the row (other than the unit's own) is in a flank
  sector, every hex on the other side is in the rear sector. Adjacent to the unit this gives exactly the 2/2/2 front,
  flank and rear hexes of a one-hex unit and the 3/2/3 of a two-hex unit (6.1); beyond adjacency it is 9.3.1b's
  boundary "traced straight out from one flank, then around the front to the other".
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Iterable, Iterator, NamedTuple, Sequence

from .i18n import Message, msg, nmsg



class HexInputError(ValueError):
    """A hex label, facing or direction the map cannot read; ``message`` says why, in any language."""

    def __init__(self, message: Message):
        super().__init__(message.render("en"))
        self.message = message


def reason(error: ValueError) -> Message | str:
    """Why a label, facing or direction was refused: the translatable message when there is one."""
    return error.message if isinstance(error, HexInputError) else str(error)

class _Cube(NamedTuple):
    q: int
    r: int
    s: int


class Hex(_Cube):
    """A hex in cube coordinates; refuses ``q + r + s != 0``. ``Hex(q, r)`` fills in ``s``.

    ``Hex._make((q, r, s))`` skips the check, for inner loops that build hexes from hexes; ``new_hex((q, r, s))``
    does the same about twice as fast (the bare tuple constructor), for the innermost loops.
    """

    __slots__ = ()

    def __new__(cls, q: int, r: int, s: int | None = None) -> "Hex":
        if s is None:
            s = -q - r
        elif q + r + s != 0:
            raise ValueError(f"q + r + s must be 0, got Hex({q}, {r}, {s})")
        return tuple.__new__(cls, (q, r, s))

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r}, {self.s})"


def new_hex(cube: tuple[int, int, int], _new=tuple.__new__) -> Hex:
    """A Hex from cube coordinates already known to sum to 0, without the check (the fastest way to make one)."""
    return _new(Hex, cube)


class FractionalHex(NamedTuple):
    q: float
    r: float
    s: float


def hex_add(a: Hex, b: Hex) -> Hex:
    return new_hex((a[0] + b[0], a[1] + b[1], a[2] + b[2]))


def hex_subtract(a: Hex, b: Hex) -> Hex:
    return new_hex((a[0] - b[0], a[1] - b[1], a[2] - b[2]))


def hex_scale(a: Hex, k: int) -> Hex:
    return new_hex((a[0] * k, a[1] * k, a[2] * k))


def hex_rotate_left(a: Hex) -> Hex:
    return Hex._make((-a.s, -a.q, -a.r))


def hex_rotate_right(a: Hex) -> Hex:
    return Hex._make((-a.r, -a.s, -a.q))


HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0, -1), Hex(1, -1, 0), Hex(0, -1, 1), Hex(-1, 0, 1), Hex(-1, 1, 0), Hex(0, 1, -1),
)
HEX_DIAGONALS: tuple[Hex, ...] = (
    Hex(2, -1, -1), Hex(1, -2, 1), Hex(-1, -1, 2), Hex(-2, 1, 1), Hex(-1, 2, -1), Hex(1, 1, -2),
)


def hex_direction(direction: int) -> Hex:
    return HEX_DIRECTIONS[direction % 6]


def hex_neighbor(h: Hex, direction: int) -> Hex:
    d = HEX_DIRECTIONS[direction % 6]
    return new_hex((h[0] + d[0], h[1] + d[1], h[2] + d[2]))


def hex_neighbors(h: Hex, _new=tuple.__new__) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` in direction order (written out: this is in the engine's innermost loops)."""
    q, r, s = h
    return (
        _new(Hex, (q + 1, r, s - 1)), _new(Hex, (q + 1, r - 1, s)), _new(Hex, (q, r - 1, s + 1)),
        _new(Hex, (q - 1, r, s + 1)), _new(Hex, (q - 1, r + 1, s)), _new(Hex, (q, r + 1, s - 1)),
    )


def hex_diagonal_neighbor(h: Hex, direction: int) -> Hex:
    return hex_add(h, HEX_DIAGONALS[direction % 6])


def hex_length(h: Hex) -> int:
    return (abs(h[0]) + abs(h[1]) + abs(h[2])) // 2


def hex_distance(a: Hex, b: Hex) -> int:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def footprint_distance(a: Iterable[Hex], b: Iterable[Hex]) -> int:
    """Hexes between two units, each one or two hexes: the least distance between any hex of one and of the other."""
    bs = tuple(b)
    best = -1
    for x in a:
        for y in bs:
            d = (abs(x[0] - y[0]) + abs(x[1] - y[1]) + abs(x[2] - y[2])) // 2
            if d < best or best < 0:
                best = d
    if best < 0:
        raise ValueError("min() arg is an empty sequence")  # as min() over no pairs
    return best


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` to its neighbour ``b``; None when they are not neighbours."""
    delta = hex_subtract(b, a)
    try:
        return HEX_DIRECTIONS.index(delta)
    except ValueError:
        return None


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` from ``center``, in Red Blob's order (starting toward direction 4)."""
    if radius == 0:
        return [center]
    results = []
    h = hex_add(center, hex_scale(hex_direction(4), radius))
    for i in range(6):
        for _ in range(radius):
            results.append(h)
            h = hex_neighbor(h, i)
    return results


def hex_spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center``, ring by ring."""
    return [h for k in range(radius + 1) for h in hex_ring(center, k)]


def hex_round(h: FractionalHex | Hex) -> Hex:
    qi, ri, si = round(h[0]), round(h[1]), round(h[2])
    q_diff, r_diff, s_diff = abs(qi - h[0]), abs(ri - h[1]), abs(si - h[2])
    if q_diff > r_diff and q_diff > s_diff:
        qi = -ri - si
    elif r_diff > s_diff:
        ri = -qi - si
    else:
        si = -qi - ri
    return Hex(int(qi), int(ri), int(si))


def hex_lerp(a: FractionalHex | Hex, b: FractionalHex | Hex, t: float) -> FractionalHex:
    return FractionalHex(a[0] * (1.0 - t) + b[0] * t, a[1] * (1.0 - t) + b[1] * t, a[2] * (1.0 - t) + b[2] * t)


# The cube directions a line may be pushed along to break a tie (Red Blob nudges along the first only).
NUDGE_AXES: tuple[tuple[int, int, int], ...] = ((1, 1, -2), (1, -2, 1), (-2, 1, 1))


def hex_linedraw(a: Hex, b: Hex, nudge: int = 1, axis: tuple[int, int, int] = NUDGE_AXES[0]) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b``, pushed by 1e-6 ``nudge`` times along ``axis`` (a cube
    direction): the push picks a side where the line runs along a hexside or through a vertex."""
    n = hex_distance(a, b)
    e = 1e-06 * nudge
    a_nudge = FractionalHex(a[0] + e * axis[0], a[1] + e * axis[1], a[2] + e * axis[2])
    b_nudge = FractionalHex(b[0] + e * axis[0], b[1] + e * axis[1], b[2] + e * axis[2])
    step = 1.0 / max(n, 1)
    return [hex_round(hex_lerp(a_nudge, b_nudge, step * i)) for i in range(n + 1)]


def hex_lines(a: Hex, b: Hex) -> tuple[list[Hex], ...]:
    """The line from ``a`` to ``b``, or both lines when it runs along hexsides or through vertices: the line
    pushed to one side and to the other.

    A push along an axis parallel to the line moves it along itself and picks no side (Red Blob's one nudge is
    parallel to the lines through (1, 1, -2), which is why a mirrored map could see differently); so the line is
    pushed both ways along every axis that is not parallel to it, which reaches both sides whatever its
    direction, and the distinct lines are kept, in that order."""
    d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    found: list[list[Hex]] = []
    for axis in NUDGE_AXES:
        if d[0] * axis[1] == d[1] * axis[0] and d[1] * axis[2] == d[2] * axis[1]:
            continue  # parallel (or no line at all): this push picks no side
        for sign in (1, -1):
            line = hex_linedraw(a, b, sign, axis)
            if line not in found:
                found.append(line)
    return tuple(found) or (hex_linedraw(a, b),)


# --- Layout: hex <-> pixel, Red Blob's Orientation / Layout -------------------------------------------------------


class Point(NamedTuple):
    x: float
    y: float


class Orientation(NamedTuple):
    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float


_SQRT3 = math.sqrt(3.0)
LAYOUT_POINTY = Orientation(_SQRT3, _SQRT3 / 2.0, 0.0, 3.0 / 2.0, _SQRT3 / 3.0, -1.0 / 3.0, 0.0, 2.0 / 3.0, 0.5)
LAYOUT_FLAT = Orientation(3.0 / 2.0, 0.0, _SQRT3 / 2.0, _SQRT3, 2.0 / 3.0, 0.0, -1.0 / 3.0, _SQRT3 / 3.0, 0.0)


class Layout(NamedTuple):
    orientation: Orientation
    size: Point
    origin: Point


def hex_to_pixel(layout: Layout, h: Hex) -> Point:
    m, size, origin = layout
    x = (m.f0 * h[0] + m.f1 * h[1]) * size.x
    y = (m.f2 * h[0] + m.f3 * h[1]) * size.y
    return Point(x + origin.x, y + origin.y)


def pixel_to_hex(layout: Layout, p: Point) -> FractionalHex:
    m, size, origin = layout
    pt = Point((p.x - origin.x) / size.x, (p.y - origin.y) / size.y)
    q = m.b0 * pt.x + m.b1 * pt.y
    r = m.b2 * pt.x + m.b3 * pt.y
    return FractionalHex(q, r, -q - r)


def hex_corner_offset(layout: Layout, corner: int) -> Point:
    m, size, _ = layout
    angle = 2.0 * math.pi * (m.start_angle - corner) / 6.0
    return Point(size.x * math.cos(angle), size.y * math.sin(angle))


def polygon_corners(layout: Layout, h: Hex) -> list[Point]:
    center = hex_to_pixel(layout, h)
    return [Point(center.x + o.x, center.y + o.y) for o in (hex_corner_offset(layout, i) for i in range(6))]


def vertex_point(layout: Layout, h: Hex, vertex: int) -> Point:
    """The pixel position of vertex ``vertex`` of ``h``: the corner it shares with neighbours ``vertex``, ``vertex+1``."""
    a, b, c = (hex_to_pixel(layout, x) for x in (h, hex_neighbor(h, vertex), hex_neighbor(h, vertex + 1)))
    return Point((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0)


# --- Offset coordinates (Red Blob's OffsetCoord); EVEN = +1, ODD = -1 --------------------------------------------

EVEN = 1
ODD = -1


class OffsetCoord(NamedTuple):
    col: int
    row: int


def qoffset_from_cube(offset: int, h: Hex) -> OffsetCoord:
    return OffsetCoord(h.q, h.r + (h.q + offset * (h.q & 1)) // 2)


def qoffset_to_cube(offset: int, h: OffsetCoord) -> Hex:
    q = h.col
    r = h.row - (h.col + offset * (h.col & 1)) // 2
    return Hex(q, r, -q - r)


def roffset_from_cube(offset: int, h: Hex) -> OffsetCoord:
    return OffsetCoord(h.q + (h.r + offset * (h.r & 1)) // 2, h.r)


def roffset_to_cube(offset: int, h: OffsetCoord) -> Hex:
    q = h.col - (h.row + offset * (h.row & 1)) // 2
    r = h.row
    return Hex(q, r, -q - r)


# --- Vertex facings and sectors (6.1, 9.3.1b) ---------------------------------------------------------------------


class Sector(str, enum.Enum):
    FRONT = "front"
    FLANK = "flank"
    REAR = "rear"


# The cube coordinate that stays constant along a hex row running in direction d: r for 0/3, s for 1/4, q for 2/5.
_ROW_CONSTANT = (1, 2, 0)


def front_directions(facing: int) -> tuple[int, int]:
    """The two directions from a unit's hex to its front hexes (6.1)."""
    return facing % 6, (facing + 1) % 6


def two_hex_axis(facing: int) -> int:
    """The direction from a two-hex unit's first hex to its second: along the row perpendicular to its facing."""
    return (facing + 2) % 6


def footprint(anchor: Hex, facing: int | None, size: int) -> tuple[Hex, ...]:
    """The hexes of a unit of ``size`` 1 or 2 whose first hex is ``anchor``."""
    if size == 1:
        return (anchor,)
    return (anchor, hex_neighbor(anchor, two_hex_axis(facing or 0)))


def rotate_facing(facing: int, vertices: int) -> int:
    return (facing + vertices) % 6


def facing_steps(a: int, b: int) -> int:
    """The least number of vertices between two facings (0..3)."""
    d = (b - a) % 6
    return min(d, 6 - d)


def sector_side(hexes: Sequence[Hex], facing: int, target: Hex) -> int:
    """+1 if ``target`` is ahead of the flank row of a unit on ``hexes`` facing ``facing``, 0 on it, -1 behind."""
    c = _ROW_CONSTANT[(facing + 2) % 3]
    ahead = HEX_DIRECTIONS[facing % 6][c]
    delta = (target[c] - hexes[0][c]) * ahead
    return (delta > 0) - (delta < 0)


def sector_of(hexes: Sequence[Hex], facing: int, target: Hex) -> Sector | None:
    """The sector of ``target`` seen from a unit on ``hexes`` facing vertex ``facing``; None for its own hexes."""
    if target in hexes:
        return None
    side = sector_side(hexes, facing, target)
    return Sector.FRONT if side > 0 else Sector.FLANK if side == 0 else Sector.REAR


def adjacent_hexes(hexes: Sequence[Hex]) -> tuple[Hex, ...]:
    """The hexes adjacent to a unit of one or two hexes (6 or 8), without its own."""
    if len(hexes) == 1:
        return hex_neighbors(hexes[0])
    seen: dict[Hex, None] = {}
    for h in hexes:
        for n in hex_neighbors(h):
            if n not in hexes:
                seen.setdefault(n)
    return tuple(seen)


def adjacent_by_sector(hexes: Sequence[Hex], facing: int) -> dict[Sector, tuple[Hex, ...]]:
    """The front, flank and rear hexes of a unit (6.1): 2/2/2 for one hex, 3/2/3 for two."""
    result: dict[Sector, list[Hex]] = {Sector.FRONT: [], Sector.FLANK: [], Sector.REAR: []}
    for h in adjacent_hexes(hexes):
        result[sector_of(hexes, facing, h)].append(h)
    return {k: tuple(v) for k, v in result.items()}


def is_valid_two_hex_facing(first: Hex, second: Hex, facing: int) -> bool:
    """A two-hex unit faces a vertex perpendicular to the row its two hexes lie on (6.1)."""
    d = direction_to(first, second)
    return d is not None and d % 3 == (facing + 2) % 3


def canonical_two_hex(hexes: Sequence[Hex], facing: int) -> tuple[Hex, Hex]:
    """The two hexes ordered so that the second is the first plus direction ``facing + 2``."""
    a, b = hexes
    return (a, b) if hex_neighbor(a, two_hex_axis(facing)) == b else (b, a)


# --- Compass names for facings and directions, per layout ---------------------------------------------------------

# Vertex v lies between directions v and v+1. With y growing downwards, in the flat-top layout direction 0 points
# 30 degrees below east, so vertex 0 is due east; in the pointy-top layout direction 0 points east, so vertex 0 is
# 30 degrees above east.
VERTEX_NAMES = {
    "flat": ("E", "NE", "NW", "W", "SW", "SE"),
    "pointy": ("NE", "N", "NW", "SW", "S", "SE"),
}
DIRECTION_NAMES = {
    "flat": ("SE", "NE", "N", "NW", "SW", "S"),
    "pointy": ("E", "NE", "NW", "W", "SW", "SE"),
}


@lru_cache(maxsize=8)
def hex_map(columns: int, rows: int, layout: str = "flat", offset: str = "odd", first_column: int = 1,
            first_row: int = 1) -> "HexMap":
    """The HexMap of this shape, shared: what it works out once (its hexes, the labels read) serves every scenario
    on a map of the same shape. A few shapes are kept (a 100 x 100 map's take a few megabytes)."""
    return HexMap(columns, rows, layout, offset, first_column, first_row)


class MapEdge(str, enum.Enum):
    NORTH = "north"
    SOUTH = "south"
    WEST = "west"
    EAST = "east"


@dataclass(frozen=True)
class HexMap:
    """A rectangular map of ``columns`` x ``rows`` hexes and the labels players use (``0504`` = column 5, row 4).

    ``layout`` is ``flat`` (flat-topped hexes in vertical columns, q-offset) or ``pointy`` (pointy-topped hexes in
    horizontal rows, r-offset); ``offset`` says whether the odd or the even columns (rows) are shoved down (right),
    counting from 0. Labels count from ``first_column`` and ``first_row`` (usually 1) with at least two digits each.
    """

    columns: int
    rows: int
    layout: str = "flat"
    offset: str = "odd"
    first_column: int = 1
    first_row: int = 1

    @property
    def _offset_sign(self) -> int:
        return ODD if self.offset == "odd" else EVEN

    @cached_property
    def label_width(self) -> int:
        last = max(self.columns - 1 + self.first_column, self.rows - 1 + self.first_row, 0)
        return max(2, len(str(last)))

    def offset_of(self, h: Hex) -> OffsetCoord:
        if self.layout == "flat":
            return qoffset_from_cube(self._offset_sign, h)
        return roffset_from_cube(self._offset_sign, h)

    def _column_row(self, h: Hex) -> tuple[int, int]:
        """``offset_of`` as a plain pair, for labels (the same arithmetic as Red Blob's offset conversions)."""
        q, r = h[0], h[1]
        if self.layout == "flat":
            return q, r + (q + self._offset_sign * (q & 1)) // 2
        return q + (r + self._offset_sign * (r & 1)) // 2, r

    def hex_at(self, col: int, row: int) -> Hex:
        if self.layout == "flat":
            return qoffset_to_cube(self._offset_sign, OffsetCoord(col, row))
        return roffset_to_cube(self._offset_sign, OffsetCoord(col, row))

    def contains(self, h: Hex) -> bool:
        return h in self._on_map

    def __contains__(self, h: object) -> bool:
        return h in self._on_map

    @cached_property
    def _on_map(self) -> frozenset[Hex]:
        return frozenset(self._all_hexes)

    @cached_property
    def _all_hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, column by column (``hex_at`` for each column and row, unrolled)."""
        sign, rows, columns = self._offset_sign, range(self.rows), range(self.columns)
        if self.layout == "flat":
            return tuple(new_hex((c, r - (c + sign * (c & 1)) // 2, -c - r + (c + sign * (c & 1)) // 2))
                         for c in columns for r in rows)
        return tuple(new_hex((c - (r + sign * (r & 1)) // 2, r, -c + (r + sign * (r & 1)) // 2 - r))
                     for c in columns for r in rows)

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the map, column by column."""
        return iter(self._all_hexes)

    @cached_property
    def _label_format(self) -> str:
        w = self.label_width
        return f"{{:0{w}d}}{{:0{w}d}}"

    def label(self, h: Hex) -> str:
        col, row = self._column_row(h)
        return self._label_format.format(col + self.first_column, row + self.first_row)

    @cached_property
    def _parsed(self) -> dict[str, Hex]:
        """Labels already read on this map (only labels of its hexes: at most one per hex)."""
        return {}

    def parse(self, label: str) -> Hex:
        """The hex a label names; HexInputError (a ValueError) for a malformed label or one off the map."""
        try:
            return self._parsed[label]
        except (KeyError, TypeError):
            pass
        found = self._parse(label)
        if type(label) is str:
            self._parsed[label] = found
        return found

    def _parse(self, label: str) -> Hex:
        w = self.label_width
        text = str(label).strip()
        if len(text) != 2 * w or not text.isdigit():
            raise HexInputError(nmsg("a hex label is {n} digit, column then row (like {example})",
                                     "a hex label is {n} digits, column then row (like {example})", 2 * w,
                                     example=f"{'0' * (w - 1)}5{'0' * (w - 1)}4"))
        col, row = int(text[:w]) - self.first_column, int(text[w:]) - self.first_row
        if not (0 <= col < self.columns and 0 <= row < self.rows):
            raise HexInputError(msg("hex {label} is off the map", label=text))
        return self.hex_at(col, row)

    @cached_property
    def neighbours_on_map(self) -> dict[Hex, tuple[tuple[int, Hex], ...]]:
        """For each hex of the map, its (direction, neighbour) pairs that lie on the map."""
        on_map = self._on_map
        return {
            h: tuple((d, n) for d, n in enumerate(hex_neighbors(h)) if n in on_map)
            for h in self.hexes()
        }

    def edge_steps(self, h: Hex, edge: MapEdge) -> int:
        """Hexes to move to leave the map across ``edge``: 1 from a hex on that edge, 0 for a hex already off it.

        Each step changes the row (column) by at most one, and the straight moves change it by exactly one, so this
        is the hex distance to the first row (column) beyond the edge in both layouts.
        """
        q, r = h[0], h[1]
        sign = -1 if self.offset == "odd" else 1
        if self.layout == "flat":
            col, row = q, r + (q + sign * (q & 1)) // 2
        else:
            col, row = q + (r + sign * (r & 1)) // 2, r
        if edge is MapEdge.NORTH:
            steps = row + 1
        elif edge is MapEdge.SOUTH:
            steps = self.rows - row
        elif edge is MapEdge.WEST:
            steps = col + 1
        else:
            steps = self.columns - col
        return steps if steps > 0 else 0

    def vertex_name(self, facing: int) -> str:
        return VERTEX_NAMES[self.layout][facing % 6]

    def direction_name(self, direction: int) -> str:
        return DIRECTION_NAMES[self.layout][direction % 6]

    def parse_vertex(self, name: str) -> int:
        names = VERTEX_NAMES[self.layout]
        try:
            return names.index(str(name).strip().upper())
        except ValueError:
            raise HexInputError(msg("a facing on this map is one of its hex vertices: {names}",
                                    names=", ".join(names))) from None

    def parse_direction(self, name: str) -> int:
        names = DIRECTION_NAMES[self.layout]
        try:
            return names.index(str(name).strip().upper())
        except ValueError:
            raise HexInputError(msg("a direction on this map is one of: {names}", names=", ".join(names))) from None

    def pixel_layout(self, size: float = 20.0, margin: float = 4.0) -> Layout:
        """A Layout that puts the map's first hex at the top left, ``margin`` pixels from the border."""
        orientation = LAYOUT_FLAT if self.layout == "flat" else LAYOUT_POINTY
        probe = Layout(orientation, Point(size, size), Point(0.0, 0.0))
        xs, ys = [], []
        for h in self._corner_hexes():
            for p in polygon_corners(probe, h):
                xs.append(p.x)
                ys.append(p.y)
        return Layout(orientation, Point(size, size), Point(margin - min(xs), margin - min(ys)))

    def _corner_hexes(self) -> list[Hex]:
        cols = {0, self.columns - 1} | ({1} if self.columns > 1 else set())
        rows = {0, self.rows - 1} | ({1} if self.rows > 1 else set())
        return [self.hex_at(c, r) for c in range(self.columns) for r in rows] + [
            self.hex_at(c, r) for c in cols for r in range(self.rows)
        ]
