"""Every example scenario in fixtures/scenarios/t9a/ answers as its ``expect`` blocks say.

The expect format (shared with ``manage.py ruling --check``): ``verdict``; ``findings``, a status per clause (a
clause cited several times counts as fail if any of its findings fails, else unknown if any is unknown, else
pass); ``result``, values the ruling's result (as JSON) must contain: objects key by key, lists item by item, numbers
to 1e-9 (the command's own ``contained``).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.checker.management.commands.ruling import contained
from rulesref.engine import ask

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "t9a"
FILES = sorted(SCENARIOS.glob("*.json"))


def clause_statuses(findings: list[dict]) -> dict[str, str]:
    by_clause: dict[str, set[str]] = {}
    for finding in findings:
        by_clause.setdefault(finding["clause"].split(":", 1)[1], set()).add(finding["status"])
    order = ("fail", "unknown", "pass")
    return {clause: next(s for s in order if s in statuses) for clause, statuses in by_clause.items()}


def cases():
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for i, question in enumerate(data["questions"]):
            yield pytest.param(data, question, id=f"{path.stem}[{i}]")


def test_there_are_scenarios_for_each_question():
    asked = {q["question"] for path in FILES for q in json.loads(path.read_text())["questions"]}
    assert asked == {"can-charge", "charge-reactions", "pursuit"}


@pytest.mark.parametrize("data, question", list(cases()))
def test_scenario_answers_as_expected(data, question):
    assert data["book"] == "t9a"
    ruling = ask("t9a", question["question"], data, question.get("params", {})).to_dict("en")
    expect = question["expect"]
    explanation = json.dumps(ruling["findings"], indent=1, ensure_ascii=False)
    assert ruling["verdict"] == expect["verdict"], explanation
    statuses = clause_statuses(ruling["findings"])
    for clause, status in expect.get("findings", {}).items():
        assert statuses.get(clause) == status, f"{clause}: {explanation}"
    assert contained(expect.get("result", {}), ruling["result"], "result") == []


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario_renders_in_russian(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    for question in data["questions"]:
        ruling = ask("t9a", question["question"], data, question.get("params", {})).to_dict("ru")
        assert all(f["message"] for f in ruling["findings"])
        json.dumps(ruling, ensure_ascii=False)  # the result is plain JSON


def test_ruling_check_command_accepts_every_t9a_scenario():
    """The same expectations through the generic CLI, ``manage.py ruling --check``."""
    import io

    pytest.importorskip("rulesref.checker.management.commands.ruling")
    from django.core.management import call_command

    out = io.StringIO()
    call_command("ruling", "--check", *map(str, FILES), stdout=out)
    assert f"{sum(len(json.loads(p.read_text())['questions']) for p in FILES)} of" in out.getvalue()
