"""The web app manifest, in the reader's language: what makes the site installable as an app."""
from __future__ import annotations

from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _

from rulesref.reference.models import Book

THEME_COLOUR = "#7a2e1f"  # the header's colour (static/rulesref/site.css --accent)
BACKGROUND_COLOUR = "#fbfaf7"  # the page's (--paper)
ICONS = [("offline/icons/icon-192.png", "192x192", "image/png", "any"),
         ("offline/icons/icon-512.png", "512x512", "image/png", "any"),
         ("offline/icons/maskable-512.png", "512x512", "image/png", "maskable"),
         ("offline/icons/icon.svg", "any", "image/svg+xml", "any")]


def web_app_manifest(lang: str) -> dict:
    """Names in the reader's language, starting at that language's home; one app per language (its own id)."""
    return {
        "id": reverse("reference:home"),
        "name": _("rulesref: wargame rules in Russian and English"),
        "short_name": _("Rules"),
        "description": _("Wargame rulebooks in Russian and English, readable and searchable offline."),
        "lang": lang, "dir": "ltr",
        "start_url": reverse("reference:home"), "scope": "/",
        "display": "standalone", "theme_color": THEME_COLOUR, "background_color": BACKGROUND_COLOUR,
        "icons": [{"src": static(src), "sizes": sizes, "type": kind, "purpose": purpose}
                  for src, sizes, kind, purpose in ICONS],
        "shortcuts": [{"name": book.title(lang), "short_name": book.slug,
                       "url": reverse("reference:book", args=[book.slug])} for book in Book.objects.all()]
        + [{"name": _("Search the rules"), "url": reverse("reference:search")}],
    }
