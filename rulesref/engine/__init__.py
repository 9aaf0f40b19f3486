"""The rules engine: pure Python, no Django.

``ask(book, question, scenario, params)`` is the one entry point the CLI, the JSON API and the checker pages use.
Each rulebook package exposes ``QUESTIONS`` (name -> callable(scenario, params) -> Ruling), ``load_scenario(data)``
(raises InvalidScenarioError listing every problem by its path), ``limits()`` (the most a scenario may hold, from
its schema), ``CITABLE_CLAUSES`` (every clause id it can cite),
``PARAMS`` (each question's parameters, rulesref/engine/params.py), ``params_schema(question)`` (their JSON Schema)
and ``INTERPRETATIONS`` (question -> the written interpretations every answer to it follows,
rulesref/engine/interpretations.py). ``ENGINE_VERSION`` (rulesref/engine/version.py) names the engine every ruling
was decided by.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .ruling import InvalidScenarioError, Ruling
from .version import ENGINE_VERSION

BOOKS = ("mpbs", "t9a")


class UnknownQuestionError(LookupError):
    pass


def book_engine(book: str) -> ModuleType:
    if book not in BOOKS:
        raise UnknownQuestionError(f"unknown rulebook {book!r}; known: {', '.join(BOOKS)}")
    return importlib.import_module(f"{__name__}.{book}")


def questions(book: str) -> tuple[str, ...]:
    return tuple(book_engine(book).QUESTIONS)


def params_schema(book: str, question: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a question's ``params`` object, from the declaration the question checks
    its parameters against (``PARAMS``)."""
    engine = book_engine(book)
    if question not in engine.QUESTIONS:
        raise UnknownQuestionError(f"unknown question {question!r} for {book}; known: {', '.join(engine.QUESTIONS)}")
    return engine.params_schema(question)


def ask(book: str, question: str, scenario: Any, params: dict[str, Any] | None = None) -> Ruling:
    engine = book_engine(book)
    try:
        answer = engine.QUESTIONS[question]
    except KeyError:
        raise UnknownQuestionError(
            f"unknown question {question!r} for {book}; known: {', '.join(engine.QUESTIONS)}"
        ) from None
    loaded = engine.load_scenario(scenario)
    ruling = answer(loaded, {} if params is None else params)
    # Every answer names the written interpretations it rests on: the question's own, then any it adds.
    followed = [*getattr(engine, "INTERPRETATIONS", {}).get(question, ()), *ruling.result.get("interpretations", ())]
    if followed:
        ruling.result["interpretations"] = list(dict.fromkeys(followed))
    return ruling


__all__ = ["ENGINE_VERSION", "ask", "questions", "params_schema", "book_engine", "BOOKS", "InvalidScenarioError", "UnknownQuestionError",
           "Ruling"]
