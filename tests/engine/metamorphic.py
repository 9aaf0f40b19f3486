"""Metamorphic transformations of scenarios, and the canonical form in which two answers are compared.

A transformation changes a position in a way no rule can care about — moves it, mirrors it, turns it, renames
and reorders what it lists, adds a unit far from everything, swaps the sides' colours — and knows how each thing
an answer names (a hex label, a facing, a unit id, a map edge, an arc, a point on the board) maps back. An answer
to the transformed position, mapped back and put in canonical form, must equal the answer to the original.

Hex transformations are built from what they do to the picture (docs/geometry-hex.md): each hex's centre and each
vertex is moved by the isometry in the plane and found again among the new map's hexes and vertices, so a
transformation that is not an isometry of the map cannot be built (``HexTransform.of`` refuses it).
"""
from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

from rulesref.engine.hexgrid import (
    DIRECTION_NAMES,
    HEX_DIRECTIONS,
    LAYOUT_FLAT,
    LAYOUT_POINTY,
    VERTEX_NAMES,
    HexMap,
    Hex,
    Layout,
    Point,
    hex_neighbor,
    hex_round,
    hex_subtract,
    hex_to_pixel,
    pixel_to_hex,
    vertex_point,
)

EDGE_VECTORS = {"north": (0.0, -1.0), "south": (0.0, 1.0), "west": (-1.0, 0.0), "east": (1.0, 0.0)}

# --- the isometries of the picture (screen coordinates, y down) ---------------------------------------------------

Matrix = tuple[float, float, float, float]  # (a, b, c, d): (x, y) -> (a x + b y, c x + d y)


def rotation(degrees_clockwise: float) -> Matrix:
    t = math.radians(degrees_clockwise)
    return (math.cos(t), -math.sin(t), math.sin(t), math.cos(t))


MIRROR_LEFT_RIGHT: Matrix = (-1.0, 0.0, 0.0, 1.0)
MIRROR_TOP_BOTTOM: Matrix = (1.0, 0.0, 0.0, -1.0)


def _apply(m: Matrix, p: tuple[float, float]) -> tuple[float, float]:
    return (m[0] * p[0] + m[1] * p[1], m[2] * p[0] + m[3] * p[1])


def _key(p: tuple[float, float]) -> tuple[int, int]:
    return (round(p[0] * 1e6), round(p[1] * 1e6))


def _pixels(hexmap: HexMap) -> Layout:
    return Layout(LAYOUT_FLAT if hexmap.layout == "flat" else LAYOUT_POINTY, Point(1.0, 1.0), Point(0.0, 0.0))


@dataclass(frozen=True)
class HexTransform:
    """What a transformation does to one map: the new map, and labels, facings, directions and edges old -> new."""

    name: str
    old: HexMap
    new: HexMap
    labels: Mapping[str, str]
    vertices: Mapping[str, str]  # vertex (facing) names
    directions: Mapping[str, str]  # direction names (a two-hex column's heading)
    edges: Mapping[str, str]
    mirrored: bool = False  # a mirror turns clockwise into anticlockwise

    @classmethod
    def of(cls, name: str, old: HexMap, matrix: Matrix, new: HexMap | None = None,
           anchor: tuple[str, str] | None = None, require_all: bool = True) -> "HexTransform":
        """The transformation moving the picture of ``old`` by ``matrix`` onto ``new``.

        Without ``new`` the new map is found: the same shape, or (a quarter turn) columns and rows swapped and the
        other layout, with whichever offset makes the moved picture fit. ``anchor`` = (old label, new label) pins
        the translation (for a turn inside one big map); otherwise the pictures' top left corners are matched.
        With ``require_all`` False, hexes moved off the new map are left out (the caller keeps its position away
        from them).
        """
        return _of(name, old, matrix, new, anchor, require_all)

    # --- mapping things of a scenario -------------------------------------------------------------------------

    def label(self, label: str) -> str:
        return self.labels[str(label).strip()]

    def facing(self, name: str) -> str:
        return self.vertices[str(name).strip().upper()]

    def heading(self, name: str) -> str:
        return self.directions[str(name).strip().upper()]


@lru_cache(maxsize=4096)
def _of(name: str, old: HexMap, matrix: Matrix, new: HexMap | None, anchor, require_all: bool) -> HexTransform:
    """``HexTransform.of``, worked out once per map shape (a transformation depends on nothing else)."""
    candidates = [new] if new is not None else _candidate_maps(old, matrix)
    for candidate in candidates:
        found = _fit(name, old, candidate, matrix, anchor, require_all)
        if found is not None:
            return found
    raise ValueError(f"{name}: the moved map is none of {candidates}")


@lru_cache(maxsize=512)
def _labels_of(hexmap: HexMap) -> dict[tuple[int, int, int], str]:
    """Every hex of a map (as a plain cube tuple) with its label."""
    return {tuple(h): hexmap.label(h) for h in hexmap.hexes()}


@lru_cache(maxsize=512)
def _border(hexmap: HexMap) -> list[Hex]:
    return hexmap._corner_hexes()


def _candidate_maps(old: HexMap, matrix: Matrix) -> list[HexMap]:
    quarter = abs(matrix[0]) < 1e-9  # a turn by 90° or 270°: rows become columns
    layout = ("pointy" if old.layout == "flat" else "flat") if quarter else old.layout
    columns, rows = (old.rows, old.columns) if quarter else (old.columns, old.rows)
    return [HexMap(columns, rows, layout, offset, old.first_column, old.first_row) for offset in ("odd", "even")]


def _fit(name: str, old: HexMap, new: HexMap, matrix: Matrix, anchor, require_all: bool) -> HexTransform | None:
    """The transformation onto ``new``, or None when the moved picture of ``old`` does not fall on it.

    The picture is moved as a whole: where one hex and its six neighbours go fixes where every hex goes (an
    isometry of the plane that maps hex centres onto hex centres is linear on cube coordinates), so the rest is
    integer arithmetic; the pictures' top left corners (or ``anchor``) fix the shift."""
    old_px, new_px = _pixels(old), _pixels(new)
    if anchor is not None:
        a, b = _apply(matrix, hex_to_pixel(old_px, old.parse(anchor[0]))), hex_to_pixel(new_px, new.parse(anchor[1]))
        shift = (b[0] - a[0], b[1] - a[1])
    else:  # the extremes of a map's picture are on its border: its corner rows and columns are enough
        moved_border = [_apply(matrix, hex_to_pixel(old_px, h)) for h in _border(old)]
        border = [hex_to_pixel(new_px, h) for h in _border(new)]
        shift = (min(p[0] for p in border) - min(p[0] for p in moved_border),
                 min(p[1] for p in border) - min(p[1] for p in moved_border))

    def image(h) -> Hex | None:
        p = _apply(matrix, hex_to_pixel(old_px, h))
        found = hex_round(pixel_to_hex(new_px, Point(p[0] + shift[0], p[1] + shift[1])))
        back = hex_to_pixel(new_px, found)
        return found if _key(back) == _key((p[0] + shift[0], p[1] + shift[1])) else None

    probe = old.hex_at(0, 0)
    origin = image(probe)
    steps = [image(hex_neighbor(probe, d)) for d in range(6)]
    if origin is None or any(x is None for x in steps):
        return None
    d0, d5 = hex_subtract(steps[0], origin), hex_subtract(steps[5], origin)  # the images of (1, 0, -1), (0, 1, -1)
    labels: dict[str, str] = {}
    new_labels = _labels_of(new)
    for h, label in _labels_of(old).items():
        q, r = h[0] - probe[0], h[1] - probe[1]
        moved = (origin[0] + d0[0] * q + d5[0] * r, origin[1] + d0[1] * q + d5[1] * r,
                 origin[2] + d0[2] * q + d5[2] * r)
        if moved not in new_labels:
            if require_all:
                return None
            continue
        labels[label] = new_labels[moved]
    if not labels:
        return None
    vertices, directions = {}, {}
    new_vertices = {_key(vertex_point(new_px, origin, v)): v for v in range(6)}
    for v in range(6):
        p = _apply(matrix, vertex_point(old_px, probe, v))
        w = new_vertices.get(_key((p[0] + shift[0], p[1] + shift[1])))
        if w is None:
            return None
        vertices[VERTEX_NAMES[old.layout][v]] = VERTEX_NAMES[new.layout][w]
        directions[DIRECTION_NAMES[old.layout][v]] = DIRECTION_NAMES[new.layout][
            HEX_DIRECTIONS.index(hex_subtract(steps[v], origin))]
    edges = {}
    for edge, vector in EDGE_VECTORS.items():
        moved_vector = _apply(matrix, vector)
        edges[edge] = next(e for e, v in EDGE_VECTORS.items()
                           if abs(v[0] - moved_vector[0]) < 1e-9 and abs(v[1] - moved_vector[1]) < 1e-9) \
            if abs(moved_vector[0] * moved_vector[1]) < 1e-9 else None
    mirrored = matrix[0] * matrix[3] - matrix[1] * matrix[2] < 0
    return HexTransform(name, old, new, labels, vertices, directions, edges, mirrored)


def hexmap_of(data: Mapping[str, Any]) -> HexMap:
    m = data["map"]
    return HexMap(m["columns"], m["rows"], m.get("layout", "pointy"), m.get("offset", "odd"),
                  m.get("first_column", 1), m.get("first_row", 1))


def map_data(old: Mapping[str, Any], new: HexMap) -> dict[str, Any]:
    """The ``map`` object of ``old`` re-shaped as ``new`` (its hexes still to be moved)."""
    m = dict(old["map"])
    m.update(columns=new.columns, rows=new.rows, layout=new.layout, offset=new.offset,
             first_column=new.first_column, first_row=new.first_row)
    return m


# --- renaming -----------------------------------------------------------------------------------------------------


@dataclass
class Names:
    """Old name -> new name for unit ids, wing ids, sides, terrain ids; identity where nothing was renamed."""

    units: dict[str, str] = field(default_factory=dict)
    wings: dict[str, str] = field(default_factory=dict)
    sides: dict[str, str] = field(default_factory=dict)
    terrain: dict[str, str] = field(default_factory=dict)

    def unit(self, uid: str) -> str:
        return self.units.get(uid, uid)

    def wing(self, wid: str) -> str:
        return self.wings.get(wid, wid)

    def side(self, side: str) -> str:
        return self.sides.get(side, side)

    def units_value(self, value: Any) -> Any:
        """A ``units`` parameter (a list of ids or a comma-separated string) renamed."""
        if isinstance(value, list):
            return [self.unit(v) for v in value]
        if isinstance(value, str):
            return ",".join(self.unit(v.strip()) for v in value.split(",") if v.strip())
        return value


def fresh_ids(old: list[str], rnd: random.Random, prefix: str) -> dict[str, str]:
    """New ids for ``old``, in an order unrelated to the old one (so that sorting by id reorders)."""
    numbers = rnd.sample(range(100, 1000), len(old))
    return {o: f"{prefix}{rnd.choice('qzjxkvw')}{n}" for o, n in zip(old, numbers)}


def swap_pairs(values: list[str]) -> dict[str, str]:
    """Each side named as another (a rotation of the sorted names): blue <-> red for two sides."""
    ordered = sorted(set(values))
    return {s: ordered[(i + 1) % len(ordered)] for i, s in enumerate(ordered)} if len(ordered) > 1 else {}


def deep_copy(data: Any) -> Any:
    """A copy of plain JSON data (through JSON: several times quicker than copy.deepcopy)."""
    return json.loads(json.dumps(data))


# --- canonical answers --------------------------------------------------------------------------------------------


@dataclass
class Back:
    """How names in an answer to a transformed position map back to the original's."""

    labels: Mapping[str, str] = field(default_factory=dict)
    facings: Mapping[str, str] = field(default_factory=dict)
    directions: Mapping[str, str] = field(default_factory=dict)
    ids: Mapping[str, str] = field(default_factory=dict)
    edges: Mapping[str, str] = field(default_factory=dict)
    arcs: Mapping[str, str] = field(default_factory=dict)
    point: Callable[[list[float]], list[float]] | None = None
    bearing: Callable[[float], float] | None = None
    turn_sign: float = 1.0

    @staticmethod
    def inverse(mapping: Mapping[str, str | None]) -> dict[str, str]:
        return {v: k for k, v in mapping.items() if v is not None}


def findings_multiset(answer: Mapping[str, Any]) -> list[tuple[str, str]]:
    return sorted((f["clause"], f["status"]) for f in answer["findings"])


def sorted_json(values: list[Any]) -> list[Any]:
    return sorted(values, key=lambda v: repr(v))
