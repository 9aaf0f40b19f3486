"""The coverage map of a rulebook's engine (``/<lang>/rules/<book>/coverage/``): every section and lettered clause
of the corpus with what the engine does with it.

A clause is *decided* when a rule function declares so (``@decides``, :mod:`rulesref.engine.coverage`), shown with
the questions and example scenarios whose answers decide it and the tests of its rule functions; *undetermined by
design* when a rule function declares it can only leave it open without data the corpus lacks (named); otherwise
*not modelled*. Nothing here is a list: the declarations are read from the engine, the examples are asked (once per
set of example files, kept until a file changes), the sections come from the corpus.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.http import require_safe

from rulesref.engine import BOOKS
from rulesref.engine.coverage import Declaration, Exercise, Treatment, declarations, exercises
from rulesref.engine.outside import outside_rules
from rulesref.reference.corpus import clause_label, split_blocks
from rulesref.reference.index import book_index, book_or_404
from rulesref.reference.render import section_url

from . import books
from .kinds import kind_of
from .links import _example_url


@dataclass
class ClauseRow:
    """One section or lettered clause: its id, the section that holds it, and what the engine does with it."""

    clause: str
    section: str
    letter: str = ""
    heading: bool = False  # a section the corpus holds no text of, shown only to group what follows
    decided_by: list[Declaration] = field(default_factory=list)
    undetermined: list[Declaration] = field(default_factory=list)
    exercises: list[Exercise] = field(default_factory=list)

    @property
    def treatment(self) -> Treatment:
        if self.decided_by:
            return Treatment.DECIDES
        if self.undetermined:
            return Treatment.UNDETERMINED
        return Treatment.NOT_MODELLED

    @property
    def questions(self) -> list[str]:
        return sorted({e.question for e in self.exercises})


def clause_rows(book: str, sections: Iterable[tuple[str, bool, str]], examples: dict[str, dict] | None = None,
                exercised: dict[str, list[Exercise]] | None = None) -> list[ClauseRow]:
    """Rows for ``sections`` — (id, absent, source text) in book order — each followed by its lettered clauses,
    with the engine's declarations and, given the example scenarios' data (or what asking them found), the
    example questions citing each."""
    declared = declarations(book)
    if exercised is None:
        exercised = exercises(book, examples) if examples is not None else {}
    return [_row(sid, absent, body, clause, letter, declared, exercised)
            for sid, absent, body in sections for clause, letter in _clauses_of(sid, body)]


def _clauses_of(sid: str, body: str) -> list[tuple[str, str]]:
    """The section itself, then each of its lettered clauses (``9.3.1a`` …), as (clause, letter)."""
    letters = [clause_label(b) for b in split_blocks(body)]
    return [(sid, "")] + [(sid + letter, letter) for letter in letters if letter]


def _row(sid: str, absent: bool, body: str, clause: str, letter: str, declared: tuple[Declaration, ...],
         exercised: dict[str, list[Exercise]]) -> ClauseRow:
    row = ClauseRow(clause, sid, letter)
    row.decided_by = [d for d in declared if d.clause == clause and d.treatment is Treatment.DECIDES]
    row.undetermined = [d for d in declared if d.clause == clause and d.treatment is Treatment.UNDETERMINED]
    row.exercises = [e for e in exercised.get(clause, []) if e.decided or not row.decided_by]
    # A chapter the corpus lacks, or a section that only holds others, groups the rows that follow.
    row.heading = (absent or not body.strip()) and not letter and not row.decided_by and not row.undetermined
    return row


def totals(rows: Iterable[ClauseRow]) -> dict[str, int]:
    counted = [r for r in rows if not r.heading]
    out = {t.value.replace("-", "_"): sum(1 for r in counted if r.treatment is t) for t in Treatment}
    out["decides_with_data"] = sum(1 for r in counted if r.decided_by and r.undetermined)
    out["all"] = len(counted)
    return out


# --------------------------------------------------------------------------------------- the tests of a rule

def _tests_dir() -> Path:
    return Path(getattr(settings, "BASE_DIR", Path(__file__).resolve().parents[2])) / "tests"


_tests_lock = threading.Lock()
_tests_cache: dict[tuple, tuple[dict[str, str], dict[str, list[str]]]] = {}


def _test_sources() -> tuple[dict[str, str], dict[str, list[str]]]:
    """Test file (relative path) -> its text, for a source checkout (empty where the tests are not deployed), and
    the memo of :func:`tests_of` for those texts: read again only when a test file changes."""
    directory = _tests_dir()
    files = sorted(directory.rglob("test_*.py")) if directory.is_dir() else []
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in files)
    cached = _tests_cache.get(stamp)
    if cached is None:
        cached = ({str(p.relative_to(directory.parent)): p.read_text(encoding="utf-8") for p in files}, {})
        with _tests_lock:
            _tests_cache.clear()
            _tests_cache[stamp] = cached
    return cached


def tests_of(rule: str, sources: tuple[dict[str, str], dict[str, list[str]]] | None = None) -> list[str]:
    """The test files that import the module of a rule function (``rulesref.engine.mpbs.reaction.hedgehog``).
    ``sources``: :func:`_test_sources`, read once by a caller that asks for many rules."""
    texts, memo = sources or _test_sources()
    if rule not in memo:
        module = rule.rsplit(".", 1)[0]
        package, name = module.rsplit(".", 1)
        imports = re.compile(rf"{re.escape(module)}\b|from {re.escape(package)} import [^\n]*\b{re.escape(name)}\b")
        memo[rule] = [path for path, text in texts.items() if imports.search(text)]
    return memo[rule]


# ------------------------------------------------------------------------------------------------- the page

_lock = threading.Lock()
_cache: dict[str, tuple[object, int, list[ClauseRow]]] = {}
_exercised: dict[str, tuple[object, dict[str, list[Exercise]]]] = {}


def book_exercises(book_obj) -> dict[str, list[Exercise]]:
    """The example questions citing each clause, asked once per set of example files (kept until one changes)."""
    found = books.examples(book_obj.slug)
    cached = _exercised.get(book_obj.slug)
    if cached is not None and cached[0] is found:
        return cached[1]
    exercised = exercises(book_obj.slug, {slug: ex.data for slug, ex in found.items()})
    with _lock:
        _exercised[book_obj.slug] = (found, exercised)
    return exercised


def book_rows(book_obj) -> list[ClauseRow]:
    """The rows of a book in the database, kept until its text or its example scenarios change."""
    index = book_index(book_obj)
    found = books.examples(book_obj.slug)
    cached = _cache.get(book_obj.slug)
    if cached is not None and cached[0] is found and cached[1] == index.version:
        return cached[2]
    sections = [(sid, index.entries[sid].absent, index.entries[sid].bodies.get("ru", "")) for sid in index.order]
    rows = clause_rows(book_obj.slug, sections, exercised=book_exercises(book_obj))
    with _lock:
        _cache[book_obj.slug] = (found, index.version, rows)
    return rows


def _clause_text(entry, letter: str, lang: str) -> tuple[str, str]:
    """The first words of a lettered clause in ``lang`` (else in Russian), and the language they are in."""
    for in_lang in (lang, "ru"):
        for block in split_blocks(entry.bodies.get(in_lang, "")):
            if clause_label(block) == letter:
                words = block.split(None, 16)
                return " ".join(words[1:16]) + ("…" if len(words) > 16 else ""), in_lang
    return "", lang


def _examples_view(book: str, lang: str, found: dict, used: list[Exercise], focus: str) -> list[dict]:
    """Each example scenario once, linked to its first question citing the clause, with how many of its
    questions do and whether one of them decides it."""
    by_example: dict[str, list[Exercise]] = {}
    for e in used:
        if e.example in found:
            by_example.setdefault(e.example, []).append(e)
    return [{"title": found[slug].title(lang),
             "url": _example_url(book, slug, lang, found[slug].data["questions"][items[0].index], focus),
             "questions": len(items), "decided": any(e.decided for e in items)}
            for slug, items in by_example.items()]


# The scenario field an engine's "undetermined without" names at its end, "… (tables.unable_to_retreat)": a path
# for the developers and the scenario's authors, kept apart from the words a player reads.
_FIELD = r"[a-z_]+(?:\[\d*\])?(?:\.(?:[a-z_]+|\*)(?:\[\d*\])?)*"
FIELD_AT_END = re.compile(rf"\s*\(({_FIELD}(?:,\s*{_FIELD})*)\)\s*$")


def data_needed(text: str) -> tuple[str, str]:
    """(what is needed in words, the scenario field that can supply it or "")."""
    found = FIELD_AT_END.search(text)
    if found is None or not re.search(r"[._\[]", found.group(1)):  # "(cavalry)" is a word, not a field
        return text, ""
    return text[:found.start()], found.group(1)


def _row_view(book: str, index, found: dict, row: ClauseRow, lang: str, sources) -> dict:
    entry = index.entries[row.section]
    text, text_lang = _clause_text(entry, row.letter, lang) if row.letter else ("", lang)
    rules = sorted({d.rule for d in row.decided_by + row.undetermined})
    return {
        "row": row,
        "entry": entry,
        "url": section_url(lang, book, row.section, row.letter),
        "text": text,
        "text_lang": text_lang,
        "questions": [books.question_label(q) for q in row.questions],
        "examples": _examples_view(book, lang, found, row.exercises, row.clause),
        "needs": [data_needed(d.needs.render(lang)) for d in row.undetermined if d.needs is not None],
        "rules": [r.split(".", 3)[-1] for r in rules],
        "tests": sorted({t for r in rules for t in tests_of(r, sources)}) if row.decided_by else [],
    }


def _outside_view(book: str, found: dict, exercised: dict[str, list[Exercise]], lang: str) -> list[dict]:
    shown = []
    for rule in outside_rules(book):
        used = exercised.get(f"outside:{rule.id}", [])
        shown.append({
            "rule": rule, "name": rule.name.render(lang), "statement": rule.statement.render(lang),
            "overridable": sorted(rule.overridable),
            "questions": [books.question_label(q) for q in sorted({e.question for e in used})],
            "examples": _examples_view(book, lang, found, used, f"outside:{rule.id}"),
        })
    return shown


@require_safe
def coverage(request, book):
    book_obj = book_or_404(request, book)
    if book_obj.slug not in BOOKS or kind_of(book_obj.slug) is None:
        raise Http404("this rulebook has no rules engine")
    lang = translation.get_language() or "en"
    index = book_index(book_obj)
    rows = book_rows(book_obj)
    found = books.examples(book_obj.slug)
    sources = _test_sources()  # one look at the test files per page, each rule's tests found once per version
    return render(request, "checker/coverage.html", {
        "book": book_obj, "totals": totals(rows),
        "rows": [_row_view(book_obj.slug, index, found, row, lang, sources) for row in rows],
        "outside": _outside_view(book_obj.slug, found, book_exercises(book_obj), lang),
    })
