"""The rulings in a rulebook's offline copy: its FAQ and every published ruling's page, beside its sections (whose
pages show the rulings under their clauses already), named by rulesref/offline/bundle.py through
``settings.OFFLINE_EXTRA_PAGES``; and the published rulings in the copy's search index (``index_rows``, a receiver
of rulesref.offline.index.index_extras), which the offline search finds as the site's search does (search.py).

The index's ``rulings`` (read by static/offline/search.js)::

    {"scanned": 200, "shown": 10,                       # search.SCANNED and search.SHOWN
     "rows": [{"n": 12, "l": "ru", "q": question, "a": answer, "s": [stem ids of its text], "qs": [… of the
               question], "c": [[section's place in "sections" or -1, "9.3.1", "f"], …], "u": {"ru": …, "en": …}}]}

one row per published text (a ruling translated has two), the newest ruling first, then by language: the order in
which the server's search reads them up to ``scanned`` (search._matching).
"""
from __future__ import annotations

import hashlib

from django.utils import translation

from rulesref.reference.models import Book

from .models import Ruling, RulingText
from .render import faq_url, ruling_url
from .search import SCANNED, SHOWN

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


def index_rows(sender, book: Book, order: dict[str, int], ids, **kwargs) -> dict:
    """The book's published rulings for its offline search index: each published text with its stems as the server's
    search matches them (``RulingText.search_stems``, and the question's as search.place reads it), the clauses it
    answers and its addresses. Two queries: the texts, and their rulings' citations."""
    from rulesref.reference.search_query import title_stems

    texts = (RulingText.objects.filter(ruling__book=book, ruling__state=Ruling.State.PUBLISHED)
             .exclude(published_question="").select_related("ruling").prefetch_related("ruling__citations")
             .order_by("-ruling__number", "language"))
    rows = []
    for text in texts:
        ruling = text.ruling
        rows.append({
            "n": ruling.number, "l": text.language, "q": text.published_question, "a": text.published_answer,
            "s": ids(text.search_stems.split()), "qs": ids(sorted(title_stems(text.published_question))),
            "c": [[order.get(c.sid, -1), c.sid, c.clause] for c in ruling.citations.all()],
            "u": {lang: ruling_url(lang, book.slug, ruling.number) for lang in LANGUAGES},
        })
    return {"rulings": {"scanned": SCANNED, "shown": SHOWN, "rows": rows}}
