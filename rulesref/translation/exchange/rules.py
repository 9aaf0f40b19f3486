"""The rules an imported PO or XLIFF entry must pass before it is written, one small function each.

A rule takes plain data and returns what is wrong (a translated message) or None; ``plan_import`` (units.py) runs
the rules of each stage in order and reports the first problem of an entry, as a translator reads it: an entry
that names no unit is not also said to have a changed source. The stages, and the rules in them:

1. the entry alone (``ENTRY_RULES``): the reader found it broken; its context came earlier in the file; its context
   is not ``section:paragraph``;
2. the place it names (``PLACE_RULES``): no translatable section of that id; no such title or paragraph in it;
3. its source (``SOURCE_RULES``): not the workspace's source any more (exported before the source changed);
4. its target, when it brings a new text (``TARGET_RULES``): the workspace changed the text since the export; the
   file cannot tell whether it did; the text would break the corpus file or the source's structure, or carries a
   control character (controls.py); the QA checks find an error in it;
5. the section, after every entry (``section_gap``): a paragraph would stay empty before translated ones.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext

from rulesref.reference.corpus import digest

from ..checks.base import ERROR, CheckContext, format_message
from ..checks.runner import check_units
from ..checks.structure import markup_problems
from ..forms import corpus_syntax_errors
from ..workflow import Unit, gaps, parse_unit_context
from .controls import control_characters


def target_digest(text: str) -> str:
    """What an export writes as an entry's base: the digest of the translation it exported."""
    return digest(text)


@dataclass(frozen=True)
class Placed:
    """Where an entry's context points: a section id and paragraph (0: the title), and the units the workspace has
    for that section (None: the book has no translatable section of that id)."""

    sid: str
    paragraph: int
    units: Sequence[Unit] | None


@dataclass(frozen=True)
class Incoming:
    """An entry matched with its workspace unit: the texts it brings (line ends normalised) and what the target
    rules need to know of the workspace and of the export."""

    unit: Unit
    source: str
    target: str
    base: str | None = None  # the digest the export wrote, when the file kept it
    exported_at: datetime | None = None  # when the file says it was exported
    saved_at: datetime | None = None  # when the workspace's translation of the section was last saved
    saved_by: str = ""  # who saved it
    checks: CheckContext | None = None  # the book's QA context (None: no QA checks run)


# ---------------------------------------------------------------------------------------------------- 1. the entry


def reader_error(entry, earlier: str | None) -> str | None:
    """The reader of the format already found the entry broken (a plural PO entry, an XLIFF unit with no source)."""
    return entry.error or None


def repeated_context(entry, earlier: str | None) -> str | None:
    """A context is one unit: a second entry with it is refused, naming where the first one is."""
    if earlier is None:
        return None
    return gettext("the same context is already at %(where)s") % {"where": earlier}


def malformed_context(entry, earlier: str | None) -> str | None:
    """A context is ``section:paragraph`` or ``section:title``."""
    if parse_unit_context(entry.context) is not None:
        return None
    return gettext("unknown context: expected “section:paragraph” such as “9.3.1:2” or “9.3.1:title”")


ENTRY_RULES: tuple[Callable, ...] = (reader_error, repeated_context, malformed_context)


# ---------------------------------------------------------------------------------------------------- 2. the place


def unknown_section(placed: Placed) -> str | None:
    """The section must be one the workspace translates (not absent, with a source text)."""
    if placed.units is not None:
        return None
    return gettext("unknown context: the rulebook has no translatable section “%(sid)s”") % {"sid": placed.sid}


def unknown_unit(placed: Placed) -> str | None:
    """The title or paragraph must exist in the section's source."""
    units = placed.units or ()
    if any(u.paragraph == placed.paragraph for u in units):
        return None
    if placed.paragraph == 0:
        part = gettext("title")
    else:
        part = gettext("paragraph %(n)s (it has %(count)s)") % {
            "n": placed.paragraph, "count": sum(1 for u in units if u.paragraph > 0)}
    return gettext("unknown context: section %(sid)s has no %(part)s") % {"sid": placed.sid, "part": part}


PLACE_RULES: tuple[Callable, ...] = (unknown_section, unknown_unit)


# ---------------------------------------------------------------------------------------------------- 3. the source


def source_changed(incoming: Incoming) -> str | None:
    """A translation is of one source text: if the source changed since the export, it is not taken."""
    if incoming.source == incoming.unit.source:
        return None
    return gettext("the source text changed since this file was exported: export again and carry the translation "
                   "over")


SOURCE_RULES: tuple[Callable, ...] = (source_changed,)


# ---------------------------------------------------------------------------------------------------- 4. the target


def changed_since_export(incoming: Incoming) -> str | None:
    """The file's base digest is the text it was exported with: another text in the workspace now means someone
    saved in between, and importing would overwrite that."""
    if incoming.base is None or incoming.base == target_digest(incoming.unit.target):
        return None
    return gettext("changed in the workspace since this file was exported (by %(who)s): your text and the current "
                   "one differ; export again or merge in the editor") % {"who": incoming.saved_by}


def unknown_since_export(incoming: Incoming) -> str | None:
    """Without a base digest only the export time can tell: it must be known and after the section's last save."""
    if incoming.base is not None:
        return None
    if incoming.exported_at is not None and not (incoming.saved_at and incoming.saved_at >= incoming.exported_at):
        return None
    return gettext("cannot tell whether the workspace changed this text since export (the file has no export marks, "
                   "or the section was saved after the export): export again")


def structure_errors(source: str, target: str, is_title: bool) -> list[str]:
    """What would break the corpus file or the source's structure, and the control characters (controls.py)."""
    errors = corpus_syntax_errors(target, is_title)
    for message, params in markup_problems(source, target, is_title):
        text = format_message(message, params)
        if text not in errors:
            errors.append(text)
    controls = control_characters(target)
    if controls:
        errors.append(gettext("control characters %(chars)s in the text") % {"chars": ", ".join(controls[:5])})
    return errors


def broken_structure(incoming: Incoming) -> str | None:
    """The text must be storable as it is: no heading line, no blank line in a paragraph, the source's markup, no
    control character."""
    errors = structure_errors(incoming.unit.source, incoming.target, incoming.unit.paragraph == 0)
    return gettext("broken structure: %(errors)s") % {"errors": "; ".join(errors)} if errors else None


def qa_errors(incoming: Incoming) -> str | None:
    """The QA checks' errors (their warnings do not stop an import; markup is the structure rule's)."""
    if incoming.checks is None:
        return None
    unit = incoming.unit
    found = [p for p in check_units(unit.source, incoming.target, incoming.checks.at(unit.sid, unit.paragraph))
             if p.severity == ERROR and p.check_id != "markup"]
    if not found:
        return None
    return gettext("QA errors: %(errors)s") % {"errors": "; ".join(f"{p.check_id}: {p.text()}" for p in found)}


TARGET_RULES: tuple[Callable, ...] = (changed_since_export, unknown_since_export, broken_structure, qa_errors)


# ---------------------------------------------------------------------------------------------------- 5. the section


def section_gap(sid: str, units: Sequence[Unit], targets: dict[int, str]) -> tuple[int, str] | None:
    """A translation's paragraphs are stored in order: the imported texts may not leave a paragraph empty before a
    translated one. The paragraph and the message, or None."""
    holes = gaps([targets.get(u.paragraph, u.target) for u in units if u.paragraph > 0])
    if not holes:
        return None
    return holes[0], gettext("paragraph %(n)s of section %(sid)s would stay empty before translated ones: a "
                             "section's paragraphs are stored in order, so translate it too") % {
                                 "n": holes[0], "sid": sid}


def first_problem(rules: Sequence[Callable], *subject) -> str | None:
    """The first problem the rules find, in their order (None: the subject passes them all)."""
    for rule in rules:
        message = rule(*subject)
        if message:
            return message
    return None
