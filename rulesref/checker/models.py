"""Scenarios kept by the checker: shared scenarios behind a short permanent link, and the editor's drafts.

Both are immutable. A shared scenario never changes once its link exists: editing it makes drafts, and sharing
again makes another link (or finds the existing link of an identical scenario). A draft is one state of the editor;
each edit makes a new draft whose ``parent`` is the state it was made from, so undo is "go to the parent" and every
state has its own address (the browser's back button and a second tab both behave).
"""
from __future__ import annotations

import secrets

from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext_lazy as _

from .asking import digest

# Short codes people read aloud or type from a phone: no 0/o, 1/l/i.
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 7
DRAFT_KEY_LENGTH = 12


def new_code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


class ImmutableError(RuntimeError):
    pass


class _Immutable(models.Model):
    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ImmutableError(f"{type(self).__name__} {self.pk} is immutable; make a new one")
        super().save(*args, **kwargs)


class SavedScenario(_Immutable):
    code = models.CharField(max_length=16, unique=True, editable=False)
    book = models.CharField(max_length=20)
    data = models.JSONField()
    digest = models.CharField(max_length=64, editable=False, help_text="sha256 of the canonical JSON")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["book", "digest"], name="unique_saved_scenario_content")]
        verbose_name = _("shared scenario")

    def __str__(self) -> str:
        return f"{self.book}/{self.code}"

    @classmethod
    def share(cls, book: str, data: dict) -> "SavedScenario":
        """The shared scenario holding exactly ``data``: the existing one, or a new one with a fresh code."""
        key = digest(data)
        existing = cls.objects.filter(book=book, digest=key).first()
        if existing is not None:
            return existing
        for _attempt in range(8):
            try:
                with transaction.atomic():
                    return cls.objects.create(code=new_code(), book=book, data=data, digest=key)
            except IntegrityError:
                existing = cls.objects.filter(book=book, digest=key).first()
                if existing is not None:  # someone shared the same scenario at the same moment
                    return existing
        raise RuntimeError("could not find a free short code")


class Draft(_Immutable):
    key = models.CharField(max_length=24, unique=True, editable=False)
    book = models.CharField(max_length=20)
    data = models.JSONField()
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="children")
    origin = models.CharField(max_length=120, blank=True,
                              help_text="where the first draft came from: s:<code>, x:<example> or empty (a new map)")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["created"])]

    def __str__(self) -> str:
        return f"{self.book}/draft {self.key}"

    @classmethod
    def make(cls, book: str, data: dict, parent: "Draft | None", origin: str = "") -> "Draft":
        for _attempt in range(8):
            try:
                with transaction.atomic():
                    return cls.objects.create(key=new_code(DRAFT_KEY_LENGTH), book=book, data=data, parent=parent,
                                              origin=parent.origin if parent is not None else origin)
            except IntegrityError:
                continue
        raise RuntimeError("could not find a free draft key")
