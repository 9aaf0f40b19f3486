"""Which revision of a rulebook an offline copy holds.

``revision`` is the one function that names it: the book's revision number (``Book.revision``, the latest
``BookRevision``: every load or approval that changed the book's text makes one, rulesref/reference/history.py).
``basis`` changes whenever anything shipped in the copy may have changed: the revision, the glossary (tooltips, the
glossary pages), the format of the search index. The copy's token (``index.token``) adds a digest of the content,
so a database that starts its versions again never passes old content off as current.
"""
from __future__ import annotations

from django.conf import settings

from rulesref.reference.glossary import glossary_digest as reference_glossary_digest
from rulesref.reference.models import Book

INDEX_FORMAT = 5  # 5: the published rulings (#32)


def revision(book: Book) -> int:
    """The revision number the reader is shown: "the offline copy of revision N"."""
    return book.revision


def basis(book: Book) -> str:
    return f"{book.version}-{glossary_digest(book.slug)}-{INDEX_FORMAT}"


def glossary_digest(slug: str) -> str:
    """A digest of the book's glossary file's content (the same on every server, unlike its modification time)."""
    return reference_glossary_digest(settings.FIXTURES_DIR, slug)
