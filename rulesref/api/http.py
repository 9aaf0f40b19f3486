"""What every answer of the read API shares: conditional GETs, caching, CORS and its errors.

- **Conditional and cached.** Each answer is a function of its address (path and query) and of the content it
  reads: the versions of the rulebooks (``Book.version``, bumped by every load, approval, edit and publication of a
  ruling) and their glossaries' digests. That stamp is read in one small query (``index.books``, shared with the
  rest of the request), so the ETag is known before anything is computed and a client that has the answer already
  gets 304 at the cost of that query. ``Last-Modified`` is the last change of the rulebooks' texts or rulings
  (read once per content version and process). Bodies are kept per stamp, in the process and in the shared cache
  when there is one (``CACHES["pages"]``), so an answer is computed once per content version whatever the traffic.
  ``Cache-Control: public, max-age=60``: clients and proxies may keep an answer a minute, then revalidate.
- **CORS for reading.** Every answer carries ``Access-Control-Allow-Origin: *`` (it holds nothing private: no
  cookie is read) and exposes its ETag and Last-Modified; ``OPTIONS`` answers a browser's preflight (a GET with
  ``If-None-Match`` needs one). Nothing but GET, HEAD and OPTIONS is accepted (405 with ``Allow``).
- **Errors** are the JSON of the rest of /api/ (rulesref/checker/api.py): ``{"error": …, "problems": [{"path":
  "query.lang", "message": …}]}``; rate limits are the edge's (group ``read-api`` of ``RULESREF_RATE_LIMITS``).
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timezone as dt_timezone
from functools import wraps
from typing import Any, Callable

from django.conf import settings
from django.core.cache import caches
from django.db.models import Max
from django.http import HttpResponse, JsonResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date, quote_etag
from django.views.decorators.csrf import csrf_exempt

from rulesref.checker.api import error
from rulesref.reference.glossary import glossary_digest
from rulesref.reference.index import books
from rulesref.reference.models import Book, BookRevision

API_FORMAT = 1  # bump when the shape of the answers changes: every ETag changes with it
MAX_AGE = 60
MAX_BODIES = 2048
SHARED_TIMEOUT = 24 * 3600
METHODS = ("GET", "HEAD", "OPTIONS")
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "ETag, Last-Modified, Retry-After",
}
PREFLIGHT = {
    **CORS,
    "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": "If-None-Match, If-Modified-Since, Accept, Accept-Language",
    "Access-Control-Max-Age": "86400",
}
LANGS = ("ru", "en")

_bodies: OrderedDict = OrderedDict()
_changed: dict[int, tuple[int, datetime]] = {}  # book id -> (its content version, its last change then)
_lock = threading.Lock()


class Invalid(Exception):
    """A request the API can read but not answer: ``problems`` by path (``query.lang``), answered 422."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__("; ".join(f"{p}: {m}" for p, m in problems))
        self.problems = problems


class Missing(Exception):
    """No such rulebook, section, revision or ruling: answered 404 with this message."""


@dataclass(frozen=True)
class Stamp:
    """What an answer depends on besides its address."""

    key: str
    last_modified: datetime | None


def clear() -> None:
    with _lock:
        _bodies.clear()
        _changed.clear()


def _book_changed(book: Book) -> datetime | None:
    """The last change of a book's text or rulings: read once per content version and process."""
    kept = _changed.get(book.pk)
    found = kept[1] if kept is not None and kept[0] == book.version else None
    if found is None:
        from rulesref.rulings.models import Ruling

        candidates = [BookRevision.objects.filter(book=book).aggregate(t=Max("created"))["t"],
                      Ruling.objects.filter(book=book).exclude(state=Ruling.State.DRAFT).aggregate(
                          t=Max("changed"))["t"]]
        found = max((c for c in candidates if c is not None), default=datetime(2000, 1, 1, tzinfo=dt_timezone.utc))
        with _lock:
            _changed[book.pk] = (book.version, found)
    return found


def stamp(request, book_slugs: list[str] | None = None) -> Stamp:
    """The stamp of the rulebooks an answer reads (all of them when ``book_slugs`` is None)."""
    known = books(request)
    chosen = [known[s] for s in book_slugs if s in known] if book_slugs is not None else list(known.values())
    parts = [f"{b.slug}:{b.version}:{glossary_digest(settings.FIXTURES_DIR, b.slug)}" for b in chosen]
    changed = [c for c in (_book_changed(b) for b in chosen) if c is not None]
    return Stamp(f"{API_FORMAT}|{'|'.join(parts)}", max(changed) if changed else None)


def _address(request) -> str:
    query = sorted((k, v) for k, values in request.GET.lists() for v in values)
    return f"{request.path}?{json.dumps(query, ensure_ascii=False)}"


def _etag(address: str, stamp_: Stamp) -> str:
    return quote_etag(hashlib.sha256(f"{address}#{stamp_.key}".encode("utf-8", "surrogatepass")).hexdigest()[:32])


def _shared():
    return caches["pages"] if "pages" in settings.CACHES else None


def _remember(key: str, body: bytes) -> None:
    with _lock:
        _bodies[key] = body
        _bodies.move_to_end(key)
        while len(_bodies) > MAX_BODIES:
            _bodies.popitem(last=False)
    shared = _shared()
    if shared is not None:
        shared.set("api:" + key, body, SHARED_TIMEOUT)


def _recall(key: str) -> bytes | None:
    body = _bodies.get(key)
    if body is None:
        shared = _shared()
        if shared is not None:
            body = shared.get("api:" + key)
            if body is not None:
                with _lock:
                    _bodies[key] = body
    return body


def _finish(response: HttpResponse, etag: str | None = None, last_modified: datetime | None = None) -> HttpResponse:
    for name, value in CORS.items():
        response[name] = value
    if etag:
        response["ETag"] = etag
    if last_modified is not None:
        response["Last-Modified"] = http_date(last_modified.timestamp())
    if response.status_code in (200, 304):
        response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    else:
        response["Cache-Control"] = "no-store"
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def read_view(books_of: Callable[..., list[str] | None]):
    """A read API view: ``view(request, **kwargs) -> dict`` becomes a cached, conditional JSON answer with CORS.
    ``books_of(**kwargs)`` names the rulebooks the answer reads (None: all of them)."""

    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, **kwargs):
            if request.method == "OPTIONS":
                response = HttpResponse(status=204)
                for name, value in PREFLIGHT.items():
                    response[name] = value
                response["Allow"] = ", ".join(METHODS)
                return response
            if request.method not in METHODS:
                return _finish(error(405, f"{request.method} is not allowed here; use GET",
                                     Allow=", ".join(METHODS)))
            slugs = books_of(**kwargs)
            if slugs is not None and not all(s in books(request) for s in slugs):
                return _finish(error(404, f"no rulebook {slugs[0]!r}; see /api/v1/books"))
            stamp_ = stamp(request, slugs)
            address = _address(request)
            etag = _etag(address, stamp_)
            response = get_conditional_response(request, etag=etag, last_modified=(
                int(stamp_.last_modified.timestamp()) if stamp_.last_modified else None))
            if response is not None:  # 304 (or 412 for a conditional write, which the API has none of)
                return _finish(response, etag, stamp_.last_modified)
            key = etag.strip('"')
            body = _recall(key)
            if body is None:
                try:
                    data = view(request, **kwargs)
                except Invalid as exc:
                    return _finish(error(422, "invalid request", exc.problems))
                except Missing as exc:
                    return _finish(error(404, str(exc)))
                body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
                _remember(key, body)
            return _finish(HttpResponse(body, content_type="application/json"), etag, stamp_.last_modified)

        return wrapper

    return decorate


# ---------------------------------------------------------------------------------------------------- parameters


def choice(request, name: str, choices: tuple[str, ...], default: str | None) -> str | None:
    value = request.GET.get(name)
    if value is None:
        return default
    if value not in choices:
        raise Invalid([(f"query.{name}", f"{value[:40]!r} is not one of {', '.join(choices)}")])
    return value


def integer(request, name: str, default: int | None, lowest: int, highest: int | None = None) -> int | None:
    raw = request.GET.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
        if str(value) != raw.strip() or raw != raw.strip():
            raise ValueError
    except ValueError:
        raise Invalid([(f"query.{name}", f"{raw[:40]!r} is not a whole number")]) from None
    if value < lowest or (highest is not None and value > highest):
        limit = f"from {lowest} to {highest}" if highest is not None else f"at least {lowest}"
        raise Invalid([(f"query.{name}", f"{value} is out of range: give a number {limit}")])
    return value


def absolute(request, path: str) -> str:
    return request.build_absolute_uri(path)


def absolute_links(request, html: str) -> str:
    """The site's own links in a piece of HTML made absolute, so it works wherever a client shows it."""
    origin = request.build_absolute_uri("/")
    return html.replace(' href="/', f' href="{origin}').replace(' data-href="/', f' data-href="{origin}')


def json_error(status: int, message: str, **headers: str) -> JsonResponse:
    return _finish(error(status, message, **headers))


def drop_nones(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v is not None}
