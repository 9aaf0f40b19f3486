"""Question parameters, declared once per question: what each takes, as a JSON Schema too, and checked by it.

Each rulebook declares its questions' parameters as :class:`Param` values (``PARAMS``). From the same declaration
come the description the CLI and the web form show, :func:`params_schema` (a JSON Schema of the ``params`` object,
for the OpenAPI document), and :func:`checked`, which the questions call first: an unknown parameter, a missing
one or a value of the wrong JSON type is a problem at ``params.<name>`` (the engine raises them in one
:class:`~rulesref.engine.ruling.InvalidScenarioError`, with what else is wrong), never accepted and never a crash.
What a value means in the scenario (a unit that exists, a hex on the map) is each engine's to check after that.

The types, and the JSON each takes (the command line and web forms send text, which every type also reads):

==========  =====================================================================================================
``unit``    the id of a unit of the scenario: a string
``units``   ids of units: a list of strings, or one string of ids separated by commas
``wing``    the id of a wing: a string
``order``   one of the orders (``choices``)
``choice``  one of ``choices``
``facing``  a vertex by its compass name on the map (upper case: ``NE``)
``hex``     a hex label (``0504``)
``int``     one of the whole numbers in ``choices``, as a number or as its digits
==========  =====================================================================================================
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from .hexgrid import DIRECTION_NAMES, VERTEX_NAMES
from .i18n import Message, msg
from .ruling import Problem
from .validation import Validator

MAX_ID_LENGTH = 40  # as long as an id in either book's scenario schema
MAX_UNITS = 400  # as many units as a scenario of either book may list (tests/engine/test_params.py holds them equal)
_ID = {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH}
_COMPASS = sorted({n for names in (*VERTEX_NAMES.values(), *DIRECTION_NAMES.values()) for n in names})
NOT_GIVEN = (None, "")  # an optional parameter left out, sent as null, or an empty form field


@dataclass(frozen=True)
class Param:
    """One parameter of a question: its name, its type (above), what it is, and whether it must be given."""

    name: str
    type: str
    description: Message
    required: bool = False
    choices: tuple[str, ...] = ()
    default: Any = None

    def value_schema(self) -> dict[str, Any]:
        """The JSON Schema of a value given for this parameter."""
        if self.type in ("unit", "wing"):
            return dict(_ID)
        if self.type == "units":
            return {"oneOf": [
                {"type": "array", "minItems": 1, "maxItems": MAX_UNITS, "items": dict(_ID)},
                {"type": "string", "minLength": 1, "maxLength": MAX_UNITS * (MAX_ID_LENGTH + 1)},
            ]}
        if self.type in ("order", "choice"):
            return {"type": "string", "enum": list(self.choices)}
        if self.type == "facing":
            return {"type": "string", "enum": _COMPASS}
        if self.type == "hex":
            return {"type": "string", "pattern": "^[0-9]{4,8}$"}
        if self.type == "int":
            return {"enum": [int(c) for c in self.choices] + list(self.choices)}
        raise ValueError(f"unknown parameter type {self.type!r}")

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of this parameter in a ``params`` object: an optional one may also be null or ""."""
        value = {**self.value_schema(), "description": self.description.render("en")}
        if self.required:
            return value
        return {"oneOf": [value, {"enum": list(NOT_GIVEN)}], "description": value["description"]}

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        data = {"name": self.name, "type": self.type, "description": self.description.render(lang),
                "required": self.required}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.default is not None:
            data["default"] = self.default
        return data


def params_schema(spec: tuple[Param, ...]) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a question's ``params`` object."""
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": False,
        "properties": {p.name: p.schema() for p in spec},
    }
    required = [p.name for p in spec if p.required]
    if required:
        schema["required"] = required
    return schema


@lru_cache(maxsize=None)
def _value_validator(param: Param) -> Validator:
    return Validator({"$schema": "https://json-schema.org/draft/2020-12/schema", **param.value_schema()})


def checked(question: str, spec: tuple[Param, ...], raw: Any) -> tuple[dict[str, Any], list[Problem]]:
    """The parameters as given, by name (None, or the default, for one not given or not valid), and the problems
    with their names, presence and JSON types against ``spec``, each at ``params.<name>``."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        return {p.name: None for p in spec}, [Problem("params", msg("the parameters are an object of names and values"))]
    names = {p.name for p in spec}
    problems: list[Problem] = []
    for name in raw:
        if name not in names:
            problems.append(Problem(f"params.{name}", msg(
                "{question} takes no parameter {name} (it takes: {names})", question=question, name=repr(name),
                names=", ".join(p.name for p in spec) or "-")))
    values: dict[str, Any] = {}
    for p in spec:
        value = raw.get(p.name)
        if _not_given(value):
            if p.required:
                problems.append(Problem(f"params.{p.name}", msg("required: {description}", description=p.description)))
            values[p.name] = p.default
            continue
        found = _value_validator(p).problems(value, prefix=f"params.{p.name}")
        problems.extend(found)
        values[p.name] = None if found else value
    return values, problems


def _not_given(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value == "")


def listed(values: list[str], limit: int = 20) -> str:
    """Ids for a message: the first ``limit`` of them, then how many more."""
    shown = ", ".join(values[:limit]) or "-"
    return shown if len(values) <= limit else f"{shown}, … (+{len(values) - limit})"


__all__ = ["Param", "params_schema", "checked", "listed", "NOT_GIVEN"]
