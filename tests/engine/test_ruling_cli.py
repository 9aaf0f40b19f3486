"""The ``ruling`` management command: one question, and ``--check`` of scenario files' expected answers."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "fixtures" / "scenarios" / "mpbs" / "interception-example-9.3.json"
MPBS_SCENARIOS = sorted((ROOT / "fixtures" / "scenarios" / "mpbs").glob("*.json"))
ALL_SCENARIOS = sorted((ROOT / "fixtures" / "scenarios").glob("*/*.json"))


def load_json(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def run(*args: str) -> str:
    out = StringIO()
    call_command("ruling", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_every_scenario_file_meets_its_expectations():
    assert MPBS_SCENARIOS, "no mpbs scenarios found"
    output = run("--check", *map(str, ALL_SCENARIOS))
    assert "FAIL" not in output
    assert output.strip().endswith("expectations met")


@pytest.mark.django_db  # a ruling states the book revision it was decided under, read from the database
def test_json_output_has_verdict_findings_and_result():
    data = json.loads(run("mpbs", "interception-chance", str(EXAMPLE), "--param", "unit=CAV-1"))
    assert data["decided_under"]["book_revision"] >= 1
    assert {"verdict", "findings", "result"} <= data.keys()
    assert data["verdict"] == "yes"
    assert all({"clause", "status", "message"} <= f.keys() for f in data["findings"])
    assert data["result"]["chance"] == pytest.approx(0.7)


@pytest.mark.django_db
def test_russian_text_output():
    text = run("mpbs", "can-intercept", str(EXAMPLE), "--param", "unit=CAV-1", "--lang", "ru", "--format", "text")
    assert text.startswith("Может ли эта кавалерия перехватить? (can-intercept): да")  # the question in Russian too
    assert "кавалер" in text
    assert "Интерсепт" not in text


def test_a_mismatch_exits_non_zero(tmp_path: Path):
    data = load_json(EXAMPLE)
    data["questions"] = [{"question": "can-intercept", "params": {"unit": "CAV-1"}, "expect": {"verdict": "no"}}]
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError) as excinfo:
        run("--check", str(path))
    assert excinfo.value.returncode == 1


def test_expected_rejection_is_a_match(tmp_path: Path):
    data = load_json(EXAMPLE)
    data["questions"] = [{"question": "can-intercept", "params": {"unit": "NOBODY"}, "expect": {"error": True}}]
    path = tmp_path / "reject.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "1 of 1 expectations met" in run("--check", str(path))


def test_bad_parameter_is_reported_by_path_not_a_traceback():
    err = StringIO()
    with pytest.raises(CommandError) as excinfo:
        call_command("ruling", "mpbs", "can-intercept", str(EXAMPLE), "--param", "unit=NOBODY", stdout=StringIO(), stderr=err)
    assert excinfo.value.returncode == 2
    problems = json.loads(err.getvalue())["problems"]
    assert problems[0]["path"] == "params.unit"


def test_invalid_scenario_lists_problems(tmp_path: Path):
    data = load_json(EXAMPLE)
    data["units"][1]["facing"] = "E"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("ruling", "mpbs", "can-intercept", str(path), "--param", "unit=CAV-1", stdout=StringIO(), stderr=err)
    assert "units[1].facing" in err.getvalue()


def test_book_alone_lists_its_questions_and_parameters():
    text = run("mpbs")
    assert "can-intercept" in text and "unit: unit (required)" in text


def test_unknown_question():
    with pytest.raises(CommandError) as excinfo:
        run("mpbs", "no-such-question", str(EXAMPLE))
    assert excinfo.value.returncode == 2


def test_check_takes_a_folder_of_scenarios(tmp_path: Path):
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "one.json").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    output = run("--check", str(tmp_path))
    assert "nested/one.json" in output and "expectations met" in output


def test_an_empty_folder_is_an_error_not_a_pass(tmp_path: Path):
    with pytest.raises(CommandError) as excinfo:
        run("--check", str(tmp_path))
    assert excinfo.value.returncode == 2 and "no scenario files" in str(excinfo.value)


def test_a_folder_given_as_the_scenario_is_an_error_not_a_traceback(tmp_path: Path):
    with pytest.raises(CommandError) as excinfo:
        run("mpbs", "can-intercept", str(tmp_path), "--param", "unit=CAV-1")
    assert excinfo.value.returncode == 2 and "a folder" in str(excinfo.value)
