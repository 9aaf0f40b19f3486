"""Background work on a kept queue: Django's Tasks API (the django-tasks backport while the site runs Django 5.2,
``django.tasks`` from Django 6) with django-tasks-db's database backend, so the queue is a table of the site's own
database — durable, shared by every app server, and needing nothing more on SQLite. Workers are ``manage.py
db_worker`` processes: ``quickstart`` runs one beside the site; production runs them as processes of their own on
any machine that reaches the database (``Procfile``, docs/deploy.md). No web request ever starts a process.

Every task of the site brings something up to date with what is committed (a book's offline copy, its book-wide
QA results): running one twice is harmless, and one run catches up with every change before it. So:

- :func:`after_commit` queues a task when the writer's transaction commits (a write rolled back queues nothing),
  and not again while one with the same arguments still waits: two hundred approvals of one book queue a few
  builds of its copy, not two hundred.
- :func:`background_task` makes a function such a task, with retries: a run that raises is queued again after a
  pause (30 s, then twice as long each time) until :data:`ATTEMPTS` runs have failed; the last failure stays in
  the queue's table (the admin lists it) and in the worker's log.

``RULESREF_TASKS=immediate`` runs each task in the writer's own process as its transaction commits (the test suite
and scripts); the default, ``queue``, leaves them to the workers.
"""
from __future__ import annotations

import functools
import logging
from datetime import timedelta
from typing import Callable

from django.db import transaction
from django.utils import timezone
from django_tasks import task, task_backends

log = logging.getLogger(__name__)

ATTEMPTS = 5
FIRST_PAUSE = timedelta(seconds=30)


def background_task(function: Callable) -> Callable:
    """A task (``.enqueue(*args)``) that runs ``function(*args)`` and, when it raises, queues itself again later."""

    @functools.wraps(function)
    def run(*args, attempt: int = 1):
        try:
            return function(*args)
        except Exception:
            backend = task_backends[bound.backend]
            if attempt >= ATTEMPTS or not backend.supports_defer:
                log.exception("%s%r failed (run %d of %d): given up", function.__name__, args, attempt, ATTEMPTS)
                raise
            pause = FIRST_PAUSE * 2 ** (attempt - 1)
            log.exception("%s%r failed (run %d of %d): again in %s", function.__name__, args, attempt, ATTEMPTS,
                          pause)
            bound.using(run_after=timezone.now() + pause).enqueue(*args, attempt=attempt + 1)
            return None

    bound = task()(run)
    return bound


def waiting(bound, args: tuple) -> bool:
    """Whether a run of ``bound`` with these arguments is queued and not started yet."""
    from django_tasks_db.models import DBTaskResult

    if not hasattr(task_backends[bound.backend], "_task_to_db_task"):
        return False  # a backend without a table of its own: nothing waits
    rows = DBTaskResult.objects.filter(task_path=bound.module_path, status="READY").values_list("args_kwargs",
                                                                                               flat=True)
    return any(list(row.get("args", ())) == list(args) for row in rows)


def enqueue_once(bound, *args) -> None:
    """Queue ``bound(*args)`` now unless such a run already waits."""
    if not waiting(bound, args):
        bound.enqueue(*args)


def after_commit(bound, *args) -> None:
    """Queue ``bound(*args)`` once the current transaction commits (at once outside one), unless such a run waits."""
    transaction.on_commit(lambda: enqueue_once(bound, *args))
