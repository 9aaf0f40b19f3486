"""The importer's numbering decisions at their boundaries (issue 29): a line is immutable once read; which labels
continue a text's numbering (a successor, a first child), and which merely begin a line with a number."""
from dataclasses import FrozenInstanceError

import pytest

from rulesref.reference.importing import ImportConfig
from rulesref.reference.importing.lines import mark, prepare


def test_a_line_is_immutable_and_a_step_marks_a_copy():
    config = ImportConfig(errata=[{"wrong": "тир", "right": "тип"}], headings=[{"match": "Особый случай", "id": "x"}])
    lines = prepare("1.1 Первый тир\nОсобый случай\n", config, "ru")
    line = lines[0]
    with pytest.raises(FrozenInstanceError):
        line.junk = "page number"
    with pytest.raises(FrozenInstanceError):
        line.text = "other"
    with pytest.raises(AttributeError):
        line.fixed.append({"wrong": "a", "right": "b"})
    with pytest.raises(TypeError):
        line.fixed[0]["right"] = "тыр"
    with pytest.raises(TypeError):
        lines[1].configured["id"] = "y"
    assert line.text == "1.1 Первый тип" and line.fixed[0]["right"] == "тип" and lines[1].configured["id"] == "x"
    mark(lines, 0, junk="page number")
    assert lines[0].junk == "page number" and line.junk == "" and lines[0].text == line.text
