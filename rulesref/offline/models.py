"""The stored search index of each rulebook's offline copy (built at load time, shipped with the copy)."""
from __future__ import annotations

from django.db import models

from rulesref.reference.models import Book


class OfflineIndex(models.Model):
    book = models.OneToOneField(Book, on_delete=models.CASCADE, related_name="offline_index")
    basis = models.CharField(max_length=64, help_text="what it was built from: revision, glossary, format")
    digest = models.CharField(max_length=16, help_text="digest of the index and the glossary: changes with any text")
    data = models.TextField(help_text="the index as JSON (see rulesref/offline/index.py)")
    built = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"offline index of {self.book_id} built from {self.basis}"


class OfflineBundle(models.Model):
    """A rulebook's offline copy as one gzip stream, built when its content changes (never by a reader's request)
    and read by every app server."""

    book = models.OneToOneField(Book, on_delete=models.CASCADE, related_name="offline_bundle")
    token = models.CharField(max_length=40, help_text="the copy's token: the index it was built with")
    revision = models.PositiveIntegerField()
    build = models.CharField(max_length=16, help_text="the deployment it was rendered by (templates, static, catalogs)")
    gzipped = models.BinaryField()
    size = models.PositiveIntegerField(help_text="bytes to download (the gzip stream)")
    length = models.PositiveIntegerField(help_text="bytes before compression")
    entries = models.PositiveIntegerField()
    made = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"offline copy of {self.book_id}, token {self.token}"
