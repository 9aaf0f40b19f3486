"""The 9th Age: Fantasy Battles, 2nd edition: the tabletop rules engine.

Questions (each ``callable(scenario, params) -> Ruling``):

- ``can-charge`` (``declaring-charges``): may a unit declare a charge on an enemy unit?
- ``charge-reactions`` (``charge-reactions``, ``hold``, ``stand-and-shoot``, ``flee``): which reactions may the
  charged unit declare, which way would it flee, and what are the odds that the charge reaches?
- ``pursuit`` (``XIII.7.C`` and its steps): where does each pursuer end up, step by step?

``PARAMS`` describes each question's parameters for API docs and web forms; ``CITABLE_CLAUSES`` lists every
clause a finding can cite.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..i18n import Message, msg
from ..ruling import Ruling
from . import text
from .charges import can_charge
from .pursuit import pursuit
from .reactions import charge_reactions
from .scenario import SCHEMA_PATH, Scenario, limits, load_scenario, schema

BOOK = "t9a"

QUESTIONS: dict[str, Callable[[Scenario, dict[str, Any]], Ruling]] = {
    "can-charge": can_charge,
    "charge-reactions": charge_reactions,
    "pursuit": pursuit,
}


@dataclass(frozen=True)
class Param:
    """One question parameter: its type (``unit-id``: the id of a unit in the scenario) and what it is."""

    name: str
    type: str
    description: Message
    required: bool = True

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "required": self.required,
                "description": self.description.render(lang)}


PARAMS: dict[str, tuple[Param, ...]] = {
    "can-charge": (
        Param("charger", "unit-id", msg("the unit that would declare the charge")),
        Param("target", "unit-id", msg("the enemy unit it would charge")),
    ),
    "charge-reactions": (
        Param("charger", "unit-id", msg("the charging unit")),
        Param("target", "unit-id", msg("the charged unit that declares a reaction")),
    ),
    "pursuit": (),
}

CITABLE_CLAUSES: frozenset[str] = frozenset(
    c.clause for c in (
        text.DECLARING_CHARGES, text.CHARGE_REACTIONS, text.HOLD, text.STAND_AND_SHOOT, text.FLEE,
        text.PURSUIT, text.PURSUIT_PIVOT, text.PURSUIT_STRAIGHT_FORWARD, text.PURSUIT_BOARD_EDGE,
        text.PURSUIT_ENEMY_UNIT, text.PURSUING_OFF_THE_BOARD,
    )
)

__all__ = ["QUESTIONS", "PARAMS", "CITABLE_CLAUSES", "Param", "load_scenario", "schema", "limits",
           "SCHEMA_PATH", "Scenario"]
