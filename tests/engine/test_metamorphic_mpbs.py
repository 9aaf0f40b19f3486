"""Metamorphic tests of the mpbs engine (issue 28, item 2): a position moved in a way no rule can care about must
get the same answer, moved the same way.

Transformations (tests/engine/metamorphic_mpbs.py): the two mirrors and the half turn of the map; a quarter turn
each way, which makes a pointy-top map a flat-top one; the labels shifted (another first column and row); every
unit and wing renamed and every list shuffled; the sides' colours swapped; a far unit added (against the same map
widened, without it); and on open ground, far from every map edge, turns by 60°, 120°, 240° and 300° and shifts.
The answer must transform exactly: verdict, the clauses and statuses of the findings, and the result — hexes,
facings, costs, chances, the sets of legal hexes and of choices — with names mapped back. What an answer only
draws as one of several equal choices, each listed elsewhere with its consequence (the interception path drawn,
a withdraw's path to a destination, the line of sight drawn), is left out.

Every example scenario is checked under every transformation, and generated positions are: each transformation is
applied to every generated position, and the positions are counted (``test_zz_enough_positions``), not timed.
``METAMORPHIC_EXAMPLES`` raises the number of generated positions for a longer search.
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from rulesref.engine import ask
from rulesref.engine.mpbs import load_scenario
from rulesref.engine.ruling import InvalidScenarioError

from metamorphic_mpbs import (
    OPEN_RADIUS,
    Transformed,
    canonical,
    extended,
    hex_transforms,
    move_hexes,
    open_ground_transforms,
    position,
    rename,
    with_far_unit,
    within,
)

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "mpbs").glob("*.json"))
MAP_MOVES = ("mirror-left-right", "mirror-top-bottom", "rotate-180", "rotate-90", "rotate-270", "relabel")
OTHERS = ("rename", "swap-sides", "far-unit")
GENERATED = int(os.environ.get("METAMORPHIC_EXAMPLES", "200"))
OPEN_GENERATED = max(GENERATED // 2, 1)
QUESTIONS_PER_POSITION = 2  # of the eight, drawn per position (every kind is drawn many times over the run)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                    database=None, phases=(Phase.explicit, Phase.generate))
# No database and no shrinking (a random position does not shrink): a failing position is printed whole, as JSON.
CHECKED: Counter = Counter()  # transformation -> generated positions checked under it


def answer(data, question: str, params: dict) -> dict:
    """The answer as JSON (English), or the paths of the problems when the scenario or parameters are refused.
    ``data`` is plain data or a loaded scenario (:func:`loaded`)."""
    try:
        return ask("mpbs", question, data, params).to_dict("en")
    except InvalidScenarioError as exc:
        return {"question": question, "verdict": "refused", "findings": [],
                "result": {"problems": sorted(path for path, _ in exc.problems)}}


def loaded(data: dict):
    """The scenario loaded once for all its questions (or the data, for each question to refuse alike)."""
    try:
        return load_scenario({k: v for k, v in data.items() if k != "questions"})
    except InvalidScenarioError:
        return {k: v for k, v in data.items() if k != "questions"}


def difference(expected: dict, moved: dict, back, question: str) -> list[str]:
    """[] when the answer to the moved position, its names mapped back, is ``expected`` (a canonical answer)."""
    got = canonical(moved, back)
    if got == expected:
        return []
    return [f"{question}: {json.dumps(expected, sort_keys=True)[:1500]}\n  !=\n{json.dumps(got, sort_keys=True)[:1500]}"]


def transformations(data: dict, questions: list, rnd: random.Random) -> dict[str, Transformed]:
    found = {name: move_hexes(data, questions, t) for name, t in hex_transforms(data).items()}
    found["rename"] = rename(data, questions, rnd)
    found["swap-sides"] = rename(data, questions, rnd, swap_sides=True, reorder=False)
    return found


def check_all(data: dict, questions: list, rnd: random.Random, names=MAP_MOVES + OTHERS) -> dict[str, list[str]]:
    """Each transformation's differences (empty when every answer transforms exactly)."""
    moved = transformations(data, questions, rnd)
    base = extended(data, questions)
    original = loaded(data)
    expected = [canonical(answer(original, q, p)) for q, p in questions]
    found: dict[str, list[str]] = {}
    if base is None:  # every map edge is friendly to some side: there is no far side to put a unit on
        names = tuple(n for n in names if n != "far-unit")
    else:
        moved["far-unit"] = with_far_unit(base, rnd.choice(["cavalry", "leader", "heavy-infantry", "wagon"]), rnd)
        # The far unit is compared with the same widened map without it.
        wide = loaded(base.data)
        widened = [canonical(answer(wide, q, p), base.back) for q, p in base.questions]
    for name in names:
        t = moved[name]
        back, reference = (base.back, widened) if name == "far-unit" else (t.back, expected)
        scenario = loaded(t.data)
        found[name] = [problem for i, (question, _) in enumerate(questions)
                       for problem in difference(reference[i], answer(scenario, *t.questions[i]), back, question)]
    return found


# --- every example scenario ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_answers_transform_exactly(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    questions = [(q["question"], q.get("params", {})) for q in data.get("questions", [])
                 if not (q.get("expect") or {}).get("error")]
    found = check_all(data, questions, random.Random(path.stem))
    assert {name: problems for name, problems in found.items() if problems} == {}


# --- generated positions ------------------------------------------------------------------------------------------


@settings(SETTINGS, max_examples=GENERATED)
@given(st.randoms(use_true_random=False))
def test_generated_answers_transform_exactly(rnd):
    data, questions, _ = position(rnd)
    asked = rnd.sample(questions, QUESTIONS_PER_POSITION)
    found = check_all(data, asked, rnd)
    CHECKED.update(found.keys())
    failing = {name: problems for name, problems in found.items() if problems}
    assert failing == {}, json.dumps(data)


@settings(SETTINGS, max_examples=OPEN_GENERATED)
@given(st.randoms(use_true_random=False))
def test_open_ground_answers_turn_by_sixty_degrees(rnd):
    """Far from every map edge a position may be turned by any multiple of 60° and moved anywhere (no retreat is
    asked: it runs to a map edge)."""
    data, questions, centre = position(rnd, open_ground=True)
    asked = rnd.sample([q for q in questions if q[0] != "retreat"], QUESTIONS_PER_POSITION)
    failing = {}
    original = loaded(data)
    expected = [canonical(answer(original, q, p)) for q, p in asked]
    for name, t in open_ground_transforms(data, centre, OPEN_RADIUS).items():
        assert within(data, t), name  # the generator keeps its hexes within reach of every turn
        moved = move_hexes(data, asked, t)
        scenario = loaded(moved.data)
        problems = [p for i, (question, _) in enumerate(asked)
                    for p in difference(expected[i], answer(scenario, *moved.questions[i]), moved.back, question)]
        CHECKED[name] += 1
        if problems:
            failing[name] = problems
    assert failing == {}, json.dumps(data)


def test_zz_enough_positions():
    """Each transformation was checked on as many generated positions as the tests above were asked for (run after
    them, in file order; skipped when they were not selected)."""
    if not CHECKED:
        pytest.skip("the generated-position tests did not run")
    for name in MAP_MOVES + OTHERS:
        assert CHECKED[name] >= GENERATED * 0.9, (name, CHECKED[name])
    for name in ("rotate-60", "rotate-120", "rotate-240", "rotate-300", "translate-a", "translate-b"):
        assert CHECKED[name] >= OPEN_GENERATED * 0.9, (name, CHECKED[name])


# --- the harness itself -------------------------------------------------------------------------------------------


def test_a_real_difference_is_seen():
    """The comparison is not blind: an answer to a different position (a unit moved one hex) differs."""
    data = json.loads((EXAMPLES[0].parent / "interception-example-9.3.json").read_text(encoding="utf-8"))
    questions = [("can-intercept", {"unit": "CAV-1"})]
    moved = json.loads(json.dumps(data))
    moved["units"][1]["hexes"] = ["0709"]
    assert difference(canonical(answer(data, *questions[0])), answer(moved, *questions[0]), None, "can-intercept")


def test_the_hex_transformations_are_isometries():
    """Each map transformation keeps neighbours neighbours, and turns facings as it turns the picture."""
    from rulesref.engine.hexgrid import hex_distance

    data = {"map": {"columns": 7, "rows": 6, "layout": "pointy", "offset": "odd"}}
    for name, t in hex_transforms(data).items():
        for a in t.old.hexes():
            for b in t.old.hexes():
                assert hex_distance(a, b) == hex_distance(t.new.parse(t.label(t.old.label(a))),
                                                          t.new.parse(t.label(t.old.label(b)))), name
        assert sorted(t.vertices.values()) == sorted(t.new.vertex_name(v) for v in range(6)), name
