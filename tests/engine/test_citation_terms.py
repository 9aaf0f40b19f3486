"""A finding cites a clause only for what that clause's text says: the clause's Russian text in the corpus contains
the key term the citation declares, or the citation is marked as a rule outside the corpus (which the data of
fixtures/tables/<book>/outside_corpus.json holds, with its source); a section the corpus lacks is cited only to say
that what it rules is undetermined."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesref.engine import BOOKS, ask
from rulesref.engine.outside import outside_rules
from rulesref.engine.ruling import Status
from rulesref.reference.corpus import clause_label, read_book, split_blocks

ROOT = Path(__file__).resolve().parents[2]


def clause_texts(book: str) -> dict[str, str | None]:
    """Clause id -> its Russian text, lower case, whitespace collapsed (None: a section the corpus lacks)."""
    texts: dict[str, str | None] = {}
    for s in read_book(ROOT / "fixtures" / "corpus" / book).languages["ru"]:
        whole = f"{s.title} {s.body}"
        texts[s.id] = None if "absent" in s.flags and not s.body.strip() else " ".join(whole.lower().split())
        for block in split_blocks(s.body):
            if clause_label(block):
                texts[s.id + clause_label(block)] = " ".join(block.lower().split())
    return texts


def example_findings(book: str):
    for path in sorted((ROOT / "fixtures" / "scenarios" / book).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        scenario = {k: v for k, v in data.items() if k != "questions"}
        for item in data.get("questions", []):
            if not (item.get("expect") or {}).get("error"):
                for f in ask(book, item["question"], scenario, item.get("params") or {}).findings:
                    yield path.name, f


@pytest.mark.parametrize("book", BOOKS)
def test_each_cited_clause_says_what_its_finding_applies(book):
    texts = clause_texts(book)
    outside = {r.id for r in outside_rules(book)}
    wrong = set()
    for name, f in example_findings(book):
        c = f.citation
        if c.outside:
            if c.clause not in outside:
                wrong.add(f"{name}: {c} is not in outside_corpus.json")
            continue
        text = texts.get(c.clause)
        if text is None:
            if f.status is not Status.UNKNOWN:
                wrong.add(f"{name}: {c} is not in the corpus, yet decides: {f.message}")
        elif not c.term or " ".join(c.term.lower().split()) not in text:
            wrong.add(f"{name}: {c} cited for {c.term!r}, which its text does not contain: {f.message}")
    assert not wrong, "\n".join(sorted(wrong))


def test_t9a_cites_its_dice_as_rules_outside_the_corpus():
    cited = {str(f.citation) for _name, f in example_findings("t9a")}
    for rule in ("charge-range", "flee-distance", "pursuit-catches"):
        assert f"t9a:outside:{rule}" in cited
    # The corpus names a charge range but not its dice: no finding cites declaring-charges for "2D6" or "+ 12".
    for _name, f in example_findings("t9a"):
        if f.citation.clause == "declaring-charges" and not f.citation.outside:
            english = f.message.render("en")
            assert "2D6" not in english and "+ 12" not in english, english


def test_every_rule_outside_the_corpus_has_its_source_and_both_languages():
    for book in BOOKS:
        for rule in outside_rules(book):
            assert rule.source.strip()
            assert rule.statement.render("ru") != rule.statement.render("en")
            assert rule.name.render("ru") and rule.name.render("en")
