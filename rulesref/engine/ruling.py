"""Ruling, Finding and Citation: what every engine question returns.

A Ruling is the engine's answer: a verdict (yes / no / undetermined), one Finding per rule clause checked, and a
question-specific ``result`` (hexes, paths, costs, chances) that the web layer may draw. Every finding names the
clause it applied as ``book:clause`` (``mpbs:9.3.1c``); a test proves each citable clause exists in the corpus.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any, Iterable

from .i18n import Message, msg


class Verdict(str, enum.Enum):
    YES = "yes"
    NO = "no"
    UNDETERMINED = "undetermined"


class Status(str, enum.Enum):
    PASS = "pass"
    FAIL = "fail"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Citation:
    """A clause of a rulebook: ``Citation("mpbs", "9.3.1c")``; ``section`` is the section that holds it.

    ``outside`` marks a rule the engine applies that the corpus does not contain (``rulesref.engine.outside``):
    its ``clause`` is the rule's id there, it has no section, and it is written ``t9a:outside:charge-range``.
    ``term`` is the key term of what the finding applies, which the clause's corpus text contains (Russian, as
    the source prints it; tests/engine/test_citation_terms.py checks it); it does not tell citations apart.
    """

    book: str
    clause: str
    outside: bool = False
    term: str = field(default="", compare=False)

    def on(self, term: str) -> "Citation":
        """The same clause, cited for what ``term`` names in its text."""
        return replace(self, term=term)

    @property
    def section(self) -> str:
        if self.outside:
            return ""
        # A lettered case (9.3.1c, 10.9.3b) is a labelled paragraph of its section (9.3.1).
        clause = self.clause
        if clause and clause[-1].isalpha() and clause[-1].islower() and clause[:-1][-1:].isdigit():
            return clause[:-1]
        return clause

    def __str__(self) -> str:
        return f"{self.book}:outside:{self.clause}" if self.outside else f"{self.book}:{self.clause}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario or a question's parameters: where (``units[3].facing``), what, and which
    unit it concerns.

    ``unit`` is the id of the unit of the scenario the problem is about (its own fields, its place on the map, a
    reference it makes); ``others`` are the other units it is about (the unit another one overlaps). Both only
    ever name units the scenario lists: a reference to an unknown id concerns the unit that makes it, or none.
    """

    path: str
    message: Message | str
    unit: str | None = None
    others: tuple[str, ...] = ()

    def render(self, lang: str = "en") -> str:
        return self.message.render(lang) if isinstance(self.message, Message) else str(self.message)

    def concerns(self, unit_id: str) -> bool:
        """Whether the problem is about this unit, as its unit or as one of the others."""
        return unit_id == self.unit or unit_id in self.others


def as_problem(item: Problem | tuple) -> Problem:
    """A Problem from a Problem or a ``(path, message)`` / ``(path, message, unit)`` tuple."""
    if isinstance(item, Problem):
        return item
    return Problem(*item)


# The most problems one error lists: past them, one more says that there are more (a scenario of a megabyte can
# have tens of thousands, which nobody reads and which would cost more to word than to find).
MAX_PROBLEMS = 100


class InvalidScenarioError(ValueError):
    """A scenario (or question parameters) that cannot be read: every problem with its path (the first
    MAX_PROBLEMS of them).

    A problem's message is a :class:`Message` (or, where none fits, English text); ``problems`` holds them in
    English, ``in_language`` in the reader's, ``problem_units`` with the unit each concerns; ``items`` are the
    :class:`Problem` objects themselves.
    """

    def __init__(self, problems: Iterable[Problem | tuple]):
        items = [replace(p, path=p.path or "(root)") for p in map(as_problem, islice(problems, MAX_PROBLEMS + 1))]
        if len(items) > MAX_PROBLEMS:
            items[MAX_PROBLEMS:] = [Problem("(root)", msg(
                "more problems are not listed: correct these {n} first", n=MAX_PROBLEMS))]
        self.items: tuple[Problem, ...] = tuple(items)
        self.messages = [(p.path, p.message) for p in self.items]
        self.problems = self.in_language("en")
        super().__init__("; ".join(f"{path}: {message}" for path, message in self.problems))

    def in_language(self, lang: str) -> list[tuple[str, str]]:
        return [(p.path, p.render(lang)) for p in self.items]

    def problem_units(self, lang: str) -> list[tuple[str, str, str | None]]:
        """(path, message in ``lang``, the id of the unit the problem concerns or None) for each problem."""
        return [(p.path, p.render(lang), p.unit) for p in self.items]

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        problems = []
        for p in self.items:
            item = {"path": p.path, "message": p.render(lang)}
            if p.unit is not None:
                item["unit"] = p.unit
            problems.append(item)
        return {"error": "invalid scenario", "problems": problems}


@dataclass(frozen=True)
class Finding:
    """What one clause says of the scenario, in words for players; the names of code are data beside the words.

    ``field`` is the scenario field (a path, ``moment.event.movement_trigger``, ``units[].missile_weapons``) the
    player may fill in to decide what the finding leaves open; ``source`` is where a value the corpus does not print
    comes from (a table row's provenance, a document of the project's interpretations). ``to_dict(details=True)``
    adds them, each only when given, for those who edit scenarios; without ``details`` the dict keeps the three
    keys the API's published contract (rulesref/checker/openapi.py) allows.
    """

    citation: Citation
    status: Status
    message: Message
    field: str = ""
    source: str = ""

    def to_dict(self, lang: str = "en", details: bool = False) -> dict[str, Any]:
        out = {"clause": str(self.citation), "status": self.status.value, "message": self.message.render(lang)}
        if details and self.field:
            out["field"] = self.field
        if details and self.source:
            out["source"] = self.source
        return out


@dataclass(frozen=True)
class Ruling:
    question: str
    verdict: Verdict
    findings: tuple[Finding, ...]
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def citations(self) -> tuple[Citation, ...]:
        return tuple(f.citation for f in self.findings)

    def to_dict(self, lang: str = "en", details: bool = False) -> dict[str, Any]:
        """The ruling as JSON-ready data; ``details`` adds each finding's field and source (``Finding``)."""
        return {
            "question": self.question,
            "verdict": self.verdict.value,
            "findings": [f.to_dict(lang, details) for f in self.findings],
            "result": _plain(self.result, lang),
        }


def verdict_from(findings: Iterable[Finding]) -> Verdict:
    """The usual conjunction: any failed clause says no; else any unknown clause leaves it undetermined."""
    statuses = {f.status for f in findings}
    if Status.FAIL in statuses:
        return Verdict.NO
    if Status.UNKNOWN in statuses:
        return Verdict.UNDETERMINED
    return Verdict.YES


def unless_undetermined(findings: Iterable[Finding], decided: Verdict) -> Verdict:
    """``decided`` when every finding is decided, else undetermined: for a question whose answer the findings do not
    make by conjunction (a clause that rules out one option of several fails without making the answer no), the one
    place where an unknown clause still leaves it undetermined."""
    return Verdict.UNDETERMINED if any(f.status is Status.UNKNOWN for f in findings) else decided


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any, lang: str) -> Any:
    """Result data as JSON-ready values: Messages rendered, enums by value, tuples as lists."""
    kind = type(value)
    if kind in _SCALARS:
        return value  # most of a result: labels and numbers, answered before the other tests
    if (kind is list or kind is tuple) and all(type(v) in _SCALARS for v in value):
        return list(value)  # a path's or a placement's labels: tens of thousands in the largest answers
    if isinstance(value, Message):
        return value.render(lang)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): _plain(v, lang) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_plain(v, lang) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if hasattr(value, "to_dict"):
        return _plain(value.to_dict(), lang)
    return value
