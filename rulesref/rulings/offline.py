"""The rulings in a rulebook's offline copy: its FAQ and every published ruling's page, beside its sections (whose
pages show the rulings under their clauses already). Named by rulesref/offline/bundle.py through
``settings.OFFLINE_EXTRA_PAGES``."""
from __future__ import annotations

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
