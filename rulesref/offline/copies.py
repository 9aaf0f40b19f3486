"""When the offline copies are built: on the writer's side of every change of a rulebook's content, never on a
reader's request.

- ``book_loaded`` (``load_corpus``, so ``loadrules`` and ``quickstart``) and ``content_changed`` (sent by
  ``Book.bump_version``: an approved translation, an admin edit, any other write that marks the content changed):
  the search index is rebuilt at once, in the writer's transaction, so the copy's token changes with the content;
  the bundle is rendered when that transaction commits (it reads what was committed). A transaction rolled back
  builds nothing.
- ``post_migrate`` (every deployment runs ``migrate``): indexes of another basis (another index format, a
  glossary edited since) are rebuilt, and copies missing or rendered by an older deployment (other templates,
  static files or catalogs) rendered.
- ``manage.py buildoffline``: the same by hand, for every book or those named.

``RULESREF_OFFLINE_COPIES_ON_WRITE`` (default on) renders the bundles on commit; off, only ``buildoffline`` and
``migrate`` do (for a site that builds them in a job of its own). Until a book's bundle is stored, its addresses
answer 503 "being prepared" and the contents page says so, without building anything.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from rulesref.reference.models import Book

from . import bundle, index

log = logging.getLogger(__name__)


def on_write() -> bool:
    return getattr(settings, "RULESREF_OFFLINE_COPIES_ON_WRITE", True)


def content_changed(sender, book: Book, reason: str = "edit", **kwargs) -> None:
    """Receiver of ``content_changed``. A load is followed by ``book_loaded`` once its vocabulary is in: it
    waits for that."""
    if reason != "load":
        changed(book)


def book_loaded(sender, book: Book, **kwargs) -> None:
    """Receiver of ``book_loaded``."""
    changed(book)


def refresh_if_stale(book: Book) -> bool:
    """Rebuild the book's index if it is missing or was built from another basis (a glossary edited without a
    load, a release with another index format). Returns whether it did."""
    if index.is_current(book):
        return False
    index.refresh(book)
    return True


def changed(book: Book) -> None:
    index.refresh(book)
    if on_write():
        pk = book.pk
        transaction.on_commit(lambda: build_if_stale(pk))


def build_if_stale(pk: int) -> bool:
    """Render the book's bundle unless the stored one is already current (several changes committed together
    build once). Returns whether it rendered."""
    book = Book.objects.filter(pk=pk).first()
    if book is None or bundle.is_current(book):
        return False
    try:
        bundle.build(book)
    except Exception:  # the write has committed: a failed copy must not undo it; the copy stays "being prepared"
        log.exception("the offline copy of %s could not be built (manage.py buildoffline tries again)", book.slug)
        return False
    return True


def after_migrate(sender, **kwargs) -> None:
    """Receiver of ``post_migrate`` for this app: the copies of loaded books that are missing (a release that
    brings this table) or were rendered by an older deployment are rendered."""
    if not on_write():
        return
    for book in Book.objects.filter(offline_index__isnull=False):
        with transaction.atomic():
            refresh_if_stale(book)
        build_if_stale(book.pk)
