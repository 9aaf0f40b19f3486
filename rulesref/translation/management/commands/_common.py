"""What the translation commands share: finding the book and its target language, reading the acting user, writing
an export."""
from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from rulesref.reference.models import Book

from ...workflow import target_languages


def book_and_language(slug: str, lang: str | None) -> tuple[Book, str]:
    book = Book.objects.filter(slug=slug).first()
    if book is None:
        known = ", ".join(Book.objects.values_list("slug", flat=True)) or "none: run loadrules"
        raise CommandError(f"unknown rulebook {slug!r} (known: {known})")
    targets = target_languages(book)
    if lang is None:
        return book, targets[0]
    if lang not in targets:
        raise CommandError(f"{lang!r} is not a target language of {slug} (its source is {book.source_language}; "
                           f"targets: {', '.join(targets)})")
    return book, lang


def acting_user(username: str | None):
    if not username:
        return None
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CommandError(f"unknown user {username!r}")
    return user


def write_output(file: str, data: bytes) -> bool:
    """Write an export to ``file``, or to standard output for '-'; a file is replaced whole (written beside it, then
    renamed), never left half-written. True when a file was written (the caller then says what is in it)."""
    if file == "-":
        sys.stdout.buffer.write(data)
        return False
    path = Path(file)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        raise CommandError(f"{file}: cannot write: {exc.strerror}") from None
    return True
