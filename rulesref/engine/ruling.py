"""Ruling, Finding and Citation: what every engine question returns.

A Ruling is the engine's answer: a verdict (yes / no / undetermined), one Finding per rule clause checked, and a
question-specific ``result`` (hexes, paths, costs, chances) that the web layer may draw. Every finding names the
clause it applied as ``book:clause`` (``mpbs:9.3.1c``); a test proves each citable clause exists in the corpus.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Iterable

from .i18n import Message


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
    """A clause of a rulebook: ``Citation("mpbs", "9.3.1c")``; ``section`` is the section that holds it."""

    book: str
    clause: str

    @property
    def section(self) -> str:
        # A lettered case (9.3.1c, 10.9.3b) is a labelled paragraph of its section (9.3.1).
        clause = self.clause
        if clause and clause[-1].isalpha() and clause[-1].islower() and clause[:-1][-1:].isdigit():
            return clause[:-1]
        return clause

    def __str__(self) -> str:
        return f"{self.book}:{self.clause}"


class InvalidScenarioError(ValueError):
    """A scenario (or question parameters) that cannot be read: every problem with its path.

    A problem's message is a :class:`Message` (or, where none fits, English text); ``problems`` holds them in
    English, ``in_language`` in the reader's.
    """

    def __init__(self, problems: Iterable[tuple[str, Message | str]]):
        self.messages = [(path or "(root)", message) for path, message in problems]
        self.problems = self.in_language("en")
        super().__init__("; ".join(f"{path}: {message}" for path, message in self.problems))

    def in_language(self, lang: str) -> list[tuple[str, str]]:
        return [(path, m.render(lang) if isinstance(m, Message) else str(m)) for path, m in self.messages]

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"error": "invalid scenario",
                "problems": [{"path": p, "message": m} for p, m in self.in_language(lang)]}


@dataclass(frozen=True)
class Finding:
    citation: Citation
    status: Status
    message: Message

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"clause": str(self.citation), "status": self.status.value, "message": self.message.render(lang)}


@dataclass(frozen=True)
class Ruling:
    question: str
    verdict: Verdict
    findings: tuple[Finding, ...]
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def citations(self) -> tuple[Citation, ...]:
        return tuple(f.citation for f in self.findings)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "question": self.question,
            "verdict": self.verdict.value,
            "findings": [f.to_dict(lang) for f in self.findings],
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


def _plain(value: Any, lang: str) -> Any:
    """Result data as JSON-ready values: Messages rendered, enums by value, tuples as lists."""
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
