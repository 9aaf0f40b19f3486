"""Who renders a rulebook's offline copy when a change commits (rulesref/offline/copies.py): an approval's web
request queues a task (rulesref/background.py) and renders no page itself; a worker (a real ``manage.py db_worker``
on this test's database) builds until the stored copy is of the current content; builders of one book in several
processes take turns through a lock; a command builds in its own process."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.conf import settings as conf
from django.db import connection
from django_tasks_db.models import DBTaskResult
from test_offline_views import Counted
from test_translation_support import editor_data, editor_url

from rulesref.offline import bundle, copies
from rulesref.reference.models import Book, SectionText

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.offline_copies]
pytest_plugins = ["test_translation_support"]
SID = "11.4.10"
QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def loaded(settings):
    """The corpus loaded without its copies; from then on the site builds them as deployed ("background", on the
    database queue)."""
    from rulesref.reference.index import invalidate
    from rulesref.reference.loading import load_corpus

    settings.RULESREF_OFFLINE_COPIES = "off"
    load_corpus(force=True)
    invalidate()
    settings.RULESREF_OFFLINE_COPIES = "background"
    settings.TASKS = QUEUE
    return Book.objects.get(slug="mpbs")


@pytest.fixture
def renders(monkeypatch):
    """Counts the copies rendered in this process."""
    counted = Counted(bundle.render)
    monkeypatch.setattr(bundle, "render", counted)
    return counted


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return "sqlite:///" + str(Path(db["NAME"]).resolve())
    user = f"{db['USER']}@" if db.get("USER") else ""
    return f"postgres://{user}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def run_worker() -> str:
    """A worker process, as production runs one, that runs every task queued and ends; its output."""
    env = dict(os.environ, DATABASE_URL=database_url(), RULESREF_VAR_DIR=str(conf.VAR_DIR),
               RULESREF_FIXTURES_DIR=str(conf.FIXTURES_DIR), RULESREF_TASKS="queue")
    done = subprocess.run([sys.executable, "manage.py", "db_worker", "--batch", "--no-reload", "--no-startup-delay",
                           "--queue-name", "*"], cwd=conf.BASE_DIR, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def queued() -> list[list]:
    return [row["args"] for row in DBTaskResult.objects.filter(
        task_path="rulesref.offline.copies.build_copy", status="READY").values_list("args_kwargs", flat=True)]


def kept_page(book: Book, url: str) -> str:
    copy = json.loads(gzip.decompress(bundle.stored(book, with_data=True).gzipped))
    return next(entry["body"] for entry in copy["entries"] if entry["url"] == url)


def test_an_approval_queues_the_copy_and_renders_nothing_itself(loaded, rita, renders):
    response = rita.post(editor_url(SID), editor_data(SID, title="Formation hits and quokkas", status="approved"))
    assert response.status_code == 302
    assert renders.calls == 0  # not one page of the book was rendered while the reviewer waited
    assert rita.get("/offline/mpbs/info.json").json()["preparing"] is True
    assert queued() == [[loaded.pk]]
    output = run_worker()
    book = Book.objects.get(slug="mpbs")
    assert bundle.is_current(book), output
    assert "Formation hits and quokkas" in kept_page(book, f"/en/rules/mpbs/{SID}/")
    info = rita.get("/offline/mpbs/info.json").json()
    assert "preparing" not in info and info["revision"] == bundle.stored(book).revision
    assert renders.calls == 0 and queued() == []


def test_changes_committed_before_the_task_runs_are_built_by_it(loaded, rita):
    first = rita.post(editor_url(SID), editor_data(SID, title="Formation hits and quokkas", status="approved"))
    second = rita.post(editor_url(SID), editor_data(SID, title="Formation hits and wombats", status="approved"))
    assert first.status_code == second.status_code == 302
    assert queued() == [[loaded.pk]]  # one task waits per book, not one per change
    output = run_worker()
    book = Book.objects.get(slug="mpbs")
    assert bundle.is_current(book), output  # of the second change
    assert "Formation hits and wombats" in kept_page(book, f"/en/rules/mpbs/{SID}/")


@contextmanager
def held_elsewhere(book: Book):
    """The book's build lock, held as another process would hold it (another connection, another open file)."""
    if connection.vendor == "postgresql":
        import psycopg

        db = connection.settings_dict
        with psycopg.connect(dbname=db["NAME"], user=db.get("USER") or None, password=db.get("PASSWORD") or None,
                             host=db.get("HOST") or None, port=db.get("PORT") or None, autocommit=True) as other:
            assert other.execute("SELECT pg_try_advisory_lock(%s, %s)", copies.lock_key(book)).fetchone()[0]
            yield
            # Let go before the connection closes: a closed session's locks are freed only once its server process
            # has ended, which the next statement of this test could overtake.
            other.execute("SELECT pg_advisory_unlock(%s, %s)", copies.lock_key(book))
        return
    import fcntl

    path = copies.lock_path(book)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:  # an open file of its own: flock excludes this process's other opens too
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield


def test_a_builder_leaves_a_book_another_process_is_building_and_builds_it_after(loaded, renders, settings):
    SectionText.objects.filter(section__book=loaded, section__sid=SID, language="en").update(title="Quokka hits")
    settings.RULESREF_OFFLINE_COPIES = "off"
    loaded.bump_version()
    with held_elsewhere(loaded):
        with copies.build_lock(loaded) as held:
            assert held is False
        assert copies.build_until_current(loaded.pk) is None and renders.calls == 0
    made = copies.build_until_current(loaded.pk)  # once the other lets go
    assert made is not None and renders.calls == 1 and bundle.is_current(Book.objects.get(pk=loaded.pk))
    assert copies.build_until_current(loaded.pk) is None and renders.calls == 1  # current: nothing to do


def test_a_change_a_command_commits_is_built_in_its_own_process(loaded, renders):
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    # A request served before, whose response nobody closed (as a tool fetching the API's schema leaves it).
    WSGIHandler()(RequestFactory().get("/en/rules/mpbs/").environ, lambda status, headers: None)
    assert copies.mode() == "inline"  # no request is being served: a command (loadrules, a script) waits for it
    SectionText.objects.filter(section__book=loaded, section__sid=SID, language="en").update(title="Quokka hits")
    loaded.bump_version()
    assert renders.calls == 1 and queued() == []
    assert "Quokka hits" in kept_page(Book.objects.get(pk=loaded.pk), f"/en/rules/mpbs/{SID}/")


@pytest.mark.parametrize("value", ["inline", "off"])
def test_the_setting_decides_for_requests_too(loaded, rita, renders, settings, value):
    settings.RULESREF_OFFLINE_COPIES = value
    response = rita.post(editor_url(SID), editor_data(SID, title="Formation hits and quokkas", status="approved"))
    assert response.status_code == 302 and queued() == []
    assert renders.calls == (1 if value == "inline" else 0)


def test_the_same_book_id_building_in_another_database_does_not_hold_this_ones_copy(loaded, monkeypatch):
    """Advisory locks belong to the whole PostgreSQL server: a site on another database of the server (a second
    site, a test) building its book of the same id must not make this one leave its own copy unbuilt."""
    ours = copies.lock_key(loaded), copies.lock_path(loaded)
    monkeypatch.setitem(connection.settings_dict, "NAME", f"{connection.settings_dict['NAME']}_elsewhere")
    theirs = copies.lock_key(loaded), copies.lock_path(loaded)
    monkeypatch.undo()
    assert ours[0] != theirs[0] and ours[0][1] == theirs[0][1] == loaded.pk and ours[1] != theirs[1]
    if connection.vendor == "postgresql":
        import psycopg

        db = connection.settings_dict
        with psycopg.connect(dbname=db["NAME"], user=db.get("USER") or None, host=db.get("HOST") or None,
                             port=db.get("PORT") or None, autocommit=True) as other:
            assert other.execute("SELECT pg_try_advisory_lock(%s, %s)", theirs[0]).fetchone()[0]
            with copies.build_lock(loaded) as held:
                assert held is True
            other.execute("SELECT pg_advisory_unlock(%s, %s)", theirs[0])
