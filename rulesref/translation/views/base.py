"""What every page of the translator's workspace shares: the states a section can be in, dates in the reader's
language, the rulebook and its target language from the URL, and the workspace's 404 page."""
from __future__ import annotations

from functools import wraps

from babel.dates import format_datetime
from django.http import Http404
from django.shortcuts import get_object_or_404, render

from rulesref.languages import current_language
from rulesref.reference.models import Book

from .. import workflow
from ..models import OUTDATED, OUTDATED_LABEL, Status

STATES = [Status.MISSING, OUTDATED, Status.DRAFT, Status.REVIEW, Status.APPROVED]


def state_label(state: str) -> str:
    return str(OUTDATED_LABEL) if state == OUTDATED else str(Status(state).label)


def when(value) -> str:
    return format_datetime(value, format="medium", locale=current_language()) if value else ""


def book_and_language(slug: str) -> tuple[Book, str]:
    book = get_object_or_404(Book, slug=slug)
    targets = workflow.target_languages(book)
    if not targets:
        raise Http404("This rulebook has no target language.")
    return book, targets[0]


def not_found(request, book: Book, what: str):
    return render(request, "translation/not_found.html", {"book": book, "what": what}, status=404)


def with_section_item(view):
    """Resolve the rulebook, its target language and the section's translation item for a section view, which
    receives them as ``book_obj``, ``lang`` and ``item``; an unknown section gets the workspace's 404 page."""

    @wraps(view)
    def wrapper(request, book, section, *args, **kwargs):
        book_obj, lang = book_and_language(book)
        item = workflow.book_item(book_obj, lang, section)
        if item is None:
            return not_found(request, book_obj, section)
        return view(request, book, section, *args, book_obj=book_obj, lang=lang, item=item, **kwargs)

    return wrapper
