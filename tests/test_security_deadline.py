"""A request stopped at its deadline (rulesref/security/deadline.py) is answered 503 and charged to its client's
processor budget, so no client can run work past the app server's timeout for free; a worker killed anyway charges
what it was answering (gunicorn.conf.py's worker_abort). A write refused after its retries is a 503 too."""
from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest
from django.test import Client

from rulesref.reference import views
from rulesref.security import deadline, limits
from rulesref.writes import WriteConflict

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


def cpu_charged(client: str = "127.0.0.1") -> int:
    """Milliseconds of processor time charged to the client in the current minute's window."""
    window = limits.windows(limits.CPU)[0]
    key = f"rl:{limits.CPU}:{window.seconds}:{client}:{int(limits.clock() // window.seconds)}"
    return limits._cache().get(key, 0)


@pytest.fixture
def slow_contents(monkeypatch):
    """The contents page, made to work (burning processor time) far longer than any deadline of these tests; the
    processor time it burnt until it was stopped is kept in the list this returns."""
    original = views.book_outline
    burnt: list[float] = []

    def slow(*args, **kwargs):
        started, until = time.thread_time(), time.monotonic() + 10
        try:
            while time.monotonic() < until:
                sum(range(10_000))
        finally:
            burnt.append(time.thread_time() - started)
        return original(*args, **kwargs)

    monkeypatch.setattr(views, "book_outline", slow)
    return burnt


@pytest.mark.rate_limits
def test_a_request_past_its_deadline_is_stopped_answered_503_and_charged(settings, slow_contents, monkeypatch):
    client = Client(raise_request_exception=False)  # as a server answers: the interruption is not re-raised here
    settings.RULESREF_REQUEST_SECONDS = 0.5
    monkeypatch.setattr(limits, "clock", lambda: 1_000_000.0)  # one window throughout, whenever the minute turns
    before = cpu_charged()
    started = time.monotonic()
    response = client.get("/ru/rules/mpbs/")
    assert time.monotonic() - started < 5, "the request was not stopped"
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "Запрос выполнялся слишком долго" in response.content.decode()
    # what the page burnt until it was stopped (less than its half second of wall time on a busy machine) is charged,
    # all of it: measured where it was burnt, not around the test client, whose own work is no request's
    [burnt] = slow_contents
    assert burnt >= 0.1 and cpu_charged() - before >= 1000 * burnt - 1  # charged in whole milliseconds


def test_under_the_deadline_nothing_is_stopped(client, settings):
    settings.RULESREF_REQUEST_SECONDS = 30
    assert client.get("/en/rules/mpbs/").status_code == 200 and not deadline.passed()


@pytest.mark.rate_limits
def test_a_worker_killed_at_the_timeout_charges_what_it_was_answering(settings):
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    assert conf.timeout > settings.RULESREF_REQUEST_SECONDS  # the site stops a request before gunicorn kills it
    before = cpu_charged("203.0.113.9")
    deadline._answering[12345] = ("203.0.113.9", time.monotonic() - 31)  # a request 31 s old when the kill came
    conf.worker_abort(worker=None)
    assert cpu_charged("203.0.113.9") - before >= 31_000
    assert deadline._answering == {}


def test_a_write_refused_after_its_retries_is_a_503_that_says_nothing_was_saved(client, monkeypatch):
    def crossed(*args, **kwargs):
        raise WriteConflict("deadlock detected")

    monkeypatch.setattr(views, "book_outline", crossed)
    response = client.get("/en/rules/mpbs/")
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert "Nothing of it was saved" in response.content.decode()
