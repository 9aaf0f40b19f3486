"""QA results kept in step with the texts, at the cost of the change.

- **A section's own checks** (unit and section scope) are stored per translation with the key of their inputs — the
  checks, the glossary, the source's revision and the translation's version (``Translation.qa_key``).
  :func:`section_results` computes them again when that key changed: one section's work.
- **The book-wide check** ("term spelt two ways") reads the book's term occurrences (``TermOccurrence``), which
  every change of a text replaces for its section (:func:`store_occurrences`). :func:`book_wide` asks them how often
  each form of a term is used, for every section or for a few (the editor, an approval's confirmation), and hands
  the counts to the check's own comparison (``TermConsistencyCheck.problems``); its results are stored per
  translation too.
- **The task** :data:`refresh_book` (queued after every save, import or load) brings a whole book up to date: every
  occurrence and result again when the checks or the glossary changed (``QAState.key``), else the section results
  whose inputs changed and the book-wide results.

What is stored equals what running every check over the whole book finds (``checks.runner.check_book``, which the
``translation_qa`` command runs): tests compare the two.
"""
from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import Count

from rulesref.background import after_commit, background_task
from rulesref.reference.corpus import split_blocks
from rulesref.reference.glossary import book_glossary, glossary_digest
from rulesref.reference.models import Book, Section, SectionText

from .checks.base import ERROR, CheckContext, Problem, TextUnits
from .checks.glossary import SECTIONS_SHOWN, FormUses, term_uses
from .checks.runner import SectionPair, check_paths, check_section, registered_checks
from .models import QAResult, QAState, TermOccurrence, Translation

if TYPE_CHECKING:
    from .workflow import Item

FIRST_SECTIONS_READ = 500  # occurrences read, at most, to find the first sections that use a form


def check_context(book: Book, lang: str) -> CheckContext:
    """What the QA checks of a book's translation into ``lang`` need: the direction, the glossary and the book's own
    number forms (so "numbers" and "references" recognise a reference printed in them)."""
    return CheckContext(book.slug, book.source_language, lang, book_glossary(settings.FIXTURES_DIR, book.slug),
                        patterns=tuple(book.number_patterns or ()))


def book_checks() -> list:
    return [c for c in registered_checks() if c.scope == "book"]


def book_check_ids() -> set[str]:
    return {c.check_id for c in book_checks()}


def own_check_ids() -> set[str]:
    """The checks that read one section alone (unit and section scope)."""
    return {c.check_id for c in registered_checks()} - book_check_ids()


def inputs_key(book: Book) -> str:
    """The inputs every result of the book depends on: the registered checks and the glossary."""
    return _digest([check_paths(), glossary_digest(settings.FIXTURES_DIR, book.slug)])


def section_key(book: Book, item: Item) -> str:
    return _digest([inputs_key(book), item.current_revision, item.translation.version])


def _digest(data) -> str:
    return hashlib.sha256(json.dumps(data, default=str).encode()).hexdigest()[:32]


def fingerprint(problem: Problem, source: TextUnits, target: TextUnits | None) -> str:
    """Identifies a problem across re-runs: the same problem in the same paragraph texts (so a dismissal holds until
    the paragraph changes)."""
    paragraph = problem.paragraph
    source_text = source.unit(paragraph) if paragraph is not None else ""
    target_text = target.unit(paragraph) if paragraph is not None and target else ""
    data = [problem.check_id, paragraph, problem.message, problem.params, source_text, target_text]
    return hashlib.sha256(json.dumps(data, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:32]


# ---------------------------------------------------------------------------------------------- term occurrences


def store_occurrences(book: Book, section: Section, lang: str, units: TextUnits | None) -> None:
    """Replace the section's term occurrences in ``lang`` with those of ``units`` (None: it has no text)."""
    TermOccurrence.objects.filter(section=section, language=lang).delete()
    TermOccurrence.objects.bulk_create(_occurrences(book, section, lang, units))


def _occurrences(book: Book, section: Section, lang: str, units: TextUnits | None) -> list[TermOccurrence]:
    if units is None:
        return []
    glossary = book_glossary(settings.FIXTURES_DIR, book.slug)
    return [TermOccurrence(book=book.slug, language=lang, section=section, paragraph=use.paragraph,
                           term=use.term[:100], form=" ".join(use.form)[:300], written=use.written[:300])
            for use in term_uses(section.sid, units, lang, glossary)]


def _store_all_occurrences(book: Book, lang: str, items: list[Item]) -> None:
    """Every occurrence of the book in its source language and ``lang`` made again, in bulk: a batch of sections a
    transaction, so no writer waits long for the database (SQLite lets one write at a time)."""
    languages = [book.source_language, lang]
    stored = TermOccurrence.objects.filter(book=book.slug, language__in=languages)
    stale = sorted(set(stored.values_list("section_id", flat=True).distinct()) - {i.section.pk for i in items})
    for start in range(0, len(stale), 500):  # sections that are no longer translatable
        stored.filter(section_id__in=stale[start:start + 500]).delete()
    for start in range(0, len(items), WRITE_BATCH):
        batch = items[start:start + WRITE_BATCH]
        rows = []
        for item in batch:
            rows += _occurrences(book, item.section, book.source_language, item.source_units)
            rows += _occurrences(book, item.section, lang, item.target_units)
        with transaction.atomic():
            TermOccurrence.objects.filter(section__in=[item.section for item in batch], language__in=languages).delete()
            TermOccurrence.objects.bulk_create(rows, batch_size=2000)


def _stored_forms(book: Book, lang: str, check, context: CheckContext,
                  sections: set[str] | None) -> dict[str, dict[tuple[str, ...], FormUses]]:
    """Term → form → its uses in the book, as the check's comparison reads them, from the stored occurrences: every
    count, the preferred form's first uses, and the places of the other forms (in ``sections``, or everywhere)."""
    stored = TermOccurrence.objects.filter(book=book.slug, language=lang)
    counted = stored
    if sections is not None:  # only the terms those sections use can have a problem there
        used = stored.filter(section__sid__in=sorted(sections)).values_list("term", flat=True).distinct()
        counted = stored.filter(term__in=sorted(set(used)))
    counts: dict[str, dict[tuple[str, ...], int]] = defaultdict(dict)
    for term, form, n in counted.values("term", "form").annotate(n=Count("id")).values_list("term", "form", "n"):
        counts[term][tuple(form.split(" "))] = n
    terms = {}
    for term, forms in counts.items():
        if len(forms) < 2 or term not in context.glossary.by_id:
            continue
        preferred = check.preferred(term, forms, lang, context.glossary, forms)
        odd = check.odd_forms(forms, preferred)
        if not odd:
            continue
        in_order = stored.filter(term=term).order_by("section__position", "paragraph", "pk")
        found = {key: FormUses(count=n) for key, n in forms.items()}
        _first_uses(found[preferred], in_order.filter(form=" ".join(preferred)))
        places = in_order.filter(form__in=[" ".join(key) for key in odd])
        if sections is not None:
            places = places.filter(section__sid__in=sorted(sections))
        for sid, paragraph, form, written in places.values_list("section__sid", "paragraph", "form", "written"):
            found[tuple(form.split(" "))].places.append((sid, paragraph, written))
        terms[term] = found
    return terms


def _first_uses(uses: FormUses, in_order) -> None:
    """The form's first use as written and its first sections (one more than are named, to know there are more)."""
    for sid, written in in_order.values_list("section__sid", "written")[:FIRST_SECTIONS_READ]:
        uses.first_written = uses.first_written or written
        if sid not in uses.first_sections:
            uses.first_sections.append(sid)
            if len(uses.first_sections) > SECTIONS_SHOWN:
                return


def book_wide(book: Book, lang: str, sections: Iterable[str] | None = None) -> list[Problem]:
    """The book-wide checks' problems, from the stored occurrences: in ``sections`` (ids), or in every section."""
    context = check_context(book, lang)
    wanted = None if sections is None else set(sections)
    problems = []
    for check in book_checks():
        for language, is_source in ((book.source_language, True), (lang, False)):
            terms = _stored_forms(book, language, check, context, wanted)
            problems += check.problems(terms, language, is_source, context)
    return problems


# ---------------------------------------------------------------------------------------------- stored results


WRITE_BATCH = 200  # translations whose results one transaction rewrites (and holds locked meanwhile)


def _store(results: list[tuple[Item, list[Problem]]], check_ids: set[str], keys: dict[int, str] | None = None) -> None:
    """Store each item's ``problems`` as its translation's results of the checks ``check_ids`` (the other checks'
    stay), and its ``keys`` entry as its ``qa_key``; a problem dismissed before stays dismissed while it and its
    paragraph's text are the same. In batches, each one transaction that locks its translations first (in the
    order of their ids, so two writers cannot wait on each other)."""
    for start in range(0, len(results), WRITE_BATCH):
        batch = results[start:start + WRITE_BATCH]
        ids = sorted(item.translation.pk for item, _ in batch)
        with transaction.atomic():
            list(Translation.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pk")
                 .values_list("pk", flat=True))
            old = QAResult.objects.filter(translation_id__in=ids, check_id__in=sorted(check_ids))
            dismissed = {(t, fp): by for t, fp, by in old.filter(dismissed=True).values_list(
                "translation_id", "fingerprint", "dismissed_by_id")}
            old.delete()
            QAResult.objects.bulk_create([_row(item, problem, dismissed) for item, problems in batch
                                          for problem in problems], batch_size=1000)
            rekeyed = [item.translation for item, _ in batch
                       if keys is not None and item.translation.qa_key != keys[item.translation.pk]]
            for translation in rekeyed:
                translation.qa_key = keys[translation.pk]
            Translation.objects.bulk_update(rekeyed, ["qa_key"], batch_size=500)


def _row(item: Item, problem: Problem, dismissed: dict[tuple[int, str], int | None]) -> QAResult:
    fp = fingerprint(problem, item.source_units, item.target_units)
    key = (item.translation.pk, fp)
    return QAResult(translation=item.translation, check_id=problem.check_id, severity=problem.severity,
                    paragraph=problem.paragraph, message=problem.message, params=problem.params, fingerprint=fp,
                    dismissed=key in dismissed, dismissed_by_id=dismissed.get(key))


def section_results(book: Book, lang: str, item: Item, force: bool = False) -> list[QAResult]:
    """The translation's stored results, its own checks computed again first when their inputs changed (and, with
    them, the book-wide check's results on this section, from the stored occurrences)."""
    key = section_key(book, item)
    if force or item.translation.qa_key != key:
        own = check_section(SectionPair(item.section.sid, item.source_units, item.target_units),
                            check_context(book, lang))
        _store([(item, own)], own_check_ids(), {item.translation.pk: key})
        wide = [p for p in book_wide(book, lang, [item.section.sid]) if p.section == item.section.sid]
        _store([(item, wide)], book_check_ids())
    return list(QAResult.objects.filter(translation=item.translation))


@dataclass(frozen=True)
class TypedQA:
    """The QA problems of a text as typed, not saved: what the editor's QA panel shows beside that text and what an
    approval of it is confirmed against, so the two always agree."""

    shown: list[Problem]  # every problem of the text, less those dismissed
    dismissed: list[Problem]  # those dismissed before for the same problem in the same paragraph text

    @property
    def errors(self) -> list[Problem]:
        """The errors the text would be published with (what approving it must confirm)."""
        return [p for p in self.shown if p.severity == ERROR]


def typed_problems(book: Book, lang: str, item: Item, title: str, body: str) -> TypedQA:
    """The problems of a text that is not saved (the editor's form): every check, the book-wide ones with this text
    in place of the section's current one; a problem dismissed for the same paragraph text is set apart."""
    target = TextUnits(title, tuple(split_blocks(body)))
    problems = check_section(SectionPair(item.section.sid, item.source_units, target), check_context(book, lang))
    problems += _with_text(book, lang, item.section, target)
    dismissed = set(item.translation.qa_results.filter(dismissed=True).values_list("fingerprint", flat=True))
    found = TypedQA([], [])
    for p in problems:
        if p.section == item.section.sid:
            gone = fingerprint(p, item.source_units, target) in dismissed
            (found.dismissed if gone else found.shown).append(p)
    return found


def approval_errors(book: Book, lang: str, item: Item, title: str, body: str) -> list[Problem]:
    """The QA errors a text would be published with: every check (the book-wide ones with this text in place of the
    section's current one), errors only, less those dismissed for the same problem in the same paragraph text."""
    return typed_problems(book, lang, item, title, body).errors


class _WhatIf(Exception):
    pass


def _with_text(book: Book, lang: str, section: Section, target: TextUnits) -> list[Problem]:
    """The book-wide problems of the section if its translation read ``target``: its occurrences are replaced in a
    transaction that is then rolled back, so nothing is stored and no one else sees them."""
    found: list[Problem] = []
    try:
        with transaction.atomic():
            store_occurrences(book, section, lang, target)
            found = [p for p in book_wide(book, lang, [section.sid]) if p.section == section.sid]
            raise _WhatIf
    except _WhatIf:
        pass
    return found


# ---------------------------------------------------------------------------------------------- the whole book


def text_saved(book: Book, lang: str, section: Section, units: TextUnits | None) -> None:
    """After the section's translation got a new text, in the same transaction: its occurrences now; the book's
    results once it commits (the task; the section's own are also computed when it is next opened)."""
    store_occurrences(book, section, lang, units)
    queue_refresh(book, lang)


def queue_refresh(book: Book, lang: str) -> None:
    after_commit(refresh_book, book.pk, lang)


@background_task
def refresh_book(book_pk: int, lang: str) -> None:
    """Bring every stored QA result of the book's translation into ``lang`` up to date (see the module's notes)."""
    book = Book.objects.filter(pk=book_pk).first()
    if book is not None:
        bring_up_to_date(book, lang)


def bring_up_to_date(book: Book, lang: str, occurrences: bool = False) -> list[Item]:
    """Every stored result of the book up to date; its occurrences too when the checks or the glossary changed, or
    when ``occurrences`` says the texts may all have changed (a load). Returns the book's items, in book order."""
    from .workflow import book_items

    key = inputs_key(book)
    state, _ = QAState.objects.get_or_create(book=book.slug, language=lang, defaults={"key": ""})
    items = book_items(book, lang)
    anew = occurrences or state.key != key
    if anew:
        _store_all_occurrences(book, lang, items)
    context = check_context(book, lang)
    keys = {item.translation.pk: section_key(book, item) for item in items}
    stale = [item for item in items if anew or item.translation.qa_key != keys[item.translation.pk]]
    _store([(item, check_section(SectionPair(item.section.sid, item.source_units, item.target_units), context))
            for item in stale], own_check_ids(), keys)
    _store_book_wide(book, lang, items)
    QAState.objects.filter(pk=state.pk).update(key=key)
    return items


def _store_book_wide(book: Book, lang: str, items: list[Item]) -> None:
    """The book-wide results of every section, rewritten only where they changed."""
    by_section: dict[str, list[Problem]] = defaultdict(list)
    for problem in book_wide(book, lang):
        by_section[problem.section].append(problem)
    ids = book_check_ids()
    stored: dict[int, set[str]] = defaultdict(set)
    for translation_id, fp in QAResult.objects.filter(
            translation__section__book=book, translation__language=lang, check_id__in=sorted(ids)).values_list(
            "translation_id", "fingerprint"):
        stored[translation_id].add(fp)
    changed = []
    for item in items:
        problems = by_section.get(item.section.sid, [])
        wanted = {fingerprint(p, item.source_units, item.target_units) for p in problems}
        if wanted != stored.get(item.translation.pk, set()):
            changed.append((item, problems))
    _store(changed, ids)


def source_changed(book: Book, sids: Iterable[str]) -> None:
    """A source text changed outside a load (the admin): its occurrences now, the results by the task."""
    texts = SectionText.objects.filter(section__book=book, section__sid__in=sorted(set(sids)),
                                       language=book.source_language).select_related("section")
    for text in texts:
        units = None if text.blank or text.section.absent else TextUnits(text.title, tuple(split_blocks(text.body)))
        store_occurrences(book, text.section, book.source_language, units)
    from .workflow import target_languages

    for lang in target_languages(book):
        queue_refresh(book, lang)
