"""Keep each source text before it is replaced, so a translation made from it can show what changed.

Two ways replace a source text: ``loadrules`` (it announces it with ``texts_replacing``, and the book's current
source texts are kept in one insert) and an edit saved in place (the admin: the stored text is kept before the
save). Texts are kept once per revision, keyed by book and section id, so they outlive the rows.
"""
from __future__ import annotations

from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver

from rulesref.reference.models import SectionText
from rulesref.reference.signals import book_loaded, texts_replacing


@receiver(texts_replacing, dispatch_uid="translation-keep-sources-before-loading")
def keep_sources_before_loading(sender, book, **kwargs) -> None:
    from .workflow import remember_sources

    remember_sources(book)


@receiver(pre_save, sender=SectionText, dispatch_uid="translation-keep-source-before-edit")
def keep_source_before_edit(sender, instance: SectionText, raw: bool = False, **kwargs) -> None:
    from .workflow import remember_source

    if raw or instance.pk is None:
        return
    stored = SectionText.objects.filter(pk=instance.pk).select_related("section__book").first()
    if stored is None or (stored.title, stored.body) == (instance.title, instance.body):
        return
    section = stored.section
    if section.absent or stored.language != section.book.source_language:
        return
    if stored.title.strip() or stored.body.strip():
        remember_source(section.book, section.sid, stored.title, stored.body)


@receiver(post_save, sender=SectionText, dispatch_uid="translation-source-edited")
def source_edited(sender, instance: SectionText, raw: bool = False, **kwargs) -> None:
    """A source text saved in place (the admin; loads write in bulk and are followed by the sync): its term
    occurrences now, the book's QA results by the task."""
    from . import qa

    section = instance.section
    if raw or section.absent or instance.language != section.book.source_language:
        return
    qa.source_changed(section.book, [section.sid])


@receiver(book_loaded, dispatch_uid="translation-sync-after-load")
def sync_after_load(sender, book, **kwargs) -> None:
    """The workspace of a loaded book is brought in step by a task once the load commits."""
    from rulesref.background import after_commit

    from .workflow import sync_workspace

    after_commit(sync_workspace, book.pk)
