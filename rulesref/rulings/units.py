"""A ruling's text as units of translation, as a section's is: the question is one unit (in the place of a
section's title, paragraph 0), each paragraph of the answer another (1…). QA, the translation memory and PO/XLIFF
all see a ruling through these units."""
from __future__ import annotations

from dataclasses import dataclass

from rulesref.reference.corpus import split_blocks
from rulesref.translation.checks.base import TextUnits

QUESTION = 0


def text_units(question: str, answer: str) -> TextUnits:
    return TextUnits(question, tuple(split_blocks(answer)))


def unit_context(number: int, paragraph: int) -> str:
    """``ruling:12:question``, ``ruling:12:2`` (the second paragraph of the answer)."""
    return f"ruling:{number}:{'question' if paragraph == QUESTION else paragraph}"


def parse_context(context: str) -> tuple[int, int] | None:
    parts = context.split(":")
    if len(parts) != 3 or parts[0] != "ruling" or not parts[1].isdigit() or parts[1].startswith("0"):
        return None
    if parts[2] == "question":
        return int(parts[1]), QUESTION
    if parts[2].isdigit() and not parts[2].startswith("0"):
        return int(parts[1]), int(parts[2])
    return None


@dataclass
class Unit:
    """One unit of a ruling: its source, its translation and, for an outdated translation, the source it was made
    from when that differs (the shape of the workspace's ``workflow.Unit``, which the PO/XLIFF writers take)."""

    number: int
    paragraph: int
    source: str
    target: str
    outdated: bool = False
    previous: str | None = None

    @property
    def context(self) -> str:
        return unit_context(self.number, self.paragraph)

    @property
    def sid(self) -> str:
        return f"ruling:{self.number}"


def aligned(number: int, source: TextUnits, target: TextUnits, previous: TextUnits | None = None,
            outdated: bool = False) -> list[Unit]:
    """The units of a ruling, its translation aligned paragraph by paragraph (and the source it was made from, for an
    outdated one, where it differs)."""
    def before(paragraph: int, now: str) -> str | None:
        if previous is None:
            return None
        old = previous.unit(paragraph)
        return old if old is not None and old != now else None

    units = [Unit(number, QUESTION, source.title, target.title, outdated and before(QUESTION, source.title) is not
                  None, before(QUESTION, source.title))]
    for n, block in enumerate(source.blocks, start=1):
        old = before(n, block)
        units.append(Unit(number, n, block, target.unit(n) or "", outdated and (old is not None or previous is None),
                          old))
    return units
