"""The offline copy's addresses: the service worker, the manifest, the version check, a copy's size and bundle,
its search index, the offline scripts' strings, and the two pages shown offline for what cannot be read."""
from __future__ import annotations

import gzip
import hashlib
import json

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from rulesref.languages import current_language
from rulesref.reference.models import Book

from . import bundle as bundles
from . import index as offline_index
from .manifest import web_app_manifest
from .revision import revision
from .strings import strings as offline_strings

RETRY_SECONDS = 15  # how soon a copy being prepared is asked for again


def _json(data, request=None, cache_control="no-cache", status=200) -> HttpResponse:
    """JSON with an ETag, so a repeated check costs a 304 and no body."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
    if request is not None and request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json", status=status)
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    return response


def worker_config() -> dict:
    """What the service worker must know of the site's addresses, all taken from the URLconf."""
    never = [reverse("admin:index"), "/api/"]
    per_language = {}
    for lang in bundles.LANGUAGES:
        with translation.override(lang):
            never += [reverse("translation:index"), reverse("login"), reverse("logout")]
            per_language[lang] = {
                "checker": reverse("checker:index"), "search": reverse("reference:search"),
                "unavailable": reverse("offline_pages:unavailable"), "checkerPage": reverse("offline_pages:checker"),
                "strings": reverse("offline_pages:strings"),
            }
    never.append(reverse("offline:versions").rsplit("/", 1)[0] + "/")  # the copies and the check: network only
    precache = [static(name) for name in ("rulesref/site.css", "rulesref/site.js", "django_htmx/htmx-2.min.js",
                                          "offline/offline.css", "offline/offline.js", "offline/stem.js",
                                          "offline/search.js")]
    for lang in per_language.values():
        precache += [lang["unavailable"], lang["checkerPage"], lang["strings"]]
    return {"build": bundles.fingerprint(), "languages": per_language, "default": settings.LANGUAGE_CODE, "never": never,
            "versions": reverse("offline:versions"), "precache": precache}


@require_safe
def service_worker(request):
    """/sw.js: the worker's script (static/offline/sw.js) after its configuration, served from the site root so
    its scope is the whole site."""
    source = bundles.static_bytes(static("offline/sw.js"))
    if source is None:
        raise Http404("the service worker's script is missing")
    config = json.dumps(worker_config(), ensure_ascii=False, separators=(",", ":"))
    body = f"self.RULESREF_OFFLINE = {config};\n".encode("utf-8") + source
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request):
    response = _json(web_app_manifest(current_language()), request, cache_control="public, max-age=3600")
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
def versions(request):
    """The one small version check: every rulebook's revision and offline token."""
    data = {"books": {book.slug: {"revision": revision(book), "token": offline_index.token(book),
                                  "title": {lang: book.title(lang) for lang in bundles.LANGUAGES},
                                  "info": reverse("offline:info", args=[book.slug])}
                      for book in Book.objects.all()}}
    return _json(data, request)


def _preparing(book: Book) -> HttpResponse:
    """The answer while a book's copy is not stored yet (being built after a change, or never built): nothing
    is built for the reader, who is told to ask again."""
    response = _json({"error": _("The offline copy of this rulebook is being prepared: try again in a minute."),
                      "book": book.slug, "preparing": True, "retry": RETRY_SECONDS}, status=503)
    response["Retry-After"] = str(RETRY_SECONDS)
    return response


@require_safe
def info(request, book):
    """A rulebook's offline copy before it is fetched: its revision, its size to download and its address; or,
    while the copy of the current content is not stored yet, ``"preparing": true`` and when to ask again."""
    book_obj = get_object_or_404(Book, slug=book)
    if bundles.too_large(book_obj):  # a state of the book, not an error: the contents page offers no copy
        return _json({"book": book_obj.slug, "revision": revision(book_obj), "tooLarge": True,
                      "sections": bundles.sections(book_obj), "limit": settings.RULESREF_OFFLINE_MAX_SECTIONS},
                     request)
    built = bundles.stored(book_obj)
    if built is None:  # a state of the copy, not an error: the contents page says so and asks again
        response = _json({"book": book_obj.slug, "revision": revision(book_obj), "preparing": True,
                          "retry": RETRY_SECONDS}, request)
        response["Retry-After"] = str(RETRY_SECONDS)
        return response
    return _json({"book": book_obj.slug, "revision": built.revision, "token": built.token, "size": built.size,
                  "bytes": built.length, "entries": built.entries,
                  "url": reverse("offline:bundle", args=[book_obj.slug, built.token])}, request)


@require_safe
def bundle(request, book, copy_token):
    book_obj = get_object_or_404(Book, slug=book)
    current = offline_index.token(book_obj)
    if current is not None and copy_token != current:
        return _json({"error": _("This rulebook changed since its offline copy was measured: ask for it again."),
                      "token": current}, status=409)
    if bundles.too_large(book_obj):
        return _json({"error": _("This rulebook is too large to keep offline as a whole."), "book": book_obj.slug,
                      "tooLarge": True}, status=404)
    built = bundles.stored(book_obj, with_data=True)
    if built is None:
        return _preparing(book_obj)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response = HttpResponse(built.gzipped, content_type="application/json")
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(gzip.decompress(built.gzipped), content_type="application/json")
    response["Vary"] = "Accept-Encoding"
    response["Cache-Control"] = "no-cache"
    response["X-Uncompressed-Length"] = str(built.length)
    return response


@require_safe
def search_index(request, book):
    book_obj = get_object_or_404(Book, slug=book)
    data = offline_index.stored(book_obj)
    if data is None:
        return _preparing(book_obj)
    response = HttpResponse(data, content_type="application/json; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def strings(request):
    return _json(offline_strings(current_language()), request)


@require_safe
def unavailable(request):
    """Shown offline in place of a page that was not kept."""
    return render(request, "offline/unavailable.html", {"checker": False})


@require_safe
def checker(request):
    """Shown offline in place of every checker page: the checker asks the engine on the server."""
    return render(request, "offline/unavailable.html", {"checker": True})
