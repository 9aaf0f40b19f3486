"""The rules engine: pure Python, no Django.

``ask(book, question, scenario, params)`` is the one entry point the CLI, the JSON API and the checker pages use.
Each rulebook package exposes ``QUESTIONS`` (name -> callable(scenario, params) -> Ruling), ``load_scenario(data)``
(raises InvalidScenarioError listing every problem by its path), ``limits()`` (the most a scenario may hold, from
its schema) and ``CITABLE_CLAUSES`` (every clause id it can cite).
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .ruling import InvalidScenarioError, Ruling

BOOKS = ("mpbs", "t9a")


class UnknownQuestionError(LookupError):
    pass


def book_engine(book: str) -> ModuleType:
    if book not in BOOKS:
        raise UnknownQuestionError(f"unknown rulebook {book!r}; known: {', '.join(BOOKS)}")
    return importlib.import_module(f"{__name__}.{book}")


def questions(book: str) -> tuple[str, ...]:
    return tuple(book_engine(book).QUESTIONS)


def ask(book: str, question: str, scenario: Any, params: dict[str, Any] | None = None) -> Ruling:
    engine = book_engine(book)
    try:
        answer = engine.QUESTIONS[question]
    except KeyError:
        raise UnknownQuestionError(
            f"unknown question {question!r} for {book}; known: {', '.join(engine.QUESTIONS)}"
        ) from None
    loaded = engine.load_scenario(scenario)
    return answer(loaded, dict(params or {}))


__all__ = ["ask", "questions", "book_engine", "BOOKS", "InvalidScenarioError", "UnknownQuestionError", "Ruling"]
