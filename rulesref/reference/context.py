"""Template context every page needs: the rulebooks and the site's addresses for the header (computed once per
language and book), and this page's address in each language, absolute, for the language switch, the hreflang
alternates and the link-preview tags."""
from __future__ import annotations

from functools import lru_cache

from django.urls import reverse, translate_url
from django.utils import translation

from rulesref.languages import LANGUAGES, current_language, other_language

from .index import books
from .render import book_url
from .templatetags.rulebooks import short_title


@lru_cache(maxsize=16)
def site_urls(lang: str) -> dict[str, str]:
    with translation.override(lang):
        return {"home": reverse("reference:home"), "search": reverse("reference:search"),
                "checker": reverse("checker:index"), "login": reverse("login"), "logout": reverse("logout"),
                "translate": reverse("translation:index")}


def language_paths(request) -> dict[str, str]:
    """This page's path in each language. The site's patterns are the same in both languages after the prefix
    (none is translated), so the other one is the prefix swapped: django's translate_url resolved the path
    again, a good part of an uncached page."""
    lang = current_language()
    path = request.path
    paths = {lang: path}
    for other in LANGUAGES:
        if other != lang:
            paths[other] = f"/{other}/{path[len(lang) + 2:]}" if path.startswith(f"/{lang}/") else \
                translate_url(path, other)
    return paths


def _sources(found: dict) -> str:
    """The source language of every rulebook, when they share one ("ru", "en"), else "" (the footer then speaks of
    each rulebook's original)."""
    languages = {b.source_language for b in found.values()}
    return languages.pop() if len(languages) == 1 else ""


def site(request):
    lang = current_language()
    other = other_language(lang)
    query = f"?{request.GET.urlencode()}" if request.GET else ""
    paths = language_paths(request)
    return {
        "site_books": [(b.slug, short_title(b.title(lang)), book_url(lang, b.slug)) for b in books(request).values()],
        "site_sources": _sources(books(request)),
        "site_urls": site_urls(lang),
        "app_name": request.resolver_match.app_name if request.resolver_match else "",
        "other_language": other,
        "language_switch_url": paths[other] + query,
        "alternates": [(code, request.build_absolute_uri(paths[code]) + query) for code in LANGUAGES],
        "x_default": request.build_absolute_uri(paths["en"]) + query,
        "page_url": request.build_absolute_uri(request.path) + query,
    }
