"""The Musket & Pike Battle Series rules engine: hex-and-counter rules from seeds 000–002 (5.7–5.8, 6.1–6.2, 9.2–9.3,
11.4), answering questions about a scenario (see docs/scenario-format-mpbs.md).

Exposes what :mod:`rulesref.engine` expects of a rulebook package: ``QUESTIONS`` (name -> callable(scenario,
params) -> Ruling), ``load_scenario(data)``, ``CITABLE_CLAUSES``, and ``PARAMS`` (each question's parameters, for the
CLI, the API and the web form).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ..ruling import Ruling
from .advance import advance
from .clauses import CITABLE_CLAUSES
from .facing import facing_cost
from .interception import can_intercept, interception_chance
from .orders import mandatory_rally, orders_change
from .params import PARAMS, params_schema
from .reaction import reactions
from .retreat import retreat
from .scenario import Scenario, limits, load_scenario, schema

QUESTIONS: dict[str, Callable[[Scenario, Mapping[str, Any]], Ruling]] = {
    "facing-cost": facing_cost,
    "orders-change": orders_change,
    "mandatory-rally": mandatory_rally,
    "reactions": reactions,
    "can-intercept": can_intercept,
    "interception-chance": interception_chance,
    "retreat": retreat,
    "advance": advance,
}

# The written interpretations every answer to a question follows (rulesref/engine/interpretations.py).
INTERPRETATIONS: dict[str, tuple[str, ...]] = {
    "facing-cost": ("hex-sectors",),
    "reactions": ("hex-sectors", "hex-closer"),
    "can-intercept": ("hex-sectors", "hex-line-of-sight", "hex-closer"),
    "interception-chance": ("hex-sectors", "hex-line-of-sight", "hex-closer"),
    "retreat": ("hex-closer",),
    "advance": ("hex-sectors",),
}

__all__ = ["QUESTIONS", "INTERPRETATIONS", "PARAMS", "params_schema", "CITABLE_CLAUSES", "load_scenario", "schema", "limits", "Scenario"]
