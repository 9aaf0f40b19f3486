"""The parameters of each t9a question, and the units they name.

``PARAMS`` is the one declaration the CLI, the JSON API, its OpenAPI document (:func:`params_schema`) and the web
form are built from; :func:`unit_params` checks what a question is given against it (rulesref/engine/params.py)
and looks the units up in the scenario.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..i18n import msg
from ..params import Param, checked, listed
from ..params import params_schema as _schema_of
from ..ruling import InvalidScenarioError, Problem
from .scenario import Scenario, Unit

PARAMS: dict[str, tuple[Param, ...]] = {
    "can-charge": (
        Param("charger", "unit", msg("the unit that would declare the charge"), required=True),
        Param("target", "unit", msg("the enemy unit it would charge"), required=True),
    ),
    "charge-reactions": (
        Param("charger", "unit", msg("the charging unit"), required=True),
        Param("target", "unit", msg("the charged unit that declares a reaction"), required=True),
    ),
    "pursuit": (),
}


def params_schema(question: str) -> dict[str, Any]:
    """The JSON Schema of the ``params`` object of one question."""
    return _schema_of(PARAMS[question])


def unit_params(scenario: Scenario, question: str, params: Mapping[str, Any] | None) -> tuple[Unit, ...]:
    """The units a question's parameters name, in the order declared; every unknown parameter, missing or unknown
    id, or value of the wrong type is reported at once."""
    given, problems = checked(question, PARAMS[question], params)
    problems += [
        Problem(f"params.{name}", msg("no unit {unit}; units: {units}", unit=repr(value),
                                      units=listed([u.id for u in scenario.units])))
        for name, value in given.items() if value is not None and not scenario.has_unit(value)
    ]
    if problems:
        raise InvalidScenarioError(problems)
    return tuple(scenario.unit(given[p.name]) for p in PARAMS[question])
