"""Template helpers for texts kept in both languages on one object (a rulebook's title and description)."""
from django import template
from django.utils.translation import get_language

register = template.Library()


def _lang() -> str:
    return (get_language() or "en")[:2]


@register.simple_tag
def book_title(book) -> str:
    """The rulebook's title in the reader's language."""
    return book.title(_lang())


@register.simple_tag
def book_description(book) -> str:
    return book.description(_lang())
