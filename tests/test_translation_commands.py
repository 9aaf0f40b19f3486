"""`manage.py translation_qa`: `section: check: message` lines, a non-zero exit on errors, and clear refusals."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from test_translation_support import item, save

from rulesref.translation.models import QAResult, Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def run_qa(*args) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("translation_qa", *args, stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("book", ["mpbs", "t9a"])
def test_the_corpus_has_no_qa_errors(book):
    """The committed translation stays clean: a change that brings a QA error into the corpus fails here."""
    code, out, err = run_qa(book)
    assert code == 0, out
    assert f"{book} (ru → en): 0 errors" in err


def test_translation_qa_prints_section_check_message_lines():
    code, out, err = run_qa("mpbs")
    lines = out.splitlines()
    # the source itself writes formation hits two ways: found as a warning on the source's side
    formation = [line for line in lines if line.startswith("11.4.10: glossary-consistency:")]
    assert len(formation) == 2 and all("формирования" in line and "построения" in line for line in formation)
    assert all(line.count(": ") >= 2 for line in lines)


def test_translation_qa_counts_dismissed_problems_apart_and_filters(translator):
    save("9.3.4", translator, body=item("9.3.4").translation.body.replace("(11.3.6)", "(11.3.7)"),
         status=Status.DRAFT)
    assert run_qa("mpbs")[0] == 1
    QAResult.objects.filter(severity="error").update(dismissed=True)
    code, out, err = run_qa("mpbs", "--lang", "en")
    assert code == 0 and "[error]" not in out and "0 errors" in err and "dismissed" in err
    code, out, _ = run_qa("mpbs", "--show-dismissed", "--check", "references")
    assert "[error, dismissed]" in out and all(": references: " in line for line in out.splitlines())
    assert run_qa("mpbs", "--warnings-as-errors")[0] == 1


def test_translation_qa_sees_a_new_error_at_once(translator):
    save("9.3.4", translator, body=item("9.3.4").translation.body.replace("(11.3.6)", "(11.3.7)"),
         status=Status.DRAFT)
    code, out, _ = run_qa("mpbs", "--errors-only")
    assert code == 1
    assert "9.3.4: references: paragraph 1: Reference “11.3.6” in the source, not in the translation [error]" in out


def test_translation_qa_refuses_unknown_books_and_languages():
    with pytest.raises(CommandError, match="unknown rulebook 'nope' \\(known: mpbs, t9a\\)"):
        call_command("translation_qa", "nope")
    with pytest.raises(CommandError, match="'ru' is not a target language of mpbs"):
        call_command("translation_qa", "mpbs", "--lang", "ru")


def test_addtranslator_creates_an_account_with_its_roles(monkeypatch):
    from django.contrib.auth.models import User

    monkeypatch.setenv("NEW_PASSWORD", "a-long-enough-password")
    out = io.StringIO()
    call_command("addtranslator", "vera", "--reviewer", "--password-env", "NEW_PASSWORD", stdout=out)
    user = User.objects.get(username="vera")
    assert user.check_password("a-long-enough-password")
    assert set(user.groups.values_list("name", flat=True)) == {"translators", "reviewers"}
    with pytest.raises(CommandError, match="is empty or not set"):
        call_command("addtranslator", "zoe", "--password-env", "UNSET_VARIABLE_X")
