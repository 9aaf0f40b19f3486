"""What each engine does with each clause of its rulebook, declared on the rule functions themselves.

A rule function says which clauses it decides with ``@decides(book, clause, ...)``, and which it must leave
undetermined by design — the corpus lacks a table row, a chart or a rule — with ``@undetermined_without(book,
clause, needs=msg(...))`` naming the data that would decide it. The declarations are collected when the engine
modules are imported, so a new rule function shows up in the coverage map (``/<lang>/rules/<book>/coverage/``)
without a list to maintain. A clause no rule function declares is not modelled.

tests/engine/test_coverage.py fails when a clause is declared decided but no example scenario
(``fixtures/scenarios/<book>/``) has a question whose answer decides it (a finding on it that passes or fails).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, TypeVar

from .i18n import Message

F = TypeVar("F", bound=Callable)


class Treatment(str, enum.Enum):
    DECIDES = "decides"
    UNDETERMINED = "undetermined"  # by design: the corpus lacks what would decide it
    NOT_MODELLED = "not-modelled"


@dataclass(frozen=True)
class Declaration:
    """One rule function's claim about one clause: it decides it, or leaves it undetermined without ``needs``."""

    book: str
    clause: str
    treatment: Treatment
    rule: str  # the rule function, module.qualname
    needs: Message | None = None


_DECLARED: list[Declaration] = []


def _rule_name(function: Callable) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def decides(book: str, *clauses: str) -> Callable[[F], F]:
    """Declare that the decorated rule function decides ``clauses`` of ``book`` (its findings on them pass or
    fail)."""
    if not clauses:
        raise ValueError("@decides names at least one clause")

    def register(function: F) -> F:
        for clause in clauses:
            _DECLARED.append(Declaration(book, clause, Treatment.DECIDES, _rule_name(function)))
        return function

    return register


def undetermined_without(book: str, clause: str, *, needs: Message) -> Callable[[F], F]:
    """Declare that the decorated rule function leaves ``clause`` undetermined unless the scenario supplies what
    ``needs`` names (the corpus does not contain it)."""

    def register(function: F) -> F:
        _DECLARED.append(Declaration(book, clause, Treatment.UNDETERMINED, _rule_name(function), needs))
        return function

    return register


def declarations(book: str) -> tuple[Declaration, ...]:
    """Every declaration of ``book``'s engine, in the order the rule functions were defined."""
    from . import book_engine

    book_engine(book)  # importing the engine runs the declarations of its rule functions
    return tuple(d for d in _DECLARED if d.book == book)


def declared_clauses(book: str, treatment: Treatment) -> frozenset[str]:
    return frozenset(d.clause for d in declarations(book) if d.treatment is treatment)


@dataclass(frozen=True)
class Exercise:
    """One example question whose answer has a finding on a clause: the example, the question's index and name,
    and whether it decided the clause there (a finding on it passed or failed) or left it undetermined."""

    example: str
    index: int
    question: str
    decided: bool


def exercises(book: str, examples: dict[str, dict]) -> dict[str, list[Exercise]]:
    """Clause (``outside:<id>`` for a rule outside the corpus) -> the example questions whose answers cite it, from
    asking the engine each question of each example
    scenario (``{slug: scenario data with its "questions"}``); questions that expect an error are skipped."""
    from . import ask
    from .ruling import InvalidScenarioError

    found: dict[str, dict[tuple[str, int], Exercise]] = {}
    for slug, data in sorted(examples.items()):
        scenario = {k: v for k, v in data.items() if k != "questions"}
        for index, item in enumerate(data.get("questions") or []):
            if not isinstance(item, dict) or (item.get("expect") or {}).get("error"):
                continue
            question = str(item.get("question", ""))
            try:
                ruling = ask(book, question, scenario, item.get("params") or {})
            except (InvalidScenarioError, LookupError):
                continue
            _note_exercises(found, book, ruling.findings, slug, index, question)
    return {clause: list(by_question.values()) for clause, by_question in found.items()}


def _note_exercises(found: dict[str, dict[tuple[str, int], "Exercise"]], book: str, findings, slug: str, index: int,
                    question: str) -> None:
    """Each clause of ``book`` the findings of one example question cite, as exercised by it: decided if any of its
    findings on the clause passes or fails."""
    from .ruling import Status

    key = (slug, index)
    for f in findings:
        if f.citation.book != book:
            continue
        clause = f"outside:{f.citation.clause}" if f.citation.outside else f.citation.clause
        seen = found.setdefault(clause, {})
        decided = f.status is not Status.UNKNOWN or (key in seen and seen[key].decided)
        seen[key] = Exercise(slug, index, question, decided)
