"""Rulings: a rules question and its answer, attached to the clauses they cite.

- :class:`Ruling` is the ruling itself: its rulebook and number (its permanent address is
  ``/<lang>/rules/<book>/rulings/<number>/``), the language it was written in, whether it is published, the reader's
  report it answers, a checker position it may point to, and the book revision its citations were last confirmed
  against.
- :class:`Citation` is a clause it answers (``9.3.1c``), with the digests of that clause's text in the rulebook's
  source language and in its translation when it was last confirmed: when the source differs now, the ruling "may be
  outdated" for every reader; when the translation does, for the translation's readers. That state is derived, never
  stored, as a translation's "outdated" is, so a change of the rules writes nothing here.
- :class:`RulingText` is its question and answer in one language: the working text (with its status, as a
  ``Translation`` has) and the published text readers see. The text in the ruling's own language is its source;
  the other is its translation, outdated when made from another source text than the published one.
- :class:`RulingRevision` is every save of a text (conflicting saves kept, not applied), and every confirmation.

Every text here is untrusted: stored as typed, always shown escaped.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rulesref.reference.corpus import digest, split_blocks
from rulesref.reference.models import LANGUAGE_CHOICES, Book
from rulesref.translation.models import Status

MAX_QUESTION = 4000
MAX_ANSWER = 20000


def text_digest(question: str, answer: str) -> str:
    """The revision id of a ruling's text in one language: a translation records the one it was made from."""
    return digest(question + "\n\n" + answer)


class Ruling(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("ruling state", "not published")
        PUBLISHED = "published", pgettext_lazy("ruling state", "published")
        WITHDRAWN = "withdrawn", pgettext_lazy("ruling state", "withdrawn")

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="rulings")
    number = models.PositiveIntegerField(help_text="its number in the rulebook: the permanent address")
    source_language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES,
                                       help_text="the language it was written in: its translation is made from it")
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT)
    report = models.ForeignKey("translation.Report", null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="rulings", help_text="the reader's question it answers")
    checker_code = models.CharField(max_length=16, blank=True, help_text="a shared checker position it points to")
    checker_query = models.CharField(max_length=300, blank=True,
                                     help_text="the question asked about that position (q=…&p-…=…)")
    created = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    published = models.DateTimeField(null=True, blank=True, help_text="when it was first published")
    changed = models.DateTimeField(default=timezone.now, help_text="the last change readers can see")
    confirmed = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    confirmed_revision = models.PositiveIntegerField(default=0, help_text="the book revision its citations were "
                                                                          "last confirmed against")
    version = models.PositiveIntegerField(default=0, help_text="optimistic lock of its citations and links")

    class Meta:
        ordering = ["book", "number"]
        constraints = [models.UniqueConstraint(fields=["book", "number"], name="unique_ruling_number")]
        indexes = [models.Index(fields=["book", "state", "changed"])]
        verbose_name = _("ruling")

    def __str__(self) -> str:
        return f"{self.book_id and self.book.slug} ruling {self.number}"

    @property
    def is_public(self) -> bool:
        """Readers may open it: published, or withdrawn (its address says so and keeps its last text)."""
        return self.state in (self.State.PUBLISHED, self.State.WITHDRAWN)

    @property
    def target_language(self) -> str:
        return "en" if self.source_language == "ru" else "ru"


class Citation(models.Model):
    """A clause a ruling answers, and what that clause said (in the rulebook's source language and in its
    translation) when the ruling was last confirmed. Keyed by section id, not by the section's row, so it outlives
    the rows a load replaces."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="citations")
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)
    sid = models.CharField(max_length=64)
    clause = models.CharField(max_length=8, blank=True, help_text="the clause letter: c of 9.3.1c")
    digest = models.CharField(max_length=32, blank=True, help_text="digest of the clause's text when confirmed")
    translated_digest = models.CharField(max_length=32, blank=True,
                                         help_text="digest of the clause's text in the rulebook's translation when "
                                                   "confirmed")
    revision = models.PositiveIntegerField(default=0, help_text="the book revision it was confirmed against")

    class Meta:
        ordering = ["ruling", "position"]
        constraints = [models.UniqueConstraint(fields=["ruling", "sid", "clause"], name="unique_citation")]
        indexes = [models.Index(fields=["book", "sid"])]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return f"{self.sid}{self.clause}"


class RulingText(models.Model):
    """A ruling's question and answer in one language: the working text and the published one."""

    ruling = models.ForeignKey(Ruling, on_delete=models.CASCADE, related_name="texts")
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.MISSING)
    question = models.TextField(blank=True)
    answer = models.TextField(blank=True)
    source_revision = models.CharField(max_length=32, blank=True,
                                       help_text="in a translation: the revision of the source text it was made from")
    version = models.PositiveIntegerField(default=0, help_text="optimistic lock: incremented by every save")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    updated_at = models.DateTimeField(null=True, blank=True)
    published_question = models.TextField(blank=True)
    published_answer = models.TextField(blank=True)
    published_source_revision = models.CharField(max_length=32, blank=True,
                                                 help_text="the source revision the published translation was made "
                                                           "from")
    published_at = models.DateTimeField(null=True, blank=True)
    search_stems = models.TextField(blank=True, help_text="the published text's word stems, for search")
    qa_errors = models.PositiveSmallIntegerField(default=0)
    qa_warnings = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["ruling", "language"]
        constraints = [models.UniqueConstraint(fields=["ruling", "language"], name="unique_ruling_text")]
        verbose_name = _("ruling text")

    def __str__(self) -> str:
        return f"{self.ruling} [{self.language}] {self.status}"

    @property
    def blocks(self) -> list[str]:
        return split_blocks(self.answer)

    @property
    def published_blocks(self) -> list[str]:
        return split_blocks(self.published_answer)

    @property
    def has_published(self) -> bool:
        return bool(self.published_question.strip())

    @property
    def revision(self) -> str:
        return text_digest(self.question, self.answer)

    @property
    def published_revision(self) -> str:
        return text_digest(self.published_question, self.published_answer)


class RulingRevision(models.Model):
    """One save of a ruling's text in one language (a conflicting save kept, not applied), or a confirmation that
    the ruling still holds after the rules it cites changed."""

    class Origin(models.TextChoices):
        EDITOR = "editor", _("editor")
        IMPORT = "import", _("imported from a text file")
        PO = "po", _("PO import")
        XLIFF = "xliff", _("XLIFF import")
        RESTORE = "restore", _("restored")
        CONFLICT = "conflict", _("conflicting save")
        CONFIRM = "confirm", _("confirmed against changed rules")
        WITHDRAW = "withdraw", _("withdrawn")

    text = models.ForeignKey(RulingText, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    created = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices)
    question = models.TextField(blank=True)
    answer = models.TextField(blank=True)
    source_revision = models.CharField(max_length=32, blank=True)
    comment = models.CharField(max_length=500, blank=True)
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.EDITOR)
    applied = models.BooleanField(default=True)
    published = models.BooleanField(default=False, help_text="this save published the text readers see")
    base_version = models.PositiveIntegerField(null=True, blank=True)
    book_revision = models.PositiveIntegerField(null=True, blank=True,
                                                help_text="for a confirmation: the book revision confirmed against")

    class Meta:
        ordering = ["text", "-number"]
        constraints = [models.UniqueConstraint(fields=["text", "number"], name="unique_ruling_revision")]

    def __str__(self) -> str:
        return f"{self.text} r{self.number}"

    @property
    def blocks(self) -> list[str]:
        return split_blocks(self.answer)
