"""When and where the offline copies are built: on the writer's side of every change of a rulebook's content, never
on a reader's request, and never inside a web request.

- ``book_loaded`` (``load_corpus``, so ``loadrules`` and ``quickstart``) and ``content_changed`` (sent by
  ``Book.bump_version``: an approved translation, an admin edit, any other write that marks the content changed).
  A command's change (a load) rebuilds the search index at once, in the writer's transaction, so the copy's token
  changes with the content, and renders the bundle once that transaction commits (it reads what was committed).
  A web request's change does neither: its transaction costs what the change costs, whatever the book's size, and
  the copy is made by a task. A transaction rolled back builds nothing.
- ``post_migrate`` (every deployment runs ``migrate``): indexes of another basis (another index format, a
  glossary edited since) are rebuilt, and copies missing or rendered by an older deployment (other templates,
  static files or catalogs) rendered.
- ``manage.py buildoffline``: the same by hand, for every book or those named.

Rendering a copy renders every page of the book (seconds for a book of a few hundred sections, minutes for one of
thousands), so ``RULESREF_OFFLINE_COPIES`` says who pays for it when a change commits:

- ``background`` (the default): a change committed while serving a web request (an approval, an admin edit)
  queues :data:`build_copy` (rulesref/background.py: a worker process runs it, retried if it fails), so the
  request answers at once and no app server's worker renders a book. One task waits per book at most: changes
  committed before it starts are built by it, since it builds until the stored copy is of the current content.
  A change made by a command (``loadrules``, ``quickstart``, ``migrate``, a script) is built in its own process
  once it commits: the operator's command ends with the copy ready.
- ``inline``: every change is built in the writer's process once it commits, web requests included.
- ``off``: only ``buildoffline`` and ``migrate`` render (for a site that builds them in a job of its own).

Until a book's bundle is stored, its addresses answer 503 "being prepared" and the contents page says so, without
building anything. Builders of one book in several processes (workers, a ``buildoffline`` run by hand) take a
lock per book and database (a PostgreSQL advisory lock, or a file lock next to a SQLite database): one renders, the
others leave it to that one, which looks again after it lets go of the lock.
"""
from __future__ import annotations

import contextvars
import hashlib
import logging
import zlib
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

from rulesref.background import after_commit, background_task
from rulesref.reference.models import Book

from . import bundle, index

try:
    import fcntl
except ImportError:  # Windows: no file locks, so builders in several processes may each render (the same copy)
    fcntl = None

log = logging.getLogger(__name__)
MAX_ROUNDS = 5  # builds in a row by one builder while changes keep committing; the next change's builder goes on
_serving = contextvars.ContextVar("rulesref_serving_a_request", default=False)


def configured() -> str:
    return settings.RULESREF_OFFLINE_COPIES


def mode() -> str:
    """How this process builds the copy of a change it commits now: "background", "inline" or "off"."""
    how = configured()
    return "inline" if how == "background" and not _serving.get() else how


class ServingRequests:
    """Middleware: what commits while a view runs is a web request's change. (Not the request signals: a request
    whose response is never closed, as a schema-fetching test tool's, would leave the flag set for the process.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        reset = _serving.set(True)
        try:
            return self.get_response(request)
        finally:
            _serving.reset(reset)


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
    load, a release with another index format), in a transaction opened only then. Returns whether it did."""
    if index.is_current(book):
        return False
    with transaction.atomic():
        index.refresh(book)
    return True


def changed(book: Book) -> None:
    if bundle.too_large(book):
        return  # no copy of it is offered, so neither its copy nor its index is kept (whatever its size costs)
    how = mode()
    if how == "background":
        after_commit(build_copy, book.pk)  # the task refreshes the index too: nothing of the book in this request
        return
    index.refresh(book)
    if how == "inline":
        pk = book.pk
        transaction.on_commit(lambda: build_inline(pk))


def build_inline(pk: int) -> bundle.Bundle | None:
    """Build the copy in this process after a committed write: a failure is logged, never raised (the write has
    committed and must not look undone; the copy stays "being prepared" until the next change, ``buildoffline`` or
    ``migrate``)."""
    try:
        return build_until_current(pk)
    except Exception:
        log.exception("the offline copy of book %s could not be built (manage.py buildoffline tries again)", pk)
        return None


def build_until_current(pk: int) -> bundle.Bundle | None:
    """Build the book's copy until the stored one is of its current content and of this deployment; returns the
    last copy built (None when none was needed, or another process holds the book's lock: that one builds it).
    Several changes committed together, or while a build ran, build once more, not once each."""
    made = None
    for _ in range(MAX_ROUNDS):
        book = Book.objects.filter(pk=pk).first()
        if book is None:
            return made
        with build_lock(book) as held:
            if not held:
                return made  # the holder looks again once it lets go, and finds this change
            refresh_if_stale(book)
            if bundle.is_current(book) or bundle.too_large(book):
                return made
            made = bundle.build(book)
    log.warning("the offline copy of %s changed %d times while it was built; the next change builds it again",
                pk, MAX_ROUNDS)
    return made


@contextmanager
def build_lock(book: Book):
    """Whether this process may build the book's copy now (yields True or False, never waits)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", lock_key(book))
            held = cursor.fetchone()[0]
        try:
            yield held
        finally:
            if held:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", lock_key(book))
        return
    path = lock_path(book)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        held = True
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held = False
        try:
            yield held
        finally:
            if held and fcntl is not None:
                fcntl.flock(handle, fcntl.LOCK_UN)


def lock_key(book: Book) -> list[int]:
    """The book's PostgreSQL advisory lock: its id, under a first key naming the database. Advisory locks belong to
    the whole server, so two sites (or a site and a test) on one server must not share keys for their books."""
    space = zlib.crc32(f"rulesref.offline:{connection.settings_dict['NAME']}".encode())
    return [space - 2 ** 32 if space >= 2 ** 31 else space, book.pk]  # the two-key form takes 32-bit integers


def lock_path(book: Book) -> Path:
    """The file whose lock stands for the book's build on a SQLite database (one per database file)."""
    database = hashlib.sha256(str(connection.settings_dict["NAME"]).encode()).hexdigest()[:16]
    return Path(settings.VAR_DIR) / "locks" / f"offline-{database}-{book.pk}.lock"


@background_task
def build_copy(book_pk: int) -> None:
    """The task of a change committed by a web request: the book's index and copy brought up to date (a failure is
    retried by the queue; the copy stays "being prepared" meanwhile)."""
    build_until_current(book_pk)


def after_migrate(sender, **kwargs) -> None:
    """Receiver of ``post_migrate`` for this app: the copies of loaded books that are missing (a release that
    brings this table) or were rendered by an older deployment are rendered."""
    if configured() == "off":
        return
    for book in Book.objects.filter(offline_index__isnull=False):
        build_inline(book.pk)
