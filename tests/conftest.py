"""Shared test set-up.

- The message catalogs are compiled once, so pages can be tested in Russian, and the static files collected (with
  their compressed copies), which WhiteNoise serves as in production.
- The corpus is loaded once into the test database; tests run in transactions rolled back over it.
- Background tasks (rulesref/background.py) run in the test's process as the write commits.
- Tests that need a real service (Chromium, PostgreSQL) skip with a clear message when it is absent, and fail
  instead when RULESREF_REQUIRE_SERVICES=1 (CI sets it), so CI cannot pass by skipping them.
- CI runs the suite twice, on SQLite and on PostgreSQL (its PostgreSQL run sets RULESREF_CI_RUN=postgresql). The
  second run keeps only the tests that use the suite's database; the others (the engines, the grammars, the tests
  marked ``own_databases``, which start the sites and databases they test) would repeat the first run exactly.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from tests.browsing import refused_by_the_policy

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def pytest_configure(config):
    from django.conf import settings
    from django.core.management import call_command

    from rulesref import catalogs

    # Background tasks run in the test's own process as the write commits; tests of the queue itself say otherwise.
    # (Announced as a change, since the tasks' backend is read when the modules defining tasks are imported.)
    from django.test.signals import setting_changed

    settings.RULESREF_TASKS = "immediate"
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    setting_changed.send(sender=type(settings), setting="TASKS", value=settings.TASKS, enter=True)

    catalogs.compile_all()
    call_command("collectstatic", interactive=False, verbosity=0)


# What gives a test the suite's database (pytest-django refuses it to every other test).
DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
                               "live_server", "site"})


def uses_the_suites_database(item) -> bool:
    """Whether a test can reach the suite's database: marked ``django_db``, or asking for a fixture that opens it
    (pytest-django makes any other access an error, so a test outside this cannot depend on the database)."""
    return (item.get_closest_marker("django_db") is not None
            or not DATABASE_FIXTURES.isdisjoint(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config, items):
    """CI's PostgreSQL run (RULESREF_CI_RUN=postgresql) runs what the database can change: the tests that use the
    suite's database. The rest answer the same on either database and ran in the SQLite run: the engines, the text
    and number grammars, the scripts' own tests, and the tests marked ``own_databases``, which start the sites and
    databases they test whatever the suite's."""
    if os.environ.get("RULESREF_CI_RUN") != "postgresql":
        return
    kept, left = [], []
    for item in items:
        keep = uses_the_suites_database(item) and item.get_closest_marker("own_databases") is None
        (kept if keep else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def require_service(available: bool, what: str) -> None:
    """Skip (locally) or fail (in CI) a test whose service is missing."""
    if available:
        return
    if os.environ.get("RULESREF_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required in CI (RULESREF_REQUIRE_SERVICES=1) but is not available")
    pytest.skip(f"{what} is not available here")


@pytest.fixture(scope="session")
def require():
    """require_service for test modules (importing conftest by name is ambiguous: tests/engine has one too)."""
    return require_service


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    from rulesref.reference.loading import load_corpus

    with django_db_blocker.unblock():
        load_corpus(force=True)


@pytest.fixture(autouse=True)
def fresh_caches():
    """Rolled-back tests can reuse a book version number with other content: start each test with empty caches.
    A request to a /ru/ page leaves Russian active in the thread (LocaleMiddleware does not undo it): end each test
    in the default language again, so the next one does not inherit it."""
    from django.utils import translation

    from rulesref.reference import index, pagecache

    index.invalidate()
    pagecache.clear()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def edge_limits(request, settings, monkeypatch):
    """Rate limits and sign-in throttling are on wherever the site runs; tests turn them off unless marked
    ``@pytest.mark.rate_limits``, which starts them from fresh counters, on a clock that starts a second into a week:
    the windows begin at fixed times (every minute, hour, … since the epoch), and a test that crossed the start of one
    (an upload test at 18:00) would see its counts begin again midway."""
    if request.node.get_closest_marker("rate_limits") is None:
        settings.RULESREF_RATE_LIMITS_ENABLED = False
        settings.AXES_ENABLED = False
        yield
        return
    import math
    import time

    from django.core.cache import cache

    from rulesref.security import limits

    week = 7 * 24 * 3600
    started = time.time()
    offset = math.ceil(started / week) * week + 1 - started
    monkeypatch.setattr(limits, "clock", lambda: time.time() + offset)
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def offline_copies(request, settings):
    """The site renders a rulebook's offline copy (every page of it, about 3 s a book) when a change of the book
    commits. Tests that load the corpus or approve translations would pay for it every time: only those marked
    ``@pytest.mark.offline_copies`` do, in the test's own process once the change commits (so the test sees the
    copy at once; tests of the builder process set "background"); elsewhere the copies stay as the session's load
    rendered them (the search index of the copy is rebuilt with every change everywhere)."""
    marked = request.node.get_closest_marker("offline_copies") is not None
    settings.RULESREF_OFFLINE_COPIES = "inline" if marked else "off"
    yield


@pytest.fixture
def corpus_copy(tmp_path, settings):
    """A writable copy of fixtures/ that the test may break; settings point at it."""
    target = tmp_path / "fixtures"
    shutil.copytree(ROOT / "fixtures" / "corpus", target / "corpus")
    settings.FIXTURES_DIR = target
    return target / "corpus"


@pytest.fixture(scope="session")
def browser():
    require_service(Path(CHROMIUM).exists(), f"Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require_service(False, "the playwright Python package")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def site(live_server, transactional_db, settings):
    """A live server with the corpus loaded (transactional tests start from empty tables)."""
    from rulesref.reference.index import invalidate

    corpus_loaded(settings.RULESREF_OFFLINE_COPIES)
    invalidate()
    return live_server


_loaded: dict[tuple[str, str], object] = {}  # the test database just after the load, per copies setting


def corpus_loaded(copies: str) -> None:
    """The corpus loaded into the emptied test database, as ``load_corpus(force=True)`` loads it (with the offline
    copies it renders when the setting says so). The database just after the first such load is kept and put back
    for the next tests: the same rows, ids, sequences and index, in a fraction of the load's time (SQLite: its backup
    into memory and back; PostgreSQL: every table copied out and in). The copies in it are kept for the deployment
    that rendered them."""
    from django.conf import settings
    from django.db import connection

    from rulesref.offline.bundle import fingerprint
    from rulesref.reference.loading import load_corpus

    key = (copies, fingerprint() if copies == "inline" else "", _corpus_stamp(settings.FIXTURES_DIR))
    connection.ensure_connection()
    if key in _loaded:
        (_sqlite_restore if connection.vendor == "sqlite" else _postgres_restore)(connection, _loaded[key])
        return
    load_corpus(force=True)
    _loaded[key] = (_sqlite_snapshot if connection.vendor == "sqlite" else _postgres_snapshot)(connection)


def _corpus_stamp(fixtures: Path) -> tuple:
    """The corpus as it stands on disk (where it is, each file's size and modification time): a snapshot is put back
    only for the corpus it was loaded from, so a test that edits or moves the corpus gets a real load."""
    return (str(fixtures), *((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(fixtures.rglob("*"))
                             if p.is_file()))


def _sqlite_snapshot(connection) -> sqlite3.Connection:
    kept = sqlite3.connect(":memory:", check_same_thread=False)
    connection.connection.backup(kept)
    return kept


def _sqlite_restore(connection, kept: sqlite3.Connection) -> None:
    kept.backup(connection.connection)


def _postgres_snapshot(connection) -> tuple[dict[str, bytes], list[tuple[str, int | None]]]:
    tables = sorted(connection.introspection.django_table_names(only_existing=True, include_views=False))
    rows = {}
    with connection.connection.cursor() as cursor:
        for table in tables:
            with cursor.copy(f'COPY "{table}" TO STDOUT (FORMAT binary)') as copy:
                rows[table] = b"".join(bytes(block) for block in copy)
        cursor.execute("SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename), last_value "
                       "FROM pg_sequences WHERE schemaname = current_schema()")
        sequences = cursor.fetchall()
    return rows, sequences


def _postgres_restore(connection, kept: tuple[dict[str, bytes], list[tuple[str, int | None]]]) -> None:
    from django.db import transaction

    rows, sequences = kept
    with transaction.atomic(), connection.connection.cursor() as cursor:  # foreign keys are checked at the commit
        for table in rows:  # nearly all empty already (the flush): a DELETE is quicker than a TRUNCATE there
            cursor.execute(f'DELETE FROM "{table}"')
        for table, data in rows.items():
            with cursor.copy(f'COPY "{table}" FROM STDIN (FORMAT binary)') as copy:
                copy.write(data)
        for sequence, value in sequences:
            cursor.execute("SELECT setval(%s, %s, %s)", (sequence, value or 1, value is not None))


@pytest.fixture
def page_factory(browser, request):
    """New pages that record any script that runs out of place (dialogs, uncaught errors) and everything the
    Content-Security-Policy refuses; a test whose pages met such a refusal fails when it ends, whatever it asserted
    (the policy forbids inline styles and scripts, and a page that relies on one is broken for every reader), unless
    it is marked ``csp_violations_expected`` (a test that injects a refused script on purpose)."""
    contexts, refusals = [], []

    def make(width=1200, height=900, **kwargs):
        context = browser.new_context(viewport={"width": width, "height": height}, **kwargs)
        contexts.append(context)
        page = context.new_page()
        page.dialogs = []
        page.errors = []
        page.refused = []
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("console", lambda m: refused_by_the_policy(m) and (page.refused.append(m.text[:300]),
                                                                    refusals.append(f"{page.url}: {m.text[:300]}")))
        return page

    yield make
    for c in contexts:
        c.close()
    if refusals and request.node.get_closest_marker("csp_violations_expected") is None:
        pytest.fail("the Content-Security-Policy refused something on these pages:\n" + "\n".join(refusals[:10]))

