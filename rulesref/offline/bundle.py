"""A rulebook's offline copy in one response.

Every page a reader of the book can open — its contents, each section in both languages (single and side by side),
errata, glossary and term pages, the home and search pages, the pages shown offline for what is not kept — is
rendered by the site itself, exactly as an anonymous reader gets it, through Django's own request handler. The
CSS, JS and images those pages name, the search index and the offline scripts' strings come with it. One gzip
stream of all of them is far smaller than the pages one by one (they share their header, footer and tooltips).

Built when the content changes, never by a reader: when a load commits, when an approved translation or an admin
edit commits (``copies.py``), and by ``manage.py buildoffline``; stored in the database (``OfflineBundle``), so
every app server serves the same bytes. The pages are rendered for no particular host: the site's own absolute
addresses (alternate languages, the canonical address, link previews) name ``ORIGIN``, which the page that keeps
the copy replaces with its own origin.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import mimetypes
import posixpath
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.module_loading import import_string
from django.utils import timezone, translation

from rulesref.reference.glossary import book_glossary
from rulesref.reference.index import book_index
from rulesref.reference.models import Book, Section
from rulesref.reference.pagecache import NOT_CACHED

from . import index as offline_index
from .models import OfflineBundle
from .revision import revision

LANGUAGES = [code for code, _ in settings.LANGUAGES]
TEXT_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/manifest+json")
STATIC_RE = re.compile(r'"(%s[^"?#\s]+)"' % re.escape(settings.STATIC_URL))
CSS_URL_RE = re.compile(r"url\(\s*['\"]?([^'\")\s]+)['\"]?\s*\)")
ORIGIN_HOST = "offline-copy.invalid"  # .invalid: a name that can never be a real host (RFC 2606)
ORIGIN = f"https://{ORIGIN_HOST}"
_handler: WSGIHandler | None = None
_lock = threading.Lock()


@dataclass(frozen=True)
class Bundle:
    book: str
    revision: int
    token: str
    gzipped: bytes  # empty when only the copy's description was read
    size: int  # bytes to download
    length: int  # bytes before compression
    entries: int


def page_urls(book: Book) -> list[str]:
    """Every page of the book a reader can open, in both languages."""
    index = book_index(book)
    glossary = book_glossary(settings.FIXTURES_DIR, book.slug)
    urls = []
    for lang in LANGUAGES:
        with translation.override(lang):
            urls += [reverse("reference:home"), reverse("reference:search"),
                     reverse("offline_pages:unavailable"), reverse("offline_pages:checker"),
                     reverse("offline_pages:strings"),
                     reverse("reference:book", args=[book.slug]), reverse("reference:errata", args=[book.slug])]
            for sid in index.order:
                url = reverse("reference:section", args=[book.slug, sid])
                urls.append(url)
                if not index.entries[sid].absent:
                    urls.append(url + "?view=parallel")
            if glossary.terms:
                urls.append(reverse("reference:glossary", args=[book.slug]))
                urls += [reverse("reference:term", args=[book.slug, term.id]) for term in glossary.terms]
    urls.append(reverse("offline:index", args=[book.slug]))
    for path in getattr(settings, "OFFLINE_EXTRA_PAGES", ()):  # other apps' pages of the book (its rulings)
        urls += import_string(path)(book)
    return urls


def sections(book: Book) -> int:
    """The book's sections with a text (the contents page counts the same; each has four pages in a copy): counted
    by the database, since a write asks it after the content changed, before anything has read the new content."""
    return Section.objects.filter(book=book, absent=False).count()


def too_large(book: Book) -> bool:
    """Whether the book has more sections than a whole offline copy may hold (``RULESREF_OFFLINE_MAX_SECTIONS``):
    such a copy is never rendered, and the contents page says so."""
    return sections(book) > settings.RULESREF_OFFLINE_MAX_SECTIONS


def stored(book: Book, with_data: bool = False) -> Bundle | None:
    """The book's current copy as stored, or None when there is none for its current token (none built yet, or
    being rebuilt after a change). Only reads: a reader's request never builds a copy."""
    copy_token = offline_index.token(book)
    if copy_token is None:
        return None
    fields = ["token", "revision", "size", "length", "entries"] + (["gzipped"] if with_data else [])
    row = OfflineBundle.objects.filter(book=book, token=copy_token).values(*fields).first()
    if row is None:
        return None
    return Bundle(book=book.slug, revision=row["revision"], token=row["token"],
                  gzipped=bytes(row["gzipped"]) if with_data else b"", size=row["size"], length=row["length"],
                  entries=row["entries"])


def is_current(book: Book) -> bool:
    """Whether the stored copy is of the book's current content and of this deployment."""
    copy_token = offline_index.token(book)
    return copy_token is not None and OfflineBundle.objects.filter(
        book=book, token=copy_token, build=fingerprint()).exists()


def build(book: Book) -> Bundle:
    """Render the book's copy and store it (the writer's side: after a load, an approval, an admin edit, or
    ``buildoffline``). One build at a time in a process; two processes building the same copy store the same.
    A book too large for a copy (``too_large``) is refused with ValueError."""
    with _lock:
        book.refresh_from_db()
        if too_large(book):
            raise ValueError(f"{book.slug} has {sections(book)} sections, more than an offline copy holds "
                             f"(RULESREF_OFFLINE_MAX_SECTIONS={settings.RULESREF_OFFLINE_MAX_SECTIONS})")
        copy_token = offline_index.token(book) or offline_index.refresh(book)
        made = render(book, copy_token)
        values = {"token": made.token, "revision": made.revision, "build": fingerprint(), "gzipped": made.gzipped,
                  "size": made.size, "length": made.length, "entries": made.entries}
        with transaction.atomic():
            if not OfflineBundle.objects.filter(book=book).update(**values):
                try:
                    with transaction.atomic():
                        OfflineBundle.objects.create(book=book, **values)
                except IntegrityError:  # another process stored it meanwhile
                    OfflineBundle.objects.filter(book=book).update(**values)
        return made


def render(book: Book, copy_token: str) -> Bundle:
    entries = []
    seen_static: set[str] = set()
    with translation.override(translation.get_language()):  # the sub-requests activate their own languages
        for url in page_urls(book):
            response = _get(url)
            if response.status_code != 200:
                continue
            content_type = response.get("Content-Type", "text/html; charset=utf-8")
            body = response.content.decode("utf-8")
            entry = {"url": url, "type": content_type, "body": body}
            if f"/rules/{book.slug}/" in url or f"/glossary/{book.slug}/" in url:
                entry["rev"] = revision(book)  # the book's own pages: the kept copy knows their revision
            entries.append(entry)
            for path in STATIC_RE.findall(body):
                _add_static(path, entries, seen_static)
    data = json.dumps({"format": 1, "book": book.slug, "revision": revision(book), "token": copy_token,
                       "origin": ORIGIN, "made": timezone.now().isoformat(),
                       "index": reverse("offline:index", args=[book.slug]), "entries": entries},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    gzipped = gzip.compress(data, 9)
    return Bundle(book=book.slug, revision=revision(book), token=copy_token, gzipped=gzipped, size=len(gzipped),
                  length=len(data), entries=len(entries))


class _CopyRequest(WSGIRequest):
    """A request for the copy: of no particular host, so the site's absolute addresses name ORIGIN."""

    def get_host(self) -> str:
        return ORIGIN_HOST


def _get(url: str):
    """Render one page as an anonymous reader gets it (no cookies, a plain GET over HTTPS)."""
    global _handler
    if _handler is None:
        _handler = WSGIHandler()
    parts = urlsplit(url)
    environ = {
        "REQUEST_METHOD": "GET", "PATH_INFO": parts.path, "QUERY_STRING": parts.query, "SCRIPT_NAME": "",
        "SERVER_NAME": ORIGIN_HOST, "SERVER_PORT": "443", "HTTP_HOST": ORIGIN_HOST, "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(b""), "wsgi.url_scheme": "https", "wsgi.errors": io.StringIO(),
        "HTTP_ACCEPT": "text/html", NOT_CACHED: True,  # a page of the copy is no reader's: not into the page cache
    }
    return _handler.get_response(_CopyRequest(environ))


def _add_static(url: str, entries: list, seen: set[str]) -> None:
    if url in seen:
        return
    seen.add(url)
    content = static_bytes(url)
    if content is None:
        return
    content_type = mimetypes.guess_type(url)[0] or "application/octet-stream"
    if content_type.startswith(TEXT_TYPES):
        text = content.decode("utf-8")
        entries.append({"url": url, "type": f"{content_type}; charset=utf-8", "body": text})
        if content_type == "text/css":
            for ref in CSS_URL_RE.findall(text):
                if not ref.startswith(("data:", "http:", "https:", "//", "#")):
                    _add_static(posixpath.normpath(posixpath.join(posixpath.dirname(url), ref.split("?")[0])),
                                entries, seen)
    else:
        entries.append({"url": url, "type": content_type, "base64": base64.b64encode(content).decode("ascii")})


def static_bytes(url: str) -> bytes | None:
    """A static file's content by its URL (from the finders, as WhiteNoise serves them here, or the storage)."""
    if not url.startswith(settings.STATIC_URL):
        return None
    name = url[len(settings.STATIC_URL):]
    found = finders.find(name)
    if found:
        return Path(found).read_bytes()
    try:
        with staticfiles_storage.open(name) as handle:
            return handle.read()
    except (FileNotFoundError, OSError, ValueError):
        return None


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """Changes with the deployment's templates, static files and catalogs, which the pages in a bundle depend on.
    The compiled catalogs count, not only their sources: a copy rendered before ``catalogs compile`` has English
    on its Russian pages and must not pass for current once the catalogs are compiled."""
    digest = hashlib.sha1()
    roots = [settings.BASE_DIR / "rulesref", settings.BASE_DIR / "locale"]
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".html", ".css", ".js", ".po", ".mo", ".svg", ".png") and path.is_file():
                digest.update(str(path.relative_to(settings.BASE_DIR)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
