"""Rulings' translations with CAT tools: PO and XLIFF (2.0 or 1.2), written and read by the workspace's own
exchange modules (rulesref/translation/exchange/), one unit per question or paragraph of an answer, with the
context ``ruling:<number>:question`` / ``ruling:<number>:<paragraph>``.

A ruling is translated from the language it was written in, which need not be its rulebook's: a file carries the
rulings to translate into one language (``to``), in their direction (a file of the rulings written in English
names English as its source language). An import is checked entry by entry as the book's is — unknown contexts, a
source changed since the export, a translation changed in the workspace since, QA errors — and writes one revision
per ruling changed, all or nothing unless partial.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext

from rulesref.reference.models import Book
from rulesref.translation.checks.base import ERROR
from rulesref.translation.checks.runner import check_units
from rulesref.translation.exchange.formats import translation_formats
from rulesref.translation.exchange.po import read_catalog
from rulesref.translation.exchange.units import ExportUnit, FileEntry, ImportProblem, target_digest
from rulesref.translation.exchange.xliff import read_xliff
from rulesref.translation.models import OUTDATED, Status

from . import quality, workflow
from .models import Ruling, RulingRevision
from .units import QUESTION, Unit, aligned, parse_context, text_units

def direction(book: Book, lang: str) -> Book:
    """The rulebook as the exchange modules see it for rulings translated into ``lang``: its source language is the
    other one (a copy: the row itself is not changed)."""
    view = copy.copy(book)
    view.source_language = "en" if lang == "ru" else "ru"
    return view


def _label(number: int, paragraph: int) -> str:
    if paragraph == QUESTION:
        return gettext("Ruling %(n)s, question") % {"n": number}
    return gettext("Ruling %(n)s, paragraph %(p)s of the answer") % {"n": number, "p": paragraph}


def _rulings(book: Book, lang: str):
    return (Ruling.objects.filter(book=book).exclude(source_language=lang).exclude(state=Ruling.State.WITHDRAWN)
            .order_by("number").prefetch_related("texts"))


def units_of(ruling: Ruling) -> tuple[list[Unit], str]:
    """A ruling's units in step with its current source, and its translation's state."""
    texts = {t.language: t for t in ruling.texts.all()}
    source, target = texts[ruling.source_language], texts[ruling.target_language]
    state = workflow.state_of(target, source)
    previous = None
    if state == OUTDATED:
        made_from = workflow.source_at(source, target.source_revision)
        previous = text_units(*made_from) if made_from else None
    return aligned(ruling.number, text_units(*workflow.current_source(source)),
                   text_units(target.question, target.answer), previous, outdated=state == OUTDATED), state


def export_units(book: Book, lang: str) -> list[ExportUnit]:
    out = []
    for ruling in _rulings(book, lang):
        units, state = units_of(ruling)
        glossary = quality.context(ruling).glossary
        for unit in units:
            hints = [(unit.source[m.start:m.end], m.term.term(lang), m.term.definition(lang))
                     for m in glossary.terms_in(unit.source, ruling.source_language)]
            out.append(ExportUnit(unit, _label(ruling.number, unit.paragraph), state, target_digest(unit.target),
                                  hints))
    return out


def export(book: Book, lang: str, fmt: str) -> tuple[bytes, str, str]:
    """The file, its content type and its name, in a registered format of units (``translation_formats``)."""
    exchange_format = translation_formats()[fmt]
    data = exchange_format.write(direction(book, lang), lang, export_units(book, lang))
    return data, exchange_format.content_type, exchange_format.filename(book, lang, "rulings")


@dataclass
class Change:
    ruling: Ruling
    units: list[Unit]
    targets: dict[int, str] = field(default_factory=dict)
    where: str = ""


@dataclass
class Result:
    problems: list[ImportProblem]
    changes: list[Change]
    unchanged: int
    total: int
    written: list[RulingRevision] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.problems


def _read(book: Book, lang: str, data: bytes, name: str) -> list[FileEntry]:
    view = direction(book, lang)
    looks_po = name.lower().endswith(".po") or (b"msgid" in data[:4000] and not data.lstrip().startswith(b"<"))
    entries, _exported = (read_catalog if looks_po else read_xliff)(data, view, lang)
    return entries


UNCHANGED = object()  # what _check answers for an entry that changes nothing


def _form_or_qa(change: Change, unit: Unit, target: str) -> str:
    """What is wrong with a unit's new text: its form (one paragraph), or the QA errors it would be saved with."""
    if "\n\n" in target or (unit.paragraph == QUESTION and "\n" in target):
        return gettext("broken structure: a unit is one paragraph")
    context = quality.context(change.ruling).at(unit.sid, unit.paragraph)
    errors = [p for p in check_units(unit.source, target, context) if p.severity == ERROR and p.check_id != "markup"]
    if errors:
        return gettext("QA errors: %(errors)s") % {"errors": "; ".join(f"{p.check_id}: {p.text()}" for p in errors)}
    return ""


class _Planner:
    """The check of one file's entries against the rulings as they stand: what each entry changes, or its problem."""

    def __init__(self, book: Book, lang: str):
        self.rulings = {r.number: r for r in _rulings(book, lang)}
        self.changes: dict[int, Change] = {}
        self.problems: list[ImportProblem] = []
        self.seen: set[str] = set()
        self.unchanged = 0

    def entry(self, entry: FileEntry) -> None:
        found = self._check(entry)
        if found is UNCHANGED:
            self.unchanged += 1
        elif isinstance(found, str):
            self.problems.append(ImportProblem(entry.where, entry.context, found))

    def _place(self, entry: FileEntry) -> tuple[Change, Unit] | str:
        """The ruling and unit an entry's context names, or what is wrong with it."""
        if entry.context in self.seen:
            return gettext("the same context is given twice")
        parsed = parse_context(entry.context)
        if parsed is None or parsed[0] not in self.rulings:
            return gettext("unknown context: expected “ruling:<number>:question” or “ruling:<number>:<paragraph>” "
                           "of a ruling to translate into this language")
        self.seen.add(entry.context)
        number, paragraph = parsed
        if number not in self.changes:
            units, _state = units_of(self.rulings[number])
            self.changes[number] = Change(self.rulings[number], units, where=entry.where)
        change = self.changes[number]
        unit = next((u for u in change.units if u.paragraph == paragraph), None)
        if unit is None:
            return gettext("unknown context: ruling %(n)s has no such paragraph") % {"n": number}
        return change, unit

    def _check(self, entry: FileEntry):
        """UNCHANGED, a problem (a message), or None once the entry's text is taken into its change."""
        if entry.error:
            return entry.error
        placed = self._place(entry)
        if isinstance(placed, str):
            return placed
        change, unit = placed
        target = entry.target.replace("\r\n", "\n").strip()
        if entry.source.replace("\r\n", "\n").strip() != unit.source:
            return gettext("the source text changed since this file was exported: export again and carry the "
                           "translation over")
        if not target or target == unit.target:
            return UNCHANGED
        if entry.base is not None and entry.base != target_digest(unit.target):
            return gettext("changed in the workspace since this file was exported: export again or merge in the "
                           "editor")
        problem = _form_or_qa(change, unit, target)
        if problem:
            return problem
        change.targets[unit.paragraph] = target
        return None

    def holes(self) -> None:
        """A change that would leave a paragraph of the answer empty before translated ones is refused whole."""
        for change in self.changes.values():
            blocks = [change.targets.get(u.paragraph, u.target) for u in change.units if u.paragraph > 0]
            last = max((n for n, b in enumerate(blocks, start=1) if b.strip()), default=0)
            hole = next((n for n, b in enumerate(blocks[:last], start=1) if not b.strip()), None)
            if change.targets and hole is not None:
                self.problems.append(ImportProblem(change.where, f"ruling:{change.ruling.number}:{hole}", gettext(
                    "paragraph %(n)s of the answer would stay empty before translated ones: translate it too") % {
                    "n": hole}))
                change.targets.clear()


def plan(book: Book, lang: str, entries: list[FileEntry]) -> Result:
    """Check every entry against the rulings as they stand; nothing is written."""
    planner = _Planner(book, lang)
    for entry in entries:
        planner.entry(entry)
    planner.holes()
    return Result(planner.problems, [c for c in planner.changes.values() if c.targets], planner.unchanged,
                  len(entries))


def apply(result: Result, lang: str, *, user, status: str, origin: str, filename: str, partial: bool) -> Result:
    """One revision per ruling changed; nothing unless the file is clean or ``partial``."""
    if result.problems and not partial:
        return result
    with transaction.atomic():
        for change in result.changes:
            target = change.ruling.texts.get(language=lang)
            question = change.targets.get(QUESTION, next(u.target for u in change.units if u.paragraph == QUESTION))
            answer = "\n\n".join(change.targets.get(u.paragraph, u.target) for u in change.units if u.paragraph > 0)
            saved = workflow.save_text(target, user=user, question=question, answer=answer, status=status,
                                       base_version=target.version, origin=origin,
                                       comment=gettext("imported from %(file)s") % {"file": filename})
            if saved.conflict:
                transaction.set_rollback(True)
                result.problems.append(ImportProblem(change.where, f"ruling:{change.ruling.number}", gettext(
                    "saved in the workspace while the file was being imported: nothing was written, import again")))
                result.written = []
                return result
            result.written.append(saved.revision)
    return result


def import_file(book: Book, lang: str, data: bytes, name: str, *, user, status: str, partial: bool) -> Result:
    entries = _read(book, lang, data, name)
    result = plan(book, lang, entries)
    origin = RulingRevision.Origin.PO if name.lower().endswith(".po") else RulingRevision.Origin.XLIFF
    if status not in (Status.DRAFT, Status.REVIEW, Status.APPROVED):
        status = Status.REVIEW
    return apply(result, lang, user=user, status=status, origin=origin, filename=name, partial=partial)
