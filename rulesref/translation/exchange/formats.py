"""The exchange formats as registered classes, as Weblate's weblate/formats/ has them: each format is one class with
its ``name`` (the export URL's and the commands'), ``label``, ``export_label`` (the dashboard's export link),
``content_type`` and ``extension``, a writer
(``export``) and a reader (``import_file``). The ``TRANSLATION_EXCHANGE_FORMATS`` setting lists them (dotted paths,
conf.py has the default); ``get`` and ``detect`` are the one place that knows which exist, so a view or a command
asks the registry and never branches on the format.

Two kinds: a translation format (PO, XLIFF 2.0, XLIFF 1.2) carries the book's titles and paragraphs, read into
``FileEntry`` rows that ``plan_import`` validates and ``apply_import`` writes as revisions; TMX carries the book's
translation memory. Both kinds import through ``import_file``, which gives an ``Imported``: the report the import
page shows, under the name its template knows (``plan`` or ``tmx``), and whether it went through.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import PurePath
from typing import ClassVar

from django.utils.module_loading import import_string
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rulesref.reference.models import Book

from ..conf import setting
from ..models import Revision
from ..workflow import ensure_translations
from .po import read_catalog, write_catalog
from .tmx import import_tmx, read_tmx, write_tmx
from .units import ExportUnit, FileEntry, ImportPlan, apply_import, export_units, plan_import, status_for_import
from .xliff import read_xliff, write_xliff

XML_SUFFIXES = (".xlf", ".xliff", ".xml")


def _looks_like_xml(suffix: str, data: bytes) -> bool:
    return suffix in XML_SUFFIXES or data.lstrip()[:400].startswith(b"<")


def _is_tmx(data: bytes) -> bool:
    return b"<tmx" in data[:2000]


@dataclass
class Imported:
    """What an import did: its report (an ``ImportPlan`` or a ``TmxImport``), the name the import page's template
    shows it under, and whether it went through (written, or clean with nothing to write)."""

    report: object
    kind: str
    ok: bool


class ExchangeFormat:
    name: ClassVar[str]
    label: ClassVar[str]  # how the import report names the format
    content_type: ClassVar[str]
    extension: ClassVar[str]
    suffixes: ClassVar[tuple[str, ...]] = ()  # file name endings that say the format outright
    export_label: ClassVar[str] = ""  # the dashboard's export link (lazy-translated); "Export <label>" if empty

    def filename(self, book: Book, lang: str, kind: str = "") -> str:
        """``mpbs-en.po``; with ``kind`` what the file holds besides the book's text: ``mpbs-rulings-en.po``."""
        return f"{book.slug}{f'-{kind}' if kind else ''}-{lang}{self.extension}"

    def export_text(self) -> str:
        """What the dashboard's link to this format's export says."""
        return str(self.export_label) if self.export_label else gettext("Export %(format)s") % {"format": self.label}

    def export(self, book: Book, lang: str) -> bytes:
        raise NotImplementedError

    def sniff(self, suffix: str, data: bytes) -> bool:
        """Whether a file whose name does not say its format is one of this format, by its bytes."""
        return False

    def import_file(self, book: Book, lang: str, data: bytes, filename: str, *, user, status: str,
                    partial: bool) -> Imported:
        raise NotImplementedError


class TranslationFormat(ExchangeFormat):
    """A format of the book's units (one per title or paragraph), imported as revisions."""

    origin: ClassVar[str]

    def read(self, data: bytes, book: Book, lang: str) -> tuple[list[FileEntry], datetime | None]:
        raise NotImplementedError

    def write(self, book: Book, lang: str, units: list[ExportUnit]) -> bytes:
        raise NotImplementedError

    def export(self, book: Book, lang: str) -> bytes:
        return self.write(book, lang, export_units(book, lang))

    def plan(self, book: Book, lang: str, data: bytes) -> ImportPlan:
        """Read and validate a file; nothing written."""
        entries, exported_at = self.read(data, book, lang)
        return plan_import(book, lang, entries, exported_at)

    def run(self, book: Book, lang: str, data: bytes, filename: str, *, user, status: str,
            partial: bool) -> ImportPlan:
        """Read, validate and (if clean, or partial) apply one file; the plan says what happened."""
        return apply_import(self.plan(book, lang, data), user=user, status=status_for_import(status),
                            origin=self.origin, filename=filename, partial=partial)

    def import_file(self, book, lang, data, filename, *, user, status, partial) -> Imported:
        plan = self.run(book, lang, data, filename, user=user, status=status, partial=partial)
        return Imported(plan, "plan", plan.clean or plan.written)


class PoFormat(TranslationFormat):
    name, label, extension = "po", "PO", ".po"
    content_type = "text/x-gettext-translation"
    suffixes = (".po",)
    origin = Revision.Origin.PO
    export_label = _("Export PO")

    def read(self, data, book, lang):
        return read_catalog(data, book, lang)

    def write(self, book, lang, units):
        return write_catalog(book, lang, units)

    def sniff(self, suffix, data):
        return not _looks_like_xml(suffix, data) and b"msgid" in data[:4000]


class XliffFormat(TranslationFormat):
    """XLIFF 2.0 written; 2.0 or 1.2 read (told apart by the root's namespace)."""

    name, label, extension = "xliff", "XLIFF", ".xlf"
    content_type = "application/xliff+xml"
    origin = Revision.Origin.XLIFF
    version = "2.0"
    export_label = _("Export XLIFF 2.0")

    def read(self, data, book, lang):
        return read_xliff(data, book, lang)

    def write(self, book, lang, units):
        return write_xliff(book, lang, units, version=self.version)

    def sniff(self, suffix, data):
        return _looks_like_xml(suffix, data) and not _is_tmx(data)


class Xliff12Format(XliffFormat):
    """XLIFF 1.2, for the CAT tools that read only 1.2; an upload of it is detected as XLIFF, which reads both."""

    name, label = "xliff12", "XLIFF 1.2"
    version = "1.2"
    export_label = _("Export XLIFF 1.2")

    def filename(self, book, lang, kind=""):
        return super().filename(book, f"{lang}-1.2", kind)

    def sniff(self, suffix, data):
        return False


class TmxFormat(ExchangeFormat):
    """The book's translation memory: exported whole, imported into the memory (not into the texts)."""

    name, label, extension = "tmx", "TMX", ".tmx"
    content_type = "application/x-tmx+xml"
    suffixes = (".tmx",)
    export_label = _("Export the translation memory (TMX)")

    def filename(self, book, lang):
        return f"{book.slug}-memory{self.extension}"

    def export(self, book, lang):
        ensure_translations(book, lang)  # the memory has every published translation
        return write_tmx(book)

    def sniff(self, suffix, data):
        return _looks_like_xml(suffix, data) and _is_tmx(data)

    def import_file(self, book, lang, data, filename, *, user, status, partial) -> Imported:
        tmx = import_tmx(read_tmx(data, book, lang, filename), partial=partial)
        return Imported(tmx, "tmx", tmx.written)


@lru_cache(maxsize=4)
def _load(paths: tuple[str, ...]) -> dict[str, ExchangeFormat]:
    formats = [import_string(path)() for path in paths]
    return {f.name: f for f in formats}


def registered() -> dict[str, ExchangeFormat]:
    """The formats by name, in the order the setting lists them."""
    return _load(tuple(setting("TRANSLATION_EXCHANGE_FORMATS")))


def get(name: str) -> ExchangeFormat | None:
    return registered().get(name)


def translation_formats() -> dict[str, TranslationFormat]:
    """The registered formats of units of translation (PO, XLIFF 2.0 and 1.2; not TMX, a memory), by name."""
    return {name: f for name, f in registered().items() if isinstance(f, TranslationFormat)}


def translation_format(name: str) -> TranslationFormat:
    """A format of the book's units by name (a command's or a caller's own choice: an unknown name is a bug)."""
    fmt = registered()[name]
    if not isinstance(fmt, TranslationFormat):
        raise KeyError(name)
    return fmt


def detect(filename: str, data: bytes) -> ExchangeFormat | None:
    """The format of an uploaded file: by its name's ending where that says it, else by its bytes."""
    suffix = PurePath(filename).suffix.lower()
    formats = registered().values()
    return (next((f for f in formats if suffix in f.suffixes), None)
            or next((f for f in formats if f.sniff(suffix, data)), None))


def run_import(book: Book, lang: str, data: bytes, filename: str, *, fmt: str, user, status: str,
               partial: bool) -> ImportPlan:
    """Read, validate and (if clean, or partial) apply one PO or XLIFF file; the plan says what happened."""
    return translation_format(fmt).run(book, lang, data, filename, user=user, status=status, partial=partial)
