"""Rules an engine applies that the corpus does not contain, as data with their source
(``fixtures/tables/<book>/outside_corpus.json``).

A finding that applies one cites it as a *rule outside the corpus* (``Citation(book, id, outside=True)``, written
``t9a:outside:charge-range``), never a corpus section that does not say it. The reader is shown the rule's
statement and source; a scenario may replace the values the data marks overridable.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .i18n import Message
from .ruling import Citation

TABLES_DIR = Path(__file__).resolve().parents[2] / "fixtures" / "tables"


@dataclass(frozen=True)
class Texts(Message):
    """A text given as data in both languages (no catalog entry): rendered in the reader's language."""

    texts: tuple[tuple[str, str], ...] = ()

    def render(self, lang: str = "en") -> str:
        by_lang = dict(self.texts)
        return by_lang.get(lang) or by_lang.get("en", "")


def texts(value: Mapping[str, str]) -> Texts:
    return Texts("", texts=tuple(sorted(value.items())))


@dataclass(frozen=True)
class OutsideRule:
    book: str
    id: str
    name: Texts
    statement: Texts
    value: Mapping[str, Any]
    overridable: Mapping[str, str]
    source: str

    @property
    def citation(self) -> Citation:
        return Citation(self.book, self.id, outside=True)


@lru_cache(maxsize=None)
def _load(book: str) -> tuple[OutsideRule, ...]:
    path = TABLES_DIR / book / "outside_corpus.json"
    if not path.is_file():
        return ()
    data = json.loads(path.read_text(encoding="utf-8"))
    return tuple(
        OutsideRule(book, r["id"], texts(r["name"]), texts(r["statement"]), dict(r["value"]),
                    dict(r.get("overridable", {})), r["source"])
        for r in data["rules"]
    )


def outside_rules(book: str) -> tuple[OutsideRule, ...]:
    """Every rule outside the corpus that ``book``'s engine applies, in the data's order."""
    return _load(book)


def outside_rule(book: str, rule_id: str) -> OutsideRule:
    found = next((r for r in _load(book) if r.id == rule_id), None)
    if found is None:
        raise LookupError(f"{book}: no rule outside the corpus named {rule_id!r} in outside_corpus.json")
    return found
