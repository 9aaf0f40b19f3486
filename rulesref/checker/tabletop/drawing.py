"""The tabletop board on the editor page: the engine's own drawing (:mod:`rulesref.engine.t9a.svg`: board, terrain,
units, arcs, what a ruling adds) with each unit and each terrain piece a link that selects it (a unit's link
carries its centre for the editor's script), the declared charges drawn as numbered arrows in the order declared,
and the board carrying how its inches map to the SVG (``data-minx``, ``data-maxy``: the SVG's ``y`` runs down the
page, the board's up).

The page draws through :class:`PageCanvas`: colours become presentation attributes instead of ``style`` (which a
Content-Security-Policy without 'unsafe-inline' forbids), the engine's English tooltips are left out (the legend
under the board says what each mark is, in the reader's language), and the styles are in checker.css.
Every text is escaped here or by the engine's drawing; class names come from fixed sets.
"""
from __future__ import annotations

from html import escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from shapely.geometry import LineString

from rulesref.engine.t9a import svg as engine_drawing
from rulesref.engine.t9a.geometry import Arc
from rulesref.engine.t9a.text import arc_name

from .. import words
from ..page import Page
from ..state import link_prefix


PIXELS_PER_INCH = 14.0


def _attributes(style: str) -> str:
    """``fill:#b22222;stroke:#000`` (the engine's colours) as presentation attributes."""
    pairs = (part.split(":", 1) for part in style.split(";") if ":" in part)
    return "".join(f' {escape(k.strip(), quote=True)}="{escape(v.strip(), quote=True)}"' for k, v in pairs)


class PageCanvas(engine_drawing.Canvas):
    """The engine's canvas as the page needs it: no style attributes, no English tooltips."""

    def polygon(self, points, css: str, style: str = "", title: str = "") -> None:
        if points:
            self.parts.append(f'<polygon class="{escape(css, quote=True)}" points="{self.points(points)}"'
                              f'{_attributes(style)}/>')

    def line(self, start, end, css: str, style: str = "") -> None:
        (x1, y1), (x2, y2) = self.xy(start), self.xy(end)
        self.parts.append(f'<line class="{escape(css, quote=True)}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"'
                          f'{_attributes(style)}/>')


def unit_title(unit) -> str:
    """``Knights (red), fleeing`` in the reader's language."""
    states = [str(words.STATE_NAMES.get(s.value, s.value)) for s in sorted(unit.state, key=lambda s: s.value)]
    return ", ".join([f"{unit.label} ({words.side(unit.side)})", *states])


def draw_arcs(canvas: PageCanvas, arcs: dict[str, Any], lang: str) -> None:
    """The four arcs, clipped to the board, each named in the reader's language."""
    canvas.parts.append('<g class="arcs" clip-path="url(#board)">')
    for arc in Arc:
        if arcs.get(arc.value):
            canvas.parts.append(f'<polygon class="arc" points="{canvas.points(arcs[arc.value])}" '
                                f'fill="{engine_drawing.ARC_COLOURS[arc]}"><title>{escape(arc_name(arc).render(lang))}'
                                f"</title></polygon>")
    canvas.parts.append("</g>")


def render(page: Page) -> str:
    """The board as the page shows it: selectable units and terrain, the selected unit's arcs (else the answer's),
    the declared charges, and the answer's drawing on top."""
    scenario, view, lang = page.loaded, page.view, page.lang
    answer = page.answer
    result = answer.result if answer is not None else {}
    canvas = PageCanvas(scenario)
    engine_drawing.draw_board(canvas, scenario)
    selected = view.sel if scenario.has_unit(view.sel) else None
    arcs = engine_drawing.arcs_polygons(scenario, scenario.unit(selected)) if selected else result.get("arcs")
    if arcs:
        draw_arcs(canvas, arcs, lang)
    name = "pick" if view.tool == "measure" else "sel"
    unit_prefix = link_prefix(page.source, view, lang, name, terrain="") + ("u:" if name == "pick" else "")
    draw_terrain_links(canvas, scenario.terrain, view.terrain or None,
                       link_prefix(page.source, view, lang, "terrain", sel=""))
    colours = engine_drawing.side_colours(scenario)
    canvas.parts.append('<g class="units">')
    for unit in scenario.units:
        cx, cy = unit.boundary.centre[0], unit.boundary.centre[1]
        canvas.parts.append(
            f'<a class="{"bunit sel" if unit.id == selected else "bunit"}" '
            f'href="{escape(unit_prefix + unit.id, quote=True)}" data-unit="{escape(unit.id, quote=True)}" '
            f'data-x="{round(cx, 3)}" data-y="{round(cy, 3)}" '
            f'aria-label="{escape(_("Unit %(unit)s") % {"unit": unit.label}, quote=True)}">'
            f"<title>{escape(unit_title(unit))}</title>")
        engine_drawing.draw_unit(canvas, unit, colours[unit.side])
        canvas.parts.append("</a>")
    canvas.parts.append("</g>")
    draw_declared_charges(canvas, scenario)
    canvas.parts.append('<g class="ruling">')  # the answer's marks: drawn over the units, never taking their taps
    engine_drawing.draw_ruling(canvas, result)
    canvas.parts.append("</g>")
    draw_measure(canvas, page.measure)
    width, height = round(canvas.width, 3), round(canvas.height, 3)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tboard" viewBox="0 0 {width} {height}" '
        f'width="{round(width * PIXELS_PER_INCH)}" height="{round(height * PIXELS_PER_INCH)}" '
        f'data-minx="{round(canvas.minx, 3)}" data-maxy="{round(canvas.maxy, 3)}" role="group" '
        f'aria-label="{escape(_("Board"), quote=True)}" font-family="sans-serif">\n'
        + "\n".join(canvas.parts) + "\n</svg>\n"
    )


def drawing(page: Page) -> SafeString:
    return mark_safe(render(page)) if page.loaded is not None else mark_safe("")


def draw_measure(canvas: PageCanvas, measure) -> None:
    """The measure tool's line between its picks (their nearest points) and the lines of sight it found."""
    if measure is None or not measure.drawing:
        return
    canvas.parts.append('<g class="measure">')
    line = measure.drawing.get("line") or []
    if len(line) == 2:
        canvas.line(line[0], line[1], "measure-line")
    for sight in measure.drawing.get("sight") or []:
        canvas.line(sight[0], sight[1], "measure-sight")
    canvas.parts.append("</g>")


def draw_terrain_links(canvas, terrain, selected: str | None, href_prefix: str) -> None:
    """Each piece drawn by the engine, inside a link that selects it (its name, the reader's data, as its label)."""
    canvas.parts.append('<g class="terrain-pieces">')
    for piece in terrain:
        canvas.parts.append(
            f'<a class="{"bterrain sel" if piece.id == selected else "bterrain"}" '
            f'href="{escape(href_prefix + piece.id, quote=True)}" data-terrain="{escape(piece.id, quote=True)}" '
            f'aria-label="{escape(_("Terrain piece %(terrain)s") % {"terrain": piece.label}, quote=True)}">')
        engine_drawing.draw_terrain(canvas, [piece])
        canvas.parts.append("</a>")
    canvas.parts.append("</g>")


def draw_declared_charges(canvas, scenario) -> None:
    """An arrow from each charger's centre to its target's, numbered in the order the charges were declared."""
    charges = [c for c in scenario.declared_charges if scenario.has_unit(c.charger) and scenario.has_unit(c.target)]
    if not charges:
        return
    canvas.parts.append('<g class="declared-charges"><defs><marker id="charge-head" viewBox="0 0 10 10" refX="9" '
                        'refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse">'
                        '<path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>')
    for n, charge in enumerate(charges, 1):
        charger, target = scenario.unit(charge.charger).boundary, scenario.unit(charge.target).boundary
        start, end = _edge_towards(charger, target.centre), _edge_towards(target, charger.centre)
        canvas.line(start, end, "charge-line")
        canvas.text(((start[0] + end[0]) / 2, (start[1] + end[1]) / 2), str(n), "charge-order", 0.9)
    canvas.parts.append("</g>")


def _edge_towards(boundary, point) -> tuple[float, float]:
    """Where the line from the boundary's centre to ``point`` leaves the boundary (its centre if it does not)."""
    crossing = LineString([boundary.centre, point]).intersection(boundary.polygon.exterior)
    points = [(p.x, p.y) for p in getattr(crossing, "geoms", [crossing]) if not p.is_empty and p.geom_type == "Point"]
    return points[0] if points else tuple(boundary.centre)


def legend(answer) -> list[tuple[str, str]]:
    """What the marks of a tabletop answer mean, for the keys its result has."""
    result = answer.result if answer is not None else {}
    items = [("sight", "line_of_sight", _("Line of sight")), ("approach", "approach", _("Straight approach")),
             ("declared", "declared_paths", _("Paths of the charges already declared")),
             ("flee", "flee_direction", _("Flee direction")),
             ("flee-at", "flee_odds", _("Where the unit ends for each Flee roll (grey: not placed by the corpus)")),
             ("step", "pursuers", _("Each pursuer's position after each step; filled: where it ends"))]
    return [("b-" + css, label) for css, key, label in items if result.get(key)]
