"""Shared test set-up.

- The message catalogs are compiled once, so pages can be tested in Russian, and the static files collected (with
  their compressed copies), which WhiteNoise serves as in production.
- The corpus is loaded once into the test database; tests run in transactions rolled back over it.
- Background tasks (rulesref/background.py) run in the test's process as the write commits.
- Tests that need a real service (Chromium, PostgreSQL) skip with a clear message when it is absent, and fail
  instead when RULESREF_REQUIRE_SERVICES=1 (CI sets it), so CI cannot pass by skipping them.
- Tests marked ``own_databases`` never touch the suite's database (they start the sites and databases they test):
  CI runs the suite twice, on SQLite and on PostgreSQL, and runs them in the SQLite run only (its PostgreSQL run
  sets RULESREF_CI_RUN=postgresql), where the second run would repeat the first exactly.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

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


def pytest_collection_modifyitems(config, items):
    if os.environ.get("RULESREF_CI_RUN") != "postgresql":
        return
    once = pytest.mark.skip(reason="starts its own databases, whatever the suite's: CI runs it in its SQLite run")
    for item in items:
        if item.get_closest_marker("own_databases") is not None:
            item.add_marker(once)


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
def site(live_server, transactional_db):
    """A live server with the corpus loaded (transactional tests start from empty tables)."""
    from rulesref.reference.index import invalidate
    from rulesref.reference.loading import load_corpus

    load_corpus(force=True)
    invalidate()
    return live_server


@pytest.fixture
def page_factory(browser):
    """New pages that record any script that runs out of place (dialogs, console errors)."""
    contexts = []

    def make(width=1200, height=900, **kwargs):
        context = browser.new_context(viewport={"width": width, "height": height}, **kwargs)
        contexts.append(context)
        page = context.new_page()
        page.dialogs = []
        page.errors = []
        page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        return page

    yield make
    for c in contexts:
        c.close()

