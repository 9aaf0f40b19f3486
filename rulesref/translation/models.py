"""The translator's workspace: one working translation per section and target language, every save a revision,
the source texts translations were made from, and stored QA failures.

The published (approved) text lives in ``reference.SectionText``, which ``dumprules`` writes to fixtures/; the
rows here hold the work in progress and its history. ``Translation.version`` is the optimistic lock: a save names
the version it was made from, and a save from an older version is a conflict, never an overwrite.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rulesref.reference.corpus import split_blocks
from rulesref.reference.models import LANGUAGE_CHOICES, Section

from .checks.base import format_message


class Status(models.TextChoices):
    """The stored state of a translation. "Outdated" is not stored: it is derived (see ``Translation.outdated``)."""

    MISSING = "missing", pgettext_lazy("translation status", "missing")
    DRAFT = "draft", pgettext_lazy("translation status", "draft")
    REVIEW = "review", pgettext_lazy("translation status", "needs review")
    APPROVED = "approved", pgettext_lazy("translation status", "approved")


OUTDATED = "outdated"
OUTDATED_LABEL = pgettext_lazy("translation status", "outdated")


def state_of(status: str | None, made_from: str, current: str) -> str:
    """A translation's state: its status (missing without one), or outdated when it was made from another revision
    of the source than the current one."""
    if status is None or status == Status.MISSING:
        return Status.MISSING
    return OUTDATED if made_from != current else status


class Translation(models.Model):
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="translations")
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.MISSING)
    title = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    source_revision = models.CharField(max_length=32, blank=True,
                                       help_text="the revision of the source text this translation was made from")
    version = models.PositiveIntegerField(default=0, help_text="optimistic lock: incremented by every save")
    published_digest = models.CharField(max_length=32, blank=True,
                                        help_text="digest of the text last published to (or adopted from) the corpus")
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    updated_at = models.DateTimeField(null=True, blank=True)
    memory_digest = models.CharField(max_length=32, blank=True,
                                     help_text="the published_digest whose text the translation memory has")
    qa_key = models.CharField(max_length=32, blank=True,
                              help_text="the inputs its stored section QA results were computed from (qa.py)")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["section", "language"], name="unique_translation_language")]
        ordering = ["section__position"]
        verbose_name = _("translation")

    def __str__(self) -> str:
        return f"{self.section} [{self.language}] {self.status}"

    @property
    def blocks(self) -> list[str]:
        return split_blocks(self.body)

    def is_outdated(self, current_source_revision: str) -> bool:
        return self.state(current_source_revision) == OUTDATED

    def state(self, current_source_revision: str) -> str:
        """missing, draft, review, approved, or outdated (a translation made from an older source text)."""
        return state_of(self.status, self.source_revision, current_source_revision)


class Revision(models.Model):
    """One save of a translation. Conflicting saves are kept too (``applied`` False), so no text is ever lost."""

    class Origin(models.TextChoices):
        CORPUS = "corpus", _("corpus files")
        EDITOR = "editor", _("editor")
        RESTORE = "restore", _("restored")
        PO = "po", _("PO import")
        XLIFF = "xliff", _("XLIFF import")
        CONFLICT = "conflict", _("conflicting save")

    translation = models.ForeignKey(Translation, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    created = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices)
    title = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    source_revision = models.CharField(max_length=32, blank=True)
    comment = models.CharField(max_length=500, blank=True)
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.EDITOR)
    applied = models.BooleanField(default=True, help_text="False for a conflicting save that was kept, not applied")
    base_version = models.PositiveIntegerField(null=True, blank=True,
                                               help_text="the translation version the writer started from")
    confirmed_errors = models.JSONField(default=list, blank=True,
                                        help_text="QA errors the approving reviewer confirmed: check_id, paragraph, "
                                                  "message template, params")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["translation", "number"], name="unique_revision_number")]
        ordering = ["translation", "-number"]

    def __str__(self) -> str:
        return f"{self.translation.section} [{self.translation.language}] r{self.number}"

    @property
    def blocks(self) -> list[str]:
        return split_blocks(self.body)


class SourceText(models.Model):
    """A source text as it was at a revision, kept so an outdated translation can show what changed since.

    Keyed by book slug and section id (not a foreign key), so it outlives the rows that ``loadrules`` replaces.
    """

    book = models.CharField(max_length=50)
    sid = models.CharField(max_length=64)
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    revision = models.CharField(max_length=32)
    title = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    seen = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["book", "sid", "language", "revision"],
                                               name="unique_source_text_revision")]


class QAResult(models.Model):
    """A failed QA check on a translation (passing checks are not stored)."""

    class Severity(models.TextChoices):
        ERROR = "error", _("error")
        WARNING = "warning", _("warning")

    translation = models.ForeignKey(Translation, on_delete=models.CASCADE, related_name="qa_results")
    check_id = models.CharField(max_length=40)
    severity = models.CharField(max_length=10, choices=Severity.choices)
    paragraph = models.IntegerField(null=True, blank=True,
                                    help_text="0 for the title, 1… for paragraphs, empty for the whole section")
    message = models.CharField(max_length=300, help_text="the untranslated message template")
    params = models.JSONField(default=dict)
    fingerprint = models.CharField(max_length=32, help_text="identifies the problem across re-runs")
    dismissed = models.BooleanField(default=False)
    dismissed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")

    class Meta:
        ordering = ["translation__section__position", "paragraph", "check_id", "pk"]
        indexes = [models.Index(fields=["translation", "check_id"])]

    def text(self) -> str:
        return format_message(self.message, self.params)


class QAState(models.Model):
    """Which inputs (the checks, the glossary) the book's stored term occurrences and book-wide QA results were
    computed from: when they change, all of them are computed again (qa.py)."""

    book = models.CharField(max_length=50)
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    key = models.CharField(max_length=32)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["book", "language"], name="unique_qa_state")]


class TermOccurrence(models.Model):
    """A use of a glossary term in a text of the workspace — a source text or a working translation — kept per
    section and replaced whenever that text changes, so the book-wide check "term spelt two ways" reads how often
    each form is used instead of every text of the book (rulesref/translation/qa.py)."""

    book = models.CharField(max_length=50)
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="+")
    paragraph = models.PositiveSmallIntegerField(help_text="0 for the title, 1… for paragraphs")
    term = models.CharField(max_length=100, help_text="the glossary term's id")
    form = models.CharField(max_length=300, help_text="the stems of the form as written, space separated")
    written = models.CharField(max_length=300)

    class Meta:
        indexes = [models.Index(fields=["book", "language", "term", "form"]),
                   models.Index(fields=["section", "language"])]


class MemoryEntry(models.Model):
    """A pair of texts in the translation memory: kept apart from the translation it came from, never changed by it."""

    class Origin(models.TextChoices):
        TRANSLATION = "translation", _("approved translation")
        TMX = "tmx", _("TMX import")

    source_language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    target_language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    source = models.TextField()
    target = models.TextField()
    source_key = models.CharField(max_length=32, help_text="digest of the source text")
    target_key = models.CharField(max_length=32, help_text="digest of the target text")
    origin = models.CharField(max_length=12, choices=Origin.choices)
    book = models.CharField(max_length=50, blank=True, help_text="the rulebook it came from or was imported into")
    context = models.CharField(max_length=200, blank=True, help_text="9.3.1:2 for a translation's paragraph")
    note = models.CharField(max_length=300, blank=True, help_text="the TMX file or tool it came from")
    creator = models.CharField(max_length=150, blank=True)
    created = models.DateTimeField()
    changed = models.DateTimeField()
    words = models.PositiveIntegerField(default=0, help_text="words in the source (to skip texts of another length)")

    class Meta:
        constraints = [models.UniqueConstraint(
            fields=["source_language", "target_language", "book", "source_key", "target_key"],
            name="unique_memory_pair")]
        indexes = [models.Index(fields=["book", "source_language", "target_language"]),
                   models.Index(fields=["source_key"])]
        verbose_name = _("translation memory entry")

    def __str__(self) -> str:
        return f"{self.source_language}→{self.target_language} {self.source[:40]}"


class MemoryToken(models.Model):
    """One indexed stem of an entry's source (``ru:перехват``): the memory's inverted index."""

    entry = models.ForeignKey(MemoryEntry, on_delete=models.CASCADE, related_name="tokens")
    token = models.CharField(max_length=64)

    class Meta:
        indexes = [models.Index(fields=["token", "entry"])]


class MemoryTerm(models.Model):
    """How many entries a stem indexes (its document frequency), so a query can pick its rarest stems."""

    token = models.CharField(max_length=64, primary_key=True)
    entries = models.IntegerField(default=0)


class Report(models.Model):
    """A reader's report of a problem in one paragraph of a published section, anchored to the text revision the
    reader saw. Keyed by book slug and section id (not foreign keys), so it outlives the rows ``loadrules``
    replaces. The message is untrusted text: stored as typed, always shown escaped."""

    class Kind(models.TextChoices):
        TRANSLATION = "translation", _("wrong translation")
        TYPO = "typo", _("typo")
        RULES = "rules", _("rules question")

    class State(models.TextChoices):
        NEW = "new", pgettext_lazy("report status", "new")
        ACCEPTED = "accepted", pgettext_lazy("report status", "accepted")
        FIXED = "fixed", pgettext_lazy("report status", "fixed")
        DECLINED = "declined", pgettext_lazy("report status", "declined")

    token = models.CharField(max_length=32, unique=True, help_text="the secret part of the reader's link")
    book = models.CharField(max_length=50)
    sid = models.CharField(max_length=64)
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES, help_text="the language of the text reported")
    paragraph = models.PositiveIntegerField(help_text="1… as the reader counts the section's paragraphs")
    revision = models.CharField(max_length=32, help_text="the revision of the section's text the reader saw")
    quoted = models.TextField(help_text="the paragraph as it read when reported")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    message = models.TextField()
    status = models.CharField(max_length=10, choices=State.choices, default=State.NEW)
    response = models.TextField(blank=True, help_text="the translators' answer, shown to the reader")
    reader_language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES, default="en")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created = models.DateTimeField()
    updated = models.DateTimeField()

    class Meta:
        ordering = ["-created", "-pk"]
        indexes = [models.Index(fields=["book", "status"]), models.Index(fields=["book", "sid"])]
        verbose_name = _("report from a reader")

    def __str__(self) -> str:
        return f"{self.book}:{self.sid} ¶{self.paragraph} [{self.language}] {self.kind} {self.status}"
