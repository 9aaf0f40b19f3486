"""A fast yes/no check of data against a scenario schema, so that a valid scenario skips jsonschema's slow walk.

``jsonschema`` walks a scenario of 60 units in about 15 ms (it builds a validator object per node it descends
into); almost every scenario the engines load is valid. :func:`compile_check` turns a JSON Schema (draft 2020-12)
into the source of plain Python functions, one per object or list shape, with every keyword's test written out in
line, and compiles them once: a scenario of 60 units is answered in about a tenth of a millisecond. The loaders run
jsonschema only when this check does not say "valid", so every message a scenario gets is still jsonschema's own.

The check must never call valid what jsonschema rejects. It therefore implements only the keywords the shipped
schemas use, each as jsonschema 4 does (its type checker, ``re.search`` for patterns, ``<``/``<=`` for bounds),
tests the exact JSON types (``dict``, ``list``, ``str``, ``int``, ``float``) and gives up — raising
:class:`Unsupported` when compiling, answering "not valid" when checking — wherever it is not sure: an unknown
keyword, a ``$ref`` outside ``#/$defs``, an enum of anything but strings and integers, ``uniqueItems`` over
anything but strings, a subclass of a JSON type or a number of another kind, an exception.
tests/engine/test_schema_check.py compares it with jsonschema on the fixtures and on thousands of mutated scenarios.
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
# Keywords that test one instance without looking inside it: a schema of these alone is written out in line.
LEAF_KEYWORDS = frozenset({"type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                           "pattern", "minLength", "maxLength"})
NUMBER_BOUNDS = {"minimum": "<", "maximum": ">", "exclusiveMinimum": "<=", "exclusiveMaximum": ">="}


class Unsupported(ValueError):
    """The schema uses something this check does not implement exactly: use jsonschema alone."""


class _Unsure(Exception):
    """This instance is outside what the check decides exactly: let jsonschema decide."""


def compile_check(schema: Mapping[str, Any]) -> Check:
    """A function answering whether data is valid against ``schema`` (True only when jsonschema finds no error)."""
    if schema.get("$schema") != DRAFT_2020_12:
        raise Unsupported("only draft 2020-12 schemas are compiled")
    writer = _Writer(schema)
    entry = writer.function(schema)
    namespace = writer.namespace()
    exec(compile(writer.source(), "<compiled schema check>", "exec"), namespace)  # noqa: S102 - our own source
    check = namespace[entry]

    def is_valid(data: Any) -> bool:
        try:
            return check(data)
        except Exception:  # _Unsure, or anything jsonschema might report differently
            return False

    return is_valid


# --- what the written-out tests call when the fast test of an exact JSON type fails -------------------------------

def _is_number(x: Any) -> bool:
    """jsonschema's "number": any numbers.Number but a bool."""
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


def _not_of_type(x: Any, names: tuple[str, ...]) -> bool:
    """False when ``x`` (not of the exact JSON types named) is of none of them for jsonschema either; _Unsure when
    it is (a subclass of dict, list or str, a number of another kind)."""
    for name in names:
        if ((name == "object" and isinstance(x, dict)) or (name == "array" and isinstance(x, list))
                or (name == "string" and isinstance(x, str)) or (name in ("number", "integer") and _is_number(x))):
            raise _Unsure
    return False


def _other_value(x: Any, kind: str) -> None:
    """A value that is not of the exact JSON type ``kind`` where keywords for that kind apply: _Unsure when
    jsonschema would apply them all the same (a subclass of dict, list or str, another kind of number)."""
    if _not_of_type(x, (kind,)):
        raise AssertionError("unreachable: _not_of_type answers False or raises")


def _not_in_enum(x: Any) -> bool:
    """An enum of strings and integers: False for the other JSON values, _Unsure for anything else."""
    if x is None or isinstance(x, (bool, list, dict)) or type(x) in (str, int, float):
        return False
    raise _Unsure


def _unique_strings(items: list[Any]) -> bool:
    if not all(type(i) is str for i in items):
        raise _Unsure  # jsonschema's uniqueness of numbers, booleans and containers has its own rules
    return len(set(items)) == len(items)


_TYPE_TESTS = {
    "object": "type({v}) is dict",
    "array": "type({v}) is list",
    "string": "type({v}) is str",
    "boolean": "({v} is True or {v} is False)",
    "null": "{v} is None",
    "number": "(type({v}) is int or type({v}) is float)",
    "integer": "(type({v}) is int or (type({v}) is float and {v}.is_integer()))",
}
_KINDS = {"object": "dict", "array": "list", "string": "str"}


#: The keywords that apply to one kind of value only, by kind (each group is tested under a test of its kind).
KIND_KEYWORDS = {
    "number": tuple(NUMBER_BOUNDS),
    "string": ("pattern", "minLength", "maxLength"),
    "array": ("items", "minItems", "maxItems", "uniqueItems"),
    "object": ("properties", "required", "additionalProperties", "maxProperties", "propertyNames"),
}


def _known_kind(known: frozenset[str], kind: str) -> bool:
    """Whether the ``type`` keyword has already made sure that the value is of ``kind``."""
    if not known:
        return False
    return known <= {"number", "integer"} if kind == "number" else known == {kind}


class _Writer:
    """Writes one function per schema node that looks inside its instance (objects, lists, alternatives)."""

    def __init__(self, root: Mapping[str, Any]):
        self.root = root
        self.lines: list[str] = []
        self.names: dict[int, str] = {}  # id(schema node) -> function name
        self.constants: dict[str, Any] = {}
        self.count = 0

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    def namespace(self) -> dict[str, Any]:
        return {"_Unsure": _Unsure, "_not_of_type": _not_of_type, "_other_value": _other_value,
                "_not_in_enum": _not_in_enum, "_unique_strings": _unique_strings, **self.constants}

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def constant(self, value: Any) -> str:
        name = self.fresh("_c")
        self.constants[name] = value
        return name

    # --- schemas ---

    def resolve(self, schema: Any) -> Any:
        """The schema a ``$ref``-only node stands for; anything else as it is."""
        if isinstance(schema, dict) and set(schema) - ANNOTATIONS == {"$ref"}:
            return self.definition(schema["$ref"])
        return schema

    def definition(self, ref: Any) -> Any:
        prefix = "#/$defs/"
        if not isinstance(ref, str) or not ref.startswith(prefix) or "/" in ref[len(prefix):] or "~" in ref:
            raise Unsupported(f"$ref {ref!r}")
        defs = self.root.get("$defs", {})
        if ref[len(prefix):] not in defs:
            raise Unsupported(f"$ref {ref!r} names nothing")
        return defs[ref[len(prefix):]]

    def is_leaf(self, schema: Any) -> bool:
        """Tests only its own instance: written out in line wherever it is used."""
        schema = self.resolve(schema)
        return schema is True or schema is False or (
            isinstance(schema, dict) and set(schema) - ANNOTATIONS <= LEAF_KEYWORDS)

    def function(self, schema: Any) -> str:
        """The name of the function testing ``schema`` (written once per node; recursion allowed)."""
        if not isinstance(schema, (dict, bool)):
            raise Unsupported(f"not a schema: {schema!r}")
        key = id(schema)
        if key in self.names:
            return self.names[key]
        name = self.names[key] = self.fresh("_f")
        body: list[str] = []
        self.tests(schema, "x", body, 1)
        self.lines += [f"def {name}(x):", *body, "    return True", ""]
        return name

    def check(self, schema: Any, v: str, out: list[str], depth: int) -> None:
        """Lines returning False when ``v`` fails ``schema``: in line for a leaf, else a call of its function."""
        if self.is_leaf(schema):
            self.tests(self.resolve(schema), v, out, depth)
        else:
            out.append("    " * depth + f"if not {self.function(self.resolve(schema))}({v}): return False")

    def tests(self, schema: Any, v: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if schema is True:
            return
        if schema is False:
            out.append(pad + "return False")
            return
        if "$id" in schema and schema is not self.root or "$defs" in schema and schema is not self.root:
            raise Unsupported("$id or $defs below the root (references would resolve elsewhere)")
        unknown = set(schema) - ANNOTATIONS - LEAF_KEYWORDS - {
            "$ref", "oneOf", "items", "minItems", "maxItems", "uniqueItems", "properties", "required",
            "additionalProperties", "maxProperties", "propertyNames"}
        if unknown:
            raise Unsupported(f"keyword {sorted(unknown)[0]!r}")
        known = self.type_test(schema, v, out, pad)
        if "$ref" in schema:
            self.check(self.definition(schema["$ref"]), v, out, depth)
        self.enum_test(schema, v, out, pad)
        if "oneOf" in schema:
            alternatives = schema["oneOf"]
            if not isinstance(alternatives, list) or not alternatives:
                raise Unsupported("oneOf")
            calls = " + ".join(f"{self.function(self.resolve(s))}({v})" for s in alternatives)
            out.append(pad + f"if ({calls}) != 1: return False")  # each exact (or _Unsure): the count is exact
        self.kind_tests(schema, v, out, depth, known)

    def type_test(self, schema: dict, v: str, out: list[str], pad: str) -> frozenset[str]:
        """The ``type`` keyword; returns the types the instance is then known to be of."""
        if "type" not in schema:
            return frozenset()
        types = schema["type"]
        names = (types,) if isinstance(types, str) else tuple(types)
        if not names or any(n not in _TYPE_TESTS for n in names):
            raise Unsupported(f"type {types!r}")
        fast = " or ".join(_TYPE_TESTS[n].format(v=v) for n in names)
        out.append(pad + f"if not ({fast}): return _not_of_type({v}, {names!r})")
        return frozenset(names)

    def enum_test(self, schema: dict, v: str, out: list[str], pad: str) -> None:
        if "const" in schema:
            if not isinstance(schema["const"], str):
                raise Unsupported("const other than a string")
            values = [schema["const"]]
        elif "enum" in schema:
            values = schema["enum"]
            if not isinstance(values, list) or not all(isinstance(x, str) or type(x) is int for x in values):
                raise Unsupported("enum of anything but strings and integers")
        else:
            return
        strings = self.constant(frozenset(x for x in values if isinstance(x, str)))
        numbers_ = frozenset(x for x in values if type(x) is int)
        # jsonschema's enum equality: an equal string; a number equal by value (1.0 is 1; a bool is never a number)
        out.append(pad + f"if type({v}) is str:")
        out.append(pad + f"    if {v} not in {strings}: return False")
        if numbers_:
            out.append(pad + f"elif type({v}) is int or type({v}) is float:")
            out.append(pad + f"    if {v} not in {self.constant(numbers_)}: return False")
        out.append(pad + f"else: return _not_in_enum({v})")

    def kind_tests(self, schema: dict, v: str, out: list[str], depth: int, known: frozenset[str]) -> None:
        """The keywords that apply to one kind of value, each group under a test of that kind."""
        for kind, keywords in KIND_KEYWORDS.items():
            if not any(k in schema for k in keywords):
                continue
            body: list[str] = []
            getattr(self, f"{kind}_tests")(schema, v, body, depth + 1)
            if not body:
                continue
            if _known_kind(known, kind):
                out.extend(line[4:] for line in body)  # the type test has already made sure of the kind
                continue
            pad = "    " * depth
            test = _TYPE_TESTS["number"] if kind == "number" else f"type({{v}}) is {_KINDS[kind]}"
            out.append(pad + f"if {test.format(v=v)}:")
            out.extend(body)
            out.append(pad + f"else: _other_value({v}, {kind!r})")

    def number_tests(self, schema: dict, v: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        for keyword, fails in NUMBER_BOUNDS.items():
            if keyword in schema:
                bound = schema[keyword]
                if type(bound) not in (int, float):
                    raise Unsupported(f"{keyword} {bound!r}")
                out.append(pad + f"if {v} {fails} {bound!r}: return False")

    def string_tests(self, schema: dict, v: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if "pattern" in schema:
            search = self.constant(re.compile(schema["pattern"]).search)
            out.append(pad + f"if {search}({v}) is None: return False")
        if "minLength" in schema:
            out.append(pad + f"if len({v}) < {int(schema['minLength'])}: return False")
        if "maxLength" in schema:
            out.append(pad + f"if len({v}) > {int(schema['maxLength'])}: return False")

    def array_tests(self, schema: dict, v: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        if "minItems" in schema:
            out.append(pad + f"if len({v}) < {int(schema['minItems'])}: return False")
        if "maxItems" in schema:
            out.append(pad + f"if len({v}) > {int(schema['maxItems'])}: return False")
        if schema.get("uniqueItems"):
            out.append(pad + f"if not _unique_strings({v}): return False")
        if "items" in schema:
            if "prefixItems" in schema or isinstance(schema["items"], bool):
                raise Unsupported("items with prefixItems, or boolean items")
            item = self.fresh("_i")
            body: list[str] = []
            self.check(schema["items"], item, body, depth + 1)
            if body:
                out.append(pad + f"for {item} in {v}:")
                out.extend(body)

    def object_tests(self, schema: dict, v: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        properties = schema.get("properties", {})
        if "maxProperties" in schema:
            out.append(pad + f"if len({v}) > {int(schema['maxProperties'])}: return False")
        for name in schema.get("required", []):
            out.append(pad + f"if {name!r} not in {v}: return False")
        extra = schema.get("additionalProperties", True)
        if extra is not True and "patternProperties" in schema:
            raise Unsupported("additionalProperties with patternProperties")
        if extra is False:
            out.append(pad + f"if not {self.constant(frozenset(properties))}.issuperset({v}): return False")
        for name, sub in properties.items():
            value = self.fresh("_p")
            body: list[str] = []
            self.check(sub, value, body, depth + 1)
            if body:
                out.append(pad + f"if {name!r} in {v}:")
                out.append(pad + f"    {value} = {v}[{name!r}]")
                out.extend(body)
        if extra is not True and extra is not False:
            key, value = self.fresh("_k"), self.fresh("_w")
            body = []
            self.check(extra, value, body, depth + 1)
            if body:
                if properties:
                    out.append(pad + f"for {key}, {value} in {v}.items():")
                    out.append(pad + f"    if {key} in {self.constant(frozenset(properties))}: continue")
                else:
                    out.append(pad + f"for {value} in {v}.values():")
                out.extend(body)
        if "propertyNames" in schema:
            key = self.fresh("_n")
            body = []
            self.check(schema["propertyNames"], key, body, depth + 1)
            if body:
                out.append(pad + f"for {key} in {v}:")
                out.extend(body)
