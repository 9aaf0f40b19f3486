"""The offline copy's tags in every page: the manifest and theme colour in the head, and the offline script."""
from functools import lru_cache

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from rulesref.reference.models import Book

from ..manifest import THEME_COLOUR
from ..revision import revision

register = template.Library()


@register.simple_tag
def offline_head() -> str:
    return _head(translation.get_language(), get_script_prefix())


@register.simple_tag(takes_context=True)
def offline_script(context) -> str:
    """The script that registers the service worker, with what it must know of this page: its rulebook and that
    rulebook's revision (an offline copy of the page says which revision it is), and whether the page was made
    for a signed-in user (such a page is never kept)."""
    book = context.get("book")
    user = context.get("user")
    slug, rev = (book.slug, revision(book)) if isinstance(book, Book) else ("", 0)
    private = user is not None and user.is_authenticated
    return _script(translation.get_language(), get_script_prefix(), slug, rev, private)


@register.inclusion_tag("offline/_keep.html")
def offline_keep(book: Book) -> dict:
    """The contents page's box for keeping the book offline, or, for a book too large for a whole copy, what the
    reader can do instead."""
    from .. import bundle

    return {"book": book, "too_large": bundle.too_large(book), "sections": bundle.sections(book),
            "limit": settings.RULESREF_OFFLINE_MAX_SECTIONS}


# Every page has both tags, and their addresses depend only on the language, the site's prefix and the book's
# revision: made once for each (eight reverse() and four static() calls were a tenth of a page's server time).
@lru_cache(maxsize=256)
def _head(language: str, prefix: str) -> str:
    return format_html(
        '<link rel="manifest" href="{}">\n<meta name="theme-color" content="{}">\n'
        '<link rel="apple-touch-icon" href="{}">\n<link rel="stylesheet" href="{}">',
        reverse("offline_pages:manifest"), THEME_COLOUR, static("offline/icons/icon-180.png"),
        static("offline/offline.css"))


@lru_cache(maxsize=256)
def _script(language: str, prefix: str, slug: str, rev: int, private: bool) -> str:
    attrs = {
        "data-sw": reverse("offline:service_worker"), "data-versions": reverse("offline:versions"),
        "data-strings": reverse("offline_pages:strings"), "data-search": reverse("reference:search"),
        "data-scripts": " ".join([static("offline/stem.js"), static("offline/search.js")]),
    }
    if slug:
        attrs.update({"data-book": slug, "data-revision": str(rev), "data-info": reverse("offline:info", args=[slug])})
    markup = mark_safe(" ".join(format_html('{}="{}"', name, value) for name, value in attrs.items()))
    return format_html('<script src="{}" defer {}{}></script>', static("offline/offline.js"), markup,
                       mark_safe(" data-rulesref-private") if private else "")
