"""The measure tool on the hex map: between two units, or a unit and a hex, the distance in hexes, the sector of
each unit the other is in, and the line of sight, each with the clause that uses it.

The geometry is the engine's, as docs/geometry-hex.md describes it: distances between the nearest hexes of the two
(a two-hex unit has two), sectors traced from the flank row (6.1 next to the unit, 9.3.1b beyond), and the line of
sight that is clear if either nudged line is (the clearest line between any hexes of the two).
"""
from __future__ import annotations

from typing import Union

from ..hexgrid import Hex, footprint_distance, sector_of
from ..i18n import Message, msg, nmsg
from ..measure import Measure, Measurement
from ..ruling import Citation, Status
from .describe import SECTOR_NAMES, unit_name
from .scenario import Scenario, Unit
from .terrain import line_of_sight

Pick = Union[Unit, Hex]


def cite(clause: str) -> Citation:
    return Citation("mpbs", clause)


def _hexes(pick: Pick) -> tuple[Hex, ...]:
    return pick.hexes if isinstance(pick, Unit) else (pick,)


def _name(scenario: Scenario, pick: Pick) -> Message | str:
    return unit_name(pick) if isinstance(pick, Unit) else msg("hex {hex}", hex=scenario.label(pick))


def measure(scenario: Scenario, a: Pick, b: Pick) -> Measure:
    """What lies between ``a`` and ``b`` (units of ``scenario``, or hexes of its map)."""
    distance = footprint_distance(_hexes(a), _hexes(b))
    found = [Measurement("distance", cite("9.3.1a"), nmsg(
        "{a} and {b} are {n} hex apart (counted between their nearest hexes, as for 9.3.1a's \"within four hexes\")",
        "{a} and {b} are {n} hexes apart (counted between their nearest hexes, as for 9.3.1a's \"within four hexes\")",
        distance, a=_name(scenario, a), b=_name(scenario, b)), value=distance)]
    for unit, other in ((a, b), (b, a)):
        if isinstance(unit, Unit):
            found.append(sector(scenario, unit, other, distance))
    found.append(sight(scenario, a, b))
    return Measure(tuple(found), {"line": [scenario.labels(_hexes(a)), scenario.labels(_hexes(b))],
                                  "sight": found[-1].value})


def sector(scenario: Scenario, unit: Unit, other: Pick, distance: int) -> Measurement:
    """The sectors of ``unit`` the other's hexes are in: 6.1's front, flank and rear hexes next to it, 9.3.1b's
    sectors beyond."""
    clause = cite("6.1" if distance <= 1 else "9.3.1b")
    if unit.facing is None or not unit.hexes:
        return Measurement("sector", clause, msg("{unit} has no facing, so no sectors (6.1)", unit=unit_name(unit)),
                           Status.UNKNOWN)
    sectors = sorted({s.value for h in _hexes(other) if (s := sector_of(unit.hexes, unit.facing, h)) is not None},
                     key=["front", "flank", "rear"].index)
    if not sectors:
        return Measurement("sector", clause, msg("{other} is where {unit} stands", other=_name(scenario, other),
                                                 unit=unit_name(unit)), Status.UNKNOWN)
    return Measurement("sector", clause, msg("{other} is in the {sectors} of {unit}", other=_name(scenario, other),
                                             sectors=[SECTOR_NAMES[s] for s in sectors], unit=unit_name(unit)),
                       value=sectors)


def sight(scenario: Scenario, a: Pick, b: Pick) -> Measurement:
    """The clearest line of sight between any hex of ``a`` and any hex of ``b`` (9.3.1d asks for a clear one)."""
    rank = {True: 0, None: 1, False: 2}
    clear, line = min((line_of_sight(scenario, x, y) for x in _hexes(a) for y in _hexes(b)),
                      key=lambda found: rank[found[0]])
    names = {"a": _name(scenario, a), "b": _name(scenario, b)}
    if clear is True:
        message, status = msg("the line of sight from {a} to {b} is clear", **names), Status.PASS
    elif clear is False:
        message, status = msg("the line of sight from {a} to {b} is blocked", **names), Status.FAIL
    else:
        message, status = msg("whether the line of sight from {a} to {b} is clear depends on terrain the scenario "
                              "does not describe", **names), Status.UNKNOWN
    return Measurement("line-of-sight", cite("9.3.1d"), message, status, scenario.labels(line))
