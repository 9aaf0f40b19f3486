"""The JSON API: the same Ruling JSON as the command line, clear 4xx errors with paths, 413 over 1 MB, OpenAPI."""
from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from rulesref.checker import books, openapi

pytestmark = pytest.mark.django_db


def example_questions():
    for book in books.BOOKS:
        for slug, ex in sorted(books.examples(book).items()):
            for i, q in enumerate(ex.questions):
                yield pytest.param(book, slug, i, id=f"{book}/{slug}/{i}")


def post(client, url, body, content_type="application/json"):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type=content_type)


@pytest.mark.parametrize("book,slug,index", list(example_questions()))
def test_same_ruling_as_the_command_line(client, tmp_path, book, slug, index):
    ex = books.example(book, slug)
    item = ex.questions[index]
    params = item.get("params") or {}
    response = post(client, f"/api/v1/{book}/rulings/{item['question']}?lang=ru",
                    {"scenario": ex.data, "params": params})
    assert response.status_code == 200, response.content  # every question an example asks is answered (no 501)
    out = io.StringIO()
    args = [book, item["question"], str(ex.path), "--lang", "ru"]
    for name, value in params.items():
        args += ["--param", f"{name}={','.join(value) if isinstance(value, list) else value}"]
    call_command("ruling", *args, stdout=out)
    assert response.json() == json.loads(out.getvalue())
    assert response["Content-Type"] == "application/json"


def test_interception_example_over_the_api(client):
    ex = books.example("mpbs", "interception-example-9.3")
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", {"scenario": ex.data, "params": {"unit": "CAV-1"}})
    body = r.json()
    assert r.status_code == 200
    assert body["verdict"] == "yes"
    assert body["question"] == "can-intercept"
    assert {f["clause"] for f in body["findings"]} >= {"mpbs:9.3.1a", "mpbs:9.3.1b", "mpbs:9.3.3"}
    assert [step["hexes"] for step in body["result"]["path"]][0] == ["0708"]


def test_invalid_scenario_lists_each_problem_by_its_path_in_the_body(client):
    ex = books.example("mpbs", "interception-example-9.3")
    scenario = json.loads(json.dumps(ex.data))
    scenario["units"][1]["facing"] = "UP"
    scenario["units"][0]["hexes"] = ["9999"]
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", {"scenario": scenario, "params": {"unit": "NOPE"}})
    assert r.status_code == 422
    paths = {p["path"] for p in r.json()["problems"]}
    assert "scenario.units[1].facing" in paths
    assert "scenario.units[0].hexes[0]" in paths
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", {"scenario": ex.data, "params": {"unit": "NOPE"}})
    assert r.status_code == 422
    assert [p["path"] for p in r.json()["problems"]] == ["params.unit"]
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", {"scenario": ex.data})
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "params.unit"


@pytest.mark.parametrize("body,status,words", [
    ("", 400, "empty"),
    ("{not json", 400, "not JSON"),
    ('{"scenario": NaN}', 400, "NaN"),
    (b"\xff\xfe", 400, "UTF-8"),
    ("[" * 100000 + "]" * 100000, 400, "JSON"),
    ("[]", 422, "object"),
    ('{"scenario": 3}', 422, "object"),
    ('{"scenario": {}, "params": [], "extra": 1}', 422, "unknown field"),
])
def test_bad_bodies_get_a_clear_4xx(client, body, status, words):
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", body)
    assert r.status_code == status
    assert words in json.dumps(r.json(), ensure_ascii=False)


def test_wrong_content_type_method_book_question_and_language(client):
    assert post(client, "/api/v1/mpbs/rulings/can-intercept", "{}", content_type="text/plain").status_code == 415
    r = client.get("/api/v1/mpbs/rulings/can-intercept")
    assert r.status_code == 405 and r["Allow"] == "POST"
    assert post(client, "/api/v1/chess/rulings/can-intercept", "{}").status_code == 404
    r = post(client, "/api/v1/mpbs/rulings/checkmate", "{}")
    assert r.status_code == 404 and "can-intercept" in r.json()["error"]
    r = post(client, "/api/v1/mpbs/rulings/can-intercept?lang=de", "{}")
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "query.lang"
    r = client.get("/api/v1/mpbs/rulings/")
    assert r.status_code == 404 and r["Content-Type"] == "application/json"


def test_bodies_over_one_megabyte_get_413_before_they_are_read(client):
    big = json.dumps({"scenario": {"book": "mpbs", "title": "x" * (1024 * 1024)}})
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", big)
    assert r.status_code == 413 and "1 MB" in r.json()["error"]


def test_a_body_just_under_the_limit_is_read(client):
    scenario = dict(books.example("mpbs", "interception-example-9.3").data)
    # The body grows with JSON whitespace: the scenario's own fields have limits of their own (a description of
    # at most 4,000 characters).
    text = json.dumps({"scenario": scenario, "params": {"unit": "CAV-1"}})
    body = text[:-1] + " " * (1024 * 1024 - 100 - len(text)) + "}"
    assert 1024 * 1024 - 200 < len(body) < 1024 * 1024
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", body)
    assert r.status_code == 200


def test_the_openapi_document_describes_every_question(client):
    r = client.get("/api/v1/openapi.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["openapi"].startswith("3.1")
    for book in books.BOOKS:
        for q in books.question_ids(book):
            op = doc["paths"][f"/api/v1/{book}/rulings/{q}"]["post"]
            assert {"200", "413", "422"} <= set(op["responses"])
            body = op["requestBody"]["content"]["application/json"]["schema"]
            assert body["properties"]["scenario"] == {"$ref": f"#/components/schemas/{book}.Scenario"}
    assert "#/$defs/" not in json.dumps(doc)  # every reference rewritten into components


def test_questions_and_schema_endpoints(client):
    r = client.get("/api/v1/mpbs/questions?lang=en")
    names = [q["question"] for q in r.json()["questions"]]
    assert "can-intercept" in names
    assert client.get("/api/v1/mpbs/scenario.schema.json").json()["title"]
    assert client.get("/api/v1/nope/questions").status_code == 404


def test_engine_bugs_are_reported_as_json_never_as_a_traceback(client, monkeypatch):
    from rulesref.checker import asking

    def boom(*args, **kwargs):
        raise ZeroDivisionError("x")

    monkeypatch.setattr(asking, "ask", boom)
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", {"scenario": {}, "params": {"unit": "CAV-1"}})
    assert r.status_code == 500 and "bug" in r.json()["error"]
    monkeypatch.setattr(asking, "ask", lambda *a, **k: (_ for _ in ()).throw(NotImplementedError("soon")))
    r = post(client, "/api/v1/mpbs/rulings/can-intercept", {"scenario": {}, "params": {"unit": "CAV-1"}})
    assert r.status_code == 501


def test_openapi_params_follow_the_engine():
    schema = openapi.request_schema("mpbs", "retreat")
    params = schema["properties"]["params"]
    assert set(params["required"]) >= {"unit", "result", "fought"}
    assert params["properties"]["result"]["enum"]
