"""Exact dice odds for charges and pursuits, as fractions.

The dice are rules outside the corpus (fixtures/tables/t9a/outside_corpus.json): charge range is the charger's
Advance Rate + 2D6 inches (``charge-range``; a scenario may change the number of dice); Flee and Pursuit distances
are 2D6 each; a pursuit roll equal to or higher than the flee roll catches the fleeing unit (``pursuit-catches``;
a scenario may say that only a higher roll does).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .geometry import EPS

DIE = range(1, 7)


@lru_cache(maxsize=None)
def d6_sum(dice: int = 2) -> dict[int, Fraction]:
    """The distribution of the sum of ``dice`` six-sided dice, by enumeration of the 6**dice outcomes."""
    counts: dict[int, int] = {}
    for faces in itertools.product(DIE, repeat=dice):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return {total: Fraction(count, 6 ** dice) for total, count in sorted(counts.items())}


def two_d6() -> dict[int, Fraction]:
    """The distribution of the sum of two six-sided dice (Flee and Pursuit distances)."""
    return d6_sum(2)


@dataclass(frozen=True)
class Chance:
    """An exact probability; serialised as "n/d" plus a float."""

    value: Fraction

    def to_dict(self) -> dict:
        return {"fraction": f"{self.value.numerator}/{self.value.denominator}", "float": round(float(self.value), 6)}

    def __str__(self) -> str:
        return f"{self.value.numerator}/{self.value.denominator}"

    @property
    def percent(self) -> float:
        return float(self.value) * 100


def charge_roll_needed(advance_rate: float, distance: float) -> int:
    """The lowest 2D6 total that covers ``distance`` with ``advance_rate`` added (may be below 2 or above 12)."""
    # The ceiling of the shortfall, measurement noise (EPS) forgiven; rounded first, so that the float error of
    # the subtractions (3.0000001 - 1e-7 = 3.0000000000000004) does not cost a whole inch.
    shortfall = round(distance - advance_rate - EPS, 9)
    return int(-(-shortfall // 1))


@lru_cache(maxsize=None)
def chance_roll_at_least(needed: int, dice: int = 2) -> Chance:
    """P(the sum of ``dice`` D6 >= needed)."""
    return Chance(sum((p for total, p in d6_sum(dice).items() if total >= needed), Fraction(0)))


def chance_charge_reaches(advance_rate: float, distance: float, dice: int = 2) -> Chance:
    """P(Advance Rate + ``dice``D6 >= distance)."""
    return chance_roll_at_least(charge_roll_needed(advance_rate, distance), dice)


def chance_charge_reaches_after_flee(advance_rate: float, distances: dict[int, float | None],
                                     dice: int = 2) -> tuple[Chance, Chance]:
    """The chance that Advance Rate + 2D6 (``dice`` D6) covers the distance left after a 2D6 Flee, and the chance left open.

    ``distances`` gives, for each Flee roll 2..12, the gap between the Unit Boundaries after fleeing that far, or
    None where the corpus cannot say where the fleeing unit ends up; those rolls make up the second chance (the
    first is then a lower bound, the sum of both an upper one).
    """
    reaches, unknown = Fraction(0), Fraction(0)
    for flee_roll, p in two_d6().items():
        distance = distances[flee_roll]
        if distance is None:
            unknown += p
        else:
            reaches += p * chance_charge_reaches(advance_rate, distance, dice).value
    return Chance(reaches), Chance(unknown)


def charge_range_distribution(advance_rate: float, dice: int = 2) -> dict[float, Fraction]:
    """Each possible charge range with its probability."""
    return {advance_rate + total: p for total, p in d6_sum(dice).items()}


@lru_cache(maxsize=None)
def chance_pursuit_catches(flee_roll: int | None = None, ties_catch: bool = True) -> Chance:
    """P(pursuit 2D6 >= flee 2D6) (``>`` when a tie does not catch); with the flee roll known, against that roll."""
    lowest = (lambda f: f) if ties_catch else (lambda f: f + 1)
    if flee_roll is not None:
        return chance_roll_at_least(lowest(flee_roll))
    dist = two_d6()
    return Chance(sum((dist[p] * dist[f] for p in dist for f in dist if p >= lowest(f)), Fraction(0)))
