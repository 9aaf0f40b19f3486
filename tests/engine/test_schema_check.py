"""The quick schema check (rulesref/engine/mpbs/schema_check.py) never calls valid what jsonschema rejects, and
calls valid what jsonschema accepts: on the fixtures, on the benchmark scenarios and on thousands of mutations."""
from __future__ import annotations

import copy
import json
import random
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

BOOKS = {
    "mpbs": (mpbs_scenario.schema, lambda: engine_mpbs.make_scenario(12, 10, units=14, seed=3)),
    "t9a": (t9a_scenario.schema, lambda: engine_t9a.busy_board(4)),
}

# Values that probe each keyword's edges: types jsonschema tells apart (bool is not an integer, 1.0 is), bounds,
# patterns, strings of enums, containers.
PROBES = [None, True, False, 0, 1, -1, 2, 3, 7, 12, 13, 60, 360, 1000, 1001, -1000.5, 0.0, 1.0, 2.5, 1e9, -0.0,
          "", "x", "0504", "05041", "0a04", "A", "a b", "north", "charge", "rally", "cavalry", "fleeing", "t9a",
          "mpbs", "line", "S", "NE", [], [1], [1, 2], [1.5, 2.5], [2, 3], [1, 2, 3], ["north", "north"],
          ["north", "south"], [0, 1], [[0, 0], [1, 0], [1, 1]], {}, {"x": 1}, {"0504": "woods"}]


def all_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from all_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from all_paths(v, path + (i,))


def mutate(data, rnd: random.Random):
    data = copy.deepcopy(data)
    paths = [p for p in all_paths(data) if p]
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        path = rnd.choice(paths)
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            key = path[-1]
            action = rnd.random()
            if action < 0.6:
                parent[key] = rnd.choice(PROBES)
            elif action < 0.75 and isinstance(parent, dict):
                del parent[key]
            elif action < 0.9 and isinstance(parent, dict):
                parent[rnd.choice(["extra", "id", "facing", "width", "roll", "0101", "9999"])] = rnd.choice(PROBES)
            elif isinstance(parent, list):
                parent.append(copy.deepcopy(parent[key]))
        except (KeyError, IndexError, TypeError):
            pass
    return data


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


def test_unknown_keywords_are_not_compiled():
    with pytest.raises(Unsupported):
        compile_check({"$schema": "https://json-schema.org/draft/2020-12/schema", "if": {"type": "string"}})
    with pytest.raises(Unsupported):
        compile_check({"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"})
