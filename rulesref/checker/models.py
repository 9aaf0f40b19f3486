"""Scenarios kept by the checker: shared scenarios behind a short permanent link, and the editor's drafts.

Both are immutable. A shared scenario never changes once its link exists: editing it makes drafts, and sharing
again makes another link (or finds the existing link of an identical scenario). A draft is one state of the editor;
each edit makes a new draft whose ``parent`` is the state it was made from, so undo is "go to the parent" and every
state has its own address (the browser's back button and a second tab both behave).

Anonymous storage is bounded (rulesref.security.storage): both refuse text that cannot be stored and scenarios over
``RULESREF_SCENARIO_MAX_BYTES``, and a new row counts against its writer's storage limit. Both are deduplicated by
content: sharing a scenario twice gives one link, and the same state reached from the same one is one draft.
Shared scenarios are kept for ever. Drafts expire: one nobody opened after ``RULESREF_DRAFT_UNOPENED_DAYS``, an
opened one ``RULESREF_DRAFT_DAYS`` after it was last opened (:meth:`Draft.open` records that, at most once a day).
Every new draft queues the task :data:`prune_expired` (rulesref/background.py: a worker deletes the expired drafts in
batches, one task waiting at a time however many drafts are made), so no cron job is needed and no reader's request
deletes anything (``prunedrafts`` does it at once).
"""
from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rulesref.background import after_commit, background_task
from rulesref.security import storage

from .asking import digest

# Short codes people read aloud or type from a phone: no 0/o, 1/l/i.
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 7
DRAFT_KEY_LENGTH = 12
OPENED_RESOLUTION = timedelta(days=1)  # an opening is written at most once a day per draft


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
        storage.admit(self.data)  # the last line of defence: whoever saves, nothing unstorable or too large
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
        size = storage.admit(data)
        key = digest(data)
        existing = cls.objects.filter(book=book, digest=key).first()
        if existing is not None:
            return existing
        storage.charge(size)
        for _attempt in range(8):
            try:
                with transaction.atomic():
                    return cls.objects.create(code=new_code(), book=book, data=data, digest=key)
            except IntegrityError:
                existing = cls.objects.filter(book=book, digest=key).first()
                if existing is not None:  # someone shared the same scenario at the same moment
                    return existing
        raise RuntimeError("could not find a free short code")


class SharedRuling(models.Model):
    """The engine's answer to a question about a shared scenario when its link was made, with what it was decided
    under (the book revision, the engine version) and the clauses it cited: the shared page asks the engine again
    and says when the verdict or a cited clause's text has changed since. One per scenario, question and
    parameters: the first answer given under that link."""

    scenario = models.ForeignKey(SavedScenario, on_delete=models.CASCADE, related_name="rulings")
    question = models.CharField(max_length=60)
    params = models.JSONField(default=dict)
    params_digest = models.CharField(max_length=64, help_text="sha256 of the parameters' canonical JSON")
    book_revision = models.PositiveIntegerField(null=True, blank=True)
    engine_version = models.CharField(max_length=40)
    verdict = models.CharField(max_length=20)
    findings = models.JSONField(default=list, help_text='[{"clause": "9.3.1c", "status": "pass"}, …]')
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["scenario", "question", "params_digest"],
                                               name="unique_shared_ruling")]

    def __str__(self) -> str:
        return f"{self.scenario} {self.question} {self.verdict}"

    @classmethod
    def remember(cls, scenario: SavedScenario, question: str, params: dict, *, book_revision: int | None,
                 engine_version: str, verdict: str, findings: list[dict]) -> "SharedRuling":
        """The answer kept for this link and question: the first one recorded (a later share of the same position
        keeps the link's original answer)."""
        key = digest(params)
        existing = cls.objects.filter(scenario=scenario, question=question, params_digest=key).first()
        if existing is not None:
            return existing
        try:
            with transaction.atomic():
                return cls.objects.create(scenario=scenario, question=question, params=params, params_digest=key,
                                          book_revision=book_revision, engine_version=engine_version[:40],
                                          verdict=verdict, findings=findings)
        except IntegrityError:
            return cls.objects.get(scenario=scenario, question=question, params_digest=key)

    @classmethod
    def find(cls, scenario: SavedScenario, question: str, params: dict) -> "SharedRuling | None":
        return cls.objects.filter(scenario=scenario, question=question, params_digest=digest(params)).first()


class Draft(_Immutable):
    key = models.CharField(max_length=24, unique=True, editable=False)
    book = models.CharField(max_length=20)
    data = models.JSONField()
    digest = models.CharField(max_length=64, editable=False, default="", help_text="sha256 of the canonical JSON")
    parent = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="children")
    origin = models.CharField(max_length=120, blank=True,
                              help_text="where the first draft came from: s:<code>, x:<example> or empty (a new map)")
    created = models.DateTimeField(auto_now_add=True)
    opened = models.DateTimeField(null=True, blank=True, editable=False,
                                  help_text="when the draft's page was last opened (to a day); empty: never")

    class Meta:
        indexes = [
            models.Index(fields=["created"]),
            models.Index(fields=["book", "digest"], name="checker_draft_content"),
            models.Index(fields=["opened", "created"], name="checker_draft_expiry"),
        ]

    def __str__(self) -> str:
        return f"{self.book}/draft {self.key}"

    @classmethod
    def make(cls, book: str, data: dict, parent: "Draft | None", origin: str = "") -> "Draft":
        """The draft of ``data`` made from ``parent``: an identical one made from the same state, or a new one."""
        size = storage.admit(data)
        key = digest(data)
        origin = parent.origin if parent is not None else origin
        same = cls.objects.filter(book=book, digest=key, parent=parent, origin=origin).first()
        if same is not None:
            return same
        storage.charge(size)
        for _attempt in range(8):
            try:
                with transaction.atomic():
                    draft = cls.objects.create(key=new_code(DRAFT_KEY_LENGTH), book=book, data=data, digest=key,
                                               parent=parent, origin=origin)
                break
            except IntegrityError:
                continue
        else:
            raise RuntimeError("could not find a free draft key")
        after_commit(prune_expired)
        return draft

    @classmethod
    def open(cls, book: str, key: str) -> "Draft | None":
        """The draft ``key`` of ``book``, or None; records that it was opened (one write per draft per day)."""
        draft = cls.objects.filter(book=book, key=key).first()
        if draft is not None:
            draft.note_opened()
        return draft

    def note_opened(self) -> None:
        """Record that this draft was shown to someone (a write only if not yet recorded today)."""
        now = timezone.now()
        if self.opened is None or self.opened < now - OPENED_RESOLUTION:
            type(self).objects.filter(pk=self.pk).update(opened=now)
            self.opened = now

    @staticmethod
    def expiry(now=None, unopened_days: int | None = None, days: int | None = None) -> tuple[models.Q, models.Q]:
        """The two kinds of expired draft: made ``unopened_days`` ago and never opened; last opened ``days`` ago
        (``RULESREF_DRAFT_UNOPENED_DAYS`` and ``RULESREF_DRAFT_DAYS`` by default)."""
        now = now or timezone.now()
        unopened = now - timedelta(days=settings.RULESREF_DRAFT_UNOPENED_DAYS if unopened_days is None else unopened_days)
        forgotten = now - timedelta(days=settings.RULESREF_DRAFT_DAYS if days is None else days)
        return models.Q(opened__isnull=True, created__lt=unopened), models.Q(opened__lt=forgotten)

    @classmethod
    def prune(cls, limit: int | None = None, **expiry) -> int:
        """Delete expired drafts (see :meth:`expiry`), at most ``limit`` of them (all when None); how many.

        Each kind of expiry is its own query on the ``(opened, created)`` index, so a batch costs a few index
        lookups however many drafts there are. A draft whose parent goes keeps working: its undo stops there."""
        deleted = 0
        for condition in cls.expiry(**expiry):
            while limit is None or deleted < limit:
                batch = 500 if limit is None else limit - deleted
                pks = list(cls.objects.filter(condition).order_by().values_list("pk", flat=True)[:batch])
                if not pks:
                    break
                cls.objects.filter(pk__in=pks).delete()
                deleted += len(pks)
        return deleted


@background_task
def prune_expired() -> int:
    """The task every new draft queues: delete the expired drafts, all of them, in batches; how many."""
    return Draft.prune()
