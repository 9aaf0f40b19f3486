"""The OpenAPI 3.1 document of the JSON API, built from the engines' own contracts.

Each book's scenario schema (JSON Schema 2020-12, shipped by the engine) becomes components; each question gets its
own path, with a request schema whose ``params`` are generated from the engine's ``PARAMS``. The document is what
the fuzz test (tests/test_checker_api_fuzz.py) generates requests from and checks responses against.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.module_loading import import_string

from rulesref.engine import params_schema as engine_params_schema

from . import books

LANG_PARAMETER = {
    "name": "lang", "in": "query", "required": False,
    "description": "Language of the messages in the answer, and of the problems of a rejected scenario.",
    "schema": {"type": "string", "enum": list(books.LANGS), "default": "en"},
}

ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {"type": "string", "description": "What is wrong, in a sentence."},
        "problems": {
            "type": "array",
            "description": "Each problem of the input, by its path in the request body (scenario.units[0].facing, "
                           "params.unit, query.lang).",
            "items": {
                "type": "object", "required": ["path", "message"], "additionalProperties": False,
                "properties": {"path": {"type": "string"}, "message": {"type": "string"}},
            },
        },
        "problems_not_listed": {"type": "integer", "minimum": 1,
                                "description": "How many more problems there are than the first 200 listed."},
    },
}

RULING = {
    "type": "object",
    "required": ["question", "verdict", "findings", "result", "decided_under"],
    "additionalProperties": False,
    "properties": {
        "question": {"type": "string"},
        "verdict": {"type": "string", "enum": ["yes", "no", "undetermined"]},
        "findings": {
            "type": "array",
            "description": "One finding per rule clause checked, in the order the engine checked them.",
            "items": {
                "type": "object", "required": ["clause", "status", "message"], "additionalProperties": False,
                "properties": {
                    "clause": {"type": "string", "pattern": "^[a-z0-9]+:.+$", "description": "book:clause, as mpbs:9.3.1c"},
                    "status": {"type": "string", "enum": ["pass", "fail", "unknown"]},
                    "message": {"type": "string", "description": "in words for players, in the asked language"},
                    "field": {"type": "string", "description": "the scenario field a player may fill in to decide "
                              "what this finding leaves open, as moment.event.movement_trigger (when there is one)"},
                    "source": {"type": "string", "description": "where a value the rules text does not print comes "
                               "from: a table row's provenance, a document of the engine's interpretations"},
                },
            },
        },
        "result": {"type": "object", "description": "Question-specific data: hexes, paths, costs, chances."},
        "decided_under": {
            "type": "object", "required": ["book", "book_revision", "engine_version"], "additionalProperties": False,
            "description": "What the ruling was decided under: the rulebook's revision (its text then is at "
                           "/<lang>/rules/<book>/<section>/@<revision>/) and the engine's version.",
            "properties": {
                "book": {"type": "string"},
                "book_revision": {"type": ["integer", "null"], "minimum": 1,
                                  "description": "null when the rulebook's text is not loaded"},
                "engine_version": {"type": "string", "description": "release+digest of the engine's code"},
            },
        },
    },
}


def _errors(*codes: int) -> dict[str, Any]:
    text = {
        400: "The body is not JSON (or not UTF-8, or empty).",
        404: "No such rulebook or question.",
        405: "Wrong method.",
        413: "The body is over 1 MB.",
        415: "The body is not sent as application/json.",
        422: "The request, the scenario or the parameters are invalid (text that cannot be stored, a NUL character "
             "or a lone surrogate, included): every problem with its path.",
        429: "Too many requests from this client address: try again after the number of seconds in Retry-After.",
        500: "The engine failed on this input: a bug in rulesref, logged.",
        501: "The engine cannot answer this question yet.",
    }
    return {str(c): {"description": text[c], **({"headers": RETRY_AFTER} if c == 429 else {}),
                     "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            for c in codes}


RETRY_AFTER = {"Retry-After": {"description": "Seconds until the client may ask again.", "required": True,
                               "schema": {"type": "integer", "minimum": 1}}}


def _rewrite_refs(node: Any, prefix: str) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                out[key] = f"#/components/schemas/{prefix}.{value[len('#/$defs/'):]}"
            else:
                out[key] = _rewrite_refs(value, prefix)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(v, prefix) for v in node]
    return node


def scenario_components(book: str) -> dict[str, Any]:
    schema = copy.deepcopy(books.scenario_schema(book))
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id"):
        schema.pop(key, None)
    prefix = f"{book}"
    components = {f"{prefix}.{name}": _rewrite_refs(value, prefix) for name, value in defs.items()}
    components[f"{prefix}.Scenario"] = _rewrite_refs(schema, prefix)
    return components


def params_schema(book: str, question: str) -> dict[str, Any]:
    """The JSON Schema of a question's ``params`` object: what the API enforces and the document publishes. It is
    the engine's own (``rulesref.engine.params_schema``), built from the declaration the question checks against."""
    schema = dict(engine_params_schema(book, question))
    schema.pop("$schema", None)  # the document's dialect is JSON Schema 2020-12 already
    return schema


def request_schema(book: str, question: str) -> dict[str, Any]:
    params = params_schema(book, question)
    body: dict[str, Any] = {
        "type": "object",
        "required": ["scenario"] + (["params"] if "required" in params else []),
        "additionalProperties": False,
        "properties": {
            "scenario": {"$ref": f"#/components/schemas/{book}.Scenario"},
            "params": params,
        },
    }
    return body


def request_examples(book: str, question: str, limit: int = 3) -> dict[str, Any]:
    """Requests taken from the example scenarios that ask this question (at most ``limit``)."""
    found: dict[str, Any] = {}
    for slug, example in sorted(books.examples(book).items()):
        for item in example.questions:
            if item["question"] == question and len(found) < limit:
                scenario = {k: v for k, v in example.data.items() if k != "questions"}
                found[slug] = {"summary": slug, "value": {"scenario": scenario, "params": item.get("params") or {}}}
                break
    return {"examples": found} if found else {}


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {"Ruling": RULING, "Error": ERROR}
    for book in books.BOOKS:
        schemas.update(scenario_components(book))
        for question in books.question_ids(book):
            paths[f"/api/v1/{book}/rulings/{question}"] = {
                "post": {
                    "operationId": f"{book}.{question}",
                    "summary": f"{book}: {_en(books.QUESTION_LABELS.get(question, question))}",
                    "tags": [book],
                    "parameters": [LANG_PARAMETER],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": request_schema(book, question),
                                                         **request_examples(book, question)}},
                    },
                    "responses": {
                        "200": {"description": "The ruling: verdict, findings with their clauses, and the result.",
                                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ruling"}}}},
                        **_errors(400, 413, 415, 422, 429, 500, 501),
                    },
                },
            }
        paths[f"/api/v1/{book}/questions"] = {"get": {
            "operationId": f"{book}.questions", "summary": f"{book}: the questions and their parameters",
            "tags": [book], "parameters": [LANG_PARAMETER],
            "responses": {"200": {"description": "Questions with their parameters.",
                                  "content": {"application/json": {"schema": {"type": "object"}}}},
                          **_errors(422, 429)},
        }}
        paths[f"/api/v1/{book}/scenario.schema.json"] = {"get": {
            "operationId": f"{book}.schema", "summary": f"{book}: the JSON Schema of a scenario",
            "tags": [book],
            "responses": {"200": {"description": "JSON Schema 2020-12.",
                                  "content": {"application/json": {"schema": {"type": "object"}}}},
                          **_errors(429)},
        }}
    paths["/api/v1/openapi.json"] = {"get": {
        "operationId": "openapi", "summary": "This document",
        "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}},
                      **_errors(429)},
    }}
    document = {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "rulesref rules engine API",
            "version": "1.0.0",
            "description": (
                "Ask the rules engine a question about a scenario; the answer is the same Ruling JSON as "
                "`manage.py ruling`: a verdict (yes, no, undetermined), one finding per rule clause with its status, "
                "and question-specific results. Errors are JSON too, listing each problem by its path in the body; "
                "every address answers every method in JSON (405 with Allow for a method it does not take). "
                "Bodies are limited to 1 MB, and text that cannot be stored (NUL, lone surrogates) is refused "
                "with 422 at its path. Requests are rate-limited per client address (429 with Retry-After). "
                "Scenario formats: docs/scenario-format-mpbs.md, docs/scenario-format-t9a.md."
            ),
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }
    for extension in getattr(settings, "OPENAPI_EXTENSIONS", ()):  # other apps' APIs under /api/v1/ (the read API)
        import_string(extension)(document)
    return document


def _en(label) -> str:
    with translation.override("en"):
        return str(label)
