"""Apply the registered checks (settings.TRANSLATION_QA_CHECKS) to the sections of a book."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.utils.module_loading import import_string

from .base import TITLE, Check, CheckContext, Problem, TextUnits


@lru_cache(maxsize=8)
def _load(paths: tuple[str, ...]) -> tuple[Check, ...]:
    return tuple(import_string(p)() for p in paths)


def check_paths() -> tuple[str, ...]:
    """The registry of checks is the TRANSLATION_QA_CHECKS setting (dotted paths), as in Weblate."""
    return tuple(settings.TRANSLATION_QA_CHECKS)


def registered_checks() -> tuple[Check, ...]:
    return _load(check_paths())


def check_by_id(check_id: str) -> Check | None:
    return next((c for c in registered_checks() if c.check_id == check_id), None)


@dataclass(frozen=True)
class SectionPair:
    sid: str
    source: TextUnits
    target: TextUnits | None  # None: not translated yet


def unit_pairs(source: TextUnits, target: TextUnits):
    """(paragraph number, source unit, target unit) for the units both texts have."""
    if source.title.strip() and target.title.strip():
        yield TITLE, source.title, target.title
    for n, (src, tgt) in enumerate(zip(source.blocks, target.blocks, strict=False), start=1):
        if src.strip() and tgt.strip():
            yield n, src, tgt


def check_units(source: str, target: str, context: CheckContext, checks=None) -> list[Problem]:
    """The unit checks on one paragraph or title (``context.paragraph`` says which)."""
    problems = []
    for check in checks or registered_checks():
        if check.scope == "unit":
            problems += check.check(source, target, context)
    return problems


def check_section(pair: SectionPair, context: CheckContext, checks=None) -> list[Problem]:
    if pair.target is None:
        return []
    checks = checks or registered_checks()
    context = context.at(pair.sid)
    problems = []
    for paragraph, src, tgt in unit_pairs(pair.source, pair.target):
        problems += check_units(src, tgt, context.at(pair.sid, paragraph), checks)
    for check in checks:
        if check.scope == "section":
            problems += check.check(pair.source, pair.target, context)
    return problems


def check_book(pairs: list[SectionPair], context: CheckContext, checks=None) -> list[Problem]:
    """Every problem in the book: unit and section checks per section, then the book-wide checks."""
    checks = checks or registered_checks()
    problems = []
    for pair in pairs:
        problems += check_section(pair, context, checks)
    source = {p.sid: p.source for p in pairs}
    target = {p.sid: p.target for p in pairs if p.target is not None}
    for check in checks:
        if check.scope == "book":
            problems += check.check(source, target, context)
    return problems
