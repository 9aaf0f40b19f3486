"""rulesref/writes.py: a transaction the database refuses as crossing another writer runs again; one it still
refuses becomes WriteConflict (a 503 to the client, nothing stored); any other error is raised as it is."""
from __future__ import annotations

import pytest
from django.db import OperationalError, transaction

from rulesref import writes
from rulesref.reference.models import Book


class Refused(Exception):
    def __init__(self, sqlstate):
        super().__init__(f"refused with {sqlstate}")
        self.sqlstate = sqlstate


def refusal(sqlstate: str) -> OperationalError:
    error = OperationalError(f"database says {sqlstate}")
    error.__cause__ = Refused(sqlstate)
    return error


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    monkeypatch.setattr(writes.time, "sleep", lambda seconds: None)


def flaky(failures: list[BaseException], result="done"):
    calls = []

    def write():
        calls.append(1)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return result
    return write, calls


@pytest.mark.parametrize("sqlstate", ["40P01", "40001", "55P03"])
def test_a_deadlock_or_serialization_failure_runs_the_write_again(sqlstate):
    write, calls = flaky([refusal(sqlstate)] * (writes.ATTEMPTS - 1))
    assert writes.retrying(write) == "done"
    assert len(calls) == writes.ATTEMPTS


def test_sqlite_busy_runs_the_write_again():
    write, calls = flaky([OperationalError("database is locked")])
    assert writes.retrying(write) == "done" and len(calls) == 2


def test_a_write_still_refused_after_every_attempt_is_a_write_conflict():
    write, calls = flaky([refusal("40P01")] * writes.ATTEMPTS)
    with pytest.raises(writes.WriteConflict):
        writes.retrying(write)
    assert len(calls) == writes.ATTEMPTS


@pytest.mark.parametrize("error", [OperationalError("no such table: x"), refusal("23505"), ValueError("bad")])
def test_other_errors_are_not_retried(error):
    write, calls = flaky([error])
    with pytest.raises(type(error)):
        writes.retrying(write)
    assert len(calls) == 1


@pytest.mark.django_db
def test_inside_a_transaction_the_write_runs_once_for_the_outermost_caller_to_retry():
    write, calls = flaky([refusal("40P01")])
    with pytest.raises(OperationalError), transaction.atomic():
        writes.retrying(write)
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_the_book_lock_is_taken_inside_the_write_transaction_only():
    book = Book.objects.create(slug="lock-order", title_ru="Порядок", title_en="Order")
    with pytest.raises(RuntimeError):
        writes.lock_book(book.pk)
    assert writes.content_write(book.pk, lambda locked: locked.slug) == book.slug
