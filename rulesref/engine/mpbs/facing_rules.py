"""The costs of changing facing (6.2.1–6.2.3), shared by movement searches and the facing-cost question."""
from __future__ import annotations

from .scenario import Unit
from .terms import UnitType

WHEEL_BASE_COST = 1  # 6.2.1: a wheel costs 1 MP plus the terrain the moving half enters
COUNTER_MARCH_COST = 2  # 6.2.2: a 180-degree change of facing for 2 MP
COUNTER_MARCH_VERTICES = 3


def vertex_turn_cost(unit: Unit) -> int | None:
    """6.2.1: MP per vertex of facing change turned in place; None when the unit does not turn that way.

    Cavalry and light infantry pay 1 MP a vertex, one-hex heavy infantry 2 MP; heavy infantry in column pays 2 MP a
    vertex whatever its size. Other two-hex units wheel instead (:data:`WHEEL_BASE_COST`); artillery turns instead
    of firing (6.2.3), not with MP.
    """
    if unit.type is UnitType.HEAVY_INFANTRY and (unit.in_column or not unit.is_two_hex):
        return 2
    if unit.type in (UnitType.CAVALRY, UnitType.LIGHT_INFANTRY) and not unit.is_two_hex:
        return 1
    return None


def wheels(unit: Unit) -> bool:
    """6.2.1: two-hex units change facing by wheeling forward (heavy infantry in column turns instead)."""
    return unit.is_two_hex and not (unit.type is UnitType.HEAVY_INFANTRY and unit.in_column)


def may_counter_march(unit: Unit) -> bool:
    """6.2.2: a unit with a facing may turn about for 2 MP; artillery turns under 6.2.3 instead."""
    return unit.has_facing and unit.type is not UnitType.ARTILLERY
