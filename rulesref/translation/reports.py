"""Reports from readers: a problem in one paragraph of a published section (a wrong translation, a typo, a rules
question), anchored to the paragraph and the text revision the reader saw, queued for the translators with a
status (new, accepted, fixed, declined), followed by the reader through a secret link.

Reports sent without signing in are rate-limited per client address by the site's limits (group ``report`` of
``RULESREF_RATE_LIMITS``, rulesref.security.limits).
"""
from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.db.models import Count
from django.urls import reverse
from django.utils import timezone, translation

from rulesref.reference.corpus import source_revision, split_blocks
from rulesref.reference.models import Book, Section, SectionText

from .models import Report

REVISION_RE = re.compile(r"^[0-9a-f]{12}$")


@dataclass
class Anchor:
    """A paragraph of a published section in one language, as a reader sees it now."""

    book: Book
    section: Section
    language: str
    paragraph: int
    text: str
    title: str
    revision: str

    @property
    def sid(self) -> str:
        return self.section.sid


def text_revision(title: str, body: str) -> str:
    return source_revision(title, body)


def anchor(book_slug: str, sid: str, language: str, paragraph: int) -> Anchor | None:
    """The paragraph a report is about, or None when there is no such published paragraph."""
    book = Book.objects.filter(slug=book_slug).first()
    section = Section.objects.filter(book=book, sid=sid, absent=False).first() if book else None
    text = SectionText.objects.filter(section=section, language=language).first() if section else None
    if text is None:
        return None
    blocks = split_blocks(text.body)
    if not 1 <= paragraph <= len(blocks):
        return None
    return Anchor(book, section, language, paragraph, blocks[paragraph - 1], text.title,
                  text_revision(text.title, text.body))


def create(anchor: Anchor, *, kind: str, message: str, seen_revision: str, reader_language: str, user) -> Report:
    now = timezone.now()
    return Report.objects.create(
        token=secrets.token_urlsafe(18)[:24], book=anchor.book.slug, sid=anchor.sid, language=anchor.language,
        paragraph=anchor.paragraph, revision=seen_revision if REVISION_RE.match(seen_revision) else anchor.revision,
        quoted=anchor.text, kind=kind, message=message, reader_language=reader_language,
        reporter=user if getattr(user, "is_authenticated", False) else None, created=now, updated=now)


def follow_url(report: Report) -> str:
    with translation.override(report.reader_language):
        return reverse("report-follow", kwargs={"token": report.token})


def section_reports(book: Book, sid: str):
    return Report.objects.filter(book=book.slug, sid=sid)


def counts(book: Book) -> dict[str, int]:
    """How many reports of the book are in each status (every status listed, zero included)."""
    found = dict.fromkeys(Report.State.values, 0)
    for row in Report.objects.filter(book=book.slug).values("status").annotate(n=Count("pk")):
        found[row["status"]] = row["n"]
    return found
