"""The 9th Age: Fantasy Battles, 2nd edition: the tabletop rules engine.

Questions (each ``callable(scenario, params) -> Ruling``):

- ``can-charge`` (``declaring-charges``): may a unit declare a charge on an enemy unit?
- ``charge-reactions`` (``charge-reactions``, ``hold``, ``stand-and-shoot``, ``flee``): which reactions may the
  charged unit declare, which way would it flee, and what are the odds that the charge reaches?
- ``pursuit`` (``XIII.7.C`` and its steps): where does each pursuer end up, step by step?

``PARAMS`` declares each question's parameters (for the CLI, the API, its OpenAPI document through
:func:`params_schema`, and web forms; the questions check what they are given against it); ``CITABLE_CLAUSES``
lists every clause a finding can cite.
"""
from __future__ import annotations

from typing import Any, Callable

from ..params import Param
from ..ruling import Ruling
from . import text
from .charges import can_charge
from .params import PARAMS, params_schema
from .pursuit import pursuit
from .reactions import charge_reactions
from .scenario import SCHEMA_PATH, Scenario, limits, load_scenario, schema

BOOK = "t9a"

QUESTIONS: dict[str, Callable[[Scenario, dict[str, Any]], Ruling]] = {
    "can-charge": can_charge,
    "charge-reactions": charge_reactions,
    "pursuit": pursuit,
}

# The written interpretations every answer to a question follows (rulesref/engine/interpretations.py).
INTERPRETATIONS: dict[str, tuple[str, ...]] = {
    "can-charge": ("t9a-arcs", "t9a-sight-lines", "t9a-straight-approach"),
    "charge-reactions": ("t9a-arcs", "t9a-flee-line"),
    "pursuit": ("t9a-arcs", "t9a-pivot-about-centre"),
}

CITABLE_CLAUSES: frozenset[str] = frozenset(
    c.clause for c in (
        text.DECLARING_CHARGES, text.CHARGE_REACTIONS, text.HOLD, text.STAND_AND_SHOOT, text.FLEE,
        text.PURSUIT, text.PURSUIT_PIVOT, text.PURSUIT_STRAIGHT_FORWARD, text.PURSUIT_BOARD_EDGE,
        text.PURSUIT_ENEMY_UNIT, text.PURSUING_OFF_THE_BOARD,
    )
)

__all__ = ["QUESTIONS", "INTERPRETATIONS", "PARAMS", "CITABLE_CLAUSES", "Param", "params_schema", "load_scenario", "schema",
           "limits", "SCHEMA_PATH", "Scenario"]
