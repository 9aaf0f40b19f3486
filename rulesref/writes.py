"""How the site writes: one lock order per rulebook, and transactions run again when two writers cross.

**Lock order.** A transaction that changes a rulebook's content — an approval that publishes a text, an admin edit,
a load — locks the book's row first (:func:`lock_book`), and only then the rows of its sections, texts and
translations. The lock is PostgreSQL's ``FOR NO KEY UPDATE``: it does not conflict with the key-share locks that
rows referring to the book take as they are inserted (a text version, a search word), so those inserts never wait
for it and it never waits for them. Two writers of one book's content queue on its row; a save that does not
publish (a draft, a text for review) locks only its translation's row and never the book's, so no cycle of waits
can form between them. On SQLite every write transaction starts ``IMMEDIATE`` (settings), which serialises writers
outright.

**Retries.** Against writers outside that order PostgreSQL may still report a deadlock or a serialization failure,
and SQLite's busy timeout may run out. :func:`retrying` runs the whole transaction again a few times after a short
random pause; if it still cannot, it raises :class:`WriteConflict`, which the edge answers with 503 and
``Retry-After`` ("nothing was saved, send it again") — never a 500, and never half a write, since the transaction
rolled back as a whole.
"""
from __future__ import annotations

import logging
import random
import time
from typing import Callable, TypeVar

from django.db import OperationalError, connection, transaction

log = logging.getLogger(__name__)
T = TypeVar("T")

ATTEMPTS = 5
#: PostgreSQL's SQLSTATEs for "run the transaction again": deadlock_detected, serialization_failure,
#: lock_not_available.
TRANSIENT_STATES = frozenset({"40P01", "40001", "55P03"})
SQLITE_BUSY = ("database is locked", "database table is locked")


class WriteConflict(Exception):
    """A write that could not be made after :data:`ATTEMPTS` tries because other writers held what it needed.
    Nothing of it was stored."""


def transient(exc: BaseException) -> bool:
    """Whether the database refused the transaction only because another one was in its way."""
    cause = exc.__cause__ or exc
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if state in TRANSIENT_STATES:
        return True
    return isinstance(exc, OperationalError) and str(exc).startswith(SQLITE_BUSY)


def retrying(write: Callable[[], T], attempts: int = ATTEMPTS) -> T:
    """Run ``write`` (which opens its own transaction) again while the database refuses it as transient.

    Inside an enclosing transaction a retry cannot help (that transaction is already aborted): the write runs
    once and the outermost caller's own ``retrying`` runs it all again."""
    if connection.in_atomic_block:
        return write()
    for attempt in range(1, attempts + 1):
        try:
            return write()
        except OperationalError as exc:
            if not transient(exc):
                raise
            if attempt == attempts:
                raise WriteConflict(str(exc)) from exc
            log.info("write attempt %d of %d crossed another writer (%s): trying again", attempt, attempts, exc)
            time.sleep(random.uniform(0.005, 0.02 * 2 ** attempt))
    raise AssertionError("unreachable")


def lock_book(book_pk: int):
    """Take the book's row lock (the first lock of a content write); returns the locked row, fresh."""
    from rulesref.reference.models import Book

    if not connection.in_atomic_block:
        raise RuntimeError("lock_book() must run inside the write's transaction")
    return Book.objects.select_for_update(no_key=True).get(pk=book_pk)


def content_write(book_pk: int, write: Callable[..., T]) -> T:
    """``write(book)`` in a transaction of its own that holds the book's lock first, run again while the database
    refuses it as transient."""

    def attempt() -> T:
        with transaction.atomic():
            return write(lock_book(book_pk))

    return retrying(attempt)
