"""Django admin for rulebooks, sections and their texts. A change made here is written as every content change is
(rulesref/writes.py): the book's lock first, then only what the change touches — the edited section's references
and texts' history, the references naming a section added, renumbered or moved — and the book's content version
bumped, so pages, the section index and search follow at once on every app server. The admin's whole transaction
runs again if the database refuses it as crossing another writer."""
from django.contrib import admin
from django.db import models

from rulesref.security.fields import BoundedJSONField
from rulesref.writes import lock_book, retrying

from . import history
from .corpus import LANGUAGES
from .loading import retarget_references, store_references
from .models import Book, Erratum, Reference, Section, SectionText


class ContentChangeMixin:
    """Write an edit of a section or a text as a content change of its book."""

    def section_of(self, obj) -> Section:
        raise NotImplementedError

    def changeform_view(self, request, *args, **kwargs):
        return retrying(lambda: super(ContentChangeMixin, self).changeform_view(request, *args, **kwargs))

    def delete_view(self, request, *args, **kwargs):
        return retrying(lambda: super(ContentChangeMixin, self).delete_view(request, *args, **kwargs))

    def _refresh(self, section: Section, renamed: tuple | None = None) -> None:
        """After the edit of ``section``. ``renamed``: its id and page before, when they changed; for a new section,
        an empty tuple."""
        book = section.book
        sids = {section.sid}
        if renamed is not None:  # added (nothing before), renumbered or moved to another page
            old_sid, old_page = renamed or ("", None)
            sids |= {old_sid} - {""}
            retarget_references(book, sids, {section.page, old_page})
        if Section.objects.filter(pk=section.pk).exists():
            store_references(book, only=[section.sid])
        history.record(book, "admin", only=[(sid, lang) for sid in sids for lang in LANGUAGES])
        book.bump_version()

    def save_model(self, request, obj, form, change):
        section = self.section_of(obj)
        lock_book(section.book_id)
        before = Section.objects.filter(pk=section.pk).values_list("sid", "page").first()
        super().save_model(request, obj, form, change)
        # Kept on the section itself (this admin object serves every request): save_related reads it.
        section.renamed_from = (before or ()) if before != (section.sid, section.page) else None
        if not isinstance(obj, Section):  # a section's own edit is refreshed once its inline texts are saved
            self._refresh(section, section.renamed_from)

    def delete_model(self, request, obj):
        section = self.section_of(obj)
        book = section.book
        lock_book(book.pk)
        gone = _with_descendants(section) if isinstance(obj, Section) else []
        super().delete_model(request, obj)
        if gone:  # what named them now names nothing the corpus has (SET_NULL did that)
            history.record(book, "admin", only=[(sid, lang) for sid in gone for lang in LANGUAGES])
            book.bump_version()
        else:
            self._refresh(section)


def _with_descendants(section: Section) -> list[str]:
    """The ids of a section and of every section under it (deleted with it)."""
    sids, level = [section.sid], [section.pk]
    while level:
        rows = list(Section.objects.filter(parent_id__in=level).values_list("pk", "sid"))
        level = [pk for pk, _ in rows]
        sids += [sid for _, sid in rows]
    return sids


class SectionTextInline(admin.StackedInline):
    model = SectionText
    extra = 0
    fields = ("language", "title", "body", "source_revision")


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ("slug", "title_en", "source_language", "kind", "version")
    readonly_fields = ("fixture_digest", "version")
    formfield_overrides = {models.JSONField: {"form_class": BoundedJSONField}}  # depth bounded before parsing


@admin.register(Section)
class SectionAdmin(ContentChangeMixin, admin.ModelAdmin):
    list_display = ("sid", "book", "depth", "absent", "changed", "page")
    list_filter = ("book", "absent", "changed")
    search_fields = ("sid", "texts__title")
    ordering = ("book", "position")
    raw_id_fields = ("parent",)
    inlines = [SectionTextInline]

    def section_of(self, obj):
        return obj

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self._refresh(form.instance, getattr(form.instance, "renamed_from", None))


@admin.register(SectionText)
class SectionTextAdmin(ContentChangeMixin, admin.ModelAdmin):
    list_display = ("section", "language", "title")
    list_filter = ("section__book", "language")
    search_fields = ("section__sid", "title", "body")
    raw_id_fields = ("section",)

    def section_of(self, obj):
        return obj.section


@admin.register(Reference)
class ReferenceAdmin(admin.ModelAdmin):
    list_display = ("source", "language", "anchor", "target_sid", "target")
    list_filter = ("source__book", "language", "kind")
    readonly_fields = [f.name for f in Reference._meta.fields]


@admin.register(Erratum)
class ErratumAdmin(admin.ModelAdmin):
    list_display = ("book", "section", "wrong", "right", "note")
    list_filter = ("book",)
