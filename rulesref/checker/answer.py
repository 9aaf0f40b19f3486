"""An engine answer for the page: the verdict and its decisive clause, each finding with its clause linked into the
reference (title and text in the reader's language), the key figures, and what the board kind draws for it.

The board kind adds what it shows with an answer (:meth:`BoardKind.answer_extras`): marks on the map, a legend,
the figures worth a line of their own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from babel.numbers import format_percent
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _, ngettext

from rulesref.engine.interpretations import INTERPRETATIONS, interpretation
from rulesref.engine.outside import outside_rule

from rulesref.reference.corpus import clause_label, split_blocks
from rulesref.reference.numbering import CLAUSE_ID_RE
from rulesref.reference.index import book_index
from rulesref.reference.models import Book
from rulesref.reference.render import section_url

STATUS_SIGNS = {"pass": "✓", "fail": "✗", "unknown": "?"}
LETTERED = CLAUSE_ID_RE


@dataclass
class Clause:
    clause: str  # "9.3.1c"
    section: str  # "9.3.1"
    letter: str  # "c"
    label: str  # "9.3.1c Eligibility"
    url: str | None
    text: str  # the clause's (or section's) text, plain, for the hover/focus card
    text_lang: str


@dataclass
class FindingView:
    status: str
    sign: str
    message: str
    clause: Clause
    field: str = ""  # the scenario field that would decide it (Finding.field), shown to developers only

    @property
    def after_clause(self) -> str:
        """The message as it reads after its clause's label: without the clause's own title when the message
        starts with it ("Stand and Shoot: Stand and Shoot: the charge…" said the title twice)."""
        title = self.clause.label.removeprefix(self.clause.clause).strip() if self.clause.label else ""
        for name in filter(None, (title, self.clause.label)):
            if self.message.startswith(name + ":"):
                return self.message[len(name) + 1:].lstrip()
        return self.message


@dataclass
class AnswerView:
    question: str
    verdict: str
    findings: list[FindingView]
    summary: str
    result: dict[str, Any]
    marks: list = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)
    sectors: dict[str, str] = field(default_factory=dict)
    facts: list[tuple[str, str]] = field(default_factory=list)
    decided: dict[str, Any] = field(default_factory=dict)  # the book revision and engine version (decided.py)
    then: Any = None  # on a shared link that kept its answer: remembered.ThenAndNow
    interpretations: list[str] = field(default_factory=list)  # the written interpretations followed, summarised
    # What a "where" or "which" question answers, in words (the board kind's answer_extras says it): the verdict's
    # own word where "yes" would say nothing ("retreat", "eliminated"), and the answer in a sentence.
    verdict_label: str = ""
    headline: str = ""

    @property
    def decisive(self) -> FindingView | None:
        """The finding that decides a "no" (the first clause not met) or an "undetermined" (the first one the corpus
        leaves open); a "yes" has none, every clause being met."""
        wanted = {"no": "fail", "undetermined": "unknown"}.get(self.verdict)
        return next((f for f in self.findings if f.status == wanted), None)


def split_clause(clause: str) -> tuple[str, str]:
    """``9.3.1c`` -> (``9.3.1``, ``c``); t9a ids (``XIII.7.C``, ``hold``) have no letter part."""
    if LETTERED.match(clause):
        return clause[:-1], clause[-1]
    return clause, ""


def outside_view(book: str, rule_id: str, lang: str) -> Clause:
    """A rule the engine applies that the corpus does not contain: named as such, its statement and source on
    hover, linked to its entry on the book's coverage map."""
    try:
        rule = outside_rule(book, rule_id)
    except LookupError:
        return Clause(f"outside:{rule_id}", "", "", rule_id, None, "", lang)
    with translation.override(lang):
        label = _("Rule outside the corpus: %(name)s") % {"name": rule.name.render(lang)}
        url = reverse("coverage:coverage", kwargs={"book": book}) + f"#outside-{rule.id}"
        text = _("%(statement)s Source: %(source)s") % {"statement": rule.statement.render(lang),
                                                         "source": rule.source}
    return Clause(f"outside:{rule_id}", "", "", label, url, text, lang)


def clause_view(book: str, clause: str, lang: str, index=None) -> Clause:
    if clause.startswith("outside:"):
        return outside_view(book, clause.split(":", 1)[1], lang)
    section, letter = split_clause(clause)
    entry = index.get(section) if index is not None else None
    if entry is None:
        return Clause(clause, section, letter, clause, None, "", lang)
    title = entry.title(lang)
    label = f"{entry.number}{letter} {title}".strip() if entry.number else (title or clause)
    body_lang = lang if entry.bodies.get(lang) else "ru"
    body = entry.bodies.get(body_lang, "")
    text = body
    if letter:
        text = next((block for block in split_blocks(body) if clause_label(block) == letter), body)
    url = None if entry.absent else section_url(lang, book, section, letter)
    return Clause(clause, section, letter, label, url, plain(text), body_lang)


def plain(text: str, limit: int = 700) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def book_index_for(book: str):
    obj = Book.objects.filter(slug=book).first()
    return book_index(obj) if obj is not None else None


def summary(findings: list[FindingView]) -> str:
    counts = {s: sum(1 for f in findings if f.status == s) for s in ("pass", "fail", "unknown")}
    parts = [ngettext("%(n)s clause checked", "%(n)s clauses checked", len(findings)) % {"n": len(findings)}]
    if counts["pass"]:
        parts.append(ngettext("%(n)s met", "%(n)s met", counts["pass"]) % {"n": counts["pass"]})
    if counts["fail"]:
        parts.append(ngettext("%(n)s not met", "%(n)s not met", counts["fail"]) % {"n": counts["fail"]})
    if counts["unknown"]:
        parts.append(ngettext("%(n)s undetermined", "%(n)s undetermined", counts["unknown"]) % {"n": counts["unknown"]})
    return ", ".join(parts)


def build(book: str, ruling: dict[str, Any], lang: str) -> AnswerView:
    """The answer of a Ruling (as ``Ruling.to_dict(lang, details=True)``) with its clauses looked up in the
    reference."""
    index = book_index_for(book)
    cache: dict[str, Clause] = {}
    findings = []
    for f in ruling["findings"]:
        clause = f["clause"].split(":", 1)[-1]
        if clause not in cache:
            cache[clause] = clause_view(book, clause, lang, index)
        findings.append(FindingView(f["status"], STATUS_SIGNS.get(f["status"], "?"), f["message"], cache[clause],
                                    f.get("field", "")))
    result = ruling.get("result") or {}
    followed = [interpretation(i).summary.render(lang) for i in result.get("interpretations") or []
                if i in INTERPRETATIONS]
    return AnswerView(ruling["question"], ruling["verdict"], findings, summary(findings), result,
                      interpretations=followed)


def percent(value: float, lang: str) -> str:
    """A chance as a percentage to a tenth, in the reader's notation: 2.7% / 2,7 %."""
    return format_percent(round(value, 3), locale=lang, decimal_quantization=False)
