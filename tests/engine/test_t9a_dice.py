"""Exact dice odds (t9a): they sum to 1 and match a brute-force enumeration of the dice."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import example, given, strategies as st

from rulesref.engine.t9a import dice

ROLLS = list(itertools.product(range(1, 7), repeat=2))


def test_two_d6_sums_to_one_and_matches_enumeration():
    distribution = dice.two_d6()
    assert sum(distribution.values()) == 1
    for total in range(2, 13):
        assert distribution[total] == Fraction(sum(1 for a, b in ROLLS if a + b == total), 36)
    assert distribution[7] == Fraction(1, 6)


@given(advance_rate=st.integers(1, 12), distance=st.floats(0, 30, allow_nan=False))
def test_charge_odds_match_brute_force(advance_rate, distance):
    reaches = sum(1 for a, b in ROLLS if advance_rate + a + b >= distance - 1e-7)
    assert dice.chance_charge_reaches(advance_rate, distance).value == Fraction(reaches, 36)


def test_charge_odds_and_their_complement_sum_to_one():
    for needed in range(0, 15):
        hit = dice.chance_roll_at_least(needed).value
        miss = sum((p for t, p in dice.two_d6().items() if t < needed), Fraction(0))
        assert hit + miss == 1


@pytest.mark.parametrize("advance_rate, distance, fraction", [
    (5, 12, "7/12"),  # needs 7: 21 of 36
    (8, 10, "1/1"),
    (8, 20, "1/36"),
    (8, 20.5, "0/1"),
    (4, 14.01, "1/12"),  # needs 11 (10.01 rounds up)
])
def test_charge_odds_examples(advance_rate, distance, fraction):
    assert dice.chance_charge_reaches(advance_rate, distance).to_dict()["fraction"] == fraction


def test_pursuit_catches_on_equal_or_higher():
    brute = Fraction(sum(1 for p in ROLLS for f in ROLLS if sum(p) >= sum(f)), 36 * 36)
    assert dice.chance_pursuit_catches().value == brute == Fraction(721, 1296)
    escapes = Fraction(sum(1 for p in ROLLS for f in ROLLS if sum(p) < sum(f)), 36 * 36)
    assert dice.chance_pursuit_catches().value + escapes == 1
    for flee in range(2, 13):
        assert dice.chance_pursuit_catches(flee).value == Fraction(sum(1 for p in ROLLS if sum(p) >= flee), 36)


def test_chance_serialises_as_fraction_and_float():
    assert dice.Chance(Fraction(7, 12)).to_dict() == {"fraction": "7/12", "float": 0.583333}


@given(advance_rate=st.integers(1, 12), start=st.floats(0, 24, allow_nan=False),
       blocked=st.sets(st.integers(2, 12), max_size=11))
@example(advance_rate=1, start=1e-07, blocked=set())  # 287/432, not 95/144: 3.0000001 - 1e-7 is not above 3
def test_odds_after_a_flee_match_four_dice_enumerated(advance_rate, start, blocked):
    """Flee 2D6 then charge Advance Rate + 2D6 against the gap left: the 1,296 outcomes of four dice counted."""
    distances = {roll: None if roll in blocked else start + roll for roll in range(2, 13)}
    reaches = unknown = 0
    for a, b, c, d in itertools.product(range(1, 7), repeat=4):
        left = distances[a + b]
        if left is None:
            unknown += 1
        elif advance_rate + c + d >= left - 1e-7:
            reaches += 1
    chance, undetermined = dice.chance_charge_reaches_after_flee(advance_rate, distances)
    assert chance.value == Fraction(reaches, 1296)
    assert undetermined.value == Fraction(unknown, 1296)
    assert chance.value + undetermined.value <= 1
