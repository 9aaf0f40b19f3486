"""``manage.py prunedrafts [--days N]``: delete expired editor drafts now. Shared scenarios are never deleted.

Drafts expire by themselves (rulesref/checker/models.py: every new draft queues a task that deletes the expired
ones); this deletes all of them at once, for example before a backup. ``--days N`` also deletes every draft nobody opened in the
last N days. A draft whose parent is deleted keeps working (undo stops there).
"""
from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rulesref.checker.models import Draft


class Command(BaseCommand):
    help = ("Delete expired scenario-editor drafts (never opened for RULESREF_DRAFT_UNOPENED_DAYS, or not opened "
            "for RULESREF_DRAFT_DAYS); --days N: also those nobody opened in N days. Shared scenarios are kept.")

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None)

    def handle(self, *args, days: int | None, **options):
        if days is not None and days < 1:
            raise CommandError("--days must be at least 1")
        expiry = {} if days is None else {"days": days, "unopened_days": min(days, settings.RULESREF_DRAFT_UNOPENED_DAYS)}
        deleted = Draft.prune(**expiry)
        self.stdout.write(f"deleted {deleted} expired draft(s)")
