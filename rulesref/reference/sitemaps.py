"""The sitemaps: ``/sitemap.xml`` is an index naming one file per rulebook (``/sitemap-book-<slug>.xml``, paged with
``?p=2``… when a book has more addresses than a file may hold) and one for the pages outside the rulebooks
(``/sitemap-site.xml``: the home page). Each file lists its pages in both languages, each with its alternate in the
other language and an x-default (the English page), as the pages' own hreflang links do; at most ``limit`` (the
protocol's 50,000) addresses a file.

A file is written once per content version: kept in Django's cache (compressed) under a key naming the book's
``version`` and glossary (and the host it was asked for, since its addresses are absolute), so a change of one book
rebuilds that book's files and the index, never the others'. Served with an ETag (the key's digest) and a
Last-Modified (when the file was written), a conditional GET of a file unchanged is answered 304. A file costs the
one query every reference page costs (the books' content versions, ``index.books``) once it is kept; writing it,
one or two more, whatever the book's size."""
from __future__ import annotations

import gzip
import hashlib
import re
import time
from html import escape
from typing import Callable, NamedTuple
from urllib.parse import quote

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.core.cache import caches
from django.core.paginator import EmptyPage
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date
from django.views.decorators.http import require_safe

from .glossary import book_glossary, glossary_stamp
from .index import books
from .models import Book, Section

LANGUAGES = ["ru", "en"]
X_DEFAULT = "en"  # the x-default alternate, as on the pages themselves (context.site)
CACHE_TIMEOUT = 24 * 3600  # keys name the content version, so a file is never stale: this only frees space
GZIP_LEVEL = 1  # an address list is so repetitive that the fastest level packs it 40-fold; 6 took thrice as long
UNQUOTED_RE = re.compile(r"[A-Za-z0-9._~!$&'()*+,;=:@-]+")
XML_SPECIAL_RE = re.compile(r"[&<>\"']")
XMLNS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
URLSET_START = (f'<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<urlset {XMLNS} xmlns:xhtml="http://www.w3.org/1999/xhtml">\n')
INDEX_START = f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex {XMLNS}>\n'
SECTION_MARK = "__section__"


class Address(NamedTuple):
    paths: dict[str, str]  # language -> the page's path in it
    priority: str


class ReferenceSitemap(Sitemap):
    """Pages in both languages, each with its alternates (Django's i18n sitemap: an address per page and language,
    so ``limit`` counts addresses)."""

    i18n = True
    alternates = True
    x_default = True
    languages = LANGUAGES
    limit = 50_000  # addresses a file holds at most (the sitemap protocol's limit); tests set it lower

    def location(self, item: Address) -> str:
        return item.paths[translation.get_language()]

    def priority(self, item: Address) -> str:
        return item.priority

    def _urls(self, page, protocol, domain):
        # Django drops the language prefix for x-default, which suits prefix_default_language=False; here every
        # address has its prefix, so x-default is the English page (as in the pages' own hreflang links).
        urls = super()._urls(page, protocol, domain)
        for url in urls:
            by_code = {a["lang_code"]: a for a in url["alternates"]}
            if "x-default" in by_code:
                by_code["x-default"]["location"] = by_code[X_DEFAULT]["location"]
        return urls

    def urlset(self, page: int, base: str) -> bytes:
        """Page ``page`` of the file as XML, ``base`` (scheme and host) before each path: the addresses Django's
        ``get_urls`` gives, written without its template and without switching the language three times an
        address (40,000 addresses in 0.2 s; Django's view took 7 s for one file of them all)."""
        out = [URLSET_START]
        last = None
        for item, lang in self.paginator.page(page).object_list:
            if item is not last:  # an item's addresses come together, one per language: their links are the same
                last = item
                locations = {code: _xml(base + path) for code, path in item.paths.items()}
                if self.x_default:
                    locations["x-default"] = locations[X_DEFAULT]
                links = "".join(f'<xhtml:link rel="alternate" hreflang="{code}" href="{location}"/>'
                                for code, location in locations.items())
            out.append(f"<url><loc>{locations[lang]}</loc><priority>{item.priority}</priority>{links}</url>\n")
        out.append("</urlset>\n")
        return "".join(out).encode()


def _xml(text: str) -> str:
    """Text as XML character data: escaped where it has something to escape (an address rarely has)."""
    return escape(text) if XML_SPECIAL_RE.search(text) else text


def _paths(name: str, **kwargs) -> dict[str, str]:
    paths = {}
    for lang in LANGUAGES:
        with translation.override(lang):
            paths[lang] = reverse(name, kwargs=kwargs)
    return paths


def _section_paths(slug: str) -> Callable[[str], dict[str, str]]:
    """A function giving a section's paths, as ``reverse`` gives them (the section quoted the same way) without
    resolving the pattern for each of 40,000 addresses."""
    around = {}
    for lang, path in _paths("reference:section", book=slug, section=SECTION_MARK).items():
        before, _, after = path.rpartition(SECTION_MARK)
        around[lang] = (before, after)

    def paths(sid: str) -> dict[str, str]:
        if "/" in sid or not sid:  # (no section id has one: reverse says what is wrong with it)
            return _paths("reference:section", book=slug, section=sid)
        # what reverse leaves unquoted (RFC 3986 sub-delims and these); an id of those alone (nearly every one) as it is
        quoted = sid if UNQUOTED_RE.fullmatch(sid) else quote(sid, safe="!$&'()*+,;=/~:@")
        return {lang: f"{before}{quoted}{after}" for lang, (before, after) in around.items()}

    return paths


class SiteSitemap(ReferenceSitemap):
    """The pages outside the rulebooks: the home page."""

    def items(self) -> list[Address]:
        return [Address(_paths("reference:home"), "1.0")]


class BookSitemap(ReferenceSitemap):
    """A rulebook's pages: its contents, errata, every section with a text, its glossary and terms (if it has a
    glossary)."""

    def __init__(self, book: Book):
        self.book = book

    def items(self) -> list[Address]:
        slug = self.book.slug
        out = [Address(_paths("reference:book", book=slug), "0.5"),
               Address(_paths("reference:errata", book=slug), "0.5")]
        section_paths = _section_paths(slug)
        sids = Section.objects.filter(book=self.book, absent=False).order_by("position").values_list("sid", flat=True)
        out += [Address(section_paths(sid), "0.8") for sid in sids]
        terms = book_glossary(settings.FIXTURES_DIR, slug).terms
        if terms:
            out.append(Address(_paths("reference:glossary", book=slug), "0.5"))
            out += [Address(_paths("reference:term", book=slug, term=t.id), "0.5") for t in terms]
        return out

    @staticmethod
    def count(book: Book, sections: int) -> int:
        """How many items ``items`` gives for a book with ``sections`` sections with a text (for the index)."""
        terms = len(book_glossary(settings.FIXTURES_DIR, book.slug).terms)
        return 2 + sections + (1 + terms if terms else 0)


def _pages(items: int, limit: int) -> int:
    """The files a sitemap of ``items`` items in both languages takes."""
    return max(1, -(-items * len(LANGUAGES) // limit))


# ---------------------------------------------------------------------------------------------- the views


def _base(request) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _where(request) -> tuple:
    """What a file's addresses depend on besides the content: scheme, host, script prefix and the limit."""
    return request.scheme, request.get_host(), get_script_prefix(), ReferenceSitemap.limit


def _book_key(book: Book) -> tuple:
    return book.pk, book.slug, book.version, glossary_stamp(settings.FIXTURES_DIR, book.slug)


@require_safe
def sitemap_index(request):
    """/sitemap.xml: the sitemap index, naming every page of every file."""
    found = list(books(request).values())
    key = ("index", _where(request), tuple(_book_key(b) for b in found))
    return _serve(request, key, ("index", _where(request)), lambda: _index_xml(request, found))


def _index_xml(request, found: list[Book]) -> bytes:
    counts = dict(Section.objects.filter(book__in=found, absent=False).order_by()
                  .values_list("book").annotate(n=Count("id")))
    limit, base = ReferenceSitemap.limit, _base(request)
    files = [("site", _pages(len(SiteSitemap().items()), limit))]
    files += [(f"book-{b.slug}", _pages(BookSitemap.count(b, counts.get(b.pk, 0)), limit)) for b in found]
    out = [INDEX_START]
    for section, pages in files:
        location = escape(base + reverse("sitemap_section", kwargs={"section": section}))
        out += [f"<sitemap><loc>{location}{f'?p={n}' if n > 1 else ''}</loc></sitemap>\n"
                for n in range(1, pages + 1)]
    out.append("</sitemapindex>\n")
    return "".join(out).encode()


@require_safe
def sitemap_file(request, section: str):
    """/sitemap-site.xml, /sitemap-book-<slug>.xml (``?p=N``: its page N)."""
    raw = request.GET.get("p", "1")
    if not raw.isascii() or not raw.isdigit():
        raise Http404("no such page of this sitemap")
    page = int(raw)
    if section == "site":
        sitemap, content = SiteSitemap(), ("site",)
    elif section.startswith("book-") and section[5:] in books(request):
        book = books(request)[section[5:]]
        sitemap, content = BookSitemap(book), ("book", *_book_key(book))
    else:
        raise Http404("no such sitemap")

    def build() -> bytes:
        try:
            return sitemap.urlset(page, _base(request))
        except EmptyPage:
            raise Http404("no such page of this sitemap") from None

    return _serve(request, (content, page, _where(request)), (content[:2], page, _where(request)), build)


def _serve(request, key: tuple, family: tuple, build: Callable[[], bytes]) -> HttpResponse:
    """The file ``key`` names, from the cache or written by ``build`` (and kept); 304 for a client that has it.
    ``family``: the same file in every content version, whose Last-Modified only ever moves on."""
    cache = caches["default"]
    name = "sitemap:" + hashlib.sha256(repr(key).encode()).hexdigest()
    entry = cache.get(name)
    if entry is None:
        body = gzip.compress(build(), GZIP_LEVEL, mtime=0)
        entry = (body, _last_modified(cache, family))
        cache.set(name, entry, CACHE_TIMEOUT)
    body, modified = entry
    etag = f'W/"{name[8:40]}"'
    response = get_conditional_response(request, etag=etag, last_modified=modified)  # 304, or None
    if response is None:
        gzipped = _accepts_gzip(request.headers.get("Accept-Encoding", ""))
        response = HttpResponse(body if gzipped else gzip.decompress(body), content_type="application/xml")
        if gzipped:
            response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    response["Cache-Control"] = "no-cache"  # may be kept, but asked again (a conditional GET: 304 if unchanged)
    response["X-Robots-Tag"] = "noindex, noodp, noarchive"  # (as Django's sitemap views send)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _last_modified(cache, family: tuple) -> int:
    """Now, in whole seconds, but always after the Last-Modified of the file's previous version: a file rewritten
    within the second its previous version was written must not look unmodified to an If-Modified-Since."""
    name = "sitemap-modified:" + hashlib.sha256(repr(family).encode()).hexdigest()
    modified = max(int(time.time()), (cache.get(name) or 0) + 1)
    cache.set(name, modified, None)
    return modified


def _accepts_gzip(header: str) -> bool:
    weights = {}
    for part in header.split(","):
        name, _, parameters = part.partition(";")
        weight = 1.0
        if parameters.strip().startswith("q="):
            try:
                weight = float(parameters.strip()[2:])
            except ValueError:
                continue
        weights[name.strip().lower()] = weight
    return weights.get("gzip", weights.get("*", 0)) > 0
