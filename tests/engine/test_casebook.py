"""The casebooks: positions written from the rules text alone, each question with the answer the text requires
(issue 28, item 1; fixtures/casebook/<book>/, one folder per rulebook with an engine).

Every question goes through the same check as ``manage.py ruling --check`` (the command's own ``check_one``). The
questions listed in the folder's DISAGREEMENTS.md — where the engine answers otherwise and the text is on the
casebook's side — are expected failures, ``xfail(strict=True)``: when the engine is fixed, the question passes, the
strict xfail fails, and the entry must be taken off the list. Everything else must pass.

An entry of DISAGREEMENTS.md is a level-2 heading naming the file and the question's index as ``ruling --check``
prints them::

    ## `retreat-stacking.json` questions[5]
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulesref.checker.management.commands.ruling import check_one
from rulesref.engine import ask

CASEBOOK = Path(__file__).resolve().parents[2] / "fixtures" / "casebook"
BOOKS = ("mpbs", "t9a")
ENTRY = re.compile(r"^## `(?P<file>[^`/]+\.json)` questions\[(?P<index>\d+)\]", re.MULTILINE)


def open_disagreements(book: str) -> dict[tuple[str, int], str]:
    """(file name, question index) → the entry's text, for each entry of the book's DISAGREEMENTS.md."""
    path = CASEBOOK / book / "DISAGREEMENTS.md"
    if not path.exists():
        return {}
    text = path.read_text(encoding="utf-8")
    starts = list(ENTRY.finditer(text))
    entries = {}
    for n, match in enumerate(starts):
        end = starts[n + 1].start() if n + 1 < len(starts) else len(text)
        key = (match["file"], int(match["index"]))
        assert key not in entries, f"{book}/DISAGREEMENTS.md lists {key} twice"
        entries[key] = text[match.start():end].strip()
    return entries


def casebook_files(book: str) -> list[Path]:
    return sorted((CASEBOOK / book).glob("*.json"))


def questions(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8")).get("questions", [])


def cases():
    for book in BOOKS:
        listed = open_disagreements(book)
        for path in casebook_files(book):
            for i, _ in enumerate(questions(path)):
                entry = listed.get((path.name, i))
                marks = [pytest.mark.xfail(strict=True, reason=entry.splitlines()[0])] if entry else []
                yield pytest.param(book, path, i, marks=marks, id=f"{book}/{path.stem}[{i}]")


@pytest.mark.parametrize("book", BOOKS)
def test_each_book_has_a_casebook(book):
    files = casebook_files(book)
    assert files, f"fixtures/casebook/{book}/ holds no scenario files"
    assert all(json.loads(p.read_text(encoding="utf-8"))["book"] == book for p in files)
    assert all(questions(p) for p in files), "a casebook file without questions checks nothing"


@pytest.mark.parametrize("book", BOOKS)
def test_every_listed_disagreement_names_a_question_of_the_casebook(book):
    """A stale entry (a file renamed, a question removed) would silently stop marking anything."""
    counts = {p.name: len(questions(p)) for p in casebook_files(book)}
    for name, index in open_disagreements(book):
        assert name in counts, f"{book}/DISAGREEMENTS.md names {name}, which is not in the casebook"
        assert index < counts[name], f"{book}/DISAGREEMENTS.md names {name} questions[{index}], which does not exist"


def test_the_entry_pattern_reads_both_forms_of_heading():
    text = "# t\n\n## `a.json` questions[0]\n\n- x\n\n## `b-c.json` questions[12]\n- y\n"
    assert list(parse(text)) == [("a.json", 0), ("b-c.json", 12)]
    assert list(parse("## a.json questions[0]\n### `a.json` questions[1]\n")) == []


def parse(text: str):
    return ((m["file"], int(m["index"])) for m in ENTRY.finditer(text))


@pytest.mark.parametrize("book, path, index", list(cases()))
def test_casebook_question(book, path, index):
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = check_one(book, data, data["questions"][index])
    assert problems == [], "\n".join([f"{path.name} questions[{index}]", *problems])


# The ambiguous questions of each DISAGREEMENTS.md whose verdict already followed the casebook's reading: each answer
# names the reading it follows (issue 28 class 5), so that a player sees the alternative.
NAMED_READINGS = {
    ("mpbs", "advance.json", 0): "advance-morale-rating",
    ("mpbs", "advance.json", 1): "advance-morale-rating",
    ("mpbs", "advance.json", 5): "advance-morale-rating",
    ("mpbs", "advance.json", 4): "advance-two-hex-both-halves",
    ("mpbs", "reactions-heavy-infantry-moves.json", 4): "reaction-into-flank-or-rear-hex",
    ("mpbs", "reactions-hedgehog.json", 3): "hedgehog-two-hexes-of-the-unit",
    ("mpbs", "reactions-hedgehog.json", 4): "hedgehog-two-hexes-of-the-unit",
    ("mpbs", "retreat-priorities-and-edge.json", 5): "unable-to-retreat-by-result",
    ("mpbs", "orders-change-5.7.3-leaders.json", 0): "rally-modifier-without-leaders",
    ("mpbs", "mandatory-rally.json", 5): "rally-needs-horse-or-foot",
    ("mpbs", "mandatory-rally.json", 6): "shaken-is-the-morale-state",
    ("mpbs", "interception-two-hex-target.json", 1): "hex-sectors",
    ("mpbs", "reactions-to-facing-change.json", 0): "reaction-to-spending-in-place",
    ("mpbs", "reactions-to-facing-change.json", 1): "reaction-to-spending-in-place",
    ("mpbs", "reactions-to-facing-change.json", 2): "reaction-to-spending-in-place",
    ("t9a", "pursuit-pivot-enemy-beats-a-friend-met-first.json", 0): "pursuit-highest-case",
    ("t9a", "pursuit-small-pivot-friend-touching-the-rear.json", 0): "pursuit-touching-ignored",
    ("t9a", "charge-sight-target-corner-on-the-front-arc-line.json", 0): "t9a-sight-lines",
}


@pytest.mark.parametrize("book, name, index", sorted(NAMED_READINGS))
def test_an_ambiguous_question_names_the_reading_it_follows(book, name, index):
    data = json.loads((CASEBOOK / book / name).read_text(encoding="utf-8"))
    question = data["questions"][index]
    ruling = ask(book, question["question"], data, question.get("params", {}))
    assert NAMED_READINGS[book, name, index] in ruling.result.get("interpretations", [])


def test_a_question_on_a_plain_position_names_no_reading_of_5_8():
    """The 5.8 readings are named where they decide, not everywhere: a wing of ordinary horse and foot."""
    data = json.loads((CASEBOOK / "mpbs" / "mandatory-rally.json").read_text(encoding="utf-8"))
    ruling = ask("mpbs", "mandatory-rally", data, {"wing": "M2"})
    named = ruling.result.get("interpretations", [])
    assert "rally-needs-horse-or-foot" not in named and "shaken-is-the-morale-state" not in named
