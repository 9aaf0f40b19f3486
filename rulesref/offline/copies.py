"""When and where the offline copies are built: on the writer's side of every change of a rulebook's content, never
on a reader's request, and never inside a web request.

- ``book_loaded`` (``load_corpus``, so ``loadrules`` and ``quickstart``) and ``content_changed`` (sent by
  ``Book.bump_version``: an approved translation, an admin edit, any other write that marks the content changed):
  the search index is rebuilt at once, in the writer's transaction, so the copy's token changes with the content;
  the bundle is rendered once that transaction commits (it reads what was committed). A transaction rolled back
  builds nothing.
- ``post_migrate`` (every deployment runs ``migrate``): indexes of another basis (another index format, a
  glossary edited since) are rebuilt, and copies missing or rendered by an older deployment (other templates,
  static files or catalogs) rendered.
- ``manage.py buildoffline``: the same by hand, for every book or those named.

Rendering a copy renders every page of the book (seconds for a book of a few hundred sections, minutes for one of
thousands), so ``RULESREF_OFFLINE_COPIES`` says who pays for it when a change commits:

- ``background`` (the default): a change committed while serving a web request (an approval, an admin edit) is
  built by a builder process of its own (``manage.py buildoffline BOOK``, detached, its output appended to
  ``var/offline-builds.log``), so the request answers at once and no app server's worker renders a book. A process
  starts one builder per book at a time; changes committed while it runs are built by it, since a builder builds
  until the stored copy is of the current content. A change made by a command (``loadrules``, ``quickstart``,
  ``migrate``, a script) is built in its own process once it commits: the operator's command ends with the copy
  ready.
- ``inline``: every change is built in the writer's process once it commits, web requests included.
- ``off``: only ``buildoffline`` and ``migrate`` render (for a site that builds them in a job of its own).

Until a book's bundle is stored, its addresses answer 503 "being prepared" and the contents page says so, without
building anything. Builders of one book in several processes (app servers, a ``buildoffline`` run by hand) take a
lock per book and database (a PostgreSQL advisory lock, or a file lock next to a SQLite database): one renders, the
others leave it to that one, which looks again after it lets go of the lock.
"""
from __future__ import annotations

import contextvars
import hashlib
import logging
import os
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection, transaction

from rulesref.reference.models import Book

from . import bundle, index

try:
    import fcntl
except ImportError:  # Windows: no file locks, so builders in several processes may each render (the same copy)
    fcntl = None

log = logging.getLogger(__name__)
MAX_ROUNDS = 5  # builds in a row by one builder while changes keep committing; the next change's builder goes on
LOCK_SPACE = 0x72726F63  # the first key of rulesref's PostgreSQL advisory locks for the offline copies
_serving = contextvars.ContextVar("rulesref_serving_a_request", default=False)
_builders: dict[int, subprocess.Popen] = {}
_builders_lock = threading.Lock()


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
    index.refresh(book)
    how = mode()
    if how == "off":
        return
    pk = book.pk
    transaction.on_commit(lambda: build_inline(pk) if how == "inline" else start_builder(pk))


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
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_SPACE, book.pk])
            held = cursor.fetchone()[0]
        try:
            yield held
        finally:
            if held:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_SPACE, book.pk])
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


def lock_path(book: Book) -> Path:
    """The file whose lock stands for the book's build on a SQLite database (one per database file)."""
    database = hashlib.sha256(str(connection.settings_dict["NAME"]).encode()).hexdigest()[:16]
    return Path(settings.VAR_DIR) / "locks" / f"offline-{database}-{book.pk}.lock"


def start_builder(pk: int) -> subprocess.Popen | None:
    """Start a builder process for the book's copy, unless one this process started is still running (it builds
    until the copy is current, so it takes this change too). Never raises: the change has committed."""
    book = Book.objects.filter(pk=pk).first()
    if book is None:
        return None
    with _builders_lock:
        running = _builders.get(pk)
        if running is not None and running.poll() is None:
            return running
        try:
            with open(Path(settings.VAR_DIR) / "offline-builds.log", "ab") as output:
                process = subprocess.Popen(
                    [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "buildoffline", "--", book.slug],
                    cwd=settings.BASE_DIR, env=builder_environment(), stdin=subprocess.DEVNULL, stdout=output,
                    stderr=subprocess.STDOUT, start_new_session=True)
        except OSError:
            log.exception("no builder could be started for the offline copy of %s", book.slug)
            return None
        _builders[pk] = process
        return process


def builder_environment() -> dict[str, str]:
    """This process's environment for a builder, naming the database and the files this process uses (a test's
    database, fixtures or var directory are not the configured ones)."""
    env = dict(os.environ)
    env["DATABASE_URL"] = database_url(connection.settings_dict)
    env["RULESREF_FIXTURES_DIR"] = str(settings.FIXTURES_DIR)
    env["RULESREF_VAR_DIR"] = str(settings.VAR_DIR)
    env["RULESREF_OFFLINE_COPIES"] = "inline"
    env.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    return env


def database_url(db: dict) -> str:
    """The DATABASE_URL (dj-database-url's form) of a connection's settings: the configured one, when it names
    this database, keeps every option it gives."""
    import dj_database_url

    given = os.environ.get("DATABASE_URL")
    if given and dj_database_url.parse(given).get("NAME") == db["NAME"]:
        return given
    if db["ENGINE"].endswith("sqlite3"):
        return "sqlite:///" + str(Path(db["NAME"]).resolve())
    user = quote(db.get("USER") or "", safe="")
    password = quote(str(db.get("PASSWORD") or ""), safe="")
    credentials = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{credentials}{quote(db.get('HOST') or '', safe='')}{port}/{quote(db['NAME'], safe='')}"


def after_migrate(sender, **kwargs) -> None:
    """Receiver of ``post_migrate`` for this app: the copies of loaded books that are missing (a release that
    brings this table) or were rendered by an older deployment are rendered."""
    if configured() == "off":
        return
    for book in Book.objects.filter(offline_index__isnull=False):
        build_inline(book.pk)
