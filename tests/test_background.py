"""rulesref/background.py: tasks on the database queue, queued when the write commits and once, retried when they
fail with a growing pause, given up after ATTEMPTS runs."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from rulesref import background

pytestmark = pytest.mark.django_db(transaction=True)
runs: list[tuple] = []
failures = {"left": 0}


@background.background_task
def sometimes_failing(name: str) -> str:
    runs.append((name,))
    if failures["left"] > 0:
        failures["left"] -= 1
        raise RuntimeError("the worker's disk is full")
    return f"done {name}"


@pytest.fixture(autouse=True)
def on_the_queue(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    runs.clear()
    failures["left"] = 0


def waiting_rows():
    return list(DBTaskResult.objects.filter(status="READY").order_by("enqueued_at"))


def test_a_task_queued_after_commit_waits_once():
    with transaction.atomic():
        background.after_commit(sometimes_failing, "mpbs")
        background.after_commit(sometimes_failing, "mpbs")
        assert waiting_rows() == []  # not before the write commits
    background.after_commit(sometimes_failing, "mpbs")  # outside a transaction: at once, and not twice
    background.after_commit(sometimes_failing, "t9a")
    assert sorted(row.args_kwargs["args"][0] for row in waiting_rows()) == ["mpbs", "t9a"]


def test_a_rolled_back_write_queues_nothing():
    with pytest.raises(ValueError), transaction.atomic():
        background.after_commit(sometimes_failing, "mpbs")
        raise ValueError("the write failed")
    assert waiting_rows() == []


def test_a_failed_run_is_queued_again_later_with_a_growing_pause():
    failures["left"] = 2
    before = timezone.now()
    assert sometimes_failing.call("mpbs") is None
    [again] = waiting_rows()
    assert again.args_kwargs == {"args": ["mpbs"], "kwargs": {"attempt": 2}}
    first_pause = again.run_after - before
    assert background.FIRST_PAUSE <= first_pause < background.FIRST_PAUSE + timedelta(seconds=5)
    again.delete()
    assert sometimes_failing.call("mpbs", attempt=2) is None
    [third] = waiting_rows()
    assert third.args_kwargs["kwargs"] == {"attempt": 3}
    assert third.run_after - before >= 2 * background.FIRST_PAUSE
    third.delete()
    assert sometimes_failing.call("mpbs", attempt=3) == "done mpbs"
    assert waiting_rows() == [] and len(runs) == 3


def test_the_last_attempt_raises_and_queues_nothing_more():
    failures["left"] = 1
    with pytest.raises(RuntimeError):
        sometimes_failing.call("mpbs", attempt=background.ATTEMPTS)
    assert waiting_rows() == []


def test_run_by_a_worker_as_queued():
    from django_tasks_db.management.commands.db_worker import Worker

    background.enqueue_once(sometimes_failing, "mpbs")
    Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False, max_tasks=None,
           worker_id="test", excluded_queue_names=[]).run()
    assert runs == [("mpbs",)]
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
