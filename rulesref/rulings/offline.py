"""The rulings in a rulebook's offline copy: its FAQ and every published ruling's page, beside its sections (whose
pages show the rulings under their clauses already). Named by rulesref/offline/bundle.py through
``settings.OFFLINE_EXTRA_PAGES``."""
from __future__ import annotations

import hashlib

from django.utils import translation

from rulesref.reference.models import Book

from .models import Ruling
from .render import faq_url, ruling_url

LANGUAGES = ("ru", "en")


def page_urls(book: Book) -> list[str]:
    numbers = list(Ruling.objects.filter(book=book).exclude(state=Ruling.State.DRAFT).order_by("number")
                   .values_list("number", flat=True))
    urls = []
    for lang in LANGUAGES:
        with translation.override(lang):
            urls.append(faq_url(lang, book.slug))
            urls += [ruling_url(lang, book.slug, n) for n in numbers]
    return urls


def digest(book: Book) -> str:
    """What the rulings of the book a copy holds depend on (each public ruling's number, state and last change):
    part of the copy's token, so publishing, changing or withdrawing a ruling makes a kept copy out of date. One
    query of the book's public rulings, never of its sections."""
    rows = Ruling.objects.filter(book=book).exclude(state=Ruling.State.DRAFT).order_by("number").values_list(
        "number", "state", "changed")
    return hashlib.sha1(repr([(n, s, c.isoformat()) for n, s, c in rows]).encode()).hexdigest()[:12]
