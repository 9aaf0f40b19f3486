"""The hex map of the scenario editor as SVG, drawn on the server.

Every hex is a link (``<a href>``) to the editor with that hex chosen, so the map works without JavaScript; the
editor's script turns a click into the current tool's action. Units are counters showing their side, type, facing
(a bar on the side of the vertex they face), order and morale; highlights from an answer (paths, line of sight,
sectors, legal hexes) are drawn over the hexes and under the counters.

Text from a scenario (unit ids, names, terrain names, sides) is untrusted: everything written into the drawing
goes through :func:`esc`; class names are built only from a fixed set or from indexes.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any, Iterable, Sequence

from rulesref.engine.hexgrid import (
    DIRECTION_NAMES,
    VERTEX_NAMES,
    Hex,
    HexMap,
    hex_corner_offset,
    hex_to_pixel,
    hex_neighbor,
)

HEX_SIZE = 24.0
MARGIN = 18.0  # room for the friendly-edge markers
SIDE_COLOURS = {
    "blue": ("#2f5c9e", "#dfe8f6"), "red": ("#a8322a", "#f7e0dc"), "green": ("#2e6b35", "#e0f0e0"),
    "white": ("#5b6670", "#ffffff"), "black": ("#1d2329", "#d9dee3"), "yellow": ("#8a6d00", "#fff3c4"),
    "grey": ("#5b6670", "#e8eaec"), "gray": ("#5b6670", "#e8eaec"), "purple": ("#6c3483", "#efe2f5"),
    "orange": ("#b35900", "#fde7d2"),
}
PALETTE = [("#2f5c9e", "#dfe8f6"), ("#a8322a", "#f7e0dc"), ("#2e6b35", "#e0f0e0"), ("#6c3483", "#efe2f5"),
           ("#b35900", "#fde7d2"), ("#00727a", "#d7f1f2")]
TERRAIN_COLOURS = {
    "clear": None, "woods": "#b9d7a8", "forest": "#a9cc97", "rough": "#e2d3b4", "town": "#d0c8c0",
    "village": "#d9d0c6", "hill": "#ead9a8", "marsh": "#c6dfd7", "swamp": "#c6dfd7", "stream": "#bfd9ee",
    "river": "#a9cbe8", "road": "#eadfc9", "orchard": "#cfe3b5", "field": "#f1ebcf", "water": "#a9cbe8",
}
EXTRA_TERRAIN = ["#d8c3e6", "#f0c8c0", "#c8d8f0", "#e0e0b0", "#c0e0d0", "#e8d0b8"]
TYPE_CODES = {"cavalry": "cav", "light-infantry": "li", "heavy-infantry": "hi", "artillery": "art", "leader": "ldr",
              "wagon": "wag"}
SAFE_CLASS = re.compile(r"[^a-z0-9-]")


def esc(text: Any) -> str:
    return escape(str(text), quote=True)


def terrain_colour(name: str, index: dict[str, str]) -> str | None:
    if name in TERRAIN_COLOURS:
        return TERRAIN_COLOURS[name]
    if name not in index:
        index[name] = EXTRA_TERRAIN[len(index) % len(EXTRA_TERRAIN)]
    return index[name]


def side_colours(sides: Sequence[str]) -> dict[str, tuple[str, str]]:
    out, used = {}, 0
    for side in sides:
        key = side.strip().lower()
        if key in SIDE_COLOURS:
            out[side] = SIDE_COLOURS[key]
        else:
            out[side] = PALETTE[(2 + used) % len(PALETTE)]
            used += 1
    return out


def hexmap_of(data: dict[str, Any]) -> HexMap:
    m = data.get("map") or {}
    return HexMap(columns=m.get("columns", 1), rows=m.get("rows", 1), layout=m.get("layout", "pointy"),
                  offset=m.get("offset", "odd"), first_column=m.get("first_column", 1), first_row=m.get("first_row", 1))


@dataclass
class Mark:
    """Something an answer or the editor draws over the hexes: ``kind`` picks the style (a CSS class)."""

    kind: str
    hexes: list[str] = field(default_factory=list)  # hexes to shade
    line: list[list[str]] = field(default_factory=list)  # a polyline through placements (each 1 or 2 hexes)
    title: str = ""
    arrow: bool = False
    units: list[str] = field(default_factory=list)  # unit ids to ring


@lru_cache(maxsize=32)
def drawing_for(columns: int, rows: int, layout: str, offset: str, first_column: int, first_row: int) -> "MapDrawing":
    """The geometry of a map depends only on its shape: computed once per shape, shared by every render."""
    return MapDrawing(HexMap(columns=columns, rows=rows, layout=layout, offset=offset, first_column=first_column,
                             first_row=first_row))


class MapDrawing:
    """Pixel geometry of one map: hex centres by label, vertex directions, the SVG size."""

    def __init__(self, hexmap: HexMap, size: float = HEX_SIZE):
        self.hexmap = hexmap
        self.size = size
        self.layout = hexmap.pixel_layout(size, MARGIN)
        self.corners = [hex_corner_offset(self.layout, i) for i in range(6)]
        self.centres: dict[str, tuple[float, float]] = {}
        self.by_hex: dict[Hex, str] = {}
        xs, ys = [], []
        for h in hexmap.hexes():
            p = hex_to_pixel(self.layout, h)
            label = hexmap.label(h)
            self.centres[label] = (p.x, p.y)
            self.by_hex[h] = label
            xs.append(p.x)
            ys.append(p.y)
        self.width = (max(xs) if xs else 0) + size + MARGIN
        self.height = (max(ys) if ys else 0) + size + MARGIN
        # The angle (degrees, y down) from a hex's centre to each of its vertices and to each neighbour.
        origin = Hex(0, 0)
        c0 = hex_to_pixel(self.layout, origin)
        self.direction_angles = []
        for d in range(6):
            n = hex_to_pixel(self.layout, hex_neighbor(origin, d))
            self.direction_angles.append(math.degrees(math.atan2(n.y - c0.y, n.x - c0.x)))
        self.vertex_angles = [self.direction_angles[v] + self._half_turn(v) for v in range(6)]
        # The fixed part of each hex's markup: its shape and its label.
        self.hex_parts = {
            label: (f'<use href="#hx" x="{cx:.1f}" y="{cy:.1f}"',
                    f'<text x="{cx:.1f}" y="{cy - size * 0.62:.1f}" class="lbl">{label}</text></a>')
            for label, (cx, cy) in self.centres.items()
        }

    def _half_turn(self, v: int) -> float:
        a, b = self.direction_angles[v], self.direction_angles[(v + 1) % 6]
        delta = (b - a + 540) % 360 - 180
        return delta / 2

    def centre(self, labels: Sequence[str]) -> tuple[float, float] | None:
        points = [self.centres[label] for label in labels if label in self.centres]
        if not points:
            return None
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    def hex_points(self, cx: float, cy: float, scale: float = 1.0) -> str:
        return " ".join(f"{cx + c.x * scale:.1f},{cy + c.y * scale:.1f}" for c in self.corners)


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def drawing_of(data: dict[str, Any]) -> "MapDrawing":
    m = data.get("map") or {}
    return drawing_for(m.get("columns", 1), m.get("rows", 1), m.get("layout", "pointy"), m.get("offset", "odd"),
                       m.get("first_column", 1), m.get("first_row", 1))


def render_map(
    data: dict[str, Any],
    *,
    href_prefix: str,
    labels: dict[str, str],
    selected: str | None = None,
    focus: str | None = None,
    marks: Iterable[Mark] = (),
    sectors: dict[str, str] | None = None,
    drawing: MapDrawing | None = None,
) -> str:
    """The whole map as one SVG string. ``href_prefix + label`` is each hex's link; ``labels`` holds translated words
    (``map``, order and morale abbreviations); ``sectors`` maps hex labels to front/flank/rear."""
    d = drawing or drawing_of(data)
    m = data.get("map") or {}
    terrain = m.get("terrain") or {}
    default_terrain = m.get("terrain_default", "clear")
    dead = set(m.get("dead_zones") or [])
    los = set(m.get("los_blocking") or [])
    units = [u for u in data.get("units") or [] if isinstance(u, dict)]
    sides = sorted({str(u.get("side", "")) for u in units} | {str(w.get("side", "")) for w in data.get("wings") or []
                                                              if isinstance(w, dict)} | set(m.get("friendly_edges") or {}))
    colours = side_colours(sides)
    extra_terrain: dict[str, str] = {}
    out: list[str] = []
    w, h = d.width, d.height
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap" viewBox="0 0 {_fmt(w)} {_fmt(h)}" '
        f'width="{_fmt(w)}" height="{_fmt(h)}" role="group" aria-label="{esc(labels.get("map", "Map"))}">'
    )
    out.append('<defs><polygon id="hx" points="' + d.hex_points(0, 0) + '"/>'
               '<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
               '<line x1="0" y1="0" x2="0" y2="6" class="hatch"/></pattern>'
               '<marker id="arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" '
               'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>')

    # --- hexes: the click targets ---------------------------------------------------------------------------
    out.append('<g class="hexes">')
    prefix = esc(href_prefix)
    parts = d.hex_parts
    colours_by_kind = {}
    for label, (use, text) in parts.items():
        kind = terrain.get(label, default_terrain) if terrain else default_terrain
        classes = "hx focus" if label == focus else "hx"
        style = ""
        if kind != "clear":
            if kind not in colours_by_kind:
                colours_by_kind[kind] = terrain_colour(kind, extra_terrain)
            colour = colours_by_kind[kind]
            if colour:
                style = f' fill="{colour}"'
        tip = ""
        if kind != "clear" or label in dead or label in los:
            words = [kind]
            if label in dead:
                words.append(labels.get("dead_zone", "dead zone"))
            if label in los:
                words.append(labels.get("blocks_los", "blocks line of sight"))
            tip = f"<title>{esc(label)}: {esc(', '.join(words))}</title>"
        tab = "0" if label == focus else "-1"
        out.append(f'<a href="{prefix}{label}" class="{classes}" data-hex="{label}" tabindex="{tab}">{tip}{use}{style}/>{text}')
    out.append("</g>")

    # --- overlays that are part of the map --------------------------------------------------------------------
    if dead or los:
        out.append('<g class="overlays" aria-hidden="true">')
        for label in sorted(dead):
            if label in d.centres:
                cx, cy = d.centres[label]
                out.append(f'<polygon class="dead" points="{d.hex_points(cx, cy, 0.92)}"/>')
        for label in sorted(los):
            if label in d.centres:
                cx, cy = d.centres[label]
                out.append(f'<polygon class="los" points="{d.hex_points(cx, cy, 0.8)}"/>')
        out.append("</g>")
    out.append(_edges(d, m.get("friendly_edges") or {}, colours, labels))

    # --- sectors and answer marks -----------------------------------------------------------------------------
    if sectors:
        out.append('<g class="sectors" aria-hidden="true">')
        for label, sector in sectors.items():
            if label in d.centres and sector in ("front", "flank", "rear"):
                cx, cy = d.centres[label]
                out.append(f'<polygon class="sec-{sector}" points="{d.hex_points(cx, cy, 0.96)}"/>')
        out.append("</g>")
    marks = list(marks)
    if marks:
        out.append('<g class="marks" aria-hidden="true">')
        for mark in marks:
            out.append(_mark(d, mark))
        out.append("</g>")

    # --- units ------------------------------------------------------------------------------------------------
    out.append('<g class="units">')
    per_hex: dict[str, int] = {}
    ringed = {uid for mark in marks for uid in mark.units}
    ring_kind = {uid: mark.kind for mark in marks for uid in mark.units}
    ordered = sorted(units, key=lambda u: (u.get("type") != "leader", str(u.get("id"))))  # leaders on top
    for u in reversed(ordered):
        out.append(_counter(d, u, data, colours, labels, per_hex, selected == u.get("id"),
                            ring_kind.get(u.get("id")) if u.get("id") in ringed else None))
    out.append("</g></svg>")
    return "".join(out)


def _edges(d: MapDrawing, edges: dict[str, Any], colours, labels) -> str:
    if not edges:
        return ""
    parts = ['<g class="edges">']
    inset = 6.0
    for side, names in edges.items():
        stroke = colours.get(side, PALETTE[0])[0]
        for edge in names if isinstance(names, list) else []:
            if edge == "north":
                x1, y1, x2, y2 = MARGIN, inset, d.width - MARGIN, inset
            elif edge == "south":
                x1, y1, x2, y2 = MARGIN, d.height - inset, d.width - MARGIN, d.height - inset
            elif edge == "west":
                x1, y1, x2, y2 = inset, MARGIN, inset, d.height - MARGIN
            elif edge == "east":
                x1, y1, x2, y2 = d.width - inset, MARGIN, d.width - inset, d.height - MARGIN
            else:
                continue
            title = labels.get("edge_of", "Friendly map edge of {side}").replace("{side}", str(side))
            parts.append(f'<line class="edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                         f'stroke="{stroke}"><title>{esc(title)}</title></line>')
    parts.append("</g>")
    return "".join(parts)


def _mark(d: MapDrawing, mark: Mark) -> str:
    css = "mk-" + SAFE_CLASS.sub("", mark.kind.lower())
    parts = [f'<g class="{css}">']
    if mark.title:
        parts.append(f"<title>{esc(mark.title)}</title>")
    for label in mark.hexes:
        if label in d.centres:
            cx, cy = d.centres[label]
            parts.append(f'<polygon points="{d.hex_points(cx, cy, 0.86)}"/>')
    if mark.line:
        points = [d.centre(step) for step in mark.line]
        points = [p for p in points if p is not None]
        if len(points) >= 2:
            text = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            marker = ' marker-end="url(#arrow)"' if mark.arrow else ""
            parts.append(f'<polyline points="{text}"{marker}/>')
            for x, y in points[:-1]:
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.6"/>')
    parts.append("</g>")
    return "".join(parts)


def unit_facing_angle(d: MapDrawing, u: dict[str, Any], hexes: list[str]) -> float | None:
    """The angle (degrees, y down) the counter faces: a vertex, or for a two-hex column the direction of its head."""
    facing = u.get("facing")
    if not isinstance(facing, str):
        return None
    layout = d.hexmap.layout
    name = facing.strip().upper()
    in_column = str((u.get("formation") or {}).get("name", "")).lower() == "column" and len(hexes) == 2
    if in_column and name in DIRECTION_NAMES[layout]:
        return d.direction_angles[DIRECTION_NAMES[layout].index(name)]
    if name in VERTEX_NAMES[layout]:
        return d.vertex_angles[VERTEX_NAMES[layout].index(name)]
    return None


def has_facing(u: dict[str, Any]) -> bool:
    if u.get("type") in ("leader", "wagon"):
        return False
    if u.get("type") == "artillery" and u.get("limbered"):
        return False
    return (u.get("morale") or {}).get("state") != "broken"


def _order(u: dict[str, Any], data: dict[str, Any]) -> str | None:
    if u.get("order"):
        return u["order"]
    for w in data.get("wings") or []:
        if isinstance(w, dict) and w.get("id") == u.get("wing"):
            return w.get("order")
    return None


def _counter(d: MapDrawing, u: dict[str, Any], data, colours, labels, per_hex: dict[str, int], selected: bool,
             ring: str | None) -> str:
    hexes = [label for label in (u.get("hexes") or []) if label in d.centres]
    flags = u.get("flags") or {}
    if not hexes or any(flags.get(k) for k in ("eliminated", "off_map", "off_map_pursuer", "reinforcement")):
        return ""
    centre = d.centre(hexes)
    stack = max(per_hex.get(label, 0) for label in hexes)
    for label in hexes:
        per_hex[label] = per_hex.get(label, 0) + 1
    cx, cy = centre[0] + 3 * stack, centre[1] - 3 * stack
    stroke, fill = colours.get(str(u.get("side", "")), PALETTE[0])
    s = d.size * 1.12  # counter side
    length = s
    axis_angle = 0.0
    if len(hexes) == 2:
        (x1, y1), (x2, y2) = d.centres[hexes[0]], d.centres[hexes[1]]
        length = s + math.hypot(x2 - x1, y2 - y1)
        axis_angle = math.degrees(math.atan2(y2 - y1, x2 - x1))
    facing_angle = unit_facing_angle(d, u, hexes) if has_facing(u) else None
    kind = u.get("type", "")
    morale = u.get("morale") or {}
    state = morale.get("state", "normal")
    classes = ["unit", "t-" + TYPE_CODES.get(kind, "x")]
    if selected:
        classes.append("sel")
    if ring:
        classes.append("ring-" + SAFE_CLASS.sub("", ring))
    if state in ("shaken", "broken"):
        classes.append("m-" + state)
    uid = str(u.get("id", ""))
    parts = [f'<g class="{" ".join(classes)}" data-unit="{esc(uid)}">']
    parts.append(f"<title>{esc(describe_unit(u, data, labels))}</title>")
    # The counter body: a rectangle along the unit's row, its front edge marked; rotated so the front faces the vertex.
    if facing_angle is not None:
        rotate = facing_angle + 90
        if len(hexes) == 2 and _is_column(u):
            rotate = facing_angle + 90
            w_, h_ = s, length
        else:
            w_, h_ = length, s
    else:
        rotate = axis_angle
        w_, h_ = length, s
    parts.append(f'<g transform="translate({cx:.1f},{cy:.1f}) rotate({rotate:.1f})">')
    radius = "2" if has_facing(u) else f"{s / 2:.1f}" if len(hexes) == 1 else "6"
    parts.append(f'<rect class="body" x="{-w_ / 2:.1f}" y="{-h_ / 2:.1f}" width="{w_:.1f}" height="{h_:.1f}" '
                 f'rx="{radius}" fill="{fill}" stroke="{stroke}"/>')
    if facing_angle is not None:
        parts.append(f'<rect class="front" x="{-w_ / 2:.1f}" y="{-h_ / 2:.1f}" width="{w_:.1f}" height="4" '
                     f'fill="{stroke}"/>')
    parts.append("</g>")
    # Upright text: type symbol, id, then order and morale.
    parts.append(_symbol(kind, cx, cy - 5.5, stroke))
    short = uid if len(uid) <= 7 else uid[:6] + "…"
    parts.append(f'<text class="uid" x="{cx:.1f}" y="{cy + 4.5:.1f}">{esc(short)}</text>')
    bits = []
    order = _order(u, data)
    if order:
        bits.append(labels.get("order_" + order, order[:2].upper()))
    if state == "shaken":
        bits.append(labels.get("ms", "MS"))
    elif state == "broken":
        bits.append(labels.get("mb", "MB"))
    if (u.get("formation") or {}).get("state") == "disordered":
        bits.append(labels.get("dis", "D"))
    if isinstance(morale.get("rating"), int):
        bits.append(str(morale["rating"]))
    if bits:
        parts.append(f'<text class="info" x="{cx:.1f}" y="{cy + 11.5:.1f}">{esc(" ".join(bits))}</text>')
    parts.append("</g>")
    return "".join(parts)


def _is_column(u: dict[str, Any]) -> bool:
    return str((u.get("formation") or {}).get("name", "")).lower() == "column"


def _symbol(kind: str, cx: float, cy: float, stroke: str) -> str:
    """A small unit-type symbol in the style of map symbols: a box with a slash (cavalry), a cross (infantry; a
    single bar for light infantry), a dot (artillery); a star for a leader, a wheel for wagons."""
    w, h = 11.0, 7.0
    x, y = cx - w / 2, cy - h / 2
    box = f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" class="sym" stroke="{stroke}"/>'
    line = f'class="sym" stroke="{stroke}"'
    if kind == "cavalry":
        return f'{box}<line x1="{x:.1f}" y1="{y + h:.1f}" x2="{x + w:.1f}" y2="{y:.1f}" {line}/>'
    if kind == "heavy-infantry":
        return (f'{box}<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + w:.1f}" y2="{y + h:.1f}" {line}/>'
                f'<line x1="{x:.1f}" y1="{y + h:.1f}" x2="{x + w:.1f}" y2="{y:.1f}" {line}/>')
    if kind == "light-infantry":
        return f'{box}<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + w:.1f}" y2="{y + h:.1f}" {line}/>'
    if kind == "artillery":
        return f'{box}<circle cx="{cx:.1f}" cy="{cy:.1f}" r="1.8" fill="{stroke}"/>'
    if kind == "leader":
        return f'<text class="star" x="{cx:.1f}" y="{cy + 2.5:.1f}" fill="{stroke}">★</text>'
    return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.2" class="sym" stroke="{stroke}"/>'


def describe_unit(u: dict[str, Any], data: dict[str, Any], labels: dict[str, str]) -> str:
    bits = [str(u.get("id", ""))]
    if u.get("name"):
        bits.append(f"“{u['name']}”")
    bits.append(labels.get("type_" + str(u.get("type")), str(u.get("type", ""))))
    bits.append(str(u.get("side", "")))
    hexes = u.get("hexes") or []
    if hexes:
        bits.append("–".join(map(str, hexes)))
    if u.get("facing"):
        bits.append(labels.get("facing", "facing") + " " + str(u["facing"]))
    order = _order(u, data)
    if order:
        bits.append(labels.get("order_name_" + order, order))
    morale = u.get("morale") or {}
    if morale.get("state") in ("shaken", "broken"):
        bits.append(labels.get("morale_" + morale["state"], morale["state"]))
    if isinstance(morale.get("rating"), int):
        bits.append(labels.get("morale_rating", "morale") + " " + str(morale["rating"]))
    return ", ".join(b for b in bits if b)
