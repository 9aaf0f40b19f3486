"""The shape of a QA check and of what it finds.

A check is a small class with ``check_id``, ``name``, ``description`` (lazy-translated), ``severity``, ``scope`` and
one pure method ``check(source, target, context) -> list[Problem]``. What ``source`` and ``target`` are depends on
the scope:

- ``unit``: one paragraph (or the title) of a section, as text; ``context.paragraph`` says which.
- ``section``: a whole section, as ``TextUnits`` (title and paragraph blocks).
- ``book``: every section of the book, as ``{section id: TextUnits}`` (a missing translation is absent).

Checks build no HTML and touch no database. A problem's message is an untranslated template with parameters, so it
is stored once and shown in the reader's language (``format_message``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from rulesref.reference.glossary import Glossary

ERROR = "error"
WARNING = "warning"
TITLE = 0  # paragraph number of the title; paragraphs are numbered from 1, as a reader counts them
LANGS_KEY = "_lang"  # in a problem's params: {parameter: language} for parameters quoting text in a language


@dataclass(frozen=True)
class TextUnits:
    title: str
    blocks: tuple[str, ...]

    def unit(self, paragraph: int) -> str | None:
        if paragraph == TITLE:
            return self.title
        return self.blocks[paragraph - 1] if 0 < paragraph <= len(self.blocks) else None


@dataclass(frozen=True)
class CheckContext:
    book: str
    source_language: str
    target_language: str
    glossary: Glossary
    section: str | None = None
    paragraph: int | None = None
    patterns: tuple[str, ...] = ()  # the book's own number forms (book.toml [numbering] patterns)

    def at(self, section: str | None = None, paragraph: int | None = None) -> "CheckContext":
        return CheckContext(self.book, self.source_language, self.target_language, self.glossary, section, paragraph,
                            self.patterns)


@dataclass(frozen=True)
class Problem:
    check_id: str
    severity: str
    message: str  # an untranslated template (marked with gettext_noop), formatted with params
    params: dict[str, Any] = field(default_factory=dict)
    section: str | None = None
    paragraph: int | None = None

    def text(self) -> str:
        return format_message(self.message, self.params)

    def where(self) -> str:
        return paragraph_label(self.paragraph)


def format_message(message: str, params: dict[str, Any]) -> str:
    try:
        return gettext(message) % params if params else gettext(message)
    except (KeyError, TypeError, ValueError):  # a stored message from an older version of a check
        return message


def paragraph_label(paragraph: int | None) -> str:
    if paragraph is None:
        return ""
    if paragraph == TITLE:
        return gettext("title")
    return gettext("paragraph %(n)s") % {"n": paragraph}


def quoted(items) -> str:
    """A list of values for a message: “a”, “b”."""
    return ", ".join(f"“{item}”" for item in items)


class Check:
    check_id: str = ""
    name: str = ""
    description: str = ""
    severity: str = ERROR
    scope: str = "unit"

    def check(self, source, target, context: CheckContext) -> list[Problem]:
        raise NotImplementedError

    def problem(self, context: CheckContext, message: str, severity: str | None = None, section: str | None = None,
                paragraph: int | None = None, langs: dict[str, str] | None = None, **params) -> Problem:
        """A problem found by this check. ``langs`` says which parameters are text in which language (a term, words
        quoted from a text), so a page in the other language can mark them as such."""
        if langs:
            params[LANGS_KEY] = langs
        return Problem(self.check_id, severity or self.severity, message, params,
                       section if section is not None else context.section,
                       paragraph if paragraph is not None else context.paragraph)
