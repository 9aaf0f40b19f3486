"""The quick schema check (rulesref/engine/schema_check.py) never calls valid what jsonschema rejects, and calls
valid what jsonschema accepts: on the fixtures, on the benchmark scenarios, on thousands of mutations, and on
Python values no JSON text gives (tuples, subclasses of str and dict, other kinds of numbers)."""
from __future__ import annotations

import copy
import json
import random
from decimal import Decimal
from fractions import Fraction
import sys
from pathlib import Path

import jsonschema
import pytest

from rulesref.engine.mpbs import scenario as mpbs_scenario
from rulesref.engine.schema_check import Unsupported, compile_check
from rulesref.engine.t9a import scenario as t9a_scenario

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import engine_mpbs  # noqa: E402
import engine_t9a  # noqa: E402
from mutations import all_paths, mutate  # noqa: E402

BOOKS = {
    "mpbs": (mpbs_scenario.schema, lambda: engine_mpbs.make_scenario(12, 10, units=14, seed=3)),
    "t9a": (t9a_scenario.schema, lambda: engine_t9a.busy_board(4)),
}

def fixtures(book):
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "fixtures" / "scenarios" / book).glob("*.json"))]


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_the_shipped_schemas_compile(book):
    compile_check(BOOKS[book][0]())


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_quick_check_agrees_with_jsonschema(book):
    schema, sample = BOOKS[book][0](), BOOKS[book][1]()
    quick = compile_check(schema)
    validator = jsonschema.Draft202012Validator(schema)
    seeds = [*fixtures(book), sample]
    for data in seeds:
        assert validator.is_valid(data) and quick(data)
    rnd = random.Random(2024)
    agreed = rejected = 0
    for i in range(1500):
        data = mutate(rnd.choice(seeds), rnd)
        valid = validator.is_valid(data)
        answer = quick(data)
        assert not (answer and not valid), f"quick check accepts what jsonschema rejects: {list(validator.iter_errors(data))[:1]}"
        agreed += answer == valid
        rejected += not valid
    assert rejected > 300  # the mutations do break the data
    assert agreed > 1450  # and the quick check is rarely unsure (unsure only costs time)


def test_quick_check_follows_jsonschema_types_and_bounds():
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "i": {"type": "integer", "minimum": 1, "exclusiveMaximum": 3},
            "n": {"type": ["number", "null"], "exclusiveMinimum": 0},
            "e": {"enum": ["a", "b"]},
            "u": {"type": "array", "uniqueItems": True},
            "o": {"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 10}]},
        },
        "additionalProperties": {"type": "string"},
    }
    quick = compile_check(schema)
    validator = jsonschema.Draft202012Validator(schema)
    cases = [{"i": v} for v in (1, 2, 3, 1.0, 2.0, True, "1", 0)] + [{"n": v} for v in (None, 0, 0.5, -1, False)]
    cases += [{"e": v} for v in ("a", "c", 1, None, ["a"])] + [{"u": v} for v in (["a", "b"], ["a", "a"], [1, 1.0], [1, True])]
    cases += [{"o": v} for v in (1, 1.5, 11.5, 3.0, "x")] + [{"x": "y"}, {"x": 1}, [], "text"]
    for data in cases:
        assert quick(data) == validator.is_valid(data) or (not quick(data) and validator.is_valid(data)), data
        assert not (quick(data) and not validator.is_valid(data)), data


class Text(str):
    pass


class Mapping_(dict):
    pass


ODD_VALUES = [(1, 2), Text("0504"), Text("charge"), Mapping_(), Decimal("2"), Fraction(1, 2), float("nan"),
              float("inf"), -float("inf"), 10 ** 30, 2 ** 63, b"0504", frozenset(["a"]), 1j]


@pytest.mark.parametrize("book", sorted(BOOKS))
def test_quick_check_never_accepts_what_jsonschema_refuses_among_odd_python_values(book):
    schema, sample = BOOKS[book][0](), BOOKS[book][1]()
    quick = compile_check(schema)
    validator = jsonschema.Draft202012Validator(schema)
    paths = [p for p in all_paths(sample) if p]
    rnd = random.Random(7)
    for _ in range(1500):
        data = copy.deepcopy(sample)
        path = rnd.choice(paths)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = rnd.choice(ODD_VALUES)
        if quick(data):
            assert validator.is_valid(data), (path, parent[path[-1]])


def test_unknown_keywords_are_not_compiled():
    with pytest.raises(Unsupported):
        compile_check({"$schema": "https://json-schema.org/draft/2020-12/schema", "if": {"type": "string"}})
    with pytest.raises(Unsupported):
        compile_check({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"})
