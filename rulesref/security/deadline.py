"""A request's deadline: work stops inside the request before the app server's timeout, and is charged to its client.

gunicorn kills a worker whose request runs past its timeout (``gunicorn.conf.py``). A killed request would never be
charged to its client's processor budget (``limits.used_cpu`` runs after the response), so one client could go on
killing workers. Two things prevent it:

- **The deadline** (``RULESREF_REQUEST_SECONDS``, 25 s by default against gunicorn's 30): a request still running
  then is interrupted where it stands (``SIGALRM``, in a worker's main thread, where gunicorn's sync workers answer),
  rolled back like any failed request, answered 503 and charged what it used, as every request is.
- **The record of what is being answered**: each request's client and start, kept while it runs. gunicorn's
  ``worker_abort`` hook (a worker killed anyway: stuck in C code past the deadline, or a threaded worker, where no
  alarm can interrupt a request) charges each of them from it before the worker goes.

Every page and write of the site is bounded far below the deadline (docs/benchmarks.md); this is the backstop.
"""
from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

from django.conf import settings

from . import clients, limits


class DeadlinePassed(Exception):
    """Raised into a request that ran past its deadline."""


_answering: dict[int, tuple[str, float]] = {}  # thread id → (client, when its request started): what runs now
_stopped = threading.local()


def seconds() -> float:
    return float(getattr(settings, "RULESREF_REQUEST_SECONDS", 25))


def _alarm(signum, frame) -> None:
    _stopped.passed = True
    raise DeadlinePassed(f"the request ran past its deadline of {seconds():g} s")


@contextmanager
def limited(request):
    """Answer ``request`` within the deadline (where an alarm can interrupt it), keeping the record of it."""
    ident = threading.get_ident()
    _answering[ident] = (clients.client_key(request), time.monotonic())
    _stopped.passed = False
    armed = seconds() > 0 and threading.current_thread() is threading.main_thread()
    if armed:
        previous = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds())
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        _answering.pop(ident, None)


def passed() -> bool:
    """Whether the request just answered was stopped at its deadline (whatever answer the layers under the edge
    made of the interruption)."""
    return getattr(_stopped, "passed", False)


def charge_unfinished() -> int:
    """Charge every request this process is answering, for as long as it has run: gunicorn's ``worker_abort``
    calls it as the worker is killed. Returns how many were charged."""
    now = time.monotonic()
    charged = 0
    for client, started in list(_answering.values()):
        limits.charge_cpu(client, now - started)
        charged += 1
    _answering.clear()
    return charged
