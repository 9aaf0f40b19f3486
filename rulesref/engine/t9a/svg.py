"""The board drawn as SVG: terrain, units with their Front Facing, the arcs of a chosen unit, and what a ruling
adds (sight line, approach and declared charge paths, the Flee line, each pursuer's position after each step).

Board inches map to SVG user units one to one, with ``y`` turned to run up the page as on the board.  Every text
put into the drawing (ids, names, titles) is escaped.
"""
from __future__ import annotations

from html import escape
from typing import Any, Iterable, Sequence

from .geometry import Arc
from .scenario import Scenario, Terrain, Unit

MARGIN = 1.0
SIDE_COLOURS = ("#b22222", "#1f4e9c", "#2e7d32", "#8e44ad", "#c77700", "#00838f")
ARC_COLOURS = {Arc.FRONT: "#f4d03f", Arc.REAR: "#95a5a6", Arc.LEFT_FLANK: "#85c1e9", Arc.RIGHT_FLANK: "#82e0aa"}
STEP_COLOURS = ("#6c3483", "#d35400", "#117864")


class Canvas:
    """Board coordinates to SVG coordinates, and the SVG elements drawn so far."""

    def __init__(self, scenario: Scenario):
        minx, miny, maxx, maxy = scenario.board.outline.bounds
        self.minx, self.maxy = minx - MARGIN, maxy + MARGIN
        self.width, self.height = maxx - minx + 2 * MARGIN, maxy - miny + 2 * MARGIN
        self.parts: list[str] = []

    def xy(self, point: Sequence[float]) -> tuple[float, float]:
        return (round(point[0] - self.minx, 3), round(self.maxy - point[1], 3))

    def points(self, points: Iterable[Sequence[float]]) -> str:
        return " ".join(f"{x},{y}" for x, y in (self.xy(p) for p in points))

    def polygon(self, points, css: str, style: str = "", title: str = "") -> None:
        if not points:
            return
        tooltip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(
            f'<polygon class="{escape(css, quote=True)}" points="{self.points(points)}" style="{style}">'
            f"{tooltip}</polygon>"
        )

    def line(self, start, end, css: str, style: str = "") -> None:
        (x1, y1), (x2, y2) = self.xy(start), self.xy(end)
        self.parts.append(f'<line class="{escape(css, quote=True)}" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
                          f'style="{style}"/>')

    def text(self, point, words: str, css: str = "label", size: float = 0.9) -> None:
        x, y = self.xy(point)
        self.parts.append(f'<text class="{escape(css, quote=True)}" x="{x}" y="{y}" font-size="{size}" '
                          f'text-anchor="middle" dominant-baseline="middle">{escape(words)}</text>')

    def group(self, css: str) -> "Group":
        return Group(self, css)


class Group:
    def __init__(self, canvas: Canvas, css: str):
        self.canvas, self.css = canvas, css

    def __enter__(self):
        self.canvas.parts.append(f'<g class="{escape(self.css, quote=True)}">')
        return self.canvas

    def __exit__(self, *exc):
        self.canvas.parts.append("</g>")


def render(scenario: Scenario, result: dict[str, Any] | None = None, *, arcs_of: str | None = None,
           title: str = "", pixels_per_inch: float = 12.0) -> str:
    """The board as an SVG document; ``result`` is a ruling's result as JSON (``Ruling.to_dict()["result"]``)."""
    canvas = Canvas(scenario)
    result = result or {}
    draw_board(canvas, scenario)
    arcs = result.get("arcs") if arcs_of is None else None
    if arcs_of is not None:
        arcs = arcs_polygons(scenario, scenario.unit(arcs_of))
    if arcs:
        draw_arcs(canvas, arcs)
    draw_terrain(canvas, scenario.terrain)
    draw_units(canvas, scenario)
    draw_ruling(canvas, result)
    if title:
        canvas.text((scenario.board.outline.centroid.x, scenario.board.outline.bounds[3] + MARGIN / 2), title,
                    "title", 0.8)
    width, height = round(canvas.width, 3), round(canvas.height, 3)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{round(width * pixels_per_inch)}" height="{round(height * pixels_per_inch)}" '
        f'font-family="sans-serif">\n'
        f"<style>{STYLE}</style>\n" + "\n".join(canvas.parts) + "\n</svg>\n"
    )


STYLE = (
    ".board{fill:#f3efe0;stroke:#5d4e37;stroke-width:0.15}"
    ".impassable{fill:#7f7f7f;stroke:#4d4d4d;stroke-width:0.1}"
    ".obscuring{fill:#6aa84f;fill-opacity:0.6;stroke:#38761d;stroke-width:0.1}"
    ".obscuring.impassable{fill:#45642f;fill-opacity:0.9}"
    ".open{fill:#d9ead3;stroke:#93c47d;stroke-width:0.1;stroke-dasharray:0.4 0.2}"
    ".unit{stroke:#222;stroke-width:0.08;fill-opacity:0.85}"
    ".front{stroke:#000;stroke-width:0.3}"
    ".arc{fill-opacity:0.25;stroke:#777;stroke-width:0.05}"
    ".label{fill:#fff;font-weight:bold}"
    ".terrain-label{fill:#222}"
    ".title{fill:#222}"
    ".sight{stroke:#f1c40f;stroke-width:0.15;stroke-dasharray:0.5 0.25}"
    ".approach{fill:#3498db;fill-opacity:0.15;stroke:#2471a3;stroke-width:0.08;stroke-dasharray:0.3 0.2}"
    ".declared{fill:#e74c3c;fill-opacity:0.12;stroke:#c0392b;stroke-width:0.08;stroke-dasharray:0.3 0.2}"
    ".flee{stroke:#c0392b;stroke-width:0.2;stroke-dasharray:0.6 0.3}"
    ".flee-axis{stroke:#999;stroke-width:0.08}"
    ".flee-at{fill:none;stroke:#c0392b;stroke-width:0.1;stroke-dasharray:0.3 0.2}"
    ".flee-at.open-end{stroke:#7f8c8d}"
    ".flee-roll{fill:#c0392b}"
    ".step{fill:none;stroke-width:0.15;stroke-dasharray:0.4 0.2}"
    ".step-path{fill-opacity:0.12;stroke:none}"
    ".final{fill-opacity:0.35;stroke-width:0.2}"
)


def draw_board(canvas: Canvas, scenario: Scenario) -> None:
    outline = list(scenario.board.outline.exterior.coords)[:-1]
    canvas.parts.append(f'<clipPath id="board"><polygon points="{canvas.points(outline)}"/></clipPath>')
    canvas.polygon(outline, "board")


def terrain_class(piece: Terrain) -> str:
    classes = [c for c, on in (("impassable", piece.impassable), ("obscuring", piece.obscuring)) if on]
    return " ".join(classes) or "open"


def draw_terrain(canvas: Canvas, terrain: Iterable[Terrain]) -> None:
    with canvas.group("terrain"):
        for piece in terrain:
            canvas.polygon(list(piece.outline.exterior.coords)[:-1], terrain_class(piece), title=piece.label)
            centre = piece.outline.representative_point()
            canvas.text((centre.x, centre.y), piece.label, "terrain-label", 0.7)


def side_colours(scenario: Scenario) -> dict[str, str]:
    sides = list(dict.fromkeys(u.side for u in scenario.units))
    return {side: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, side in enumerate(sides)}


def draw_units(canvas: Canvas, scenario: Scenario) -> None:
    colours = side_colours(scenario)
    with canvas.group("units"):
        for unit in scenario.units:
            draw_unit(canvas, unit, colours[unit.side])


def draw_unit(canvas: Canvas, unit: Unit, colour: str) -> None:
    boundary = unit.boundary
    states = ", ".join(s.value for s in sorted(unit.state, key=lambda s: s.value))
    canvas.polygon(boundary.corners, "unit", f"fill:{colour}",
                   title=f"{unit.label} ({unit.side}){' — ' + states if states else ''}")
    canvas.line(boundary.corners[0], boundary.corners[1], "front")
    canvas.text(boundary.centre, unit.label, "label", min(0.9, boundary.depth * 0.5))


def arcs_polygons(scenario: Scenario, unit: Unit) -> dict[str, Any]:
    from .reactions import arcs_of

    return arcs_of(scenario, unit)


def draw_arcs(canvas: Canvas, arcs: dict[str, Any]) -> None:
    canvas.parts.append('<g class="arcs" clip-path="url(#board)">')
    for arc in Arc:
        canvas.polygon(arcs.get(arc.value), "arc", f"fill:{ARC_COLOURS[arc]}", title=arc.value)
    canvas.parts.append("</g>")


def draw_ruling(canvas: Canvas, result: dict[str, Any]) -> None:
    for path in result.get("declared_paths", []):
        canvas.polygon(path["path"], "declared", title=f"declared charge: {path['charger']}")
    approach = result.get("approach")
    if approach:
        canvas.polygon(approach["path"], "approach", title="straight approach")
    sight = (result.get("line_of_sight") or {}).get("sight_line")
    if sight:
        canvas.line(sight[0], sight[1], "sight")
    flee = result.get("flee_direction")
    if flee:
        canvas.line(flee["through"][0], flee["through"][1], "flee-axis")
        canvas.line(flee["line"][0], flee["line"][1], "flee")
    for fled in (result.get("flee_odds") or {}).get("by_flee_roll", []):
        if fled.get("polygon"):
            open_ = "distance" not in fled
            canvas.polygon(fled["polygon"], "flee-at open-end" if open_ else "flee-at",
                           title=f"Flee {fled['roll']}″" + (": not placed by the corpus" if open_ else ""))
            canvas.text(fled["centre"], str(fled["roll"]), "flee-roll", 0.8)
    for pursuer in result.get("pursuers", []):
        draw_pursuer(canvas, pursuer)


def draw_pursuer(canvas: Canvas, pursuer: dict[str, Any]) -> None:
    """Each step of the pursuer's move and where it ends (filled); a move the corpus does not decide, each of its
    ways, none filled."""
    with canvas.group("pursuit"):
        draw_steps(canvas, pursuer["unit"], pursuer["steps"])
        final = pursuer["final"]
        if final is not None:
            canvas.polygon(final["polygon"], "final", "fill:#f5b041;stroke:#935116",
                           title=f"{pursuer['unit']}: {pursuer['outcome']}")
        for number, way in enumerate(pursuer.get("ways") or [], start=1):
            draw_steps(canvas, pursuer["unit"], way["steps"], f"way {number}: ")


def draw_steps(canvas: Canvas, unit: str, steps: list[dict[str, Any]], prefix: str = "") -> None:
    for number, step in enumerate(steps, start=1):
        colour = STEP_COLOURS[(number - 1) % len(STEP_COLOURS)]
        if step.get("path"):
            canvas.polygon(step["path"], "step-path", f"fill:{colour}")
        position = step["position"]
        canvas.polygon(position["polygon"], "step", f"stroke:{colour}",
                       title=f"{unit}: {prefix}step {number} ({step['step']})")
        canvas.line(position["front"][0], position["front"][1], "front", f"stroke:{colour}")
        canvas.text(position["centre"], f"{number}", "terrain-label", 0.8)
