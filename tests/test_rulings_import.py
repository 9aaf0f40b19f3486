"""Rulings imported in bulk from a text file of questions and answers with clause numbers (#32 point 1), and the
rulings' translations exchanged with CAT tools as PO and XLIFF."""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rulings_support import ANSWER_EN, QUESTION_EN, book, make

from rulesref.rulings import exchange, importing
from rulesref.rulings.models import Ruling
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
EXAMPLE = Path(__file__).resolve().parent.parent / "fixtures" / "rulings" / "mpbs-example.txt"


def test_the_example_file_imports_in_both_languages_and_a_second_time_skips_it(capsys):
    call_command("importrulings", "mpbs", str(EXAMPLE), "--publish")
    first, second = Ruling.objects.order_by("number")
    assert (first.state, [c.label for c in first.citations.all()]) == (Ruling.State.PUBLISHED, ["9.3.1f"])
    english = first.texts.get(language="en")
    assert english.published_question.startswith("May a cavalry unit") and len(english.published_blocks) == 2
    assert second.texts.get(language="en").status == Status.MISSING
    call_command("importrulings", "mpbs", str(EXAMPLE))
    assert Ruling.objects.count() == 2 and "skipped, ruling 1 already answers it" in capsys.readouterr().out


def test_every_problem_is_named_by_its_line_and_nothing_is_written():
    text = ("Clauses: 9.3.9\nQ: Вопрос?\nA: Ответ.\n---\nQ: Без пунктов?\nA: И без ссылок.\n---\nстрока ни о чём\n"
            "---\nClauses: 9.3.1f\nQ: Вопрос?\nA: Ответ.\nQ/en: Only a question?\n")
    plan = importing.plan(book(), text)
    assert [(p.line, p.message.split(":")[0]) for p in plan.problems] == [
        (1, "“9.3.9” is not a section of this rulebook."), (5, "no clause"),
        (8, "this line is not part of a question or an answer"), (10, "give the translation's question and answer, "
                                                                       "or neither"),
        (10, "the same question is asked at line 1")]
    importing.apply(plan, user=None, status=Status.APPROVED)
    assert not Ruling.objects.exists()


def test_clauses_may_come_from_the_references_of_the_text():
    plan = importing.plan(book(), "Q: Что значит 9.3.1c?\nA: См. 9.3.1c и 11.4.2.\n")
    assert plan.clean and [c.label for c in plan.records[0].cited] == ["9.3.1c", "11.4.2"]


def test_an_import_is_one_content_write_however_many_rulings(django_assert_max_num_queries):
    text = "\n---\n".join(f"Clauses: 9.3.1f\nQ: Вопрос номер {n}?\nA: Ответ {n}." for n in range(30))
    plan = importing.plan(book(), text)
    before = book().version
    importing.apply(plan, user=None, status=Status.APPROVED)
    assert Ruling.objects.count() == 30 and book().version == before + 1


def test_the_command_refuses_a_bad_file_and_names_the_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("Clauses: 9.3.1z\nQ: ?\nA: !\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"bad.txt:1: Section 9.3.1 has no clause z\)"):
        call_command("importrulings", "mpbs", str(bad))


NAMES = {"po": ("mpbs-rulings-en.po", "text/x-gettext-translation"),
         "xliff": ("mpbs-rulings-en.xlf", "application/xliff+xml"),
         "xliff12": ("mpbs-rulings-en-1.2.xlf", "application/xliff+xml")}


@pytest.mark.parametrize("fmt", ["po", "xliff", "xliff12"])
def test_translations_go_out_and_come_back_through_po_and_xliff(reviewer, fmt):
    make(reviewer)
    data, content_type, name = exchange.export(book(), "en", fmt)
    assert (name, content_type) == NAMES[fmt]
    assert (b'version="1.2"' in data) == (fmt == "xliff12")
    text = data.decode()
    assert "ruling:1:question" in text and "второй раз" in text and "Ruling 1, question" in text
    entries = exchange._read(book(), "en", data, name)  # as the CAT tool gives it back, translated
    assert [e.context for e in entries] == ["ruling:1:question", "ruling:1:1"]
    entries[0].target, entries[1].target = QUESTION_EN, ANSWER_EN
    result = exchange.plan(book(), "en", entries)
    assert result.clean, result.problems
    exchange.apply(result, "en", user=reviewer, status=Status.APPROVED, origin="po", filename=name, partial=False)
    english = Ruling.objects.get().texts.get(language="en")
    assert (english.published_question, english.published_answer) == (QUESTION_EN, ANSWER_EN)


def test_a_file_for_another_direction_or_a_changed_source_is_refused(reviewer):
    make(reviewer)
    data, _type, name = exchange.export(book(), "en", "po")
    entries = exchange._read(book(), "en", data, name)
    entries[0].source = "Другой вопрос?"
    entries[0].target = QUESTION_EN
    result = exchange.plan(book(), "en", entries)
    assert [p.message.split(":")[0] for p in result.problems] == ["the source text changed since this file was "
                                                                  "exported"]
    assert exchange.export(book(), "ru", "po")[0].count(b"msgctxt") == 0  # no ruling is written in English
