"""Rulebooks, their sections, the text of each section in each language, cross-references and errata.

The fixture files under fixtures/corpus/ are the source of truth; ``loadrules`` fills these tables from them and
``dumprules`` writes them back.
"""
from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .corpus import split_blocks

LANGUAGE_CHOICES = [("ru", "Русский"), ("en", "English")]


class Book(models.Model):
    slug = models.SlugField(unique=True)
    source_language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES, default="ru")
    kind = models.CharField(max_length=20, default="none",
                            help_text="hex or tabletop: which checker it uses; none: a book without a rules engine")
    position = models.PositiveIntegerField(default=0)
    title_ru = models.CharField(max_length=200)
    title_en = models.CharField(max_length=200)
    description_ru = models.TextField(blank=True)
    description_en = models.TextField(blank=True)
    fixture_digest = models.CharField(max_length=32, blank=True, help_text="digest of the fixture files last loaded")
    version = models.PositiveIntegerField(default=0, help_text="bumped on every change of the book's content; "
                                          "caches of pages and of the section index are keyed on it")
    revision = models.PositiveIntegerField(default=0, help_text="the number of the book's latest revision (a "
                                           "load or approval that changed its text); 0: never loaded")
    chapters = models.JSONField(default=list)
    number_patterns = models.JSONField(default=list, blank=True,
                                       help_text="the book's own ways of printing a rule number (book.toml "
                                                 "[numbering] patterns): references and search use them")

    class Meta:
        ordering = ["position", "slug"]
        verbose_name = _("rulebook")

    def __str__(self) -> str:
        return self.slug

    def title(self, lang: str) -> str:
        return self.title_ru if lang == "ru" else self.title_en

    def description(self, lang: str) -> str:
        return self.description_ru if lang == "ru" else self.description_en

    def get_absolute_url(self) -> str:
        return reverse("reference:book", kwargs={"book": self.slug})

    def bump_version(self, reason: str = "edit") -> None:
        """Mark the content as changed, so every app server's caches of this book are rebuilt, and say so
        (``signals.content_changed``: the offline copy is rebuilt from it)."""
        from .signals import content_changed

        Book.objects.filter(pk=self.pk).update(version=models.F("version") + 1)
        self.refresh_from_db(fields=["version"])
        content_changed.send(sender=Book, book=self, reason=reason)


class Section(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="sections")
    sid = models.CharField("id", max_length=64, help_text="stable id shared by both languages: 9.3.1, XIII.7.C, hold")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.CASCADE, related_name="children")
    position = models.PositiveIntegerField(help_text="order in the book (pre-order of the tree)")
    depth = models.PositiveSmallIntegerField(default=1)
    absent = models.BooleanField(default=False, help_text="a parent the corpus does not contain")
    changed = models.BooleanField(default=False, help_text="marked as changed in this edition (>>)")
    page = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["book", "position"]
        constraints = [models.UniqueConstraint(fields=["book", "sid"], name="unique_section_id")]
        indexes = [models.Index(fields=["book", "position"])]

    def __str__(self) -> str:
        return f"{self.book_id and self.book.slug}:{self.sid}"

    @property
    def number(self) -> str:
        from .corpus import is_numbered

        return self.sid if is_numbered(self.sid) else ""

    def get_absolute_url(self) -> str:
        return reverse("reference:section", kwargs={"book": self.book.slug, "section": self.sid})


class SectionText(models.Model):
    """A section's title and text in one language. The database indexes every change of it for search
    (searchindex.py): generated search columns on PostgreSQL, triggers on SQLite.

    Three facts of the text are kept beside it (``measure``, on every save and bulk write) so that a whole book's
    progress is counted by SQL without reading its texts: its revision (which a translation made from it records),
    its words, and whether it is blank."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="texts")
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    title = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    source_revision = models.CharField(max_length=32, blank=True,
                                       help_text="in a translation: the revision of the source text it was made from")
    revision = models.CharField(max_length=32, blank=True, editable=False,
                                help_text="this text's own revision (corpus.source_revision of its title and body)")
    words = models.PositiveIntegerField(default=0, editable=False)
    blank = models.BooleanField(default=True, editable=False, help_text="neither a title nor a body")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["section", "language"], name="unique_text_language")]

    def __str__(self) -> str:
        return f"{self.section} [{self.language}]"

    def measure(self) -> SectionText:
        """Set the stored facts from the title and body (every writer calls it; ``save`` does)."""
        from .corpus import source_revision, word_count

        self.revision = source_revision(self.title, self.body)
        self.words = word_count(self.title) + word_count(self.body)
        self.blank = not (self.title.strip() or self.body.strip())
        return self

    def save(self, *args, **kwargs):
        self.measure()
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "revision", "words", "blank"}
        super().save(*args, **kwargs)

    @property
    def blocks(self) -> list[str]:
        return split_blocks(self.body)


class Reference(models.Model):
    """A cross-reference found in a section's text, with its anchor text as printed."""

    source = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="references")
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    block = models.PositiveSmallIntegerField(help_text="index of the paragraph in the text")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    anchor = models.CharField(max_length=200)
    target_sid = models.CharField(max_length=64, help_text="the id referred to, normalised")
    kind = models.CharField(max_length=10, default="section")
    target = models.ForeignKey(Section, null=True, blank=True, on_delete=models.SET_NULL, related_name="referrers",
                               help_text="the section when the corpus has it")

    class Meta:
        ordering = ["source__position", "language", "block", "start"]
        indexes = [models.Index(fields=["target"])]


class Erratum(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="errata")
    section = models.ForeignKey(Section, null=True, on_delete=models.SET_NULL)
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES, default="ru")
    wrong = models.CharField(max_length=200)
    right = models.CharField(max_length=200)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["section__position", "pk"]


class SearchWord(models.Model):
    """A word of a rulebook's texts (lower case, ё as е) with its stem and how often it occurs: the vocabulary that
    "did you mean" draws on. Rebuilt by every load of the book, grown by every saved text (searchindex.py); the
    full-text index itself is kept by the database (see searchindex.py)."""

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="search_words")
    word = models.CharField(max_length=64)
    stem = models.CharField(max_length=64)
    initial = models.CharField(max_length=1, help_text="the first letter: near misspellings are looked up by it")
    length = models.PositiveSmallIntegerField()
    count = models.PositiveIntegerField(default=1)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["book", "word"], name="unique_search_word")]
        # "Did you mean" reads every word of an initial and about a length (a thousand in a big book): the index
        # holds the word, so they are read from it alone, not row by row from the table.
        indexes = [models.Index(fields=["stem"]), models.Index(fields=["initial", "length", "book", "word"])]


class BookRevision(models.Model):
    """One change of a book's text: a ``loadrules`` or an approved translation (or an admin edit) that changed at
    least one title or text. What it changed are the :class:`TextVersion` rows that came in force with it
    (``since``) or went out of force with it (``until``); the revision itself only counts them."""

    class Origin(models.TextChoices):
        EXISTING = "existing", _("texts already in the database")
        LOAD = "load", _("loaded from the corpus files")
        APPROVAL = "approval", _("approved translation")
        ADMIN = "admin", _("edited by an administrator")

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveIntegerField()
    created = models.DateTimeField(default=timezone.now)
    origin = models.CharField(max_length=10, choices=Origin.choices)
    languages = models.CharField(max_length=20, help_text="the languages whose text changed, space separated")
    added = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    removed = models.PositiveIntegerField(default=0)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["book", "-number"]
        constraints = [models.UniqueConstraint(fields=["book", "number"], name="unique_book_revision")]

    def __str__(self) -> str:
        return f"{self.book_id and self.book.slug} revision {self.number}"

    @property
    def language_list(self) -> list[str]:
        return self.languages.split()


class TextVersion(models.Model):
    """A section's title and text in one language as they stood from revision ``since`` until revision ``until``
    (exclusive; empty while in force). A row is written only when a text changes, so the texts in force at revision
    N are the rows with ``since <= N`` and ``until`` empty or above N. Keyed by the section's id, not its row, so
    the history of a section the files no longer have stays."""

    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="text_versions")
    sid = models.CharField(max_length=64)
    language = models.CharField(max_length=2, choices=LANGUAGE_CHOICES)
    title = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    since = models.PositiveIntegerField()
    until = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["book", "sid", "language", "since"]
        constraints = [models.UniqueConstraint(fields=["book", "sid", "language", "since"],
                                               name="unique_text_version")]
        indexes = [models.Index(fields=["book", "since"], name="reference_tv_since"),
                   models.Index(fields=["book", "until"], name="reference_tv_until")]

    def __str__(self) -> str:
        return f"{self.book_id and self.book.slug}:{self.sid} [{self.language}] {self.since}–{self.until or ''}"
