"""The JSON API: ``POST /api/v1/<book>/rulings/<question>`` answers with the same Ruling JSON as ``manage.py ruling``,
stating what it was decided under (``decided_under``: the book revision and the engine version).

Every answer is JSON, errors included, for every address under /api/ and every method (405 with ``Allow`` for a
method an address does not take): ``{"error": "...", "problems": [{"path": "scenario.units[0].facing",
"message": "..."}]}`` with paths into the request body (``scenario.…``, ``params.…``, ``query.lang``). Bodies over
1 MB get 413 before they are read; a body nested more than 64 levels deep gets 400, as a body that is not JSON does,
naming the path where it goes too deep (found before it is parsed: ``rulesref.security.text.check_depth``); text
that cannot be stored (NUL, lone surrogates) gets 422 at its path; the parameters are checked against the types the
OpenAPI document gives them (``openapi.params_schema``). No session, no cookie, no CSRF: the API is stateless. Rate
limits per client address: 429 with ``Retry-After`` (rulesref.security).
"""
from __future__ import annotations

from functools import lru_cache, wraps
from typing import Any

import jsonschema
from django.http import JsonResponse
from django.utils import translation
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import csrf_exempt

from rulesref.engine import InvalidScenarioError
from rulesref.engine.i18n import Message
from rulesref.engine.schema_messages import schema_message
from rulesref.security import text as storable

from . import asking, books, openapi
from .decided import stamped

MAX_BODY = 1024 * 1024  # 1 MB: the size of the biggest scenario a player could mean, many times over
JSON_TYPES = ("application/json",)
MAX_PROBLEMS = 200  # problems listed in one answer; a body with 100,000 wrong items gets the first ones and a count


def error(status: int, message: str, problems: list[tuple[str, str]] | None = None, **headers: str) -> JsonResponse:
    body: dict[str, Any] = {"error": message}
    if problems is not None:
        body["problems"] = [{"path": p, "message": m} for p, m in problems[:MAX_PROBLEMS]]
        if len(problems) > MAX_PROBLEMS:
            body["problems_not_listed"] = len(problems) - MAX_PROBLEMS
    response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def api_view(*methods: str):
    """An API view: no CSRF (no cookies are read), and a JSON 405 with ``Allow`` for any other method."""
    allow = ", ".join(methods)

    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                return error(405, f"{request.method} is not allowed here; use {' or '.join(methods)}", Allow=allow)
            return view(request, *args, **kwargs)
        return wrapper
    return decorate


def _body_path(path: str) -> str:
    """An engine problem path as a path into the request body."""
    if path == "(root)" or not path:
        return "scenario"
    if path.startswith("params"):
        return path
    return f"scenario.{path}" if not path.startswith("[") else f"scenario{path}"


def read_json_body(request, lang: str = "en") -> tuple[Any, JsonResponse | None]:
    """The request's JSON body, or the error response that says what is wrong with it (problems in ``lang``)."""
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
    return _parse_body(text, lang)


def _parse_body(text: str, lang: str) -> tuple[Any, JsonResponse | None]:
    """The body's JSON, read as every JSON text from a user is (rulesref.security.text): nesting bounded before it is
    parsed, only strings that can be stored; or the error response (problems in ``lang``)."""
    try:
        with translation.override(lang):
            return storable.loads(text), None
    except storable.TooDeep as exc:
        return None, error(400, f"the body is not JSON that can be read: nested more than {exc.limit} levels deep",
                           [(exc.path, exc.message)])
    except storable.NotJSON as exc:
        where = f" at line {exc.line} column {exc.column}" if exc.line else ""
        return None, error(400, f"the body is not JSON: {exc.message}{where}")
    except storable.UnstorableText as exc:
        return None, error(422, "invalid request: text that cannot be stored", exc.problems)


@lru_cache(maxsize=64)
def _params_validator(book: str, question: str) -> jsonschema.protocols.Validator:
    schema = openapi.params_schema(book, question)
    return jsonschema.Draft202012Validator(schema, format_checker=None)


def _text(message, lang: str) -> str:
    return message.render(lang) if isinstance(message, Message) else str(message)


def params_problems(book: str, question: str, params: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    """Each parameter whose type is not the one the OpenAPI document gives it, at ``params.<name>``."""
    found = []
    for err in _params_validator(book, question).iter_errors(params):
        message = _text(schema_message(err), lang)
        if err.validator == "required":
            names = [n for n in err.validator_value if n not in params]
        elif err.validator == "additionalProperties":
            names = sorted(set(params) - set(err.schema.get("properties", {})))
        else:
            names = ["".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in err.absolute_path)[1:]]
        found += [(f"params.{name}" if name else "params", message) for name in names]
    return sorted(found)


@api_view("POST")
def ruling(request, book: str, question: str):
    refused = _unknown_route(book, question)
    if refused is not None:
        return refused
    lang = request.GET.get("lang", "en")
    if lang not in books.LANGS:
        return error(422, "invalid request", [("query.lang", f"{lang!r} is not one of en, ru")])
    body, problem = read_json_body(request, lang)
    if problem is None:
        problem = _invalid_request(book, question, body, lang)
    if problem is not None:
        return problem
    outcome = asking.run(book, question, body["scenario"], body.get("params", {}), lang=lang)
    if outcome.ok:
        answer = outcome.ruling.to_dict(lang, details=True)  # each finding's field and source, for scenario editors
        return JsonResponse(stamped(book, answer), json_dumps_params={"ensure_ascii": False})
    return _outcome_error(question, outcome)


def _unknown_route(book: str, question: str):
    """404 for a rulebook or a question that does not exist, naming those that do."""
    if not books.is_book(book):
        return error(404, f"no rulebook {book!r}; known: {', '.join(books.BOOKS)}")
    if question not in books.question_ids(book):
        return error(404, f"no question {question!r} for {book}; known: {', '.join(books.question_ids(book))}")
    return None


def _invalid_request(book: str, question: str, body: Any, lang: str):
    """422 for a body that is not {scenario, params}, or for parameters the question refuses: with the scenario's own
    problems too, so that one answer lists everything to mend."""
    problems = envelope_problems(body)
    if problems:
        return error(422, "invalid request", problems)
    problems = params_problems(book, question, body.get("params", {}), lang)
    if not problems:
        return None
    try:
        books.engine(book).load_scenario(body["scenario"])
    except InvalidScenarioError as exc:
        problems = [(_body_path(p), m) for p, m in exc.in_language(lang)] + problems
    except RecursionError:
        problems = [("scenario", "the scenario is nested too deeply")] + problems
    return error(422, "invalid scenario or parameters", problems)


def _outcome_error(question: str, outcome):
    """The error answer for an outcome that is not a ruling: the scenario refused (422), a question the book does not
    have (404), one its engine cannot answer yet (501), the engine failing (500)."""
    if outcome.kind == "invalid":
        return error(422, "invalid scenario or parameters", [(_body_path(p), m) for p, m in outcome.problems])
    if outcome.kind == "unknown":
        return error(404, outcome.message)
    if outcome.kind == "unavailable":
        return error(501, f"the engine cannot answer {question} yet: {outcome.message}")
    return error(500, outcome.message)


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
    if "params" in body and not isinstance(body["params"], dict):
        problems.append(("params", "must be a JSON object of parameter names and values (or left out)"))
    return problems


@api_view("GET", "HEAD")
@cache_control(max_age=300, public=True)
def openapi_document(request):
    return JsonResponse(openapi.document(), json_dumps_params={"ensure_ascii": False})


@api_view("GET", "HEAD")
@cache_control(max_age=300, public=True)
def book_questions(request, book: str):
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


@api_view("GET", "HEAD")
@cache_control(max_age=300, public=True)
def book_schema(request, book: str):
    if not books.is_book(book):
        return error(404, f"no rulebook {book!r}; known: {', '.join(books.BOOKS)}")
    return JsonResponse(books.scenario_schema(book), json_dumps_params={"ensure_ascii": False})


@csrf_exempt
def not_found(request, rest: str = ""):
    return error(404, f"no such API address: {request.path}; see /api/v1/openapi.json")
