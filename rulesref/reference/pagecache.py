"""A per-process cache of whole reference pages, keyed on the book's content version.

A reference page is a function of its URL, the language, whether htmx asked for a fragment, and the book's content;
``Book.version`` changes with every load or edit, so a cached page is never stale, on any app server. Only pages
for anonymous readers are cached, only plain GETs, and only pages without per-user content (no CSRF token).
"""
from __future__ import annotations

import re
import threading
from collections import OrderedDict
from functools import wraps

from django.conf import settings
from django.db import connection
from django.http import HttpResponse

from .glossary import glossary_stamp
from .models import Book

MAX_PAGES = 4096
CACHEABLE_PARAMS = {"view"}
_pages: OrderedDict = OrderedDict()
_lock = threading.Lock()


def clear() -> None:
    with _lock:
        _pages.clear()


BOOK_PAGE_RE = re.compile(r"^/(?:en|ru)/(?:rules|glossary)/(?P<book>[A-Za-z0-9_-]+)/")


def _cacheable(request) -> bool:
    """Plain GETs by readers without a session (anonymous), with no query parameters but the known ones."""
    return (request.method == "GET" and settings.SESSION_COOKIE_NAME not in request.COOKIES
            and not set(request.GET) - CACHEABLE_PARAMS)


def _key(request, book: str):
    # On the hot path of every cached page: one indexed lookup without the ORM's query building.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {Book._meta.db_table} WHERE slug = %s", [book])
        row = cursor.fetchone()
    if row is None:
        return None
    version = (row[0], glossary_stamp(settings.FIXTURES_DIR, book))
    return (request.get_full_path(), request.headers.get("HX-Request") == "true", book, version)


def _response(hit) -> HttpResponse:
    content, content_type, headers = hit
    response = HttpResponse(content, content_type=content_type)
    for name, value in headers:
        response[name] = value
    return response


class PageCacheMiddleware:
    """Serves cached reference pages before the rest of the middleware runs (placed right after WhiteNoise)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        match = BOOK_PAGE_RE.match(request.path_info)
        if match and _cacheable(request):
            key = _key(request, match.group("book"))
            hit = _pages.get(key) if key else None
            if hit is not None:
                return _response(hit)
        return self.get_response(request)


def cached_page(view):
    """Store the view's page in the cache that PageCacheMiddleware serves from."""

    @wraps(view)
    def wrapper(request, book, *args, **kwargs):
        if not _cacheable(request) or request.user.is_authenticated:
            return view(request, book, *args, **kwargs)
        key = _key(request, book)
        if key is None:
            return view(request, book, *args, **kwargs)
        hit = _pages.get(key)
        if hit is not None:
            return _response(hit)
        response = view(request, book, *args, **kwargs)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            headers = [(n, v) for n, v in response.items() if n.lower() in ("content-language", "vary", "link")]
            with _lock:
                _pages[key] = (response.content, response["Content-Type"], headers)
                _pages.move_to_end(key)
                while len(_pages) > MAX_PAGES:
                    _pages.popitem(last=False)
        return response

    return wrapper
