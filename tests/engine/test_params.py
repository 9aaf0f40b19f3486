"""Question parameters are typed and enforced by the engine, from the same declaration as their JSON Schema.

A value of the wrong JSON type for any parameter of any question is a problem at ``params.<name>``, never accepted
and never a crash; whatever the engine accepts, the published schema accepts too (so an API checked against the
schema never sees the engine take what the schema refuses).
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesref.engine import ask, book_engine, params_schema
from rulesref.engine.ruling import InvalidScenarioError

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = {
    "mpbs": json.loads((ROOT / "fixtures/scenarios/mpbs/interception-example-9.3.json").read_text(encoding="utf-8")),
    "t9a": json.loads((ROOT / "fixtures/scenarios/t9a/pursuit-two-pursuers.json").read_text(encoding="utf-8")),
}
WRONG_TYPES = [5, 2.5, True, ["x", 1], {"id": "x"}, [[]], {}]
QUESTIONS = [(book, q) for book in ("mpbs", "t9a") for q in book_engine(book).QUESTIONS]
PARAMS = [(book, q, p) for book, q in QUESTIONS for p in book_engine(book).PARAMS[q]]


def problems(book, question, params) -> list[tuple[str, str]]:
    with pytest.raises(InvalidScenarioError) as caught:
        ask(book, question, SCENARIOS[book], params)
    return caught.value.problems


def test_every_question_declares_its_parameters():
    for book, question in QUESTIONS:
        assert question in book_engine(book).PARAMS


@pytest.mark.parametrize("book, question, param", PARAMS, ids=[f"{b}-{q}-{p.name}" for b, q, p in PARAMS])
@pytest.mark.parametrize("value", WRONG_TYPES, ids=[json.dumps(v) for v in WRONG_TYPES])
def test_a_wrongly_typed_value_is_refused_at_its_path(book, question, param, value):
    if param.type == "units" and isinstance(value, list) and all(isinstance(v, str) for v in value):
        pytest.skip("a list of strings is the right type for a list of units")
    found = problems(book, question, {param.name: value})
    assert f"params.{param.name}" in {path for path, _ in found}


def test_a_number_for_the_unit_of_reactions_is_refused_as_the_wrong_type():
    """#12: a wrongly typed params.unit for mpbs reactions was taken for an id ("no unit 7")."""
    for value, shown in ((7, "7"), (["CAV-1"], "['CAV-1']"), ({"unit": "CAV-1"}, "{'unit': 'CAV-1'}")):
        assert problems("mpbs", "reactions", {"unit": value}) == [("params.unit", f"{shown} is not a text")]


@pytest.mark.parametrize("params", [[], "unit=CAV-1", 3, [["unit", "CAV-1"]]])
@pytest.mark.parametrize("book, question", [("mpbs", "reactions"), ("t9a", "pursuit"), ("t9a", "can-charge")])
def test_parameters_that_are_not_an_object_are_refused(book, question, params):
    assert ("params", "the parameters are an object of names and values") in problems(book, question, params)


def test_pursuit_takes_no_parameters():
    assert [path for path, _ in problems("t9a", "pursuit", {"unit": "x"})] == ["params.unit"]
    ask("t9a", "pursuit", SCENARIOS["t9a"], {})
    ask("t9a", "pursuit", SCENARIOS["t9a"], None)  # no parameters given from Python


def test_text_forms_from_the_command_line_are_read():
    data = json.loads((ROOT / "fixtures/scenarios/mpbs/retreat.json").read_text(encoding="utf-8"))
    item = next(q for q in data["questions"] if "hexes" in q["params"])
    as_text = {k: str(v) if not isinstance(v, list) else ",".join(v) for k, v in item["params"].items()}
    assert ask("mpbs", "retreat", data, as_text).to_dict() == ask("mpbs", "retreat", data, item["params"]).to_dict()


@pytest.mark.parametrize("value, ok", [(1, True), (2, True), ("2", True), (2.0, True), (3, False), ("3", False),
                                       (True, False), (" 2", False), ("two", False)])
def test_hexes_to_retreat_is_one_or_two(value, ok):
    data = json.loads((ROOT / "fixtures/scenarios/mpbs/retreat.json").read_text(encoding="utf-8"))
    item = next(q for q in data["questions"] if "hexes" in q["params"])
    params = {**item["params"], "hexes": value}
    if ok:
        ask("mpbs", "retreat", data, params)
    else:
        with pytest.raises(InvalidScenarioError) as caught:
            ask("mpbs", "retreat", data, params)
        assert [path for path, _ in caught.value.problems] == ["params.hexes"]


@pytest.mark.parametrize("book, question", QUESTIONS)
def test_the_schema_is_a_json_schema_of_the_declared_parameters(book, question):
    schema = params_schema(book, question)
    jsonschema.Draft202012Validator.check_schema(schema)
    declared = book_engine(book).PARAMS[question]
    assert set(schema["properties"]) == {p.name for p in declared}
    assert set(schema.get("required", [])) == {p.name for p in declared if p.required}
    assert schema["additionalProperties"] is False
    for p in declared:
        described = json.dumps(schema["properties"][p.name])
        assert schema["properties"][p.name]["description"]
        assert all(f'"{c}"' in described for c in p.choices)


def _value_strategy(book):
    data = SCENARIOS[book]
    ids = [u["id"] for u in data["units"]] + [w["id"] for w in data.get("wings", [])]
    words = ids + ["charge", "rally", "broken", "shaken", "eliminated", "attacker", "defender", "N", "NE", "S", "ne",
                   "0406", "0101", "9999", "1", "2", "3", ""]
    scalar = st.one_of(st.sampled_from(words), st.integers(-3, 5), st.floats(allow_nan=False, width=16),
                       st.booleans(), st.none(), st.text(max_size=5))
    return st.one_of(scalar, st.lists(scalar, max_size=3), st.dictionaries(st.text(max_size=3), scalar, max_size=2),
                     st.lists(st.sampled_from(ids), min_size=1, max_size=3).map(",".join))


@pytest.mark.parametrize("book, question", QUESTIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_what_the_engine_accepts_the_schema_accepts(book, question, data):
    declared = book_engine(book).PARAMS[question]
    names = [p.name for p in declared] + ["colour"]
    params = data.draw(st.dictionaries(st.sampled_from(names), _value_strategy(book), max_size=4))
    schema = params_schema(book, question)
    try:
        ask(book, question, SCENARIOS[book], params)
    except InvalidScenarioError as exc:
        assert all(path == "params" or path.startswith("params.") for path, _ in exc.problems), exc.problems
        return
    jsonschema.validate(params, schema)
