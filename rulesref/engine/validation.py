"""Data checked against a JSON Schema: compiled once, answered fast when the data is valid, and every problem by
its path, in the reader's language, when it is not.

A :class:`Validator` holds a schema's quick yes/no check (schema_check.py) and jsonschema's validator, both built
once. Valid data costs only the quick check; otherwise jsonschema walks it, so every message is worded from
jsonschema's own errors (schema_messages.py). Both engines check their scenarios and the questions' parameters
this way.
"""
from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Iterable, Mapping

import jsonschema

from .ruling import MAX_PROBLEMS, Problem
from .schema_check import Unsupported, compile_check
from .schema_messages import schema_message

#: Given the data, a function of a problem's path that says which unit it concerns (made once per data: a scenario
#: with 100,000 units and 100 problems would otherwise gather the units' ids 100 times).
UnitFinder = Callable[[Any], Callable[[list[Any]], "str | None"]]


def json_path(parts: Iterable[Any]) -> str:
    """``["units", 3, "facing"]`` -> ``units[3].facing``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def schema_values(schema: Mapping[str, Any], where: Mapping[str, tuple[str, ...]]) -> dict[str, Any]:
    """Values written in a schema, by name: ``where`` gives each one's keys from the schema's root."""
    found = {}
    for name, keys in where.items():
        node: Any = schema
        for key in keys:
            node = node[key]
        found[name] = node
    return found


def _sort_key(path: Iterable[Any]) -> list[tuple[int, Any]]:
    return [(0, p) if isinstance(p, int) else (1, str(p)) for p in path]


class Validator:
    """One JSON Schema (draft 2020-12), compiled once."""

    def __init__(self, schema: Mapping[str, Any]):
        self.schema = schema
        self._full = jsonschema.validators.validator_for(schema)(schema)
        try:
            self._quick: Callable[[Any], bool] = compile_check(schema)
        except Unsupported:
            self._quick = lambda data: False  # not sure of anything: jsonschema decides every time

    def errors(self, data: Any) -> list[jsonschema.ValidationError]:
        """jsonschema's errors, sorted by path: none when the quick check says the data is valid; the first ones it
        finds past what an InvalidScenarioError lists are not looked for."""
        if self._quick(data):
            return []
        found = islice(self._full.iter_errors(data), MAX_PROBLEMS + 1)
        return sorted(found, key=lambda e: (_sort_key(e.absolute_path), e.message))

    def problems(self, data: Any, prefix: str = "", units: UnitFinder | None = None) -> list[Problem]:
        """The errors as Problems, each at its path (after ``prefix``) with the unit it concerns, as ``units(data)``
        says (asked only when there are errors)."""
        found, unit_at = [], None
        for error in self.errors(data):
            parts = list(error.absolute_path)
            path = json_path(parts)
            if prefix:
                path = f"{prefix}{path}" if not path or path.startswith("[") else f"{prefix}.{path}"
            if units is not None and unit_at is None:
                unit_at = units(data)
            found.append(Problem(path, schema_message(error), unit_at(parts) if unit_at else None))
        return found
