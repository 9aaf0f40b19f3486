"""Keep each source text before ``loadrules`` replaces it, so a translation made from it can show what changed.

``loadrules`` deletes a book's SectionText rows and writes them anew; a receiver on their deletion keeps the
source-language ones (once per revision) without the loader knowing about the translation app.
"""
from __future__ import annotations

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from rulesref.reference.models import Section, SectionText


@receiver(pre_delete, sender=SectionText, dispatch_uid="translation-remember-source")
def remember_replaced_source(sender, instance: SectionText, **kwargs) -> None:
    from .workflow import remember_source

    if not (instance.title.strip() or instance.body.strip()):
        return
    section = Section.objects.filter(pk=instance.section_id).select_related("book").first()
    if section is None or section.absent or instance.language != section.book.source_language:
        return
    remember_source(section.book, section.sid, instance.title, instance.body)
