"""The odds that a charge still reaches a unit that Flees (t9a ``charge-reactions``), against exact enumeration of
the 36 × 36 outcomes of the Flee roll and the charge roll.

On open ground with the charger straight behind, a unit that Flees 2D6 directly away (``flee``) adds its roll to the
gap, and the charge reaches when Advance Rate + 2D6 (``charge-range``, a rule outside the corpus) covers the gap
then left: P(AR + C >= gap + F) for two independent 2D6 rolls C and F.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from rulesref.engine import ask

ROLLS = [sum(r) for r in itertools.product(range(1, 7), repeat=2)]
PAIR = {"charger": "charger", "target": "target"}


def in_line(advance_rate: int, gap: float) -> dict:
    """A charger facing a target ``gap`` inches straight ahead, on a board long enough for the longest Flee."""
    return {"book": "t9a", "board": {"width": 48, "depth": 96}, "units": [
        {"id": "charger", "side": "red", "centre": [24, 10], "facing": 0, "width": 5, "depth": 2,
         "advance_rate": advance_rate},
        {"id": "target", "side": "blue", "centre": [24, 12 + gap], "facing": 180, "width": 5, "depth": 2,
         "advance_rate": 4, "missile_weapons": False}]}


def enumerated(advance_rate: int, gap: float) -> Fraction:
    hits = sum(1 for charge in ROLLS for flee in ROLLS if advance_rate + charge >= gap + flee - 1e-7)
    return Fraction(hits, len(ROLLS) ** 2)


def test_the_flee_odds_one_inch_inside_the_advance_rate_are_287_of_432_not_95_of_144():
    # Gap 4", Advance Rate 5: the charge reaches when C - F >= -1, 861 of the 1,296 outcomes.
    ruling = ask("t9a", "charge-reactions", in_line(5, 4), PAIR)
    assert enumerated(5, 4) == Fraction(287, 432) != Fraction(95, 144)
    assert ruling.result["chance_to_reach_after_flee"] == "287/432"


@settings(max_examples=40, deadline=None)
@given(advance_rate=st.integers(1, 10), gap=st.integers(1, 40).map(lambda q: q / 2))
def test_flee_odds_match_exact_enumeration(advance_rate, gap):
    ruling = ask("t9a", "charge-reactions", in_line(advance_rate, gap), PAIR)
    odds = ruling.result["flee_odds"]
    assert odds["undetermined"].value == 0  # open ground: every Flee roll is placed
    assert odds["chance"].value == enumerated(advance_rate, gap)
