"""Two translators saving the same section at the same time, for real: two threads, each with its own database
connection, on whichever database the suite runs on (CI runs it on SQLite and on PostgreSQL). The second writer
waits for the first one's lock, sees that the version moved, and gets a conflict; nothing either of them wrote is
lost."""
from __future__ import annotations

import threading
import time

import pytest
from django.db import close_old_connections, connection
from test_translation_support import (
    english,
    book,
    client_for,
    editor_data,
    editor_url,
    item,
    make_user,
)

from rulesref.reference.index import invalidate
from rulesref.reference.loading import load_corpus
from rulesref.translation import workflow
from rulesref.translation.models import Revision, Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.usefixtures("fast_passwords")
SID = "11.4.10"


@pytest.fixture
def loaded(transactional_db):
    load_corpus(force=True)
    invalidate()
    workflow.book_items(book(), "en")  # the translation rows exist before the race
    yield
    invalidate()


def run_concurrently(*jobs):
    """Start the jobs together (a barrier), each in its own thread with its own connection; return their results."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)
    errors: list = []

    def runner(i, job):
        try:
            barrier.wait(timeout=10)
            results[i] = job()
        except Exception as exc:  # reported by the test, not swallowed
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    return results


@pytest.fixture
def slow_lock(monkeypatch):
    """Hold the translation's lock a while inside the save, so the two saves truly overlap."""
    original = workflow._next_number

    def slow(translation):
        time.sleep(0.4)
        return original(translation)

    monkeypatch.setattr(workflow, "_next_number", slow)


def test_two_concurrent_saves_one_applies_one_is_kept_as_a_conflict(loaded, slow_lock):
    tina, rita = make_user("tina", "translators"), make_user("rita", "reviewers")
    start = item(SID).translation

    def writer(user, text):
        def job():
            close_old_connections()
            return workflow.save_translation(start, user=user, title=start.title, body=text, status=Status.DRAFT,
                                             base_version=start.version, source_revision=start.source_revision)
        return job

    first, second = run_concurrently(writer(tina, "Tina's text."), writer(rita, "Rita's text."))
    assert sorted([first.conflict, second.conflict]) == [False, True]
    winner, loser = (first, second) if not first.conflict else (second, first)
    t = item(SID).translation
    assert t.body == winner.revision.body and t.version == start.version + 1
    kept = Revision.objects.get(pk=loser.revision.pk)
    assert (kept.applied, kept.origin, kept.base_version) == (False, "conflict", start.version)
    assert {r.body for r in t.revisions.all()} >= {"Tina's text.", "Rita's text."}
    assert sorted(r.number for r in t.revisions.all()) == [1, 2, 3]


def test_two_browsers_posting_the_editor_at_once(loaded, slow_lock):
    """The same race through the whole stack: two signed-in clients post the editor form from the same version."""
    tina = client_for(make_user("tina", "translators"))
    rita = client_for(make_user("rita", "reviewers"))
    form_tina = editor_data(SID, blocks=["Tina's paragraph (11.2.F)."], status="draft")
    form_rita = editor_data(SID, blocks=["Rita's paragraph (11.2.F)."], status="approved")

    def post(client, data):
        def job():
            close_old_connections()
            response = client.post(editor_url(SID), data)
            return response.status_code, response.get("Location", "")
        return job

    results = run_concurrently(post(tina, form_tina), post(rita, form_rita))
    locations = sorted(location for _, location in results)
    assert [code for code, _ in results] == [302, 302]
    assert locations[0] == editor_url(SID) and "/conflict/" in locations[1]
    t = item(SID).translation
    bodies = {r.body for r in t.revisions.all()}
    assert {"Tina's paragraph (11.2.F).", "Rita's paragraph (11.2.F)."} <= bodies
    conflict = t.revisions.get(origin="conflict")
    assert conflict.body != t.body and not conflict.applied


def test_reviewers_approving_different_sections_of_one_book_at_once_both_publish(loaded):
    """Two reviewers approve two sections of one book at the same moment (#27): neither waits on a lock the other
    holds while holding one it needs — the book's lock comes first (rulesref/writes.py) — so both approvals publish,
    every time. Before, most such pairs deadlocked on PostgreSQL and one approval was lost with a 500."""
    rita, vera = make_user("rita", "reviewers"), make_user("vera", "reviewers")
    pairs = [("9.3.1", "11.4.10"), ("11.4.2", "9.2.4"), ("5.7", "6.2.1"), ("9.3.2", "11.4.5")]
    for round_, sids in enumerate(pairs):
        starts = [item(sid).translation for sid in sids]

        def approver(user, start, text):
            def job():
                close_old_connections()
                return workflow.save_translation(start, user=user, title=start.title, body=text,
                                                 status=Status.APPROVED, base_version=start.version,
                                                 source_revision=start.source_revision)
            return job

        texts = [f"{start.body}\n\nRound {round_} (see 9.3.1 and 11.4.5)." for start in starts]
        results = run_concurrently(approver(rita, starts[0], texts[0]), approver(vera, starts[1], texts[1]))
        assert [r.conflict for r in results] == [False, False]
        for sid, text in zip(sids, texts):
            assert english(sid).body == text, f"round {round_}: the approval of {sid} was not published"
    assert book().revision >= len(pairs) * 2


def test_reviewers_approving_the_same_section_at_once_one_publishes_one_is_a_conflict(loaded):
    rita, vera = make_user("rita", "reviewers"), make_user("vera", "reviewers")
    start = item(SID).translation

    def approver(user, text):
        def job():
            close_old_connections()
            return workflow.save_translation(start, user=user, title=start.title, body=text, status=Status.APPROVED,
                                             base_version=start.version, source_revision=start.source_revision)
        return job

    results = run_concurrently(approver(rita, "Rita's approved text."), approver(vera, "Vera's approved text."))
    assert sorted(r.conflict for r in results) == [False, True]
    winner = next(r for r in results if not r.conflict)
    assert english(SID).body == winner.revision.body
    loser = next(r for r in results if r.conflict)
    assert Revision.objects.get(pk=loser.revision.pk).body != winner.revision.body
