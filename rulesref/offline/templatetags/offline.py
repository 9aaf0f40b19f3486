"""The offline copy's tags in every page: the manifest and theme colour in the head, and the offline script."""
from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from rulesref.reference.models import Book

from ..manifest import THEME_COLOUR
from ..revision import revision

register = template.Library()


@register.simple_tag
def offline_head() -> str:
    return format_html(
        '<link rel="manifest" href="{}">\n<meta name="theme-color" content="{}">\n'
        '<link rel="apple-touch-icon" href="{}">\n<link rel="stylesheet" href="{}">',
        reverse("offline_pages:manifest"), THEME_COLOUR, static("offline/icons/icon-180.png"),
        static("offline/offline.css"))


@register.simple_tag(takes_context=True)
def offline_script(context) -> str:
    """The script that registers the service worker, with what it must know of this page: its rulebook and that
    rulebook's revision (an offline copy of the page says which revision it is), and whether the page was made
    for a signed-in user (such a page is never kept)."""
    book = context.get("book")
    user = context.get("user")
    attrs = {
        "data-sw": reverse("offline:service_worker"), "data-versions": reverse("offline:versions"),
        "data-strings": reverse("offline_pages:strings"), "data-search": reverse("reference:search"),
        "data-scripts": " ".join([static("offline/stem.js"), static("offline/search.js")]),
    }
    if isinstance(book, Book):
        attrs.update({"data-book": book.slug, "data-revision": str(revision(book)),
                      "data-info": reverse("offline:info", args=[book.slug])})
    private = " data-rulesref-private" if user is not None and user.is_authenticated else ""
    markup = mark_safe(" ".join(format_html('{}="{}"', name, value) for name, value in attrs.items()))
    return format_html('<script src="{}" defer {}{}></script>', static("offline/offline.js"), markup, private)
