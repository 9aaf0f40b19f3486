"""The measure tool on the tabletop: between two units, or a unit and a point of the board, the distance between
them, the arc of each unit the other is Located in, and the Line of Sight from each unit to the other, each with
the clause that uses it.

The geometry is the engine's, as docs/geometry-tabletop.md describes it: distances between the Unit Boundaries,
the four arcs bounded by the 135° lines from the corners (a unit is Located in the arc holding the centre of its
Front Facing), Line of Sight traced inside the Front Arc and blocked by obscuring terrain. A point is looked at
as a unit a hundredth of an inch wide standing there, facing the unit measured from.
"""
from __future__ import annotations

from typing import Union

from ..i18n import Message, msg
from ..measure import Measure, Measurement
from ..ruling import Status
from .charges import line_of_sight
from .geometry import UnitBoundary, bearing_of, closest_points, gap, located_in, rounded_points
from .scenario import Scenario, Unit
from .text import DECLARING_CHARGES, STAND_AND_SHOOT, arc_name, inches

Point = tuple[float, float]
Pick = Union[Unit, Point]
SPECK = 0.01  # inches: the size of the unit a point is looked at as


def _name(pick: Pick) -> Message | str:
    if isinstance(pick, Unit):
        return pick.label
    return msg("the point ({x}, {y})", x=inches(pick[0]), y=inches(pick[1]))


def _as_unit(pick: Pick, towards: Pick) -> Unit:
    """A unit for a pick: itself, or a speck at a point, facing the other pick."""
    if isinstance(pick, Unit):
        return pick
    target = towards.boundary.centre if isinstance(towards, Unit) else towards
    facing = bearing_of((target[0] - pick[0], target[1] - pick[1])) if tuple(target) != tuple(pick) else 0.0
    return Unit(id="", side="", boundary=UnitBoundary(tuple(pick), SPECK, SPECK, facing), advance_rates=(0.0,))


def measure(scenario: Scenario, a: Pick, b: Pick) -> Measure:
    """What lies between ``a`` and ``b`` (units of ``scenario``, or points of its board)."""
    ua, ub = _as_unit(a, b), _as_unit(b, a)
    distance = gap(ua.boundary, ub.boundary)
    found = [Measurement("distance", DECLARING_CHARGES, msg(
        "{a} and {b} are {distance} apart, between their Unit Boundaries (as a charge range is measured)",
        a=_name(a), b=_name(b), distance=inches(distance)), value=round(distance, 4))]
    for unit, other in ((a, b), (b, a)):
        if isinstance(unit, Unit):
            found.append(arc(unit, _as_unit(other, unit), other))
    sights = [sight(scenario, unit, _as_unit(other, unit), other) for unit, other in ((a, b), (b, a))
              if isinstance(unit, Unit)]
    found.extend(m for m, _line in sights)
    start, end = closest_points(ua.boundary, ub.boundary)
    return Measure(tuple(found), {"line": rounded_points([start, end]),
                                  "sight": [line for _m, line in sights if line]})


def arc(unit: Unit, other: Unit, pick: Pick) -> Measurement:
    """The arc of ``unit`` the other is Located in (a point: the arc holding it)."""
    where = unit.boundary.arc_of(pick) if not isinstance(pick, Unit) else located_in(other.boundary, unit.boundary)
    if where is None:
        return Measurement("arc", STAND_AND_SHOOT, msg("{other} is inside the Unit Boundary of {unit}",
                                                       other=_name(pick), unit=unit.label), Status.UNKNOWN)
    return Measurement("arc", STAND_AND_SHOOT, msg("{other} is Located in the {arc} of {unit}", other=_name(pick),
                                                   arc=arc_name(where), unit=unit.label), value=where.value)


def sight(scenario: Scenario, unit: Unit, other: Unit, pick: Pick) -> tuple[Measurement, list | None]:
    """Whether ``other`` is in the Line of Sight of ``unit``, and a sight line found (or None)."""
    found = line_of_sight(scenario, unit, other)
    names = {"unit": unit.label, "other": _name(pick)}
    line = found.to_dict()["sight_line"]
    if not found.in_front_arc:
        return Measurement("line-of-sight", DECLARING_CHARGES, msg(
            "{other} is not in the Front Arc of {unit}, so not in its Line of Sight", **names), Status.FAIL), None
    if found.clear is True:
        return Measurement("line-of-sight", DECLARING_CHARGES, msg(
            "{other} is in the Line of Sight of {unit}", **names), Status.PASS), line
    if found.clear is False:
        return Measurement("line-of-sight", DECLARING_CHARGES, msg(
            "every line of sight from {unit} to {other} is blocked by obscuring terrain: {blockers}",
            blockers=[o.label for o in found.terrain], **names), Status.FAIL), None
    return Measurement("line-of-sight", DECLARING_CHARGES, msg(
        "every line of sight from {unit} to {other} that misses obscuring terrain crosses another unit ({units}); "
        "whether units block Line of Sight is not in the corpus", units=[o.label for o in found.units], **names),
        Status.UNKNOWN), line
