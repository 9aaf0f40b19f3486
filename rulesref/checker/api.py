"""The JSON API: ``POST /api/v1/<book>/rulings/<question>`` answers with the same Ruling JSON as ``manage.py ruling``.

Every answer is JSON, errors included: ``{"error": "...", "problems": [{"path": "scenario.units[0].facing",
"message": "..."}]}`` with paths into the request body (``scenario.…``, ``params.…``, ``query.lang``). Bodies
over 1 MB get 413 before they are read. No session, no cookie, no CSRF: the API is stateless.
"""
from __future__ import annotations

import json
from typing import Any

from django.http import JsonResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt

from . import asking, books, openapi

MAX_BODY = 1024 * 1024  # 1 MB: the size of the biggest scenario a player could mean, many times over
JSON_TYPES = ("application/json",)


def error(status: int, message: str, problems: list[tuple[str, str]] | None = None, **headers: str) -> JsonResponse:
    body: dict[str, Any] = {"error": message}
    if problems is not None:
        body["problems"] = [{"path": p, "message": m} for p, m in problems]
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def _body_path(path: str) -> str:
    """An engine problem path as a path into the request body."""
    if path == "(root)" or not path:
        return "scenario"
    if path.startswith("params"):
        return path
    return f"scenario.{path}" if not path.startswith("[") else f"scenario{path}"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json_body(request) -> tuple[Any, JsonResponse | None]:
    """The request's JSON body, or the error response that says what is wrong with it."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None, error(400, "the Content-Length header is not a number")
    if length > MAX_BODY:
        return None, error(413, f"the body is {length} bytes; the limit is {MAX_BODY} bytes (1 MB)")
    raw = request.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        return None, error(413, f"the body is over the limit of {MAX_BODY} bytes (1 MB)")
    if not raw.strip():
        return None, error(400, 'the body is empty; send {"scenario": {...}, "params": {...}}')
    content_type = (request.content_type or "").split(";")[0].strip().lower()
    if content_type not in JSON_TYPES and not content_type.endswith("+json"):
        return None, error(415, f"send the body as application/json (got {content_type or 'no content type'})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, error(400, f"the body is not UTF-8 text (byte {exc.start})")
    if not text.strip():
        return None, error(400, 'the body is empty; send {"scenario": {...}, "params": {...}}')
    try:
        return json.loads(text, parse_constant=_reject_constant), None
    except json.JSONDecodeError as exc:
        return None, error(400, f"the body is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}")
    except (ValueError, RecursionError) as exc:
        message = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        return None, error(400, f"the body is not JSON: {message}")


@csrf_exempt
def ruling(request, book: str, question: str):
    if request.method != "POST":
        return error(405, "use POST with a JSON body", Allow="POST")
    if not books.is_book(book):
        return error(404, f"no rulebook {book!r}; known: {', '.join(books.BOOKS)}")
    if question not in books.question_ids(book):
        return error(404, f"no question {question!r} for {book}; known: {', '.join(books.question_ids(book))}")
    lang = request.GET.get("lang", "en")
    if lang not in books.LANGS:
        return error(422, "invalid request", [("query.lang", f"{lang!r} is not one of en, ru")])
    body, problem = read_json_body(request)
    if problem is not None:
        return problem
    problems = envelope_problems(body)
    if problems:
        return error(422, "invalid request", problems)
    outcome = asking.run(book, question, body["scenario"], body.get("params") or {}, lang=lang)
    if outcome.kind == "invalid":
        return error(422, "invalid scenario or parameters", [(_body_path(p), m) for p, m in outcome.problems])
    if outcome.kind == "unknown":
        return error(404, outcome.message)
    if outcome.kind == "unavailable":
        return error(501, f"the engine cannot answer {question} yet: {outcome.message}")
    if outcome.kind == "failed":
        return error(500, outcome.message)
    return JsonResponse(outcome.ruling.to_dict(lang), json_dumps_params={"ensure_ascii": False})


def envelope_problems(body: Any) -> list[tuple[str, str]]:
    if not isinstance(body, dict):
        return [("", 'the body must be a JSON object: {"scenario": {...}, "params": {...}}')]
    problems = []
    for key in body:
        if key not in ("scenario", "params"):
            problems.append((str(key), "unknown field; the body has scenario and params"))
    if "scenario" not in body:
        problems.append(("scenario", "required: the scenario to ask about"))
    elif not isinstance(body["scenario"], dict):
        problems.append(("scenario", "must be a JSON object"))
    if body.get("params") is not None and not isinstance(body["params"], dict):
        problems.append(("params", "must be a JSON object of parameter names and values"))
    return problems


@cache_control(max_age=300, public=True)
def openapi_document(request):
    if request.method not in ("GET", "HEAD"):
        return error(405, "use GET", Allow="GET, HEAD")
    return JsonResponse(openapi.document(), json_dumps_params={"ensure_ascii": False})


@cache_control(max_age=300, public=True)
def book_questions(request, book: str):
    if request.method not in ("GET", "HEAD"):
        return error(405, "use GET", Allow="GET, HEAD")
    if not books.is_book(book):
        return error(404, f"no rulebook {book!r}; known: {', '.join(books.BOOKS)}")
    lang = request.GET.get("lang", "en")
    if lang not in books.LANGS:
        return error(422, "invalid request", [("query.lang", f"{lang!r} is not one of en, ru")])
    return JsonResponse({
        "book": book,
        "questions": [{
            "question": q,
            "url": f"/api/v1/{book}/rulings/{q}",
            "params": [{"name": p.name, "type": p.type, "required": p.required,
                        **({"choices": list(p.choices)} if p.choices else {}),
                        "description": p.describe(lang) or p.describe("en")} for p in books.params(book, q)],
        } for q in books.question_ids(book)],
    }, json_dumps_params={"ensure_ascii": False})


@cache_control(max_age=300, public=True)
def book_schema(request, book: str):
    if request.method not in ("GET", "HEAD"):
        return error(405, "use GET", Allow="GET, HEAD")
    if not books.is_book(book):
        return error(404, f"no rulebook {book!r}; known: {', '.join(books.BOOKS)}")
    return JsonResponse(books.scenario_schema(book), json_dumps_params={"ensure_ascii": False})


def not_found(request, rest: str = ""):
    return error(404, f"no such API address: {request.path}; see /api/v1/openapi.json")
