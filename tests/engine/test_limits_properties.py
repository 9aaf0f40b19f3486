"""Property tests near the scenario limits: arbitrary scenarios and parameters never make the engines raise anything
but InvalidScenarioError, and no search works past its budget (counted by the searches' own steps, not by the
budget's counter)."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesref.engine import ask, book_engine
from rulesref.engine.hexgrid import hex_map
from rulesref.engine.mpbs import movement
from rulesref.engine.mpbs.interception import INTERCEPTION_WORK
from rulesref.engine.mpbs.reaction import REACTIONS_WORK
from rulesref.engine.mpbs.retreat import RETREAT_WORK, RetreatGround
from rulesref.engine.ruling import InvalidScenarioError, Ruling

CLASSES = ("cavalry", "light-infantry", "heavy-infantry", "artillery", "limbered-artillery", "leader", "wagon")
TYPES = ["cavalry", "light-infantry", "heavy-infantry", "artillery", "leader", "wagon"]
BUDGETS = {"reactions": REACTIONS_WORK, "can-intercept": INTERCEPTION_WORK, "interception-chance": INTERCEPTION_WORK,
           "retreat": RETREAT_WORK}
SLOW = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture
def steps(monkeypatch):
    """Placements expanded by the mpbs searches, counted where they expand them."""
    counted = {"n": 0}
    moves, onward = movement.Mover.moves, RetreatGround.onward

    def counting_moves(self, *args, **kwargs):
        counted["n"] += 1
        return moves(self, *args, **kwargs)

    def counting_onward(self, anchor):
        counted["n"] += 1
        return onward(self, anchor)

    monkeypatch.setattr(movement.Mover, "moves", counting_moves)
    monkeypatch.setattr(RetreatGround, "onward", counting_onward)
    return counted


def mostly(valid: list, invalid: list):
    """Values at and near the limits, now and then one past them."""
    return st.sampled_from(valid * 30 + invalid)


@st.composite
def mpbs_scenarios(draw):
    columns = draw(mostly([2, 7, 40, 99, 100], [101]))
    rows = draw(mostly([3, 30, 100], [101]))
    hexmap = hex_map(min(columns, 100), min(rows, 100), "pointy", "odd")
    hexes = list(hexmap.hexes())
    cost = mostly([None, 0.5, 1, 2, 20], [0.4, 21])
    terrain = {hexmap.label(draw(st.sampled_from(hexes))): draw(st.sampled_from(["clear", "road", "water", "bog"]))
               for _ in range(draw(st.integers(0, 30)))}
    places = draw(st.lists(st.sampled_from(hexes), min_size=2, max_size=12, unique=True))
    units = []
    for i, h in enumerate(places):
        kind = draw(st.sampled_from(TYPES))
        unit = {"id": f"U{i}", "side": "blue" if i % 2 else "red", "type": kind,
                "hexes": [hexmap.label(h)],
                "movement": {"allowance": draw(mostly([0, 1, 6, 19.5, 20], [21])),
                             "spent": draw(st.sampled_from([0, 1, 20]))},
                "morale": {"state": draw(st.sampled_from(["normal", "shaken", "broken"])),
                           "rating": draw(mostly([0, 7, 8, 12], [13]))},
                "order": draw(st.sampled_from(["charge", "rally", "make-ready"]))}
        if kind not in ("leader", "wagon"):
            unit["facing"] = draw(st.sampled_from(["N", "NE", "SE", "S", "SW", "NW"]))
        units.append(unit)
    mover = draw(st.sampled_from(units))
    return {"book": "mpbs",
            "map": {"columns": columns, "rows": rows, "terrain_default": draw(st.sampled_from(["clear", "road"])),
                    "terrain": terrain, "dead_zones": [],
                    "friendly_edges": {"red": [draw(st.sampled_from(["north", "south"]))], "blue": ["east"]}},
            "terrain_types": {"road": {"cost": {k: draw(cost) for k in CLASSES}, "blocks_los": False,
                                       "formation_hits": {k: 0 for k in CLASSES}}},
            "tables": {"hedgehog_formations": ["line"]},
            "units": units,
            "moment": {"active_side": mover["side"], "event": {"unit": mover["id"], "action": "move", "mp": 1}}}


def _params(draw, book: str, question: str, ids: list[str]):
    """Parameters of the right type most of the time (ids of the scenario's units, the choices), now and then junk."""
    junk = st.one_of(st.integers(-1, 3), st.none(), st.just("ghost"), st.lists(st.integers(), max_size=2))
    typed = {
        "unit": st.sampled_from(ids), "units": st.one_of(st.lists(st.sampled_from(ids), min_size=1, max_size=3),
                                                         st.sampled_from(ids)),
        "facing": st.sampled_from(["N", "NE", "SE", "S", "SW", "NW"]), "hex": st.sampled_from(["0101", "0202"]),
        "int": st.sampled_from([1, 2, "2"]), "wing": st.just("W"),
    }
    params = {}
    for p in book_engine(book).PARAMS[question]:
        if not (p.required or draw(st.booleans())):
            continue
        good = st.sampled_from(p.choices) if p.choices and p.type != "int" else typed[p.type]
        params[p.name] = draw(mostly([good], [junk]).flatmap(lambda strategy: strategy))
    return params


def answered(book: str, question: str, data, params) -> Ruling | None:
    try:
        ruling = ask(book, question, data, params)
    except InvalidScenarioError:
        return None
    for lang in ("en", "ru"):
        ruling.to_dict(lang)
    return ruling


@SLOW
@given(data=st.data())
def test_mpbs_near_the_limits(steps, data):
    scenario = data.draw(mpbs_scenarios())
    question = data.draw(st.sampled_from(list(book_engine("mpbs").QUESTIONS)))
    params = _params(data.draw, "mpbs", question, [u["id"] for u in scenario["units"]])
    steps["n"] = 0
    answered("mpbs", question, scenario, params)
    # A search stops at its budget; past it, each further search (one per unit at most) stops at its first step.
    assert steps["n"] <= BUDGETS.get(question, 0) + 6 * len(scenario["units"]) + 50


@st.composite
def t9a_scenarios(draw):
    """Units in cells 26 inches apart (so that even the widest do not overlap), terrain between the cells."""
    width, depth = draw(mostly([144], [145])), draw(mostly([96], [97]))
    cells = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=2, max_size=10, unique=True))
    units = [{"id": f"u{i}", "side": "ab"[i % 2], "centre": [15 + 26 * c, 15 + 30 * r],
              "facing": draw(st.sampled_from([0, 90, 179, 180, 359.9])),
              "width": draw(mostly([0.5, 5, 12, 24], [25])), "depth": draw(mostly([1, 2, 12], [24.5])),
              "advance_rate": draw(mostly([1, 8, 20], [21])), "missile_weapons": draw(st.booleans()),
              "state": draw(st.sampled_from([[], ["fleeing"], ["engaged"]]))}
             for i, (c, r) in enumerate(cells)]
    terrain = []
    for k in range(draw(st.integers(0, 4))):
        cx, cy = 28 + 26 * draw(st.integers(0, 3)), 30 + 30 * draw(st.integers(0, 1))
        corners = draw(mostly([3, 8, 64], [65]))
        terrain.append({"id": f"t{k}", "impassable": draw(st.booleans()), "obscuring": draw(st.booleans()),
                        "polygon": [[cx + 0.5 * k + 2 * math.cos(a / corners * math.tau),
                                     cy + 2 * math.sin(a / corners * math.tau)] for a in range(corners)]})
    ids = [u["id"] for u in units]
    data = {"book": "t9a", "board": {"width": width, "depth": depth}, "units": units, "terrain": terrain}
    if draw(st.booleans()):
        fled = ids[0]  # side a: its pursuers are of side b
        data["pursuit"] = {"fled": [{"unit": fled, "roll": draw(st.integers(2, 12))}],
                           "pursuers": [{"unit": p, "pursues": fled, "roll": draw(st.integers(2, 12))}
                                        for p in draw(st.lists(st.sampled_from(ids[1::2]), max_size=3, unique=True))]}
    return data


@SLOW
@given(data=st.data())
def test_t9a_near_the_limits(data):
    scenario = data.draw(t9a_scenarios())
    question = data.draw(st.sampled_from(list(book_engine("t9a").QUESTIONS)))
    params = _params(data.draw, "t9a", question, [u["id"] for u in scenario["units"]])
    answered("t9a", question, scenario, params)
