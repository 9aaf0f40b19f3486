"""Django admin for rulebooks, sections and their texts. Every change made here re-finds the book's references
and bumps its content version, so pages, the section index and search follow at once on every app server."""
from django.contrib import admin

from . import history
from .loading import store_references
from .models import Book, Erratum, Reference, Section, SectionText


class ContentChangeMixin:
    """After a save or delete, refresh what depends on the book's text."""

    def book_of(self, obj) -> Book:
        raise NotImplementedError

    def _refresh(self, obj) -> None:
        book = self.book_of(obj)
        store_references(book)
        history.record(book, "admin")
        book.bump_version()

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._refresh(obj)

    def delete_model(self, request, obj):
        book = self.book_of(obj)
        super().delete_model(request, obj)
        store_references(book)
        history.record(book, "admin")
        book.bump_version()


class SectionTextInline(admin.StackedInline):
    model = SectionText
    extra = 0
    fields = ("language", "title", "body", "source_revision")


@admin.register(Book)
class BookAdmin(admin.ModelAdmin):
    list_display = ("slug", "title_en", "source_language", "kind", "version")
    readonly_fields = ("fixture_digest", "version")


@admin.register(Section)
class SectionAdmin(ContentChangeMixin, admin.ModelAdmin):
    list_display = ("sid", "book", "depth", "absent", "changed", "page")
    list_filter = ("book", "absent", "changed")
    search_fields = ("sid", "texts__title")
    ordering = ("book", "position")
    raw_id_fields = ("parent",)
    inlines = [SectionTextInline]

    def book_of(self, obj):
        return obj.book

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        self._refresh(form.instance)


@admin.register(SectionText)
class SectionTextAdmin(ContentChangeMixin, admin.ModelAdmin):
    list_display = ("section", "language", "title")
    list_filter = ("section__book", "language")
    search_fields = ("section__sid", "title", "body")
    raw_id_fields = ("section",)

    def book_of(self, obj):
        return obj.section.book


@admin.register(Reference)
class ReferenceAdmin(admin.ModelAdmin):
    list_display = ("source", "language", "anchor", "target_sid", "target")
    list_filter = ("source__book", "language", "kind")
    readonly_fields = [f.name for f in Reference._meta.fields]


@admin.register(Erratum)
class ErratumAdmin(admin.ModelAdmin):
    list_display = ("book", "section", "wrong", "right", "note")
    list_filter = ("book",)
