"""What a ruling was decided under: the rulebook's revision (rulesref/reference/history.py) and the engine's
version (``rulesref.engine.ENGINE_VERSION``). The CLI, the JSON API and the checker all state it with every ruling."""
from __future__ import annotations

from typing import Any

from django.db import DatabaseError

from rulesref.engine import ENGINE_VERSION
from rulesref.reference.index import books


def book_revision(book: str) -> int | None:
    """The book's current revision; None when the corpus is not loaded (or there is no database to ask). Read from
    the books kept in the process (``index.books``: one small query of their content versions, which every change of
    a revision also bumps), not by a query of its own on every ruling."""
    try:
        found = books().get(book)
    except DatabaseError:
        return None
    return (found.revision or None) if found is not None else None


def decided_under(book: str) -> dict[str, Any]:
    return {"book": book, "book_revision": book_revision(book), "engine_version": ENGINE_VERSION}


def stamped(book: str, ruling: dict[str, Any]) -> dict[str, Any]:
    """A ruling's JSON (``Ruling.to_dict``) with what it was decided under."""
    return {**ruling, "decided_under": decided_under(book)}
