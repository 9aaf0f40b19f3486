"""Draw the pictures of docs/geometry-tabletop.md with the t9a engine itself: docs/img/t9a-*.svg.

Run: python docs/make_t9a_pictures.py   (rewrites the pictures; the test suite checks they are up to date)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulesref.engine import ask  # noqa: E402
from rulesref.engine.t9a.scenario import load_scenario  # noqa: E402
from rulesref.engine.t9a.svg import render  # noqa: E402

IMG = ROOT / "docs" / "img"
SCENARIOS = ROOT / "fixtures" / "scenarios" / "t9a"

ARCS = {
    "title": "Arcs of a unit; B is Located on the 135-degree line, so in the Left Flank Arc",
    "board": {"width": 30, "depth": 24},
    "units": [
        {"id": "A", "side": "red", "centre": [15, 12], "facing": 0, "width": 6, "depth": 3, "advance_rate": 5},
        {"id": "B", "side": "blue", "centre": [9.5, 15], "facing": 90, "width": 3, "depth": 2, "advance_rate": 5},
        {"id": "C", "side": "blue", "centre": [16, 19], "facing": 180, "width": 4, "depth": 2, "advance_rate": 5},
    ],
}

FROM_FIXTURES = {
    "t9a-charge-reactions": ("reactions-all-three", "Flee: directly away from the charger, along the line through the centres"),
    "t9a-flee-towards-board-edge": ("reactions-flee-towards-board-edge", "After a Flee of 2, 7 and 12 inches; 12 leaves the board"),
    "t9a-charge-on-arc-line": ("reactions-charger-on-arc-line", "A charger on the arc line is in the Flank Arc"),
    "t9a-can-charge-declared-path": ("charge-across-declared-path", "A declared charge's path blocks the straight approach"),
    "t9a-can-charge-walled-in": ("charge-target-walled-in", "No way in: the charge cannot be declared"),
    "t9a-can-charge-sight": ("charge-unit-in-the-way", "Sight lines and the approach cross another unit"),
    "t9a-pursuit-full-distance": ("pursuit-full-distance", "Pursuit: pivot (1), then straight forward (2)"),
    "t9a-pursuit-pivot-charge": ("pursuit-pivot-charge", "Pivot meets an enemy: placed in base contact with its flank"),
    "t9a-pursuit-stop-short": ("pursuit-pivot-friend-in-the-way", "Pivot stopped 1 inch short of a friendly unit"),
    "t9a-pursuit-forward-enemy": ("pursuit-forward-enemy", "Straight forward into an enemy: a charge"),
    "t9a-pursuit-half-turn": ("pursuit-half-turn", "A half turn: the way round decides"),
}


def pictures() -> dict[str, str]:
    drawn = {"t9a-arcs": render(load_scenario(ARCS), arcs_of="A", title=ARCS["title"])}
    for name, (fixture, title) in FROM_FIXTURES.items():
        data = json.loads((SCENARIOS / f"{fixture}.json").read_text(encoding="utf-8"))
        question = data["questions"][0]
        result = ask("t9a", question["question"], data, question.get("params", {})).to_dict("en")["result"]
        drawn[name] = render(load_scenario(data), result, title=title)
    return drawn


def main() -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures().items():
        (IMG / f"{name}.svg").write_text(svg, encoding="utf-8")
        print(f"docs/img/{name}.svg")


if __name__ == "__main__":
    main()
