"""The board drawn as SVG (t9a): well-formed, every text escaped, pictures in docs/ up to date."""
from __future__ import annotations

import importlib.util
import json
import xml.etree.ElementTree as ET
from pathlib import Path

from rulesref.engine import ask
from rulesref.engine.t9a.scenario import load_scenario
from rulesref.engine.t9a.svg import render

ROOT = Path(__file__).resolve().parents[2]
NS = {"svg": "http://www.w3.org/2000/svg"}
HOSTILE = '<script>alert("x")</script> & "quotes"'

SCENARIO = {
    "title": HOSTILE,
    "board": {"width": 30, "depth": 30},
    "terrain": [{"id": "wood", "name": HOSTILE, "polygon": [[2, 2], [6, 2], [6, 6]], "obscuring": True}],
    "units": [
        {"id": "a", "name": HOSTILE, "side": "x", "centre": [15, 8], "facing": 0, "width": 5, "depth": 2,
         "advance_rate": 5},
        {"id": "b", "side": "y", "centre": [15, 20], "facing": 180, "width": 5, "depth": 2, "advance_rate": 5,
         "missile_weapons": True},
    ],
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_every_text_is_escaped():
    scenario = load_scenario(SCENARIO)
    result = ask("t9a", "charge-reactions", SCENARIO, {"charger": "a", "target": "b"}).to_dict()["result"]
    svg = render(scenario, result, title=HOSTILE)
    assert "<script>" not in svg
    root = parse(svg)
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts.count(HOSTILE) == 3  # unit, terrain, title: shown as text, not markup
    assert root.find("svg:script", NS) is None


def test_draws_units_arcs_and_flee_line():
    scenario = load_scenario(SCENARIO)
    result = ask("t9a", "charge-reactions", SCENARIO, {"charger": "a", "target": "b"}).to_dict()["result"]
    root = parse(render(scenario, result))
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("unit") == 2
    assert classes.count("arc") == 4
    assert "flee" in classes


def test_draws_every_pursuit_step():
    path = ROOT / "fixtures" / "scenarios" / "t9a" / "pursuit-full-distance.json"
    data = json.loads(path.read_text())
    result = ask("t9a", "pursuit", data).to_dict()["result"]
    root = parse(render(load_scenario(data), result))
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("step") == 2 and classes.count("final") == 1


def test_board_y_runs_up_the_page():
    scenario = load_scenario(SCENARIO)
    root = parse(render(scenario))
    labels = {t.text: float(t.get("y")) for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert labels["b"] < labels[HOSTILE]  # b is farther up the board, so higher on the page


def test_doc_pictures_are_up_to_date():
    spec = importlib.util.spec_from_file_location("make_t9a_pictures", ROOT / "docs" / "make_t9a_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, svg in module.pictures().items():
        path = ROOT / "docs" / "img" / f"{name}.svg"
        assert path.exists() and path.read_text(encoding="utf-8") == svg, (
            f"{path} is stale: run python docs/make_t9a_pictures.py")
        parse(svg)
