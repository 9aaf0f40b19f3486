"""The edge's answers, in the form the client reads: JSON under ``/api/``, a notice for htmx, a page otherwise.

JSON answers have the API's shape (``{"error": …, "problems": [{"path": …, "message": …}]}``) in the language that
``?lang=`` asks for; pages and notices are in the reader's language.
"""
from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from .limits import RateLimited

API_PREFIX = "/api/"


def is_api(request) -> bool:
    return request.path_info.startswith(API_PREFIX) or request.path_info == API_PREFIX.rstrip("/")


def api_language(request) -> str:
    lang = request.GET.get("lang", "en")
    return lang if lang in ("en", "ru") else "en"


def refuse(request, status: int, title: str, message: str, problems=(), headers: dict | None = None,
           api_message=None):
    """An error answer. ``title``/``message`` are for people; ``api_message`` (a callable, so it is rendered in the
    API's language) replaces them in JSON."""
    if is_api(request):
        with translation.override(api_language(request)):
            body = {"error": api_message() if api_message else message}
            if problems:
                body["problems"] = [{"path": p, "message": m} for p, m in problems]
        response = JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})
    else:
        context = {"title": title, "message": message, "problems": list(problems)}
        if request.headers.get("HX-Request") == "true":
            response = render(request, "security/notice.html", context, status=status)
            response["HX-Retarget"] = "#edge-notice"  # base.html's slot: a new notice replaces the last one
            response["HX-Reswap"] = "innerHTML"
        else:
            response = render(request, "security/refused.html", context, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    response["Cache-Control"] = "no-store"
    if is_api(request) and request.method in ("GET", "HEAD", "OPTIONS"):
        response["Access-Control-Allow-Origin"] = "*"  # a page reading the API may read why it was refused
        response["Access-Control-Expose-Headers"] = "Retry-After"
    return response


def unstorable(request, problems: list[tuple[str, str]]):
    """400 for a page, 422 (the API's status for a request it can read but not accept) for the API."""
    return refuse(request, 422 if is_api(request) else 400, _("Text that cannot be stored"),
                  _("Some of what was sent holds characters that cannot be stored (a NUL character or a lone "
                    "surrogate). Remove them and send it again."),
                  problems, api_message=lambda: _("invalid request: text that cannot be stored"))


def too_many(request, exc: RateLimited):
    return refuse(request, 429, _("Too many requests"), exc.message(), headers={"Retry-After": str(exc.retry_after)},
                  api_message=lambda: _("too many requests: %(message)s") % {"message": exc.message()})


def json_for_api(request, response):
    """An HTML error that Django itself gave under /api/ (an unknown address, a bad Host header, …) as the API's
    JSON error: under /api/ an error in JSON stays JSON."""
    if not is_api(request) or response.status_code < 400 or response.get("Content-Type", "").startswith(
            "application/json"):
        return response
    if response.status_code == 404:
        message = f"no such API address: {request.path}; see /api/v1/openapi.json"
    else:
        message = f"{response.status_code} {response.reason_phrase}".lower()
    answer = refuse(request, response.status_code, message, message)
    for name in ("Allow", "Retry-After"):
        if name in response:
            answer[name] = response[name]
    return answer
