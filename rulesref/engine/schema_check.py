"""A fast yes/no check of data against a scenario schema, so that a valid scenario skips jsonschema's slow walk.

``jsonschema`` walks a scenario of 60 units in about 15 ms (it builds a validator object per node it descends
into); almost every scenario the engines load is valid. :func:`compile_check` turns a JSON Schema (draft 2020-12)
into plain Python closures that answer only "valid or not" in well under a millisecond. The loaders run jsonschema
only when this check does not say "valid", so every message a scenario gets is still jsonschema's own.

The check must never call valid what jsonschema rejects. It therefore implements only the keywords the shipped
schemas use, each as jsonschema 4 does (its type checker, ``re.search`` for patterns, ``<``/``<=`` for bounds),
and gives up — raising :class:`Unsupported` when compiling, answering "not valid" when checking — wherever it is
not sure: an unknown keyword, a ``$ref`` outside ``#/$defs``, an enum of anything but strings and integers, ``uniqueItems`` over
anything but strings, an exception. tests/engine/test_schema_check.py compares it with jsonschema on the
fixtures and on thousands of mutated scenarios.
"""
from __future__ import annotations

import numbers
import re
from typing import Any, Callable, Mapping

Check = Callable[[Any], bool]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"
# Keywords that never make an instance invalid (annotations), as jsonschema treats them without a format checker.
ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples", "format",
                         "deprecated", "readOnly", "writeOnly", "$defs"})


class Unsupported(ValueError):
    """The schema uses something this check does not implement exactly: use jsonschema alone."""


class _Unsure(Exception):
    """This instance is outside what the check decides exactly: let jsonschema decide."""


def compile_check(schema: Mapping[str, Any]) -> Check:
    """A function answering whether data is valid against ``schema`` (True only when jsonschema finds no error)."""
    if schema.get("$schema") != DRAFT_2020_12:
        raise Unsupported("only draft 2020-12 schemas are compiled")
    compiler = _Compiler(schema)
    check = compiler.compile(schema)

    def is_valid(data: Any) -> bool:
        try:
            return check(data)
        except Exception:  # _Unsure, or anything jsonschema might report differently
            return False

    return is_valid


# --- types, exactly as jsonschema's draft 2020-12 type checker ---------------------------------------------------

def _is_integer(x: Any) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


def _is_number(x: Any) -> bool:
    if type(x) is int or type(x) is float:  # the usual case, answered before the slower abstract-class test
        return True
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


TYPES: dict[str, Check] = {
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "integer": _is_integer,
    "null": lambda x: x is None,
    "number": _is_number,
    "object": lambda x: isinstance(x, dict),
    "string": lambda x: isinstance(x, str),
}


class _Compiler:
    def __init__(self, root: Mapping[str, Any]):
        self.root = root
        self.defs: dict[str, Check] = {}

    def compile(self, schema: Any) -> Check:
        if schema is True:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unsupported(f"not a schema: {schema!r}")
        if schema is not self.root and ("$id" in schema or "$defs" in schema):
            raise Unsupported("$id or $defs below the root (references would resolve elsewhere)")
        checks = [self.keyword(key, value, schema) for key, value in schema.items() if key not in ANNOTATIONS]
        checks = [c for c in checks if c is not None]
        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]

        def every(x: Any) -> bool:
            for c in checks:
                if not c(x):
                    return False
            return True

        return every

    def keyword(self, key: str, value: Any, schema: Mapping[str, Any]) -> Check | None:
        try:
            method = getattr(self, "k_" + key.replace("$", "_"))
        except AttributeError:
            raise Unsupported(f"keyword {key!r}") from None
        return method(value, schema)

    # --- references ---

    def k__ref(self, ref: str, schema) -> Check:
        prefix = "#/$defs/"
        if not isinstance(ref, str) or not ref.startswith(prefix) or "/" in ref[len(prefix):] or "~" in ref:
            raise Unsupported(f"$ref {ref!r}")
        name = ref[len(prefix):]
        if name not in self.root.get("$defs", {}):
            raise Unsupported(f"$ref {ref!r} names nothing")
        if name not in self.defs:
            self.defs[name] = lambda x: False  # placeholder while compiling a recursive definition
            compiled = self.compile(self.root["$defs"][name])
            self.defs[name] = compiled
        defs = self.defs
        return lambda x: defs[name](x)

    # --- any instance ---

    def k_type(self, types: Any, schema) -> Check:
        names = [types] if isinstance(types, str) else list(types)
        if not names or any(n not in TYPES for n in names):
            raise Unsupported(f"type {types!r}")
        tests = [TYPES[n] for n in names]
        if len(tests) == 1:
            return tests[0]
        return lambda x: any(t(x) for t in tests)

    def k_enum(self, values: Any, schema) -> Check:
        if not isinstance(values, list) or not all(isinstance(v, str) or type(v) is int for v in values):
            raise Unsupported("enum of anything but strings and integers")
        strings = frozenset(v for v in values if isinstance(v, str))
        numbers = frozenset(v for v in values if type(v) is int)
        if not numbers:
            return lambda x: _string_in(x, strings)
        return lambda x: _number_in(x, numbers) if type(x) in (int, float) else _string_in(x, strings)

    def k_const(self, value: Any, schema) -> Check:
        if not isinstance(value, str):
            raise Unsupported("const other than a string")
        return lambda x: _string_in(x, frozenset((value,)))

    def k_oneOf(self, subschemas: Any, schema) -> Check:
        if not isinstance(subschemas, list) or not subschemas:
            raise Unsupported("oneOf")
        checks = [self.compile(s) for s in subschemas]  # each exact (or raising _Unsure): the count is exact
        return lambda x: sum(1 for c in checks if c(x)) == 1

    # --- numbers ---

    def k_minimum(self, bound: Any, schema) -> Check:
        return lambda x: not _is_number(x) or not x < bound

    def k_maximum(self, bound: Any, schema) -> Check:
        return lambda x: not _is_number(x) or not x > bound

    def k_exclusiveMinimum(self, bound: Any, schema) -> Check:
        return lambda x: not _is_number(x) or not x <= bound

    def k_exclusiveMaximum(self, bound: Any, schema) -> Check:
        return lambda x: not _is_number(x) or not x >= bound

    # --- strings ---

    def k_pattern(self, pattern: str, schema) -> Check:
        search = re.compile(pattern).search
        return lambda x: not isinstance(x, str) or search(x) is not None

    def k_minLength(self, n: int, schema) -> Check:
        return lambda x: not isinstance(x, str) or not len(x) < n

    def k_maxLength(self, n: int, schema) -> Check:
        return lambda x: not isinstance(x, str) or not len(x) > n

    # --- arrays ---

    def k_items(self, items: Any, schema) -> Check:
        if "prefixItems" in schema or isinstance(items, bool):
            raise Unsupported("items with prefixItems, or boolean items")
        check = self.compile(items)
        return lambda x: not isinstance(x, list) or all(check(i) for i in x)

    def k_minItems(self, n: int, schema) -> Check:
        return lambda x: not isinstance(x, list) or not len(x) < n

    def k_maxItems(self, n: int, schema) -> Check:
        return lambda x: not isinstance(x, list) or not len(x) > n

    def k_uniqueItems(self, unique: Any, schema) -> Check | None:
        if not unique:
            return None
        return lambda x: not isinstance(x, list) or _unique_strings(x)

    # --- objects ---

    def k_properties(self, properties: Mapping[str, Any], schema) -> Check:
        checks = [(name, self.compile(sub)) for name, sub in properties.items()]

        def check(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            for name, c in checks:
                if name in x and not c(x[name]):
                    return False
            return True

        return check

    def k_required(self, names: list[str], schema) -> Check:
        return lambda x: not isinstance(x, dict) or all(n in x for n in names)

    def k_maxProperties(self, n: int, schema) -> Check:
        return lambda x: not isinstance(x, dict) or not len(x) > n

    def k_additionalProperties(self, extra: Any, schema) -> Check | None:
        if "patternProperties" in schema:
            raise Unsupported("additionalProperties with patternProperties")
        known = frozenset(schema.get("properties", {}))
        if extra is True:
            return None
        if extra is False:
            return lambda x: not isinstance(x, dict) or all(k in known for k in x)
        check = self.compile(extra)
        return lambda x: not isinstance(x, dict) or all(check(v) for k, v in x.items() if k not in known)

    def k_propertyNames(self, names: Any, schema) -> Check:
        check = self.compile(names)
        return lambda x: not isinstance(x, dict) or all(check(k) for k in x)


def _string_in(x: Any, allowed: frozenset[str]) -> bool:
    """jsonschema's enum/const equality for string values: only an equal string matches."""
    if isinstance(x, str):
        return x in allowed
    if x is None or isinstance(x, (bool, int, float, list, dict)):
        return False
    raise _Unsure


def _number_in(x: int | float, allowed: frozenset[int]) -> bool:
    """jsonschema's enum equality for a plain int or float: numbers equal by value (1.0 is 1; a bool never is)."""
    return x in allowed


def _unique_strings(items: list[Any]) -> bool:
    if not all(isinstance(i, str) for i in items):
        raise _Unsure  # jsonschema's uniqueness of numbers, booleans and containers has its own rules
    return len(set(items)) == len(items)
