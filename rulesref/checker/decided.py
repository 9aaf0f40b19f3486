"""What a ruling was decided under: the rulebook's revision (rulesref/reference/history.py) and the engine's
version (``rulesref.engine.ENGINE_VERSION``). The CLI, the JSON API and the checker all state it with every ruling."""
from __future__ import annotations

from typing import Any

from django.db import DatabaseError

from rulesref.engine import ENGINE_VERSION
from rulesref.reference.models import Book


def book_revision(book: str) -> int | None:
    """The book's current revision; None when the corpus is not loaded (or there is no database to ask)."""
    try:
        revision = Book.objects.filter(slug=book).values_list("revision", flat=True).first()
    except DatabaseError:
        return None
    return revision or None


def decided_under(book: str) -> dict[str, Any]:
    return {"book": book, "book_revision": book_revision(book), "engine_version": ENGINE_VERSION}


def stamped(book: str, ruling: dict[str, Any]) -> dict[str, Any]:
    """A ruling's JSON (``Ruling.to_dict``) with what it was decided under."""
    return {**ruling, "decided_under": decided_under(book)}
