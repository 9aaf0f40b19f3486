"""The format-independent half of PO/XLIFF exchange: what is exported, and how an imported file is validated and
applied."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from rulesref.reference.corpus import digest
from rulesref.reference.models import Book

from ..checks.base import ERROR, format_message
from ..checks.runner import check_units
from ..checks.structure import markup_problems
from ..forms import corpus_syntax_errors
from ..models import Revision, Status
from ..qa import check_context
from ..workflow import (
    Item,
    Unit,
    book_items,
    gaps,
    normalise_text,
    parse_unit_context,
    save_translation,
    section_units,
    units_text,
)


class ExchangeError(ValueError):
    """A file that cannot be read at all (not PO/XLIFF, wrong book or language); says where."""


def target_digest(text: str) -> str:
    return digest(text)


@dataclass
class ExportUnit:
    unit: Unit
    label: str  # "9.3.1 Eligibility, paragraph 2"
    status: str  # the section's state: missing, draft, review, approved, outdated
    base: str  # digest of the exported target text, to tell on import whether the workspace changed since
    hints: list[tuple[str, str, str]] = field(default_factory=list)  # (source term, required translation, definition)

    @property
    def fuzzy(self) -> bool:
        return self.unit.outdated and bool(self.unit.target)


def _label(item: Item, paragraph: int) -> str:
    section = f"{item.section.sid} {item.source.title}".strip()
    if paragraph == 0:
        return gettext("%(section)s, title") % {"section": section}
    return gettext("%(section)s, paragraph %(n)s") % {"section": section, "n": paragraph}


def export_units(book: Book, lang: str) -> list[ExportUnit]:
    context = check_context(book, lang)
    out = []
    for item in book_items(book, lang):
        for unit in section_units(item, book).units:
            hints, seen = [], set()
            for match in context.glossary.find(unit.source, book.source_language):
                if match.forbidden or match.term.id in seen:
                    continue
                seen.add(match.term.id)
                hints.append((unit.source[match.start:match.end], match.term.term(lang), match.term.definition(lang)))
            out.append(ExportUnit(unit, _label(item, unit.paragraph), item.state, target_digest(unit.target), hints))
    return out


@dataclass
class FileEntry:
    """One unit read from a file."""

    context: str
    source: str
    target: str
    where: str  # "line 42" / "unit 9.3.1:2", for messages
    confirmed: bool = True  # not fuzzy (PO) / not in the "initial" state (XLIFF)
    base: str | None = None  # the digest written at export, when the file kept it
    error: str | None = None  # what the reader already found wrong with the entry


@dataclass
class ImportProblem:
    where: str
    context: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.context}: {self.message}" if self.context else f"{self.where}: {self.message}"


@dataclass
class SectionChange:
    item: Item
    units: list[Unit]
    orphans: list[str]
    targets: dict[int, str] = field(default_factory=dict)
    entries: list[FileEntry] = field(default_factory=list)
    unconfirmed: bool = False
    confirms: bool = False


@dataclass
class ImportPlan:
    book: Book
    lang: str
    problems: list[ImportProblem]
    changes: list[SectionChange]
    unchanged: int
    total: int
    applied: list[Revision] = field(default_factory=list)
    written: bool = False

    @property
    def clean(self) -> bool:
        return not self.problems


CONTROL_OK = {"\n", "\t"}


def _control_characters(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in text if unicodedata.category(c) == "Cc" and c not in CONTROL_OK]


def plan_import(book: Book, lang: str, entries: list[FileEntry], exported_at: datetime | None = None) -> ImportPlan:
    """Validate every entry of a file against the workspace; report every problem, write nothing."""
    items = {i.section.sid: i for i in book_items(book, lang)}
    context = check_context(book, lang)
    problems: list[ImportProblem] = []
    changes: dict[str, SectionChange] = {}
    seen: dict[str, str] = {}
    unchanged = 0
    for entry in entries:
        def problem(message: str, entry: FileEntry = entry) -> None:
            problems.append(ImportProblem(entry.where, entry.context, message))

        if entry.error:
            problem(entry.error)
            continue
        if entry.context in seen:
            problem(gettext("the same context is already at %(where)s") % {"where": seen[entry.context]})
            continue
        seen[entry.context] = entry.where
        parsed = parse_unit_context(entry.context)
        if parsed is None:
            problem(gettext("unknown context: expected “section:paragraph” such as “9.3.1:2” or “9.3.1:title”"))
            continue
        sid, paragraph = parsed
        item = items.get(sid)
        if item is None:
            problem(gettext("unknown context: the rulebook has no translatable section “%(sid)s”") % {"sid": sid})
            continue
        if sid not in changes:
            units = section_units(item, book)
            changes[sid] = SectionChange(item, units.units, units.orphans)
        change = changes[sid]
        unit = next((u for u in change.units if u.paragraph == paragraph), None)
        if unit is None:
            problem(gettext("unknown context: section %(sid)s has no %(part)s") % {
                "sid": sid, "part": gettext("title") if paragraph == 0 else
                gettext("paragraph %(n)s (it has %(count)s)") % {
                    "n": paragraph, "count": sum(1 for u in change.units if u.paragraph > 0)}})
            continue
        source, target = normalise_text(entry.source), normalise_text(entry.target)
        if source != unit.source:
            problem(gettext("the source text changed since this file was exported: export again and "
                            "carry the translation over"))
            continue
        change.entries.append(entry)
        if not entry.confirmed and target.strip():
            change.unconfirmed = True
        if not target.strip() or target == unit.target:
            unchanged += 1
            continue
        if entry.base is not None:
            if entry.base != target_digest(unit.target):
                problem(gettext("changed in the workspace since this file was exported (by %(who)s): "
                                "your text and the current one differ; export again or merge in the editor")
                        % {"who": _who(item)})
                continue
        elif exported_at is None or (item.translation.updated_at and item.translation.updated_at >= exported_at):
            problem(gettext("cannot tell whether the workspace changed this text since export (the file has no "
                            "export marks, or the section was saved after the export): export again"))
            continue
        errors = corpus_syntax_errors(target, paragraph == 0)
        errors += [format_message(m, p) for m, p in markup_problems(unit.source, target, paragraph == 0)
                   if format_message(m, p) not in errors]
        controls = _control_characters(target)
        if controls:
            errors.append(gettext("control characters %(chars)s in the text") % {"chars": ", ".join(controls[:5])})
        if errors:
            problem(gettext("broken structure: %(errors)s") % {"errors": "; ".join(errors)})
            continue
        qa = [p for p in check_units(unit.source, target, context.at(sid, paragraph))
              if p.severity == ERROR and p.check_id != "markup"]
        if qa:
            problem(gettext("QA errors: %(errors)s") % {"errors": "; ".join(f"{p.check_id}: {p.text()}" for p in qa)})
            continue
        change.targets[paragraph] = target
    for sid, change in changes.items():
        _mark_confirmation(change)
        if change.targets:
            blocks = [change.targets.get(u.paragraph, u.target) for u in change.units if u.paragraph > 0]
            holes = gaps(blocks)
            if holes:
                first = change.entries[0]
                problems.append(ImportProblem(first.where, f"{sid}:{holes[0]}", gettext(
                    "paragraph %(n)s of section %(sid)s would stay empty before translated ones: a section's "
                    "paragraphs are stored in order, so translate it too") % {"n": holes[0], "sid": sid}))
                change.targets.clear()
                change.confirms = False
    plan = ImportPlan(book, lang, problems, [c for c in changes.values() if c.targets or c.confirms],
                      unchanged, len(entries))
    return plan


def _who(item: Item) -> str:
    t = item.translation
    return t.updated_by.get_username() if t.updated_by else gettext("the corpus files or a command")


def _mark_confirmation(change: SectionChange) -> None:
    """An outdated section whose every unit came in confirmed (no fuzzy flag / past "initial") is brought up to
    date, even where the text stayed the same: the translator has checked it against the new source."""
    covered = {parse_unit_context(e.context)[1] for e in change.entries if e.confirmed and e.target.strip()}
    every_unit = covered >= {u.paragraph for u in change.units}
    change.confirms = (change.item.outdated and every_unit and not change.unconfirmed)


def apply_import(plan: ImportPlan, *, user, status: str, origin: str, filename: str, partial: bool = False) -> ImportPlan:
    """Write the plan's changes, one revision per changed section. Without ``partial`` nothing is written unless
    the whole file is clean; with it, the clean entries are written and the others reported."""
    if plan.problems and not partial:
        return plan
    with transaction.atomic():
        for change in plan.changes:
            item = change.item
            title, body = units_text(change.units, change.targets, change.orphans)
            t = item.translation
            if change.confirms or not item.outdated or t.status == Status.MISSING:
                revision = item.current_revision
            else:
                revision = t.source_revision
            new_status = Status.DRAFT if change.unconfirmed else status
            changed = sorted(change.targets)
            names = ", ".join(gettext("title") if n == 0 else str(n) for n in changed)
            comment = (gettext("imported from %(file)s (paragraphs: %(which)s)") % {"file": filename, "which": names}
                       if changed else gettext("confirmed against the new source in %(file)s") % {"file": filename})
            result = save_translation(t, user=user, title=title, body=body, status=new_status,
                                      base_version=t.version, source_revision=revision, comment=comment[:500],
                                      origin=origin)
            if result.conflict:  # saved by someone between validation and writing: write nothing at all
                transaction.set_rollback(True)
                plan.problems.append(ImportProblem(change.entries[0].where, item.section.sid, gettext(
                    "saved in the workspace while the file was being imported: nothing was written, import again")))
                plan.applied = []
                return plan
            plan.applied.append(result.revision)
    plan.written = bool(plan.applied)  # each save queued the book's QA task (qa.py)
    return plan


def status_for_import(requested: str) -> str:
    return requested if requested in (Status.DRAFT, Status.REVIEW, Status.APPROVED) else Status.REVIEW

