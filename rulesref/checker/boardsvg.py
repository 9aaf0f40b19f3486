"""The tabletop board for the editor: the engine's own drawing (``rulesref.engine.t9a.svg``: board, terrain, units,
arcs, what a ruling adds) with each unit and each terrain piece made a link that selects it (a unit's link carries
its centre and facing for the editor's script), the declared charges drawn as numbered arrows in the order
declared, and the board carrying how its inches map to the SVG (``data-minx``, ``data-maxy``: the SVG's ``y`` runs
down the page, the board's up).

Every text is escaped here or by the engine's drawing; class names come from fixed sets.
"""
from __future__ import annotations

from html import escape
from typing import Any

from rulesref.engine.t9a import svg as drawing


def render(scenario, result: dict[str, Any] | None, *, selected: str | None, href_prefix: str,
           labels: dict[str, str], selected_terrain: str | None = None, terrain_href_prefix: str = "",
           pixels_per_inch: float = 14.0) -> str:
    canvas = drawing.Canvas(scenario)
    result = result or {}
    drawing.draw_board(canvas, scenario)
    unit_ids = {u.id for u in scenario.units}
    if selected in unit_ids:
        arcs = drawing.arcs_polygons(scenario, scenario.unit(selected))
    else:
        arcs = result.get("arcs")
    if arcs:
        drawing.draw_arcs(canvas, arcs)
    draw_terrain_links(canvas, scenario.terrain, selected_terrain, terrain_href_prefix or href_prefix, labels)
    colours = drawing.side_colours(scenario)
    canvas.parts.append('<g class="units">')
    for unit in scenario.units:
        cx, cy = unit.boundary.centre[0], unit.boundary.centre[1]
        css = "bunit sel" if unit.id == selected else "bunit"
        canvas.parts.append(
            f'<a class="{css}" href="{escape(href_prefix + unit.id, quote=True)}" data-unit="{escape(unit.id, quote=True)}" '
            f'data-x="{round(cx, 3)}" data-y="{round(cy, 3)}" aria-label="{escape(labels["unit"].format(unit=unit.label), quote=True)}">')
        drawing.draw_unit(canvas, unit, colours[unit.side])
        canvas.parts.append("</a>")
    canvas.parts.append("</g>")
    draw_declared_charges(canvas, scenario)
    drawing.draw_ruling(canvas, result)
    width, height = round(canvas.width, 3), round(canvas.height, 3)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tboard" viewBox="0 0 {width} {height}" '
        f'width="{round(width * pixels_per_inch)}" height="{round(height * pixels_per_inch)}" '
        f'data-minx="{round(canvas.minx, 3)}" data-maxy="{round(canvas.maxy, 3)}" role="img" '
        f'aria-label="{escape(labels["board"], quote=True)}" font-family="sans-serif">'
        f"<style>{drawing.STYLE}.bunit{{cursor:pointer}}.bunit.sel .unit{{stroke:#000;stroke-width:0.25}}"
        f".bunit:focus .unit{{stroke:#f1c40f;stroke-width:0.3}}.tboard.dragging .bunit{{cursor:grabbing}}"
        f".bterrain{{cursor:pointer}}.bterrain.sel polygon{{stroke:#000;stroke-width:0.25;stroke-dasharray:none}}"
        f".bterrain:focus polygon{{stroke:#f1c40f;stroke-width:0.3}}"
        f".declared-charges{{pointer-events:none}}"
        f".charge-line{{stroke:#c0392b;stroke-width:0.18;marker-end:url(#charge-head)}}"
        f".charge-order{{fill:#c0392b;font-weight:bold;stroke:#fff;stroke-width:0.2;paint-order:stroke}}</style>\n"
        + "\n".join(canvas.parts) + "\n</svg>\n"
    )


def draw_terrain_links(canvas, terrain, selected: str | None, href_prefix: str, labels: dict[str, str]) -> None:
    """Each piece drawn by the engine, inside a link that selects it."""
    canvas.parts.append('<g class="terrain-pieces">')
    for piece in terrain:
        css = "bterrain sel" if piece.id == selected else "bterrain"
        canvas.parts.append(
            f'<a class="{css}" href="{escape(href_prefix + piece.id, quote=True)}" '
            f'data-terrain="{escape(piece.id, quote=True)}" '
            f'aria-label="{escape(labels["terrain"].format(terrain=piece.label), quote=True)}">')
        drawing.draw_terrain(canvas, [piece])
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
    from shapely.geometry import LineString

    crossing = LineString([boundary.centre, point]).intersection(boundary.polygon.exterior)
    points = [(p.x, p.y) for p in getattr(crossing, "geoms", [crossing]) if not p.is_empty and p.geom_type == "Point"]
    return points[0] if points else tuple(boundary.centre)
