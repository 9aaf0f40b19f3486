"""A cache of whole reference pages, keyed on the book's content version, kept compressed, shared by app servers.

A reference page is a function of its URL (scheme and host included: the page names its own absolute addresses, the
canonical link and the other language's), the language, whether htmx asked for a fragment, and the book's content;
``Book.version`` changes with every load or edit and is read from the database on every request, so a cached page is
never stale, on any app server. Only pages for anonymous readers are cached, only plain GETs, and only pages without
per-user content (no CSRF token, no cookie).

Two levels: each process keeps the pages it served (``MAX_PAGES``, least recently used out first), and when a
shared cache is configured (``CACHES["pages"]``: Redis when ``REDIS_URL`` is set) a page rendered by one app server
is served by every other. A page is stored plain and compressed in each encoding a client has asked for (brotli,
gzip), each made once per page (the first reader's encoding when the page is rendered, the other when a client
first asks for it), and served in the encoding the client accepts (``Vary: Accept-Encoding``), so a cached page
costs no compression per request. Such a page holds no secret, so compressing it exposes nothing to BREACH.
"""
from __future__ import annotations

import gzip
import hashlib
import re
import threading
from collections import OrderedDict
from functools import wraps

import brotli
from django.conf import settings
from django.core.cache import caches
from django.http import HttpResponse
from django.utils.cache import patch_vary_headers

from .glossary import glossary_stamp
from .index import books

MAX_PAGES = 4096
SHARED_TIMEOUT = 24 * 3600  # keys name the content version, so an old page is never served; this only frees space
CACHEABLE_PARAMS = {"view"}
ENCODINGS = ("br", "gzip")  # preferred first
_pages: OrderedDict = OrderedDict()
_lock = threading.Lock()


def clear() -> None:
    with _lock:
        _pages.clear()


def _shared():
    return caches["pages"] if "pages" in settings.CACHES else None


BOOK_PAGE_RE = re.compile(r"^/(?:en|ru)/(?:rules|glossary)/(?P<book>[A-Za-z0-9_-]+)/")
CODING_RE = re.compile(r"^\s*([\w*-]+)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


#: Set in a request's environ to keep its page out of the cache: the offline copy renders every page of a book for
#: a host that is no reader's, and would otherwise fill the shared cache with them.
NOT_CACHED = "rulesref.not_cached"


def _cacheable(request) -> bool:
    """Plain GETs by readers without a session (anonymous), with no query parameters but the known ones."""
    return (request.method == "GET" and settings.SESSION_COOKIE_NAME not in request.COOKIES
            and not set(request.GET) - CACHEABLE_PARAMS and not request.META.get(NOT_CACHED))


def _key(request, book: str):
    """The page's key, or None for a book that does not exist. It names the book's content version, read by
    ``index.books(request)``: one small query, kept on the request, so the middleware (looking the page up) and the
    view (rendering a page the cache lacks, then storing it) share it with everything else the view needs."""
    found = books(request).get(book)
    if found is None:
        return None
    version = (found.version, glossary_stamp(settings.FIXTURES_DIR, book))
    return (request.scheme, request.get_host(), request.get_full_path(), request.headers.get("HX-Request") == "true",
            book, version)


def _shared_key(key) -> str:
    return "page:" + hashlib.sha256(repr(key).encode()).hexdigest()


def accepted_encoding(header: str) -> str:
    """The best of ENCODINGS that an Accept-Encoding header allows (q above 0), or "" for the plain body."""
    allowed, refused = set(), set()
    for part in header.split(","):
        m = CODING_RE.match(part)
        if not m:
            continue
        name, q = m.group(1).lower(), m.group(2)
        try:
            weight = float(q) if q is not None else 1.0
        except ValueError:
            continue
        (allowed if weight > 0 else refused).add(name)
    for coding in ENCODINGS:
        if coding in allowed or ("*" in allowed and coding not in refused):
            return coding
    return ""


def _compress(coding: str, content: bytes) -> bytes:
    if coding == "br":
        return brotli.compress(content, quality=5)
    if coding == "gzip":
        return gzip.compress(content, 9, mtime=0)
    return content


def _entry(response, coding: str) -> tuple:
    """What is kept of a page: its type, the headers that matter, and its body plain and in the encoding the client
    that asked for it accepts (``coding``); the other encoding is added when a client first asks for it."""
    content = response.content
    headers = tuple((n, v) for n, v in response.items() if n.lower() in ("content-language", "vary", "link"))
    bodies = {"": content}
    if coding:
        bodies[coding] = _compress(coding, content)
    return response["Content-Type"], headers, bodies


def _encoded(entry, coding: str, key=None) -> bytes:
    """The page's body in ``coding``, compressed once per page and encoding: kept with the entry, and in the shared
    cache too (``key``) so the other app servers need not compress it again."""
    bodies = entry[2]
    body = bodies.get(coding)
    if body is None:
        body = bodies[coding] = _compress(coding, bodies[""])
        shared = _shared()
        if shared is not None and key is not None:
            shared.set(_shared_key(key), entry, SHARED_TIMEOUT)
    return body


def _encode(response, body: bytes, coding: str) -> None:
    if coding:
        response["Content-Encoding"] = coding
    response.content = body
    response["Content-Length"] = str(len(body))
    patch_vary_headers(response, ("Accept-Encoding",))


def _response(entry, request, key=None) -> HttpResponse:
    content_type, headers, _bodies = entry
    coding = accepted_encoding(request.headers.get("Accept-Encoding", ""))
    response = HttpResponse(content_type=content_type)
    for name, value in headers:
        response[name] = value
    _encode(response, _encoded(entry, coding, key), coding)
    return response


def _lookup(key):
    hit = _pages.get(key)
    if hit is None:
        shared = _shared()
        if shared is not None:
            hit = shared.get(_shared_key(key))
            if hit is not None:
                _remember(key, hit)
    return hit


def _remember(key, entry) -> None:
    with _lock:
        _pages[key] = entry
        _pages.move_to_end(key)
        while len(_pages) > MAX_PAGES:
            _pages.popitem(last=False)


class PageCacheMiddleware:
    """Serves cached reference pages before the rest of the middleware runs (placed right after WhiteNoise, before
    GZipMiddleware: a cached page is already compressed)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        match = BOOK_PAGE_RE.match(request.path_info)
        if match and _cacheable(request):
            key = _key(request, match.group("book"))
            hit = _lookup(key) if key else None
            if hit is not None:
                return _response(hit, request, key)
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
        hit = _lookup(key)
        if hit is not None:
            return _response(hit, request, key)
        response = view(request, book, *args, **kwargs)
        if response.status_code == 200 and not response.streaming and not response.cookies:
            coding = accepted_encoding(request.headers.get("Accept-Encoding", ""))
            entry = _entry(response, coding)
            _remember(key, entry)
            shared = _shared()
            if shared is not None:
                shared.set(_shared_key(key), entry, SHARED_TIMEOUT)
            # Sent compressed as it is kept: GZipMiddleware leaves a response with a Content-Encoding alone, so
            # the page is compressed once, not once for the cache and again for this client.
            _encode(response, entry[2][coding], coding)
        return response

    return wrapper
