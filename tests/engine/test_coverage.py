"""Every clause an engine declares it decides (``@decides`` on a rule function) is decided by the answer to at least
one example scenario's question, the examples that ``manage.py ruling --check`` verifies."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.engine import BOOKS, ask, book_engine
from rulesref.engine.coverage import Treatment, declarations
from rulesref.engine.ruling import Status

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"


def decided_by_examples(book: str) -> dict[str, set[str]]:
    """Clause -> the example files with a question whose answer has a finding on it that passes or fails."""
    decided: dict[str, set[str]] = {}
    for path in sorted((SCENARIOS / book).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        scenario = {k: v for k, v in data.items() if k != "questions"}
        for item in data.get("questions", []):
            if (item.get("expect") or {}).get("error"):
                continue
            for f in ask(book, item["question"], scenario, item.get("params") or {}).findings:
                if f.status is not Status.UNKNOWN:
                    decided.setdefault(f.citation.clause, set()).add(path.name)
    return decided


@pytest.mark.parametrize("book", BOOKS)
def test_every_clause_declared_decided_is_decided_by_an_example(book):
    decided = decided_by_examples(book)
    claimed = {d.clause: d.rule for d in declarations(book) if d.treatment is Treatment.DECIDES}
    assert claimed, f"{book}: no rule function declares what it decides"
    missing = {clause: rule for clause, rule in claimed.items() if clause not in decided}
    assert not missing, f"{book}: declared decided but no example scenario decides it: {missing}"


def expected_by_examples(book: str) -> set[str]:
    """The clauses named in the expected findings of some example question, which ``ruling --check`` verifies."""
    named: set[str] = set()
    for path in sorted((SCENARIOS / book).glob("*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")).get("questions", []):
            named |= set(((item.get("expect") or {}).get("findings") or {}))
    return named


@pytest.mark.parametrize("book", BOOKS)
def test_every_clause_declared_decided_is_verified_by_ruling_check(book):
    claimed = {d.clause for d in declarations(book) if d.treatment is Treatment.DECIDES}
    unverified = claimed - expected_by_examples(book)
    assert not unverified, f"{book}: no example question's expected findings name {sorted(unverified)}"


@pytest.mark.parametrize("book", BOOKS)
def test_declarations_name_clauses_the_engine_can_cite(book):
    citable = set(book_engine(book).CITABLE_CLAUSES)
    unknown = {d.clause for d in declarations(book)} - citable
    assert not unknown, f"{book}: declarations name clauses the engine cannot cite: {unknown}"


@pytest.mark.parametrize("book", BOOKS)
def test_every_undetermined_declaration_names_the_data_that_would_decide_it(book):
    for d in declarations(book):
        if d.treatment is Treatment.UNDETERMINED:
            assert d.needs is not None and d.needs.render("en") and d.needs.render("ru") != d.needs.render("en"), d
