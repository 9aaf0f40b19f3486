"""Question parameters: what each question takes, typed and described, and their coercion from text or JSON.

``PARAMS`` is the contract the CLI (``--param NAME=VALUE``), the JSON API and the web form are generated from.
A bad parameter is an :class:`InvalidScenarioError` with the path ``params.<name>``, like a bad scenario field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..hexgrid import reason
from ..i18n import Message, msg
from ..ruling import InvalidScenarioError, Problem
from .scenario import Scenario, Unit
from .terms import CombatResult, Order


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # "unit", "units", "order", "facing", "hex", "int", "choice"
    description: str
    required: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None

    def to_dict(self) -> dict[str, Any]:
        data = {"name": self.name, "type": self.type, "description": self.description, "required": self.required}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.default is not None:
            data["default"] = self.default
        return data


_ORDERS = tuple(o.value for o in Order)
_RESULTS = tuple(r.value for r in CombatResult)

PARAMS: dict[str, tuple[Param, ...]] = {
    "facing-cost": (
        Param("unit", "unit", "The unit that changes facing.", required=True),
        Param("facing", "facing", "The vertex it is to face (compass name: N, NE, … as the map's layout allows).", required=True),
        Param("pivot", "hex", "A two-hex unit's half that stays in place while the other wheels (optional)."),
    ),
    "orders-change": (
        Param("wing", "wing", "The wing that tries to change its order (default: the active wing)."),
        Param("to", "order", "The order wanted.", required=True, choices=_ORDERS),
    ),
    "mandatory-rally": (
        Param("wing", "wing", "The wing at the start of its activation (default: the active wing)."),
    ),
    "reactions": (
        Param("unit", "unit", "Only this inactive unit (default: every inactive unit within reach of the event)."),
    ),
    "can-intercept": (
        Param("unit", "unit", "The inactive cavalry unit that would intercept.", required=True),
        Param("target", "unit", "The moving enemy unit (default: the unit of the triggering event)."),
    ),
    "interception-chance": (
        Param("unit", "unit", "The inactive cavalry unit that would intercept.", required=True),
        Param("target", "unit", "The moving enemy unit (default: the unit of the triggering event)."),
    ),
    "retreat": (
        Param("unit", "unit", "The unit that must retreat.", required=True),
        Param("result", "choice", "The close combat result it suffered.", required=True, choices=_RESULTS),
        Param("fought", "units", "The enemy unit(s) it fought in the close combat (comma-separated ids).", required=True),
        Param("hexes", "int", "Hexes to retreat for a Morale Shaken result (1 or 2; Morale Broken is always 2).",
              choices=("1", "2")),
    ),
    "advance": (
        Param("vacated", "units", "The unit(s) whose retreat or elimination emptied their hexes (comma-separated ids).",
              required=True),
        Param("winners", "units", "The units that fought them and may advance (comma-separated ids).", required=True),
        Param("role", "choice", "Whether the winners were the attackers or the defenders.", required=True,
              choices=("attacker", "defender")),
    ),
}


def _problem(name: str, message: Message | str) -> InvalidScenarioError:
    return InvalidScenarioError([(f"params.{name}", message)])


def _unit(scenario: Scenario, name: str, value: Any) -> Unit:
    if not isinstance(value, str) or value not in scenario.by_id:
        known = ", ".join(u.id for u in scenario.units)
        raise _problem(name, msg("no unit {unit} in the scenario (units: {units})", unit=repr(value), units=known))
    return scenario.by_id[value]


def coerce(question: str, scenario: Scenario, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Typed parameters for ``question``: units looked up, numbers parsed, every problem reported together."""
    spec = {p.name: p for p in PARAMS[question]}
    problems: list[Problem | tuple[str, Message | str]] = []
    for name in raw:
        if name not in spec:
            problems.append((f"params.{name}", msg("{question} takes no parameter {name} (it takes: {names})",
                                                   question=question, name=repr(name), names=", ".join(spec))))
    values: dict[str, Any] = {}
    for name, p in spec.items():
        value = raw.get(name, p.default)
        if value is None or value == "":
            if p.required:
                problems.append((f"params.{name}", msg("required: {description}", description=p.description)))
            values[name] = None
            continue
        try:
            values[name] = _coerce_one(scenario, p, value)
        except InvalidScenarioError as exc:
            problems.extend(exc.items)
    if problems:
        raise InvalidScenarioError(problems)
    return values


def _coerce_one(scenario: Scenario, p: Param, value: Any) -> Any:
    if p.type == "unit":
        return _unit(scenario, p.name, value)
    if p.type == "units":
        items = value if isinstance(value, (list, tuple)) else [v.strip() for v in str(value).split(",") if v.strip()]
        if not items:
            raise _problem(p.name, msg("give at least one unit id"))
        return tuple(_unit(scenario, p.name, v) for v in items)
    if p.type == "order":
        try:
            return Order(str(value).strip().lower())
        except ValueError:
            raise _problem(p.name, msg("{value} is not one of: {choices}", value=repr(value),
                                       choices=", ".join(_ORDERS))) from None
    if p.type == "wing":
        if value not in scenario.wings:
            raise _problem(p.name, msg("no wing {wing} (wings: {wings})", wing=repr(value),
                                       wings=", ".join(scenario.wings) or "-"))
        return scenario.wings[value]
    if p.type == "facing":
        try:
            return scenario.hexmap.parse_vertex(str(value))
        except ValueError as exc:
            raise _problem(p.name, reason(exc)) from None
    if p.type == "hex":
        try:
            return scenario.hexmap.parse(str(value))
        except ValueError as exc:
            raise _problem(p.name, reason(exc)) from None
    if p.type == "int":
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise _problem(p.name, msg("{value} is not {type}", value=repr(value), type=msg("a whole number"))) from None
        if p.choices and str(number) not in p.choices:
            raise _problem(p.name, msg("{value} is not one of: {choices}", value=number, choices=", ".join(p.choices)))
        return number
    if p.type == "choice":
        text = str(value).strip().lower()
        if text not in p.choices:
            raise _problem(p.name, msg("{value} is not one of: {choices}", value=repr(value),
                                       choices=", ".join(p.choices)))
        return text
    raise AssertionError(p.type)
