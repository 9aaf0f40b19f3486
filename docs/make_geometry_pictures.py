"""Draw the pictures of docs/geometry-hex.md from the engine's own geometry and SVG drawing.

    python docs/make_geometry_pictures.py        # writes docs/img/geometry-*.svg

Every picture is computed by the engine (sectors, paths, retreats), so the documentation shows what the code does.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulesref.engine import ask  # noqa: E402
from rulesref.engine.hexgrid import (  # noqa: E402
    HexMap,
    adjacent_by_sector,
    footprint,
    footprint_distance,
    hex_lines,
    sector_of,
)
from rulesref.engine.hexsvg import render_svg  # noqa: E402
from rulesref.engine.mpbs import load_scenario  # noqa: E402

OUT = ROOT / "docs" / "img"
SCENARIOS = ROOT / "fixtures" / "scenarios" / "mpbs"
SECTOR_LEGEND = [("front", "front sector"), ("flank", "flank sector (the flank row)"), ("rear", "rear sector")]


def sectors_picture(size: int, facing_name: str, name: str, caption: str) -> None:
    hexmap = HexMap(11, 9, "pointy", "odd")
    facing = hexmap.parse_vertex(facing_name)
    unit = footprint(hexmap.hex_at(5, 4), facing, size)
    near = {h for hexes in adjacent_by_sector(unit, facing).values() for h in hexes}
    highlights = {}
    for h in hexmap.hexes():
        sector = sector_of(unit, facing, h)
        if sector is not None:
            highlights[h] = [sector.value] + (["adjacent"] if h in near else [])
    svg = render_svg(hexmap, highlights, units=[{"hexes": list(unit), "facing": facing, "side": "red", "label": f"{size}-hex"}],
                     title=caption, caption=caption, legend=SECTOR_LEGEND)
    (OUT / name).write_text(svg, encoding="utf-8")


def line_of_sight_picture() -> None:
    hexmap = HexMap(9, 6, "pointy", "odd")
    a, b = hexmap.hex_at(1, 2), hexmap.hex_at(6, 2)
    b2 = hexmap.parse("0604")
    lines = hex_lines(a, b2)
    highlights = {h: ["los"] for line in lines for h in line}
    paths = [{"hexes": list(line), "class": "" if i == 0 else "alt"} for i, line in enumerate(lines)]
    paths.append({"hexes": [a, b], "class": "line"})
    svg = render_svg(hexmap, highlights, paths=paths,
                     units=[{"hexes": [a], "side": "red", "label": "A"}, {"hexes": [b2], "side": "blue", "label": "B"}],
                     caption="A line along hexsides has two variants; it is clear if either one is clear.",
                     title="Line of sight: the two nudged lines")
    (OUT / "geometry-line-of-sight.svg").write_text(svg, encoding="utf-8")


def interception_picture() -> None:
    data = json.loads((SCENARIOS / "interception-example-9.3.json").read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV-1"})
    target = scenario.by_id["HI-1"]
    hexmap = scenario.hexmap
    highlights = {}
    for h in hexmap.hexes():
        if footprint_distance((h,), target.hexes) == 1:
            highlights[h] = ["goal"]
    for h in target.hexes:
        highlights[h] = ["target"]
    path = [p["hexes"][0] for p in ruling.result["path"]]
    units = [{"hexes": scenario.labels(u.hexes), "facing": u.facing, "side": u.side, "label": u.id} for u in scenario.units]
    svg = render_svg(hexmap, highlights, units=units, paths=[{"hexes": path}],
                     caption="9.3 example: each hex entered is one hex closer to HI-1; the cavalry ends in its rear.",
                     title="Interception path (9.3.3)", legend=[("goal", "hexes adjacent to the intercepted unit")])
    (OUT / "geometry-interception-9.3.svg").write_text(svg, encoding="utf-8")


def retreat_picture() -> None:
    data = json.loads((SCENARIOS / "retreat.json").read_text(encoding="utf-8"))
    scenario = load_scenario(data)
    ruling = ask("mpbs", "retreat", data, {"unit": "R-A", "result": "broken", "fought": "B-A"})
    hexmap = scenario.hexmap
    keep = [h for h in hexmap.hexes() if hexmap.offset_of(h).col <= 5 and hexmap.offset_of(h).row <= 7]
    highlights = {label: ["excluded"] for label in ruling.result["excluded"]}
    for label, kind in data["map"]["terrain"].items():
        if hexmap.parse(label) in keep:
            highlights.setdefault(label, []).append("blocked" if kind == "water" else "dead-zone")
    paths = [{"hexes": ["0306"] + [step[0] for step in d["path"]], "class": "" if i == 0 else "alt"}
             for i, d in enumerate(ruling.result["destinations"])]
    units = [{"hexes": scenario.labels(u.hexes), "facing": u.facing, "side": u.side, "label": u.id}
             for u in scenario.units if all(h in keep for h in u.hexes)]
    svg = render_svg(hexmap, highlights, units=units, paths=paths, hexes=keep,
                     caption="11.4.2: R-A (Morale Broken) retreats 2 hexes north, through its guns rather than the woods.",
                     title="Retreat priorities (11.4.2)",
                     legend=[("excluded", "adjacent to the enemy fought: never entered (priority 1)"),
                             ("dead-zone", "woods: dearer, so not the path of least resistance (priority 3)")])
    (OUT / "geometry-retreat.svg").write_text(svg, encoding="utf-8")


def facings_picture() -> None:
    for layout in ("pointy", "flat"):
        hexmap = HexMap(3, 3, layout, "odd")
        center = hexmap.hex_at(1, 1)
        units = [{"hexes": [center], "facing": v, "side": "red"} for v in range(6)]
        names = ", ".join(f"{v}: {hexmap.vertex_name(v)}" for v in range(6))
        svg = render_svg(hexmap, {}, units=units, size=30, caption=f"{layout}-top vertices {names}",
                         title=f"Vertex facings on a {layout}-top map")
        (OUT / f"geometry-facings-{layout}.svg").write_text(svg, encoding="utf-8")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    sectors_picture(1, "N", "geometry-sectors-one-hex.svg", "One-hex unit facing N: 2 front, 2 flank, 2 rear hexes (6.1); sectors beyond (9.3.1b).")
    sectors_picture(2, "N", "geometry-sectors-two-hex.svg", "Two-hex unit facing N: 3 front, 2 flank, 3 rear hexes (6.1); sectors beyond (9.3.1b).")
    sectors_picture(1, "NE", "geometry-sectors-one-hex-ne.svg", "One-hex unit facing NE: the flank row turns with the facing.")
    facings_picture()
    line_of_sight_picture()
    interception_picture()
    retreat_picture()
    for path in sorted(OUT.glob("geometry-*.svg")):
        print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
