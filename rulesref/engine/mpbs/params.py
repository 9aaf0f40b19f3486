"""The parameters of each mpbs question, and what their values mean in the scenario.

``PARAMS`` is the one declaration the CLI (``--param NAME=VALUE``), the JSON API, its OpenAPI document
(:func:`params_schema`) and the web form are built from; :func:`coerce` checks the values against it
(rulesref/engine/params.py) and then looks them up in the scenario: units, wings, orders, facings, hexes.
A bad parameter is an :class:`InvalidScenarioError` with the path ``params.<name>``, like a bad scenario field.
"""
from __future__ import annotations

from typing import Any, Mapping

from ..hexgrid import reason
from ..i18n import Message, msg
from ..params import Param, checked, listed
from ..params import params_schema as _schema_of
from ..ruling import InvalidScenarioError
from .scenario import Scenario, Unit
from .terms import CombatResult, Order

_ORDERS = tuple(o.value for o in Order)


class Heading(int):
    """A ``facing`` parameter that names a direction of the layout and no vertex: a column's heading (6.3.4)."""
_RESULTS = tuple(r.value for r in CombatResult)

PARAMS: dict[str, tuple[Param, ...]] = {
    "facing-cost": (
        Param("unit", "unit", msg("The unit that changes facing."), required=True),
        Param("facing", "facing", msg("The vertex it is to face (compass name: N, NE, … as the map's layout allows)."),
              required=True),
        Param("pivot", "hex", msg("A two-hex unit's half that stays in place while the other wheels (optional).")),
    ),
    "orders-change": (
        Param("wing", "wing", msg("The wing that tries to change its order (default: the active wing).")),
        Param("to", "order", msg("The order wanted."), required=True, choices=_ORDERS),
    ),
    "mandatory-rally": (
        Param("wing", "wing", msg("The wing at the start of its activation (default: the active wing).")),
    ),
    "reactions": (
        Param("unit", "unit", msg("Only this inactive unit (default: every inactive unit within reach of the event).")),
    ),
    "can-intercept": (
        Param("unit", "unit", msg("The inactive cavalry unit that would intercept."), required=True),
        Param("target", "unit", msg("The moving enemy unit (default: the unit of the triggering event).")),
    ),
    "interception-chance": (
        Param("unit", "unit", msg("The inactive cavalry unit that would intercept."), required=True),
        Param("target", "unit", msg("The moving enemy unit (default: the unit of the triggering event).")),
    ),
    "retreat": (
        Param("unit", "unit", msg("The unit that must retreat."), required=True),
        Param("result", "choice", msg("The close combat result it suffered."), required=True, choices=_RESULTS),
        Param("fought", "units", msg("The enemy unit(s) it fought in the close combat (comma-separated ids)."),
              required=True),
        Param("hexes", "int", msg("Hexes to retreat for a Morale Shaken result (1 or 2; Morale Broken is always 2)."),
              choices=("1", "2")),
    ),
    "advance": (
        Param("vacated", "units",
              msg("The unit(s) whose retreat or elimination emptied their hexes (comma-separated ids)."), required=True),
        Param("winners", "units", msg("The units that fought them and may advance (comma-separated ids)."),
              required=True),
        Param("role", "choice", msg("Whether the winners were the attackers or the defenders."), required=True,
              choices=("attacker", "defender")),
    ),
}


def params_schema(question: str) -> dict[str, Any]:
    """The JSON Schema of the ``params`` object of one question."""
    return _schema_of(PARAMS[question])


def _problem(name: str, message: Message | str) -> InvalidScenarioError:
    return InvalidScenarioError([(f"params.{name}", message)])


def _unit(scenario: Scenario, name: str, value: str) -> Unit:
    if value not in scenario.by_id:
        raise _problem(name, msg("no unit {unit} in the scenario (units: {units})", unit=repr(value),
                                 units=listed([u.id for u in scenario.units])))
    return scenario.by_id[value]


def coerce(question: str, scenario: Scenario, raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """Typed parameters for ``question``: units looked up, numbers parsed, every problem reported together."""
    given, problems = checked(question, PARAMS[question], raw)
    values: dict[str, Any] = {}
    for p in PARAMS[question]:
        value = given[p.name]
        try:
            values[p.name] = None if value is None else _coerce_one(scenario, p, value)
        except InvalidScenarioError as exc:
            problems.extend(exc.items)
    if problems:
        raise InvalidScenarioError(problems)
    return values


def _coerce_one(scenario: Scenario, p: Param, value: Any) -> Any:
    """A value of the right JSON type (``checked``) as what it names in the scenario."""
    return _COERCE[p.type](scenario, p.name, value)


def _units(scenario: Scenario, name: str, value: Any) -> tuple:
    """Unit ids, as a list or comma-separated: at least one, each a unit of the scenario."""
    items = value if isinstance(value, list) else [v.strip() for v in value.split(",") if v.strip()]
    if not items:
        raise _problem(name, msg("give at least one unit id"))
    return tuple(_unit(scenario, name, v) for v in items)


def _wing(scenario: Scenario, name: str, value: Any):
    if value not in scenario.wings:
        raise _problem(name, msg("no wing {wing} (wings: {wings})", wing=repr(value), wings=listed(list(scenario.wings))))
    return scenario.wings[value]


def _facing(scenario: Scenario, name: str, value: Any):
    """A hex vertex (6.1), or a direction for a two-hex column's heading (6.3.4): the question says whether it
    may be one."""
    try:
        return scenario.hexmap.parse_vertex(value)
    except ValueError as exc:
        try:
            return Heading(scenario.hexmap.parse_direction(value))
        except ValueError:
            raise _problem(name, reason(exc)) from None


def _hex(scenario: Scenario, name: str, value: Any):
    try:
        return scenario.hexmap.parse(value)
    except ValueError as exc:
        raise _problem(name, reason(exc)) from None


#: Each parameter type, and what makes a value of it (already of the right JSON type) what it names.
_COERCE = {
    "unit": _unit,
    "units": _units,
    "order": lambda scenario, name, value: Order(value),
    "wing": _wing,
    "facing": _facing,
    "hex": _hex,
    "int": lambda scenario, name, value: int(value),
    "choice": lambda scenario, name, value: value,
}
