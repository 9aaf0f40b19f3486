"""Every answer names the written interpretations it rests on (``result.interpretations``), each one in the
registry, summarised in both languages and listed in docs/geometry.md (#16 point 5)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.engine import BOOKS, ask, book_engine
from rulesref.engine.interpretations import INTERPRETATIONS

ROOT = Path(__file__).resolve().parents[2]


def test_every_interpretation_is_listed_in_docs_geometry_with_both_languages():
    listed = (ROOT / "docs" / "geometry.md").read_text(encoding="utf-8")
    for key, item in INTERPRETATIONS.items():
        assert f"`{key}`" in listed, key
        assert (ROOT / item.doc).is_file(), item.doc
        assert item.summary.render("ru") != item.summary.render("en"), key


@pytest.mark.parametrize("book", BOOKS)
def test_every_example_answer_names_known_interpretations(book):
    declared = book_engine(book).INTERPRETATIONS
    assert set(q for q in declared) <= set(book_engine(book).QUESTIONS)
    for path in sorted((ROOT / "fixtures" / "scenarios" / book).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        scenario = {k: v for k, v in data.items() if k != "questions"}
        for item in data.get("questions", []):
            if (item.get("expect") or {}).get("error"):
                continue
            ruling = ask(book, item["question"], scenario, item.get("params") or {})
            named = ruling.result.get("interpretations", [])
            assert set(named) <= set(INTERPRETATIONS), (path.name, named)
            assert set(declared.get(item["question"], ())) <= set(named), (path.name, item["question"])
            assert ruling.to_dict("ru")["result"].get("interpretations", []) == named
