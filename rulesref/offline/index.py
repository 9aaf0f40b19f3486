"""The compact search index shipped with a rulebook's offline copy.

Built from the same rows and with the same stems as the server's search (``rulesref.reference.search``: one row per
section and language, every word reduced by PyStemmer's Snowball stemmer of its own script), so the offline search
finds what the server finds. The browser stems only the query, with ``static/offline/stem.js``, which is tested
to give PyStemmer's stem for every word of the corpus and glossaries and for a large list of other forms.

The JSON (``format`` 1)::

    {"format": 1, "book": "mpbs", "position": 0, "revision": 7,
     "title": {"ru": …, "en": …},
     "sections": [{"sid": "9.3.1", "number": "9.3.1", "depth": 3, "position": 12, "absent": false,
                   "parent": "9.3", "children": [...], "labels": {"ru": …, "en": …}, "titles": {…},
                   "urls": {"ru": …, "en": …}}],
     "stems": ["перехват", …],            # the book's stem vocabulary
     "rows": [{"s": 4, "l": "ru", "t": title, "b": body, "ts": [stem ids of the title], "bs": [… of the body]}],
     "words": {"ru": [...], "en": [...]}}   # the book's words, commonest first, for "did you mean"
"""
from __future__ import annotations

import hashlib
import json
import threading

from django.db import IntegrityError, transaction

from rulesref.reference.index import book_index
from rulesref.reference.models import Book, SearchWord, SectionText
from rulesref.reference.render import section_url
from rulesref.reference.searchindex import script_of, word_stems

from .models import OfflineIndex
from .revision import INDEX_FORMAT, basis, glossary_digest, revision

LANGUAGES = ("ru", "en")
_lock = threading.Lock()


def build_data(book: Book) -> dict:
    index = book_index(book)
    order = {sid: n for n, sid in enumerate(index.order)}
    sections = []
    for sid in index.order:
        entry = index.entries[sid]
        sections.append({
            "sid": sid, "number": entry.number, "depth": entry.depth, "position": entry.position,
            "absent": entry.absent, "parent": entry.parent, "children": entry.children,
            "labels": {lang: entry.label(lang) for lang in LANGUAGES}, "titles": entry.titles,
            "urls": {lang: section_url(lang, book.slug, sid) for lang in LANGUAGES},
        })
    stem_ids: dict[str, int] = {}

    def ids(text: str) -> list[int]:
        return [stem_ids.setdefault(stem, len(stem_ids)) for stem in word_stems(text)]

    rows = []
    texts = SectionText.objects.filter(section__book=book, section__absent=False).values_list(
        "section__sid", "language", "title", "body")
    for sid, lang, title, body in sorted(texts, key=lambda t: (order.get(t[0], 0), t[1])):
        if sid in order:
            rows.append({"s": order[sid], "l": lang, "t": title, "b": body, "ts": ids(title), "bs": ids(body)})
    words: dict[str, list[str]] = {lang: [] for lang in LANGUAGES}
    for word in SearchWord.objects.filter(book=book).order_by("-count", "word").values_list("word", flat=True):
        words[script_of(word)].append(word)  # the server's "did you mean" vocabulary, commonest first
    return {
        "format": INDEX_FORMAT, "book": book.slug, "position": book.position, "revision": revision(book),
        "title": {lang: book.title(lang) for lang in LANGUAGES},
        "sections": sections, "stems": list(stem_ids), "rows": rows, "words": words,
    }


def build(book: Book) -> tuple[str, str]:
    """Build and store the book's index; returns its digest and JSON."""
    data = json.dumps(build_data(book), ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha1((data + glossary_digest(book.slug)).encode("utf-8")).hexdigest()[:12]
    values = {"basis": basis(book), "digest": digest, "data": data}
    with transaction.atomic():
        if not OfflineIndex.objects.filter(book=book).update(**values):
            try:
                with transaction.atomic():
                    OfflineIndex.objects.create(book=book, **values)
            except IntegrityError:  # another process stored it meanwhile: ours is as current
                OfflineIndex.objects.filter(book=book).update(**values)
    return digest, data


def _current(book: Book, with_data: bool) -> tuple[str, str]:
    """(digest, JSON or "") of the book's index, rebuilt first if the content changed since it was built (an
    approved translation changes the content without a load)."""
    fields = ("basis", "digest", "data") if with_data else ("basis", "digest")
    row = OfflineIndex.objects.filter(book=book).values_list(*fields).first()
    if row and row[0] == basis(book):
        return row[1], row[2] if with_data else ""
    with _lock:
        return build(book)


def stored(book: Book) -> str:
    """The book's index as JSON."""
    return _current(book, with_data=True)[1]


def token(book: Book) -> str:
    """The token of the book's offline copy: its revision and a digest of its content. A kept copy whose token
    differs from the site's is out of date."""
    return f"{revision(book)}-{_current(book, with_data=False)[0]}"


def build_on_load(sender, book: Book, **kwargs) -> None:
    """Receiver of ``book_loaded``: the index is built in the load's own transaction."""
    build(book)
