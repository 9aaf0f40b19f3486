"""QA of a ruling's translation: the workspace's own checks (settings.TRANSLATION_QA_CHECKS), run on the ruling's
units as on a section's — glossary terms, numbers, references, untranslated text, typography, markup — in the
ruling's own direction (a ruling written in English is checked English → Russian). The book-wide check ("a term
spelt two ways") reads the book's stored term occurrences, which belong to the sections; a ruling is not one."""
from __future__ import annotations

from django.conf import settings

from rulesref.reference.glossary import book_glossary
from rulesref.translation.checks.base import CheckContext, Problem
from rulesref.translation.checks.runner import SectionPair, check_section, registered_checks

from .models import Ruling, RulingText
from .units import text_units


def context(ruling: Ruling) -> CheckContext:
    book = ruling.book
    return CheckContext(book.slug, ruling.source_language, ruling.target_language,
                        book_glossary(settings.FIXTURES_DIR, book.slug), patterns=tuple(book.number_patterns or ()))


def problems(ruling: Ruling, source: RulingText, question: str, answer: str) -> list[Problem]:
    """The QA problems of ``question`` and ``answer`` as the translation of the ruling's current source text."""
    from .workflow import current_source

    if not (question.strip() or answer.strip()):
        return []
    checks = [c for c in registered_checks() if c.scope != "book"]
    pair = SectionPair(f"ruling:{ruling.number}", text_units(*current_source(source)), text_units(question, answer))
    return check_section(pair, context(ruling), checks)
