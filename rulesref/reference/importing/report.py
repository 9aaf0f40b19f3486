"""What an import reports: every line dropped, every guess, every label rejected, every error."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..corpus import SectionDoc


@dataclass
class Dropped:
    line: int
    reason: str
    text: str


@dataclass
class Note:
    """Something the importer guessed or could not do, at a line of the text."""

    line: int
    message: str


@dataclass
class Correction:
    section: str
    lang: str
    wrong: str
    right: str
    note: str = ""


@dataclass
class Rejected:
    """A label that begins a line but was not made a heading, and why."""

    line: int
    label: str
    reason: str


@dataclass
class Glued:
    """A label a PDF extraction printed with the page number before it (``176.2`` for page 17's ``6.2``), read as
    the label that continues the numbering."""

    line: int
    printed: str
    number: str
    page: str


@dataclass
class ImportResult:
    sections: list[SectionDoc]
    dropped: list[Dropped] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    guesses: list[Note] = field(default_factory=list)
    unplaced: list[Dropped] = field(default_factory=list)
    errors: list[Note] = field(default_factory=list)
    scheme: list[str] = field(default_factory=list)  # what the importer read the numbering as, in words
    rejected: list[Rejected] = field(default_factory=list)  # labels that begin a line but continue no numbering
    glued: list[Glued] = field(default_factory=list)  # labels read without the page number glued to them


