"""What a ruling goes through: written (directly, from a reader's question, or imported), saved as revisions
(optimistically locked, as translations are), published, translated, confirmed after the rules it cites changed,
withdrawn.

**Cost.** Every write reads and writes the ruling, its texts and the few sections it cites — never the rest of its
rulebook — so it costs the same in a book of 40 sections and in one of 20,000 (tests count its queries). A write
that changes what readers see (a publication, a confirmation, a withdrawal, new citations of a public ruling) is a
content write of the rulebook (rulesref/writes.py): it takes the book's lock first, then the ruling's rows, and
marks the book's content changed (``Book.bump_version``), so the cached pages, the API's answers and the offline
copy that show the ruling are made again. A save that publishes nothing locks only its text's row.

"May be outdated" is never written when the rules change: it is derived from the citations' digests
(citations.py), so a load or an approval of thousands of sections costs nothing here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils import translation as django_translation
from django.utils.translation import gettext

from rulesref.reference.corpus import split_blocks
from rulesref.reference.models import Book
from rulesref.text import word_stems
from rulesref.translation.models import Report, Status
from rulesref.writes import lock_book, retrying

from . import citations as citing
from .models import Citation, Ruling, RulingRevision, RulingText, text_digest


class RulingError(ValueError):
    """A write that cannot be made as asked (the message says why, in the reader's language)."""


def normalise(text: str) -> str:
    """Line ends as \\n, paragraphs separated by one blank line, no space at either end."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    return "\n\n".join(b.strip() for b in split_blocks(text) if b.strip())


def one_paragraph(text: str) -> str:
    """A question as one paragraph (its lines joined): it is one unit of translation."""
    return " ".join((text or "").split())


def search_stems(question: str, answer: str, lang: str) -> str:
    """The stems of a published text as the search index stems words (each in its own script's stemmer), space
    separated with a space at each end, so a stem is found as `` stem `` (search.py)."""
    found = dict.fromkeys(word_stems(f"{question}\n{answer}"))
    return f" {' '.join(found)} " if found else ""


# ---------------------------------------------------------------------------------------------------- reading


def source_text(ruling: Ruling) -> RulingText:
    return ruling.texts.get(language=ruling.source_language)


def translation_text(ruling: Ruling) -> RulingText:
    return ruling.texts.get(language=ruling.target_language)


def current_source(source: RulingText) -> tuple[str, str]:
    """The source text a translation is made from: the published one, or the working one before publication."""
    if source.has_published:
        return source.published_question, source.published_answer
    return source.question, source.answer


def current_source_revision(source: RulingText) -> str:
    return text_digest(*current_source(source))


def state_of(text: RulingText, source: RulingText) -> str:
    """missing, draft, review, approved, or outdated (a translation made from another source text than the current
    one) — the states of a section's translation."""
    from rulesref.translation.models import state_of as translation_state

    if text.language == source.language:
        return text.status
    return translation_state(text.status, text.source_revision, current_source_revision(source))


def source_at(source: RulingText, revision: str) -> tuple[str, str] | None:
    """The source text whose revision id is ``revision``: the current one, or one saved before (its revisions)."""
    for question, answer in ((source.published_question, source.published_answer), (source.question, source.answer)):
        if text_digest(question, answer) == revision:
            return question, answer
    for question, answer in source.revisions.values_list("question", "answer").order_by("-number")[:200]:
        if text_digest(question, answer) == revision:
            return question, answer
    return None


# ---------------------------------------------------------------------------------------------------- writing


@dataclass
class SaveResult:
    revision: RulingRevision
    conflict: bool
    text: RulingText


def _next_revision(text: RulingText) -> int:
    return (text.revisions.aggregate(n=Max("number"))["n"] or 0) + 1


def _confirm_citations(book: Book, ruling: Ruling, revision: int) -> None:
    """Record what each cited clause says now, in the source and in the translation: the ruling holds for the rules
    as they stand, in both languages."""
    rows = list(ruling.citations.all())
    now = citing.digests_by_language(book, [citing.Cited(row.sid, row.clause) for row in rows])
    source, translated = now[book.source_language], now[citing.translation_language(book.source_language)]
    for row in rows:
        key = (row.sid, row.clause)
        row.digest, row.translated_digest, row.revision = source[key], translated[key], revision
    Citation.objects.bulk_update(rows, ["digest", "translated_digest", "revision"])
    ruling.confirmed_revision = revision


def _store_citations(book: Book, ruling: Ruling, cited: list[citing.Cited]) -> None:
    now = citing.digests_by_language(book, cited)
    source, translated = now[book.source_language], now[citing.translation_language(book.source_language)]
    ruling.citations.all().delete()
    Citation.objects.bulk_create([
        Citation(ruling=ruling, book=book, position=n, sid=c.sid, clause=c.clause, digest=source[(c.sid, c.clause)],
                 translated_digest=translated[(c.sid, c.clause)], revision=book.revision)
        for n, c in enumerate(cited)])
    ruling.confirmed_revision = book.revision


def _publish(text: RulingText, ruling: Ruling, book: Book, now, source: RulingText | None) -> None:
    """Make the text what readers see (its translation's memory pairs kept), and the ruling public when this is its
    source's first publication."""
    from . import memory

    text.published_question, text.published_answer = text.question, text.answer
    text.published_source_revision = text.source_revision
    text.published_at = now
    text.search_stems = search_stems(text.question, text.answer, text.language)
    ruling.changed = now
    if text.language == ruling.source_language:
        if ruling.state == Ruling.State.DRAFT:
            ruling.state = Ruling.State.PUBLISHED
            ruling.published = ruling.published or now
            _answer_report(ruling, now)
        _confirm_citations(book, ruling, book.revision)  # a published answer holds for the rules as they stand
    elif source is not None:
        memory.remember(ruling, source, text)


def _answer_report(ruling: Ruling, now) -> None:
    """The reader's question this ruling answers is answered: its follow page links the ruling."""
    report = ruling.report
    if report is None or report.status in (Report.State.FIXED, Report.State.DECLINED):
        return
    report.status = Report.State.FIXED
    if not report.response.strip():
        with django_translation.override(report.reader_language):
            report.response = gettext("Answered by ruling %(n)s.") % {"n": ruling.number}
    report.handled_by_id = ruling.created_by_id
    report.updated = now
    report.save(update_fields=["status", "response", "handled_by", "updated"])


def save_text(text: RulingText, *, user, question: str, answer: str, status: str, base_version: int,
              source_revision: str = "", comment: str = "", origin: str = RulingRevision.Origin.EDITOR) -> SaveResult:
    """Save a ruling's text in one language as a new revision, unless it changed since ``base_version`` (then the
    text is kept as a conflicting revision, not applied). An approved text is published; a publishing save takes
    the book's lock before the text's row (the lock order of rulesref/writes.py)."""
    question, answer = one_paragraph(question), normalise(answer)
    publishing = status == Status.APPROVED
    book_pk = text.ruling.book_id

    def write() -> SaveResult:
        with transaction.atomic():
            book = lock_book(book_pk) if publishing else None
            t = RulingText.objects.select_for_update(of=("self",)).select_related("ruling").get(pk=text.pk)
            ruling = t.ruling
            now = timezone.now()
            author = user if getattr(user, "is_authenticated", False) else None
            fields = dict(text=t, number=_next_revision(t), author=author, created=now, status=status,
                          question=question, answer=answer, comment=comment[:500], base_version=base_version)
            if t.version != base_version:
                revision = RulingRevision.objects.create(**fields, source_revision=source_revision,
                                                         origin=RulingRevision.Origin.CONFLICT, applied=False)
                return SaveResult(revision, True, t)
            source = None if t.language == ruling.source_language else RulingText.objects.get(
                ruling=ruling, language=ruling.source_language)
            if source is None:
                made_from = text_digest(question, answer)  # a source text is made from itself
            else:
                made_from = source_revision or current_source_revision(source)
            revision = RulingRevision.objects.create(**fields, source_revision=made_from, origin=origin,
                                                     published=publishing)
            t.question, t.answer, t.status, t.source_revision = question, answer, status, made_from
            t.version += 1
            t.updated_by, t.updated_at = author, now
            if source is not None:
                _count_qa(t, source)
            if publishing:
                _publish(t, ruling, book, now, source)
                ruling.save()
            t.save()
            if publishing:
                book.bump_version("ruling")
        return SaveResult(revision, False, t)

    return retrying(write)


def _count_qa(text: RulingText, source: RulingText) -> None:
    from . import quality

    problems = quality.problems(text.ruling, source, text.question, text.answer)
    text.qa_errors = sum(1 for p in problems if p.severity == "error")
    text.qa_warnings = len(problems) - text.qa_errors


@dataclass
class NewRuling:
    """What a new ruling is made of."""

    source_language: str
    question: str
    answer: str
    cited: list[citing.Cited]
    status: str = Status.DRAFT
    other_question: str = ""  # its translation, when written at once
    other_answer: str = ""
    other_status: str = Status.DRAFT
    report: Report | None = None
    checker_code: str = ""
    checker_query: str = ""
    comment: str = ""
    origin: str = RulingRevision.Origin.EDITOR


def create(book: Book, new: NewRuling, *, user) -> Ruling:
    """A new ruling with its next number, its citations, and its text in its own language (and the other one's when
    given). Numbering takes the book's lock, so two editors never get one number; a published ruling marks the
    book's content changed."""
    return retrying(lambda: _create(book, new, user))


def _create(book: Book, new: NewRuling, user) -> Ruling:
    with transaction.atomic():
        locked = lock_book(book.pk)
        return _create_locked(locked, new, user)


def _create_locked(book: Book, new: NewRuling, user, bump: bool = True) -> Ruling:
    """``create`` inside a transaction that holds the book's lock (``book`` is the locked row); ``bump``: mark the
    book's content changed when the ruling is published (an import marks it once for all of its rulings)."""
    now = timezone.now()
    author = user if getattr(user, "is_authenticated", False) else None
    number = (Ruling.objects.filter(book=book).aggregate(n=Max("number"))["n"] or 0) + 1
    ruling = Ruling.objects.create(book=book, number=number, source_language=new.source_language,
                                   report=new.report, checker_code=new.checker_code,
                                   checker_query=new.checker_query, created=now, created_by=author, changed=now)
    _store_citations(book, ruling, new.cited)
    question, answer = one_paragraph(new.question), normalise(new.answer)
    source = RulingText.objects.create(ruling=ruling, language=new.source_language)
    target = RulingText.objects.create(ruling=ruling, language=ruling.target_language)
    _write_new(source, None, question, answer, new.status, author, now, new, book)
    if one_paragraph(new.other_question) or normalise(new.other_answer):
        _write_new(target, source, one_paragraph(new.other_question), normalise(new.other_answer),
                   new.other_status, author, now, new, book)
    ruling.save()
    if bump and new.status == Status.APPROVED:
        book.bump_version("ruling")
    return ruling


def _write_new(text: RulingText, source: RulingText | None, question: str, answer: str, status: str, author, now,
               new: NewRuling, book: Book) -> None:
    made_from = text_digest(question, answer) if source is None else current_source_revision(source)
    publishing = status == Status.APPROVED
    RulingRevision.objects.create(text=text, number=1, author=author, created=now, status=status, question=question,
                                  answer=answer, source_revision=made_from, comment=new.comment[:500],
                                  origin=new.origin, base_version=0, published=publishing)
    text.question, text.answer, text.status, text.source_revision = question, answer, status, made_from
    text.version, text.updated_by, text.updated_at = 1, author, now
    if source is not None:
        _count_qa(text, source)
    if publishing:
        _publish(text, text.ruling, book, now, source)
    text.save()


def set_citations(ruling: Ruling, cited: list[citing.Cited], *, base_version: int, checker_code: str = "",
                  checker_query: str = "") -> bool:
    """Replace a ruling's citations (confirmed against the rules as they stand) and its checker link; False when
    the ruling changed since ``base_version``."""

    def write() -> bool:
        with transaction.atomic():
            book = lock_book(ruling.book_id)
            r = Ruling.objects.select_for_update(of=("self",)).get(pk=ruling.pk)
            if r.version != base_version:
                return False
            _store_citations(book, r, cited)
            r.checker_code, r.checker_query = checker_code, checker_query
            r.version += 1
            if r.is_public:
                r.changed = timezone.now()
            r.save()
            if r.is_public:
                book.bump_version("ruling")
        return True

    return retrying(write)


def confirm(ruling: Ruling, *, user, comment: str = "") -> RulingRevision:
    """A reviewer's word that the ruling still holds for the rules as they stand: its citations record what the
    clauses say now, and its history records the confirmation."""

    def write() -> RulingRevision:
        with transaction.atomic():
            book = lock_book(ruling.book_id)
            r = Ruling.objects.select_for_update(of=("self",)).get(pk=ruling.pk)
            source = RulingText.objects.select_for_update(of=("self",)).get(ruling=r, language=r.source_language)
            now = timezone.now()
            _confirm_citations(book, r, book.revision)
            r.confirmed, r.confirmed_by, r.changed = now, user, now
            r.save()
            revision = RulingRevision.objects.create(
                text=source, number=_next_revision(source), author=user, created=now, status=source.status,
                question=source.question, answer=source.answer, source_revision=source.source_revision,
                comment=comment[:500], origin=RulingRevision.Origin.CONFIRM, book_revision=book.revision)
            if r.is_public:
                book.bump_version("ruling")
        return revision

    return retrying(write)


def withdraw(ruling: Ruling, *, user, withdrawn: bool = True, comment: str = "") -> None:
    """Withdraw a published ruling (its address stays and says so) or publish a withdrawn one again."""

    def write() -> None:
        with transaction.atomic():
            book = lock_book(ruling.book_id)
            r = Ruling.objects.select_for_update(of=("self",)).get(pk=ruling.pk)
            if not r.is_public:
                raise RulingError(gettext("Only a published ruling can be withdrawn or published again."))
            source = RulingText.objects.get(ruling=r, language=r.source_language)
            now = timezone.now()
            r.state = Ruling.State.WITHDRAWN if withdrawn else Ruling.State.PUBLISHED
            r.changed = now
            r.save(update_fields=["state", "changed"])
            RulingRevision.objects.create(
                text=source, number=_next_revision(source), author=user, created=now, status=source.status,
                question=source.question, answer=source.answer, source_revision=source.source_revision,
                comment=comment[:500], origin=RulingRevision.Origin.WITHDRAW if withdrawn
                else RulingRevision.Origin.EDITOR)
            book.bump_version("ruling")

    retrying(write)


def restore(revision: RulingRevision, *, user, status: str, base_version: int) -> SaveResult:
    return save_text(revision.text, user=user, question=revision.question, answer=revision.answer, status=status,
                     base_version=base_version, source_revision=revision.source_revision,
                     comment=gettext("restored revision %(n)s") % {"n": revision.number},
                     origin=RulingRevision.Origin.RESTORE)


def public_rulings(book: Book, sids: Iterable[str] | None = None):
    """The rulings readers see (published), with their citations and texts read in two more queries; only those
    citing ``sids`` when given."""
    found = Ruling.objects.filter(book=book, state=Ruling.State.PUBLISHED)
    if sids is not None:
        found = found.filter(citations__sid__in=sorted(set(sids))).distinct()
    return found.order_by("number").prefetch_related("citations", "texts")
