"""The tabletop board for the editor: the engine's own drawing (``rulesref.engine.t9a.svg``: board, terrain, units,
arcs, what a ruling adds) with each unit made a link that selects it and carries its centre and facing for the
editor's script, and the board carrying how its inches map to the SVG (``data-minx``, ``data-maxy``: the SVG's
``y`` runs down the page, the board's up).

Every text is escaped here or by the engine's drawing; class names come from fixed sets.
"""
from __future__ import annotations

from html import escape
from typing import Any

from rulesref.engine.t9a import svg as drawing


def render(scenario, result: dict[str, Any] | None, *, selected: str | None, href_prefix: str,
           labels: dict[str, str], pixels_per_inch: float = 14.0) -> str:
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
    drawing.draw_terrain(canvas, scenario.terrain)
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
    drawing.draw_ruling(canvas, result)
    width, height = round(canvas.width, 3), round(canvas.height, 3)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tboard" viewBox="0 0 {width} {height}" '
        f'width="{round(width * pixels_per_inch)}" height="{round(height * pixels_per_inch)}" '
        f'data-minx="{round(canvas.minx, 3)}" data-maxy="{round(canvas.maxy, 3)}" role="img" '
        f'aria-label="{escape(labels["board"], quote=True)}" font-family="sans-serif">'
        f"<style>{drawing.STYLE}.bunit{{cursor:pointer}}.bunit.sel .unit{{stroke:#000;stroke-width:0.25}}"
        f".bunit:focus .unit{{stroke:#f1c40f;stroke-width:0.3}}.tboard.dragging .bunit{{cursor:grabbing}}</style>\n"
        + "\n".join(canvas.parts) + "\n</svg>\n"
    )
