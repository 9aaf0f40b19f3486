"""SVG drawings of a hex map: highlighted hexes, units with their facing, paths. Pure Python, no Django.

Used for the pictures in docs/geometry-hex.md and by the web checker. Every text put into the drawing (labels,
unit names, titles, CSS classes) is escaped. The drawing carries its own default styles, which a page may override
through the CSS classes::

    svg = render_svg(hexmap, highlights={"0504": ["front"]},
                     units=[{"hexes": ["0505"], "facing": "N", "label": "CAV-1", "side": "red"}],
                     paths=[{"hexes": ["0708", "0707", "0606"], "class": "path"}])
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

from .hexgrid import Hex, HexMap, Point, hex_to_pixel, polygon_corners, vertex_point

DEFAULT_STYLE = """
.hex { fill: #fbfaf5; stroke: #9a9a8f; stroke-width: 1; }
.hex-label { font: 7px sans-serif; fill: #8a8a80; text-anchor: middle; }
.front { fill: #cfe8c8; } .flank { fill: #f6e3a6; } .rear { fill: #f2c4bd; }
.adjacent { stroke: #333; stroke-width: 1.8; }
.excluded { fill: #e6e6e6; } .blocked { fill: #b9c3cc; } .dead-zone { fill: #d9c9e8; }
.target { fill: #ffd9a8; } .goal { fill: #bfe0f5; } .los { fill: #e8f1fb; }
.unit { stroke: #222; stroke-width: 1.2; } .unit.red { fill: #d65a4a; } .unit.blue { fill: #4a78d6; }
.unit.neutral { fill: #888; }
.unit-body { stroke: #888; opacity: .8; } .unit-body.red { stroke: #d65a4a; } .unit-body.blue { stroke: #4a78d6; }
.unit-label { font: bold 7px sans-serif; fill: #fff; text-anchor: middle; dominant-baseline: central; }
.facing { stroke: #111; stroke-width: 2; marker-end: url(#arrow); }
.path { fill: none; stroke: #1b5e20; stroke-width: 2.5; stroke-linejoin: round; marker-end: url(#arrow); opacity: .85; }
.path.alt { stroke: #6a1b9a; stroke-dasharray: 4 3; }
.line { fill: none; stroke: #555; stroke-width: 1; stroke-dasharray: 2 2; }
.caption { font: 9px sans-serif; fill: #333; }
.legend-text { font: 8px sans-serif; fill: #333; dominant-baseline: central; }
"""

_CLASS = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def _classes(values: Iterable[str]) -> str:
    """CSS class names, dropping any that are not plain names (the attribute is quoted and escaped anyway)."""
    return " ".join(v for v in values if _CLASS.match(str(v)))


def _hex(hexmap: HexMap, value: Hex | str) -> Hex:
    return value if isinstance(value, Hex) else hexmap.parse(value)


def _pt(p: Point) -> str:
    return f"{p.x:.1f},{p.y:.1f}"


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
    """An SVG drawing of ``hexmap`` (or only ``hexes`` of it).

    ``highlights`` maps a hex (label or Hex) to CSS classes (``front``, ``flank``, ``rear``, ``excluded`` …).
    ``units`` are dicts with ``hexes`` (one or two), optional ``facing`` (a vertex name or index), ``label``,
    ``side`` (a CSS class: ``red``, ``blue``). ``paths`` are dicts with ``hexes`` (in order) and optional ``class``.
    ``legend`` is a list of (CSS class, text) shown under the map.
    """
    layout = hexmap.pixel_layout(size=size, margin=6.0)
    shown = [_hex(hexmap, h) for h in hexes] if hexes is not None else list(hexmap.hexes())
    marks = {_hex(hexmap, h): list(v) for h, v in (highlights or {}).items()}
    corners = [p for h in shown for p in polygon_corners(layout, h)]
    min_x, min_y = min(p.x for p in corners) - 6, min(p.y for p in corners) - 6
    width = max(p.x for p in corners) + 6 - min_x
    map_height = max(p.y for p in corners) + 6 - min_y
    extra = (14 if caption else 0) + 12 * len(legend)
    height = map_height + extra
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{min_x:.1f} {min_y:.1f} {width:.1f} {height:.1f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="img">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f"<style>{DEFAULT_STYLE}</style>")
    out.append('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" '
               'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>')
    for h in shown:
        classes = _classes(["hex", *marks.get(h, [])])
        points = " ".join(_pt(p) for p in polygon_corners(layout, h))
        out.append(f"<polygon class={quoteattr(classes)} points={quoteattr(points)}/>")
        if labels:
            c = hex_to_pixel(layout, h)
            out.append(f'<text class="hex-label" x="{c.x:.1f}" y="{c.y - size * 0.55:.1f}">{escape(hexmap.label(h))}</text>')
    for path in paths:
        points = " ".join(_pt(hex_to_pixel(layout, _hex(hexmap, h))) for h in path["hexes"])
        classes = _classes(["path", *str(path.get("class", "")).split()]) if path.get("class") != "line" else "line"
        out.append(f"<polyline class={quoteattr(classes)} points={quoteattr(points)}/>")
    for unit in units:
        out.extend(_unit(hexmap, layout, unit, size))
    y = min_y + map_height
    if caption:
        out.append(f'<text class="caption" x="{min_x + 6:.1f}" y="{y + 8:.1f}">{escape(caption)}</text>')
        y += 14
    for css, text in legend:
        out.append(f"<rect class={quoteattr(_classes(['hex', css]))} x=\"{min_x + 6:.1f}\" y=\"{y:.1f}\" width=\"10\" height=\"8\"/>")
        out.append(f'<text class="legend-text" x="{min_x + 20:.1f}" y="{y + 4:.1f}">{escape(text)}</text>')
        y += 12
    out.append("</svg>")
    return "\n".join(out)


def _unit(hexmap: HexMap, layout, unit: Mapping[str, Any], size: float) -> list[str]:
    cells = [_hex(hexmap, h) for h in unit["hexes"]]
    centers = [hex_to_pixel(layout, h) for h in cells]
    side = _classes(["unit", str(unit.get("side", "neutral"))])
    parts = []
    if len(centers) == 2:
        a, b = centers
        body = _classes(["unit-body", str(unit.get("side", "neutral"))])
        parts.append(f'<line class={quoteattr(body)} x1="{a.x:.1f}" y1="{a.y:.1f}" x2="{b.x:.1f}" y2="{b.y:.1f}" '
                     f'stroke-width="{size * 0.9:.1f}" stroke-linecap="round"/>')
    r = size * 0.45
    for c in centers:
        parts.append(f'<circle class={quoteattr(side)} cx="{c.x:.1f}" cy="{c.y:.1f}" r="{r:.1f}"/>')
    facing = unit.get("facing")
    if facing is not None:
        vertex = facing if isinstance(facing, int) else hexmap.parse_vertex(str(facing))
        for h, c in zip(cells, centers):
            v = vertex_point(layout, h, vertex)
            tip = Point(c.x + (v.x - c.x) * 0.85, c.y + (v.y - c.y) * 0.85)
            parts.append(f'<line class="facing" x1="{c.x:.1f}" y1="{c.y:.1f}" x2="{tip.x:.1f}" y2="{tip.y:.1f}"/>')
    if unit.get("label"):
        mid = Point(sum(c.x for c in centers) / len(centers), sum(c.y for c in centers) / len(centers))
        parts.append(f'<text class="unit-label" x="{mid.x:.1f}" y="{mid.y + size * 0.75:.1f}" style="fill:#111">'
                     f"{escape(str(unit['label']))}</text>")
    return parts
