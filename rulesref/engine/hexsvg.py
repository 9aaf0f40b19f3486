"""The one SVG drawing of a hex map: the checker's editor map and the pictures in docs/geometry-hex.md. Pure Python.

Both share one geometry (:class:`MapDrawing`, computed once per map shape from :mod:`hexgrid`'s layouts) and one
rule for text: everything written into a drawing (labels, ids, names, titles) goes through :func:`esc`, and class
names come only from fixed sets. No ``style`` attribute is written (a Content-Security-Policy without
'unsafe-inline' forbids them): colours are SVG presentation attributes (``fill=``, ``stroke=``), the rest is CSS.

- :func:`render_map` draws a scenario (its plain JSON data) for the editor: every hex a link that chooses it (or,
  on a map too large for a link per hex, a ``data-hex`` target for the editor's script), counters with their
  side, type, facing, order and morale, and over the hexes what an answer marks (:class:`Mark`) and the sectors of
  a unit. Words come from a :class:`MapWords`, so the page can give them in the reader's language.
- :func:`render_svg` draws a standalone picture (with its own ``<style>``): highlighted hexes, simple unit
  markers with a facing line, paths, a caption and a legend::

      svg = render_svg(hexmap, highlights={"0504": ["front"]},
                       units=[{"hexes": ["0505"], "facing": "N", "label": "CAV-1", "side": "red"}],
                       paths=[{"hexes": ["0708", "0707", "0606"], "class": "path"}])
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from html import escape
from typing import Any, Iterable, Mapping, Sequence

from .hexgrid import (
    DIRECTION_NAMES,
    VERTEX_NAMES,
    Hex,
    HexMap,
    Point,
    hex_corner_offset,
    hex_neighbor,
    hex_to_pixel,
    vertex_point,
)
from .mpbs.scenario import hexmap_of, sides_of

HEX_SIZE = 24.0
MARGIN = 18.0  # room for the friendly-edge markers
#: Up to this many hexes each hex is a link (the map works without a script); beyond it a link per hex would make
#: the page megabytes long, so hexes carry only their label for the script and a form chooses a hex without one.
LINKED_HEXES_MAX = 2500
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
OFF_MAP_FLAGS = ("eliminated", "off_map", "off_map_pursuer", "reinforcement")
SECTORS = ("front", "flank", "rear")
SAFE_CLASS = re.compile(r"[^a-z0-9-]")
_CLASS = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def esc(text: Any) -> str:
    return escape(str(text), quote=True)


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


# --- geometry ------------------------------------------------------------------------------------------------------


class MapDrawing:
    """Pixel geometry of one map: hex centres by label, corner offsets, vertex directions, the SVG size."""

    def __init__(self, hexmap: HexMap, size: float = HEX_SIZE, margin: float = MARGIN):
        self.hexmap = hexmap
        self.size = size
        self.margin = margin
        self.layout = hexmap.pixel_layout(size, margin)
        self.corners = [hex_corner_offset(self.layout, i) for i in range(6)]
        self.centres: dict[str, tuple[float, float]] = {}
        xs, ys = [0.0], [0.0]
        for h in hexmap.hexes():
            p = hex_to_pixel(self.layout, h)
            self.centres[hexmap.label(h)] = (p.x, p.y)
            xs.append(p.x)
            ys.append(p.y)
        self.width = max(xs) + size + margin
        self.height = max(ys) + size + margin
        # The angle (degrees, y down) from a hex's centre to each of its neighbours and to each of its vertices.
        origin = Hex(0, 0)
        c0 = hex_to_pixel(self.layout, origin)
        self.direction_angles = []
        for d in range(6):
            n = hex_to_pixel(self.layout, hex_neighbor(origin, d))
            self.direction_angles.append(math.degrees(math.atan2(n.y - c0.y, n.x - c0.x)))
        self.vertex_angles = [self.direction_angles[v] + self._half_turn(v) for v in range(6)]
        self._hex_parts: dict[bool, list[tuple[str, str, str]]] = {}

    def _half_turn(self, v: int) -> float:
        a, b = self.direction_angles[v], self.direction_angles[(v + 1) % 6]
        return ((b - a + 540) % 360 - 180) / 2

    @property
    def linked(self) -> bool:
        return len(self.centres) <= LINKED_HEXES_MAX

    def hex_parts(self) -> list[tuple[str, str, str]]:
        """The fixed markup of each hex, computed once per map shape: (label, the shape's tag up to its end, the
        label text)."""
        parts = self._hex_parts.get(self.linked)
        if parts is None:
            lift = self.size * 0.6
            attr = "" if self.linked else ' data-hex="{}"'
            parts = self._hex_parts[self.linked] = [
                (label, f'<use href="#hx" x="{cx:.1f}" y="{cy:.1f}"{attr.format(label)}',
                 f'<text x="{cx:.1f}" y="{cy - lift:.1f}" class="lbl">{label}</text>')
                for label, (cx, cy) in self.centres.items()]
        return parts

    def centre(self, labels: Sequence[str]) -> tuple[float, float] | None:
        points = [self.centres[label] for label in labels if label in self.centres]
        if not points:
            return None
        return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))

    def hex_points(self, cx: float, cy: float, scale: float = 1.0) -> str:
        return " ".join(f"{cx + c.x * scale:.1f},{cy + c.y * scale:.1f}" for c in self.corners)


@lru_cache(maxsize=16)
def drawing_for(columns: int, rows: int, layout: str, offset: str, first_column: int, first_row: int) -> MapDrawing:
    """The geometry of a map depends only on its shape: computed once per shape, shared by every render."""
    return MapDrawing(HexMap(columns=columns, rows=rows, layout=layout, offset=offset, first_column=first_column,
                             first_row=first_row))


def drawing_of(data: Mapping[str, Any]) -> MapDrawing:
    """The geometry of a scenario's map (plain data)."""
    h = hexmap_of(data)
    return drawing_for(h.columns, h.rows, h.layout, h.offset, h.first_column, h.first_row)


# --- the editor's map ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Mark:
    """Something an answer or the editor draws over the hexes: ``kind`` picks the style (a CSS class)."""

    kind: str
    hexes: tuple[str, ...] | list[str] = ()  # hexes to shade
    line: tuple | list = ()  # a polyline through placements (each a list of 1 or 2 hexes)
    title: str = ""
    arrow: bool = False
    units: tuple[str, ...] | list[str] = ()  # unit ids to ring


class MapWords:
    """The words a map shows (titles of hexes, edges and counters, the letters on a counter), in English; the web
    page gives a subclass that speaks the reader's language."""

    map_name = "Map"

    def hex_title(self, label: str, terrain: str, dead: bool, los: bool) -> str:
        words = [terrain] + (["dead zone"] if dead else []) + (["blocks line of sight"] if los else [])
        return f"{label}: {', '.join(words)}"

    def edge_title(self, side: str) -> str:
        return f"Friendly map edge of {side}"

    def unit_title(self, unit: Mapping[str, Any], order: str | None) -> str:
        return ", ".join(str(v) for v in (unit.get("id"), unit.get("type"), unit.get("side")) if v)

    def counter_info(self, unit: Mapping[str, Any], order: str | None) -> str:
        bits = [order[:2].upper()] if order else []
        rating = (unit.get("morale") or {}).get("rating")
        return " ".join(bits + ([str(rating)] if isinstance(rating, int) else []))


def side_colours(sides: Sequence[str]) -> dict[str, tuple[str, str]]:
    """(stroke, fill) for each side: a known colour name keeps its colour, other sides take the palette in turn."""
    out, used = {}, 0
    for side in sides:
        key = side.strip().lower()
        if key in SIDE_COLOURS:
            out[side] = SIDE_COLOURS[key]
        else:
            out[side] = PALETTE[(2 + used) % len(PALETTE)]
            used += 1
    return out


def order_of(unit: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    """The unit's own order, else its wing's."""
    if unit.get("order"):
        return unit["order"]
    for w in data.get("wings") or []:
        if isinstance(w, dict) and w.get("id") == unit.get("wing"):
            return w.get("order")
    return None


def has_facing(unit: Mapping[str, Any]) -> bool:
    """Whether a counter shows a facing (6.1: not leaders, wagons, limbered guns or Morale Broken units)."""
    if unit.get("type") in ("leader", "wagon") or (unit.get("type") == "artillery" and unit.get("limbered")):
        return False
    return (unit.get("morale") or {}).get("state") != "broken"


def render_map(
    data: Mapping[str, Any],
    *,
    words: MapWords | None = None,
    href_prefix: str | None = None,
    selected: str | None = None,
    focus: str | None = None,
    marks: Iterable[Mark] = (),
    sectors: Mapping[str, str] | None = None,
) -> str:
    """The map of a scenario (valid plain data) as one SVG string. ``href_prefix + label`` is each hex's link (on
    maps of up to :data:`LINKED_HEXES_MAX` hexes); ``sectors`` maps hex labels to front / flank / rear."""
    words = words or MapWords()
    d = drawing_of(data)
    m = data.get("map") or {}
    marks = list(marks)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="hexmap{"" if d.linked else " unlinked"}" '
        f'viewBox="0 0 {_fmt(d.width)} {_fmt(d.height)}" width="{_fmt(d.width)}" height="{_fmt(d.height)}" '
        f'role="group" aria-label="{esc(words.map_name)}" data-hex-size="{_fmt(d.size)}">',
        '<defs><polygon id="hx" points="' + d.hex_points(0, 0) + '"/>'
        '<pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<line x1="0" y1="0" x2="0" y2="6" class="hatch"/></pattern>'
        '<marker id="arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" '
        'orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>',
        _hexes(d, m, words, href_prefix if d.linked else None, focus),
        _overlays(d, m),
        _edges(d, m.get("friendly_edges") or {}, side_colours(sides_of(data)), words),
    ]
    if sectors:
        out.append('<g class="sectors" aria-hidden="true">')
        out.extend(f'<polygon class="sec-{sector}" points="{d.hex_points(*d.centres[label], 0.96)}"/>'
                   for label, sector in sectors.items() if label in d.centres and sector in SECTORS)
        out.append("</g>")
    if marks:
        out.append('<g class="marks" aria-hidden="true">')
        out.extend(_mark(d, mark) for mark in marks)
        out.append("</g>")
    out.append(_units(d, data, words, selected, marks))
    out.append("</svg>")
    return "".join(out)


def _hexes(d: MapDrawing, m: Mapping[str, Any], words: MapWords, href_prefix: str | None, focus: str | None) -> str:
    """The hexes: links that choose them (or bare targets on a large map), painted with their terrain."""
    terrain = m.get("terrain") or {}
    default = m.get("terrain_default", "clear")
    dead = set(m.get("dead_zones") or [])
    los = set(m.get("los_blocking") or [])
    fills: dict[str, str] = {}
    extra: dict[str, str] = {}
    prefix = esc(href_prefix) if href_prefix is not None else None
    out = ['<g class="hexes">']
    for label, shape, text in d.hex_parts():
        kind = terrain.get(label, default)
        fill = ""
        if kind != "clear":
            if kind not in fills:
                colour = _terrain_colour(kind, extra)
                fills[kind] = f' fill="{colour}"' if colour else ""
            fill = fills[kind]
        tip = ""
        if kind != "clear" or label in dead or label in los:
            tip = f"<title>{esc(words.hex_title(label, kind, label in dead, label in los))}</title>"
        if prefix is None:
            out.append(f"{shape}{fill}/>{tip}{text}" if not tip else f"{shape}{fill}>{tip}</use>{text}")
        else:
            classes, tab = ("hx focus", "0") if label == focus else ("hx", "-1")
            out.append(f'<a href="{prefix}{label}" class="{classes}" data-hex="{label}" tabindex="{tab}">'
                       f"{tip}{shape}{fill}/>{text}</a>")
    out.append("</g>")
    return "".join(out)


def _terrain_colour(name: str, extra: dict[str, str]) -> str | None:
    if name in TERRAIN_COLOURS:
        return TERRAIN_COLOURS[name]
    if name not in extra:
        extra[name] = EXTRA_TERRAIN[len(extra) % len(EXTRA_TERRAIN)]
    return extra[name]


def _overlays(d: MapDrawing, m: Mapping[str, Any]) -> str:
    dead, los = sorted(m.get("dead_zones") or []), sorted(m.get("los_blocking") or [])
    if not dead and not los:
        return ""
    parts = ['<g class="overlays" aria-hidden="true">']
    parts.extend(f'<polygon class="dead" points="{d.hex_points(*d.centres[label], 0.92)}"/>'
                 for label in dead if label in d.centres)
    parts.extend(f'<polygon class="los" points="{d.hex_points(*d.centres[label], 0.8)}"/>'
                 for label in los if label in d.centres)
    parts.append("</g>")
    return "".join(parts)


def _edge_line(d: MapDrawing, edge: str) -> tuple[float, float, float, float] | None:
    inset = 6.0
    return {
        "north": (d.margin, inset, d.width - d.margin, inset),
        "south": (d.margin, d.height - inset, d.width - d.margin, d.height - inset),
        "west": (inset, d.margin, inset, d.height - d.margin),
        "east": (d.width - inset, d.margin, d.width - inset, d.height - d.margin),
    }.get(edge)


def _edges(d: MapDrawing, edges: Mapping[str, Any], colours, words: MapWords) -> str:
    parts = []
    for side, names in edges.items():
        stroke = colours.get(side, PALETTE[0])[0]
        for edge in names if isinstance(names, list) else []:
            line = _edge_line(d, edge)
            if line is not None:
                parts.append(f'<line class="edge" x1="{line[0]:.1f}" y1="{line[1]:.1f}" x2="{line[2]:.1f}" '
                             f'y2="{line[3]:.1f}" stroke="{stroke}"><title>{esc(words.edge_title(side))}</title></line>')
    return '<g class="edges">' + "".join(parts) + "</g>" if parts else ""


def _mark(d: MapDrawing, mark: Mark) -> str:
    css = "mk-" + SAFE_CLASS.sub("", mark.kind.lower())
    parts = [f'<g class="{css}">']
    if mark.title:
        parts.append(f"<title>{esc(mark.title)}</title>")
    parts.extend(f'<polygon points="{d.hex_points(*d.centres[label], 0.86)}"/>'
                 for label in mark.hexes if label in d.centres)
    points = [p for p in (d.centre(step) for step in mark.line) if p is not None]
    if len(points) >= 2:
        marker = ' marker-end="url(#arrow)"' if mark.arrow else ""
        parts.append(f'<polyline points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}"{marker}/>')
        parts.extend(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.6"/>' for x, y in points[:-1])
    parts.append("</g>")
    return "".join(parts)


def _units(d: MapDrawing, data: Mapping[str, Any], words: MapWords, selected: str | None, marks: list[Mark]) -> str:
    units = [u for u in data.get("units") or [] if isinstance(u, dict)]
    colours = side_colours(sides_of(data))
    ring = {uid: mark.kind for mark in marks for uid in mark.units}
    per_hex: dict[str, int] = {}
    ordered = sorted(units, key=lambda u: (u.get("type") != "leader", str(u.get("id"))))  # leaders on top
    parts = ['<g class="units">']
    for u in reversed(ordered):
        parts.append(_counter(d, u, data, colours, words, per_hex, selected == u.get("id"), ring.get(u.get("id"))))
    parts.append("</g>")
    return "".join(parts)


def facing_angle(d: MapDrawing, u: Mapping[str, Any], hexes: Sequence[str]) -> float | None:
    """The angle (degrees, y down) a counter faces: a vertex, or for a two-hex column the direction of its head."""
    facing = u.get("facing")
    if not isinstance(facing, str) or not has_facing(u):
        return None
    layout = d.hexmap.layout
    name = facing.strip().upper()
    if _in_column(u) and len(hexes) == 2 and name in DIRECTION_NAMES[layout]:
        return d.direction_angles[DIRECTION_NAMES[layout].index(name)]
    if name in VERTEX_NAMES[layout]:
        return d.vertex_angles[VERTEX_NAMES[layout].index(name)]
    return None


def _in_column(u: Mapping[str, Any]) -> bool:
    return str((u.get("formation") or {}).get("name", "")).lower() == "column"


def _counter_classes(u: Mapping[str, Any], selected: bool, ring: str | None) -> str:
    classes = ["unit", "t-" + TYPE_CODES.get(str(u.get("type", "")), "x")]
    if selected:
        classes.append("sel")
    if ring:
        classes.append("ring-" + SAFE_CLASS.sub("", ring))
    state = (u.get("morale") or {}).get("state")
    if state in ("shaken", "broken"):
        classes.append("m-" + state)
    return " ".join(classes)


def _counter(d: MapDrawing, u: Mapping[str, Any], data, colours, words: MapWords, per_hex: dict[str, int],
             selected: bool, ring: str | None) -> str:
    """A counter: a rectangle along the unit's row, its front edge marked and turned to its facing; upright on it
    the unit-type symbol, the id, and the order, morale and rating letters."""
    hexes = [label for label in (u.get("hexes") or []) if label in d.centres]
    flags = u.get("flags") or {}
    if not hexes or any(flags.get(k) for k in OFF_MAP_FLAGS):
        return ""
    cx, cy = _stacked_centre(d, hexes, per_hex)
    stroke, fill = colours.get(str(u.get("side", "")), PALETTE[0])
    s = d.size * 1.12  # the counter's side
    w, h, rotate, facing = _counter_box(d, u, hexes, s)
    order = order_of(u, data)
    uid = str(u.get("id", ""))
    radius = "2" if has_facing(u) else f"{s / 2:.1f}" if len(hexes) == 1 else "6"
    parts = [f'<g class="{_counter_classes(u, selected, ring)}" data-unit="{esc(uid)}">',
             f"<title>{esc(words.unit_title(u, order))}</title>",
             f'<g transform="translate({cx:.1f},{cy:.1f}) rotate({rotate:.1f})">',
             f'<rect class="body" x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="{h:.1f}" rx="{radius}" '
             f'fill="{fill}" stroke="{stroke}"/>']
    if facing is not None:
        parts.append(f'<rect class="front" x="{-w / 2:.1f}" y="{-h / 2:.1f}" width="{w:.1f}" height="4" '
                     f'fill="{stroke}"/>')
    parts.append("</g>")
    parts.append(_symbol(str(u.get("type", "")), cx, cy - 5.5, stroke))
    short = uid if len(uid) <= 7 else uid[:6] + "…"
    parts.append(f'<text class="uid" x="{cx:.1f}" y="{cy + 4.5:.1f}">{esc(short)}</text>')
    info = words.counter_info(u, order)
    if info:
        parts.append(f'<text class="info" x="{cx:.1f}" y="{cy + 11.5:.1f}">{esc(info)}</text>')
    parts.append("</g>")
    return "".join(parts)


def _stacked_centre(d: MapDrawing, hexes: list[str], per_hex: dict[str, int]) -> tuple[float, float]:
    """Where a counter is drawn: its hexes' centre, shifted up and right by the counters already drawn there
    (``per_hex`` counts them, this one included once it is placed)."""
    centre = d.centre(hexes)
    stack = max(per_hex.get(label, 0) for label in hexes)
    for label in hexes:
        per_hex[label] = per_hex.get(label, 0) + 1
    return centre[0] + 3 * stack, centre[1] - 3 * stack


def _counter_box(d: MapDrawing, u: Mapping[str, Any], hexes: list[str], s: float
                 ) -> tuple[float, float, float, float | None]:
    """The counter's width and height, its turn, and the angle it faces (None without a facing): along the row of
    a two-hex unit, turned to face its vertex; a column's counter stands lengthwise along its heading."""
    length, rotate = s, 0.0
    if len(hexes) == 2:
        (x1, y1), (x2, y2) = d.centres[hexes[0]], d.centres[hexes[1]]
        length = s + math.hypot(x2 - x1, y2 - y1)
        rotate = math.degrees(math.atan2(y2 - y1, x2 - x1))
    facing = facing_angle(d, u, hexes)
    w, h = length, s
    if facing is not None:
        rotate = facing + 90
        if len(hexes) == 2 and _in_column(u):
            w, h = s, length
    return w, h, rotate, facing


def _symbol(kind: str, cx: float, cy: float, stroke: str) -> str:
    """A small unit-type symbol in the style of map symbols: a box with a slash (cavalry), a cross (infantry; a
    single bar for light infantry), a dot (artillery); a star for a leader, a wheel for wagons."""
    w, h = 11.0, 7.0
    x, y = cx - w / 2, cy - h / 2
    line = f'class="sym" stroke="{stroke}"'
    box = f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" {line}/>'
    rising = f'<line x1="{x:.1f}" y1="{y + h:.1f}" x2="{x + w:.1f}" y2="{y:.1f}" {line}/>'
    falling = f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x + w:.1f}" y2="{y + h:.1f}" {line}/>'
    symbols = {
        "cavalry": box + rising,
        "heavy-infantry": box + falling + rising,
        "light-infantry": box + falling,
        "artillery": f'{box}<circle cx="{cx:.1f}" cy="{cy:.1f}" r="1.8" fill="{stroke}"/>',
        "leader": f'<text class="star" x="{cx:.1f}" y="{cy + 2.5:.1f}" fill="{stroke}">★</text>',
    }
    return symbols.get(kind, f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.2" {line}/>')


# --- standalone pictures (docs/) -----------------------------------------------------------------------------------

PICTURE_STYLE = """
.hex { fill: #fbfaf5; stroke: #9a9a8f; stroke-width: 1; }
.hex-label { font: 7px sans-serif; fill: #8a8a80; text-anchor: middle; }
.front { fill: #cfe8c8; } .flank { fill: #f6e3a6; } .rear { fill: #f2c4bd; }
.adjacent { stroke: #333; stroke-width: 1.8; }
.excluded { fill: #e6e6e6; } .blocked { fill: #b9c3cc; } .dead-zone { fill: #d9c9e8; }
.target { fill: #ffd9a8; } .goal { fill: #bfe0f5; } .los { fill: #e8f1fb; }
.unit { stroke: #222; stroke-width: 1.2; } .unit.red { fill: #d65a4a; } .unit.blue { fill: #4a78d6; }
.unit.neutral { fill: #888; }
.unit-body { stroke: #888; opacity: .8; } .unit-body.red { stroke: #d65a4a; } .unit-body.blue { stroke: #4a78d6; }
.unit-label { font: bold 7px sans-serif; fill: #111; text-anchor: middle; dominant-baseline: central; }
.facing { stroke: #111; stroke-width: 2; marker-end: url(#arrow); }
.path { fill: none; stroke: #1b5e20; stroke-width: 2.5; stroke-linejoin: round; marker-end: url(#arrow); opacity: .85; }
.path.alt { stroke: #6a1b9a; stroke-dasharray: 4 3; }
.line { fill: none; stroke: #555; stroke-width: 1; stroke-dasharray: 2 2; }
.caption { font: 9px sans-serif; fill: #333; }
.legend-text { font: 8px sans-serif; fill: #333; dominant-baseline: central; }
"""


def _classes(values: Iterable[str]) -> str:
    """CSS class names, dropping any that are not plain names (the attribute is quoted and escaped anyway)."""
    return " ".join(v for v in values if _CLASS.match(str(v)))


def render_svg(
    hexmap: HexMap,
    highlights: Mapping[Hex | str, Sequence[str]] | None = None,
    units: Sequence[Mapping[str, Any]] = (),
    paths: Sequence[Mapping[str, Any]] = (),
    *,
    hexes: Iterable[Hex | str] | None = None,
    labels: bool = True,
    title: str | None = None,
    caption: str | None = None,
    legend: Sequence[tuple[str, str]] = (),
    size: float = 18.0,
) -> str:
    """A standalone SVG picture of ``hexmap`` (or only ``hexes`` of it), with its own styles.

    ``highlights`` maps a hex (label or Hex) to CSS classes (``front``, ``flank``, ``rear``, ``excluded`` …).
    ``units`` are dicts with ``hexes`` (one or two), optional ``facing`` (a vertex name or index), ``label``,
    ``side`` (a CSS class: ``red``, ``blue``). ``paths`` are dicts with ``hexes`` (in order) and optional ``class``.
    ``legend`` is a list of (CSS class, text) shown under the map.
    """
    d = MapDrawing(hexmap, size, 6.0)

    def parse(h: Hex | str) -> Hex:
        return h if isinstance(h, Hex) else hexmap.parse(h)

    shown = [parse(h) for h in hexes] if hexes is not None else list(hexmap.hexes())
    marks = {parse(h): list(v) for h, v in (highlights or {}).items()}
    min_x, min_y, width, map_height = _picture_box([d.centres[hexmap.label(h)] for h in shown], size)
    height = map_height + (14 if caption else 0) + 12 * len(legend)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1f} {min_y:.1f} {width:.1f} {height:.1f}" '
           f'width="{width:.0f}" height="{height:.0f}" role="img">']
    if title:
        out.append(f"<title>{esc(title)}</title>")
    out.append(f"<style>{PICTURE_STYLE}</style>")
    out.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
               'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>')
    out.extend(_picture_hexes(d, hexmap, shown, marks, labels))
    out.extend(_picture_path(d, hexmap, [parse(h) for h in path["hexes"]], path.get("class")) for path in paths)
    for unit in units:
        out.extend(_marker(d, hexmap, [parse(h) for h in unit["hexes"]], unit, size))
    out.extend(_caption_and_legend(min_x, min_y + map_height, caption, legend))
    out.append("</svg>")
    return "\n".join(out)


def _picture_box(centres: list[tuple[float, float]], size: float) -> tuple[float, float, float, float]:
    """The map's box around the hex centres, a hex and a margin beyond them: left, top, width, height."""
    min_x = min(x for x, _ in centres) - size - 6
    min_y = min(y for _, y in centres) - size - 6
    return min_x, min_y, max(x for x, _ in centres) + size + 6 - min_x, max(y for _, y in centres) + size + 6 - min_y


def _picture_hexes(d: MapDrawing, hexmap: HexMap, shown: list[Hex], marks: Mapping[Hex, list[str]],
                   labels: bool) -> list[str]:
    """The picture's hexes, each with its highlight classes and, if ``labels``, its label."""
    out = []
    for h in shown:
        cx, cy = d.centres[hexmap.label(h)]
        out.append(f'<polygon class="{esc(_classes(["hex", *marks.get(h, [])]))}" points="{d.hex_points(cx, cy)}"/>')
        if labels:
            out.append(f'<text class="hex-label" x="{cx:.1f}" y="{cy - d.size * 0.55:.1f}">{esc(hexmap.label(h))}</text>')
    return out


def _picture_path(d: MapDrawing, hexmap: HexMap, cells: list[Hex], css: Any) -> str:
    """A path through hex centres: an arrowed path (``class`` adds classes), or a plain dotted ``line``."""
    points = " ".join("{:.1f},{:.1f}".format(*d.centres[hexmap.label(h)]) for h in cells)
    classes = _classes(["path", *str(css or "").split()]) if css != "line" else "line"
    return f'<polyline class="{esc(classes)}" points="{points}"/>'


def _caption_and_legend(x: float, y: float, caption: str | None, legend: Sequence[tuple[str, str]]) -> list[str]:
    """Under the map from ``y``: the caption, then a swatch and its text per legend entry."""
    out = []
    if caption:
        out.append(f'<text class="caption" x="{x + 6:.1f}" y="{y + 8:.1f}">{esc(caption)}</text>')
        y += 14
    for css, text in legend:
        out.append(f'<rect class="{esc(_classes(["hex", css]))}" x="{x + 6:.1f}" y="{y:.1f}" width="10" height="8"/>')
        out.append(f'<text class="legend-text" x="{x + 20:.1f}" y="{y + 4:.1f}">{esc(text)}</text>')
        y += 12
    return out


def _marker(d: MapDrawing, hexmap: HexMap, cells: list[Hex], unit: Mapping[str, Any], size: float) -> list[str]:
    """A unit in a picture: a disc per hex (joined for a two-hex unit), a line to the vertex it faces, its label."""
    centres = [Point(*d.centres[hexmap.label(h)]) for h in cells]
    side = str(unit.get("side", "neutral"))
    parts = []
    if len(centres) == 2:
        a, b = centres
        parts.append(f'<line class="{esc(_classes(["unit-body", side]))}" x1="{a.x:.1f}" y1="{a.y:.1f}" '
                     f'x2="{b.x:.1f}" y2="{b.y:.1f}" stroke-width="{size * 0.9:.1f}" stroke-linecap="round"/>')
    parts.extend(f'<circle class="{esc(_classes(["unit", side]))}" cx="{c.x:.1f}" cy="{c.y:.1f}" r="{size * 0.45:.1f}"/>'
                 for c in centres)
    facing = unit.get("facing")
    if facing is not None:
        vertex = facing if isinstance(facing, int) else hexmap.parse_vertex(str(facing))
        for h, c in zip(cells, centres):
            v = vertex_point(d.layout, h, vertex)
            parts.append(f'<line class="facing" x1="{c.x:.1f}" y1="{c.y:.1f}" x2="{c.x + (v.x - c.x) * 0.85:.1f}" '
                         f'y2="{c.y + (v.y - c.y) * 0.85:.1f}"/>')
    if unit.get("label"):
        mx, my = sum(c.x for c in centres) / len(centres), sum(c.y for c in centres) / len(centres)
        parts.append(f'<text class="unit-label" x="{mx:.1f}" y="{my + size * 0.75:.1f}">{esc(unit["label"])}</text>')
    return parts
