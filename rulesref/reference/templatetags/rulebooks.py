"""Template helpers for texts kept in both languages on one object (a rulebook's title and description)."""
from django import template

from rulesref.languages import current_language

register = template.Library()


@register.simple_tag
def book_title(book) -> str:
    """The rulebook's title in the reader's language."""
    return book.title(current_language())


@register.simple_tag
def book_description(book) -> str:
    return book.description(current_language())
