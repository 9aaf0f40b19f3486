"""Small helpers that name things in messages and results: units, hexes, placements, MP, chances."""
from __future__ import annotations

from typing import Any, Iterable

from ..hexgrid import Hex
from ..i18n import Message, msg, nmsg
from .movement import Move, Placement
from .scenario import Scenario, Unit
from .terms import UNIT_TYPE_NAMES


# The sectors of 6.1 and 9.3.1b by name (hexgrid.Sector values).
SECTOR_NAMES = {"front": msg("front sector"), "flank": msg("flank sector"), "rear": msg("rear sector")}


def unit_name(unit: Unit) -> Message:
    return msg("{id} ({type})", id=unit.id, type=UNIT_TYPE_NAMES[unit.type])


def mp(n: float) -> Message:
    """Movement points, with the plural form the language needs ("1 ПД", "2 пункта движения" …)."""
    return nmsg("{mp} MP", "{mp} MP", _count(n), mp=_number(n))


def hexes_count(n: int) -> Message:
    return nmsg("{n} hex", "{n} hexes", n)


def _number(n: float) -> str:
    return str(int(n)) if float(n).is_integer() else f"{n:g}"


def _count(n: float) -> int:
    # Fractional amounts take the genitive singular in Russian, which the "many" form of an integer does not give;
    # 5 is a safe stand-in (plural form 2 in ru, "other" in en).
    return int(n) if float(n).is_integer() else 5


def labels(scenario: Scenario, hexes: Iterable[Hex]) -> list[str]:
    return [scenario.label(h) for h in hexes]


def where(scenario: Scenario, hexes: Iterable[Hex]) -> str:
    return "–".join(labels(scenario, hexes))


def placement_dict(scenario: Scenario, at: Placement) -> dict[str, Any]:
    return {
        "hexes": labels(scenario, at.hexes),
        "facing": None if at.facing is None else scenario.hexmap.vertex_name(at.facing),
    }


def steps_dict(scenario: Scenario, steps: list[tuple[Placement, Move | None]]) -> list[dict[str, Any]]:
    result = []
    for at, move in steps[1:]:
        item = {"move": move.kind, "cost": move.cost, **placement_dict(scenario, at)}
        result.append(item)
    return result


def entered_hexes(steps: list[tuple[Placement, Move | None]]) -> list[Hex]:
    return [h for _, move in steps[1:] if move is not None for h in move.entered]


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"
