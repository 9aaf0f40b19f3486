"""``manage.py prunedrafts [--days 30]``: delete editor drafts older than that. Shared scenarios are never deleted.

Drafts are the editor's undo history; a draft whose parent is deleted keeps working (undo stops there).
"""
from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from rulesref.checker.models import Draft


class Command(BaseCommand):
    help = "Delete scenario-editor drafts older than --days (default 30). Shared scenarios are kept for ever."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=30)

    def handle(self, *args, days: int, **options):
        if days < 1:
            raise CommandError("--days must be at least 1")
        cutoff = timezone.now() - timedelta(days=days)
        deleted, _ = Draft.objects.filter(created__lt=cutoff).delete()
        self.stdout.write(f"deleted {deleted} draft(s) older than {days} days")
