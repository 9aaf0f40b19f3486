"""The format-independent half of PO/XLIFF exchange: what is exported, and how an imported file is validated and
applied."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from rulesref.reference.models import Book

from ..models import Revision, Status
from ..qa import check_context
from ..workflow import (
    Item,
    Unit,
    book_items,
    normalise_text,
    parse_unit_context,
    save_translation,
    section_units,
    units_text,
)
from .rules import (
    ENTRY_RULES,
    PLACE_RULES,
    SOURCE_RULES,
    TARGET_RULES,
    Incoming,
    Placed,
    first_problem,
    section_gap,
    target_digest,
)


class ExchangeError(ValueError):
    """A file that cannot be read at all (not PO/XLIFF, wrong book or language); says where."""


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
            hints = [(unit.source[m.start:m.end], m.term.term(lang), m.term.definition(lang))
                     for m in context.glossary.terms_in(unit.source, book.source_language)]
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


def plan_import(book: Book, lang: str, entries: list[FileEntry], exported_at: datetime | None = None) -> ImportPlan:
    """Validate every entry of a file against the workspace (the rules in rules.py, stage by stage); report every
    problem, write nothing."""
    planner = _Planner(book, lang, exported_at)
    for entry in entries:
        planner.take(entry)
    for change in planner.changes.values():
        planner.close(change)
    return ImportPlan(book, lang, planner.problems, [c for c in planner.changes.values() if c.targets or c.confirms],
                      planner.unchanged, len(entries))


class _Planner:
    """The state of one validation: the book's items, the sections met so far, the contexts seen, the problems."""

    def __init__(self, book: Book, lang: str, exported_at: datetime | None):
        self.book, self.exported_at = book, exported_at
        self.items = {i.section.sid: i for i in book_items(book, lang)}
        self.checks = check_context(book, lang)
        self.problems: list[ImportProblem] = []
        self.changes: dict[str, SectionChange] = {}
        self.seen: dict[str, str] = {}
        self.unchanged = 0

    def _problem(self, entry: FileEntry, message: str) -> None:
        self.problems.append(ImportProblem(entry.where, entry.context, message))

    def _units(self, sid: str) -> list[Unit] | None:
        """The section's units (read once per section, when an entry first names it), None: no such section."""
        item = self.items.get(sid)
        if item is None:
            return None
        if sid not in self.changes:
            units = section_units(item, self.book)
            self.changes[sid] = SectionChange(item, units.units, units.orphans)
        return self.changes[sid].units

    def take(self, entry: FileEntry) -> None:
        earlier = self.seen.get(entry.context)
        if not entry.error:
            self.seen.setdefault(entry.context, entry.where)
        message = first_problem(ENTRY_RULES, entry, earlier)
        if message:
            return self._problem(entry, message)
        sid, paragraph = parse_unit_context(entry.context)
        message = first_problem(PLACE_RULES, Placed(sid, paragraph, self._units(sid)))
        if message:
            return self._problem(entry, message)
        change = self.changes[sid]
        incoming = self._incoming(entry, change, paragraph)
        message = first_problem(SOURCE_RULES, incoming)
        if message:
            return self._problem(entry, message)
        change.entries.append(entry)
        if not entry.confirmed and incoming.target.strip():
            change.unconfirmed = True
        if not incoming.target.strip() or incoming.target == incoming.unit.target:
            self.unchanged += 1
            return None
        message = first_problem(TARGET_RULES, incoming)
        if message:
            return self._problem(entry, message)
        change.targets[paragraph] = incoming.target
        return None

    def _incoming(self, entry: FileEntry, change: SectionChange, paragraph: int) -> Incoming:
        t = change.item.translation
        return Incoming(next(u for u in change.units if u.paragraph == paragraph), normalise_text(entry.source),
                        normalise_text(entry.target), base=entry.base, exported_at=self.exported_at,
                        saved_at=t.updated_at, saved_by=_who(change.item), checks=self.checks)

    def close(self, change: SectionChange) -> None:
        """After every entry: whether the section is confirmed, and whether its new texts leave a gap."""
        _mark_confirmation(change)
        if not change.targets:
            return
        gap = section_gap(change.item.section.sid, change.units, change.targets)
        if gap is not None:
            paragraph, message = gap
            self.problems.append(ImportProblem(change.entries[0].where, f"{change.item.section.sid}:{paragraph}",
                                               message))
            change.targets.clear()
            change.confirms = False


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

