"""Rulings that remember their rules: a shared link keeps the answer it was made with (:class:`SharedRuling`: the
verdict, the clauses cited, the book revision and the engine version), and the shared page, which always asks the
engine again, says when the verdict or the text of a cited clause has changed since, showing both.

A clause's text at the link's revision comes from the book's history (rulesref/reference/history.py); a lettered
clause (``9.3.1c``) is compared by its own paragraph, so a change elsewhere in its section does not count.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from rulesref.engine import ENGINE_VERSION
from rulesref.reference import history
from rulesref.reference.corpus import clause_label, split_blocks
from rulesref.reference.history_views import history_url, language_name, revision_url
from rulesref.reference.models import Book, TextVersion
from rulesref.textdiff import block_diffs, html_diff

from .answer import STATUS_SIGNS, AnswerView, split_clause
from .decided import book_revision
from .models import SavedScenario, SharedRuling

MAX_FINDINGS = 500  # findings kept per ruling: far more than any question cites


def _statuses(findings: list[dict[str, str]]) -> dict[str, str]:
    """Each clause's status taken together (any fail: fail; else any unknown: unknown; else pass), in order."""
    out: dict[str, str] = {}
    for f in findings:
        before = out.get(f["clause"])
        if before is None or (f["status"], before) in (("fail", "pass"), ("fail", "unknown"), ("unknown", "pass")):
            out[f["clause"]] = f["status"]
    return out


def remember(saved: SavedScenario, question: str, params: dict[str, Any], answer: AnswerView) -> SharedRuling:
    """Keep the answer a shared link is made with."""
    findings = [{"clause": f.clause.clause, "status": f.status} for f in answer.findings[:MAX_FINDINGS]]
    return SharedRuling.remember(saved, question, params, book_revision=book_revision(saved.book),
                                 engine_version=ENGINE_VERSION, verdict=answer.verdict, findings=findings)


def clause_text(title: str, body: str, letter: str) -> list[str]:
    """The paragraphs a citation of the clause points at: its own paragraph for a lettered clause, else the
    section's title and every paragraph of its text."""
    blocks = split_blocks(body)
    if letter:
        block = next((b for b in blocks if clause_label(b) == letter), None)
        if block is not None:
            return [block]
    return [b for b in (title, *blocks) if b.strip()]


def paragraph_diffs(old: list[str], new: list[str]) -> list:
    """The word diff of each changed paragraph only (a section's unchanged paragraphs are left out)."""
    if not new:
        return [html_diff("\n\n".join(old), "")]
    return [d for d in block_diffs(old, new) if d is not None]


@dataclass
class ClauseChange:
    clause: str
    label: str
    lang: str
    diffs: list  # the word diff of each changed paragraph (SafeString)
    then_url: str
    history_url: str
    gone: bool = False

    @property
    def lang_name(self) -> str:
        return language_name(self.lang)


@dataclass
class StatusChange:
    clause: str
    label: str
    then: str
    now: str
    then_sign: str
    now_sign: str


@dataclass
class ThenAndNow:
    record: SharedRuling
    verdict_then: str
    verdict_now: str
    revision_now: int | None
    clauses: list[ClauseChange] = field(default_factory=list)
    statuses: list[StatusChange] = field(default_factory=list)

    @property
    def verdict_changed(self) -> bool:
        return self.verdict_then != self.verdict_now

    @property
    def engine_changed(self) -> bool:
        return self.record.engine_version != ENGINE_VERSION

    @property
    def revision_changed(self) -> bool:
        return self.record.book_revision != self.revision_now

    @property
    def changed(self) -> bool:
        return self.verdict_changed or bool(self.clauses) or bool(self.statuses)

    @property
    def engine_now(self) -> str:
        return ENGINE_VERSION

    @property
    def verdict_then_label(self) -> str:
        return verdict_label(self.verdict_then)

    @property
    def verdict_now_label(self) -> str:
        return verdict_label(self.verdict_now)


def verdict_label(verdict: str) -> str:
    return {"yes": _("yes"), "no": _("no"), "undetermined": _("undetermined")}.get(verdict, verdict)


def compare(saved: SavedScenario, question: str, params: dict[str, Any], answer: AnswerView,
            lang: str) -> ThenAndNow | None:
    """What changed since the link's answer was kept: None when the link kept no answer to this question."""
    record = SharedRuling.find(saved, question, params)
    if record is None:
        return None
    now_revision = book_revision(saved.book)
    result = ThenAndNow(record, record.verdict, answer.verdict, now_revision)
    labels = {f.clause.clause: f.clause.label for f in answer.findings}
    then_status = _statuses(record.findings)
    now_status = _statuses([{"clause": f.clause.clause, "status": f.status} for f in answer.findings])
    result.statuses.extend(_status_changes(then_status, now_status, labels))
    then_revision = record.book_revision
    book = Book.objects.filter(slug=saved.book).first()
    if book is None or not then_revision or not now_revision or then_revision == now_revision:
        return result
    clauses = list(dict.fromkeys([*then_status, *now_status]))
    result.clauses.extend(_clause_changes(book, clauses, labels, lang, then_revision, now_revision))
    return result


def _status_changes(then_status: dict, now_status: dict, labels: dict[str, str]) -> list[StatusChange]:
    """The clauses whose status differs between the kept answer and today's, in the kept answer's order."""
    changes = []
    for clause in [*then_status, *(c for c in now_status if c not in then_status)]:
        before, after = then_status.get(clause), now_status.get(clause)
        if before != after:
            changes.append(StatusChange(clause, labels.get(clause, clause), before or "", after or "",
                                        STATUS_SIGNS.get(before, "–"), STATUS_SIGNS.get(after, "–")))
    return changes


def _clause_changes(book: Book, clauses: list[str], labels: dict[str, str], lang: str, then_revision: int,
                    now_revision: int) -> list[ClauseChange]:
    """The cited clauses whose text changed between the two revisions: in the reader's language first, else in the
    source language (a change to the other translation alone is not this reader's)."""
    sections = {split_clause(c)[0] for c in clauses}
    languages = list(dict.fromkeys([lang, book.source_language]))
    texts: dict[tuple[str, str, int], TextVersion] = {}
    for v in TextVersion.objects.filter(book=book, sid__in=sections, language__in=languages).filter(
            history.in_force(then_revision) | history.in_force(now_revision)):
        for number in (then_revision, now_revision):
            if v.since <= number and (v.until is None or v.until > number):
                texts[(v.sid, v.language, number)] = v
    changes = []
    for clause in clauses:
        section, letter = split_clause(clause)
        for text_lang in languages:
            old, new = texts.get((section, text_lang, then_revision)), texts.get((section, text_lang, now_revision))
            old_text = clause_text(old.title, old.body, letter) if old else []
            new_text = clause_text(new.title, new.body, letter) if new else []
            if old_text != new_text:
                changes.append(ClauseChange(
                    clause, labels.get(clause, clause), text_lang, paragraph_diffs(old_text, new_text),
                    revision_url(lang, book.slug, section, then_revision),
                    history_url(lang, book.slug, section, f"from={then_revision}&to={now_revision}&in={text_lang}"),
                    gone=new is None))
                break
    return changes
