"""PO files through Babel's catalog support.

One message per title or paragraph: ``msgctxt`` is ``<section id>:<paragraph>`` (``9.3.1:2``, ``9.3.1:title``),
``msgid`` the source text, ``msgstr`` the translation. An outdated unit is ``#, fuzzy`` with the source it was
translated from as ``#| msgid``; glossary hints are translator comments (``# хиты построения → formation hits``);
the extracted comments say where the unit is and carry ``base <digest>``, the digest of the exported translation,
by which an import tells whether the workspace changed the text since. ``Project-Id-Version`` names the book
(``rulesref mpbs``), ``Language`` the target language, ``Language-Team`` the team from the settings
(``TRANSLATION_TEAMS``), ``Last-Translator`` and ``PO-Revision-Date`` the last save in the workspace, and
``Report-Msgid-Bugs-To`` the rulebook's pages, where readers report problems in the source.
"""
from __future__ import annotations

import io
import re
from datetime import datetime

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileError, normalize, read_po, write_po
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from rulesref.reference.models import Book

from ..conf import setting
from ..models import Translation
from .units import ExchangeError, ExportUnit, FileEntry

WIDTH = 76
BASE_RE = re.compile(r"^base ([0-9a-f]{12})$")


def _last_translator(book: Book, lang: str) -> tuple[str, datetime | None]:
    """Who saved the book's translation last, and when (the corpus files, when nobody has saved in the workspace)."""
    latest = (Translation.objects.filter(section__book=book, language=lang, updated_at__isnull=False)
              .select_related("updated_by").order_by("-updated_at").first())
    if latest is None:
        return "rulesref corpus files", None
    user = latest.updated_by
    if user is None:
        return "rulesref corpus files", latest.updated_at
    name = user.get_full_name() or user.get_username()
    return (f"{name} <{user.email}>" if user.email else name), latest.updated_at


def write_catalog(book: Book, lang: str, units: list[ExportUnit], now: datetime | None = None) -> bytes:
    now = now or timezone.now()
    translator, revised = _last_translator(book, lang)
    with translation.override(book.source_language):
        reports = setting("TRANSLATION_SITE_URL").rstrip("/") + reverse("reference:book", kwargs={"book": book.slug})
    catalog = Catalog(locale=lang, project=setting("TRANSLATION_PROJECT"), version=book.slug, creation_date=now,
                      revision_date=revised or now, charset="utf-8", fuzzy=False,
                      language_team=setting("TRANSLATION_TEAMS").get(lang, f"{setting('TRANSLATION_PROJECT')} {lang}"),
                      last_translator=translator, msgid_bugs_address=reports,
                      header_comment=f"# {book.title(lang)} ({book.slug}): translation {book.source_language} → {lang}\n"
                                     f"# Exported from the rulesref translator's workspace; import with "
                                     f"`manage.py importpo {book.slug} {lang} FILE` or in the workspace.")
    for export in units:
        unit = export.unit
        if not unit.source:
            continue
        comments = [f"{source} → {required}" for source, required, _definition in export.hints]
        auto = [export.label, f"status {export.status}", f"base {export.base}"]
        catalog.add(unit.source, unit.target, context=unit.context, auto_comments=auto, user_comments=comments,
                    flags=["fuzzy"] if export.fuzzy else [], previous_id=unit.previous if export.fuzzy else None)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, sort_output=False, include_previous=False, omit_header=False)
    return _add_previous_ids(buffer.getvalue().decode("utf-8"), units).encode("utf-8")


def _add_previous_ids(text: str, units: list[ExportUnit]) -> str:
    """Write ``#| msgid`` for fuzzy entries ourselves: Babel 2.x re-wraps a long previous msgid as comment text,
    which breaks its quoting ("#| msgid "" "…,\n#| " "…")."""
    for export in units:
        unit = export.unit
        if not (export.fuzzy and unit.previous):
            continue
        lines = f"#| msgid {normalize(unit.previous, prefix='#| ', width=WIDTH)}\n"
        anchor = f'\nmsgctxt "{unit.context}"\n'
        text = text.replace(anchor, f"\n{lines}{anchor[1:]}", 1)
    return text


def read_catalog(data: bytes, book: Book, lang: str) -> tuple[list[FileEntry], datetime | None]:
    """The entries of an uploaded PO file, after checking that it is one, for this book and language."""
    catalog = _parse(data)
    _check_header(catalog, book, lang)
    entries = _duplicate_contexts(data)
    entries += [_entry(message) for message in catalog if message.id]  # the header has no msgid
    # Babel fills in "now" for a missing POT-Creation-Date: only a date the file states is an export time.
    stated = re.search(rb'^"POT-Creation-Date: *[0-9]', data, re.M) is not None
    return entries, catalog.creation_date if stated and isinstance(catalog.creation_date, datetime) else None


def _parse(data: bytes) -> Catalog:
    try:
        return read_po(io.BytesIO(data), abort_invalid=True, ignore_obsolete=True)
    except PoFileError as exc:
        raise ExchangeError(gettext("not a valid PO file: %(error)s") % {"error": exc}) from None
    except (UnicodeDecodeError, LookupError) as exc:
        raise ExchangeError(gettext("not a valid PO file: the text is not in the encoding its header names "
                                    "(%(error)s)") % {"error": exc}) from None
    except Exception as exc:  # noqa: BLE001  (Babel raises assorted errors on garbage; the message says what it met)
        raise ExchangeError(gettext("not a valid PO file: %(error)s") % {"error": exc}) from None


def _check_header(catalog: Catalog, book: Book, lang: str) -> None:
    """The file must be an export of this book into this language (its Language and Project-Id-Version)."""
    file_lang = str(catalog.locale) if catalog.locale else ""
    if not file_lang:
        raise ExchangeError(gettext("the file has no Language header: export a file from the workspace first"))
    if file_lang.split("_")[0] != lang:
        raise ExchangeError(gettext("the file is a translation into “%(file)s”, not “%(lang)s”")
                            % {"file": file_lang, "lang": lang})
    if catalog.project != setting("TRANSLATION_PROJECT") or catalog.version != book.slug:
        raise ExchangeError(gettext("the file is not an export of the rulebook “%(book)s” (its Project-Id-Version "
                                    "is “%(found)s”)") % {"book": book.slug,
                                                          "found": f"{catalog.project} {catalog.version}".strip()})


def _entry(message: Message) -> FileEntry:
    where = gettext("line %(n)s") % {"n": message.lineno} if message.lineno else gettext("an entry")
    if message.pluralizable:
        return FileEntry(message.context or "", "", "", where, error=gettext(
            "a plural entry (msgid_plural): rule text has no plural forms; remove it"))
    target = message.string if isinstance(message.string, str) else ""
    return FileEntry(context=message.context or "", source=message.id, target=target, where=where,
                     confirmed=not message.fuzzy, base=_base(message))


CONTEXT_LINE_RE = re.compile(rb'^msgctxt[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\r?$', re.M)


def _duplicate_contexts(data: bytes) -> list[FileEntry]:
    """Babel keeps only the last of two messages with the same context and msgid; gettext calls that an error, and
    so do we: a pre-scan of the raw file finds the repeats and where they are."""
    seen: dict[bytes, int] = {}
    out = []
    for m in CONTEXT_LINE_RE.finditer(data):
        line = data.count(b"\n", 0, m.start()) + 1
        if m.group(1) in seen:
            out.append(FileEntry(m.group(1).decode("utf-8", "replace"), "", "", gettext("line %(n)s") % {"n": line},
                                 error=gettext("the same context is already at line %(n)s") % {"n": seen[m.group(1)]}))
        else:
            seen[m.group(1)] = line
    return out


def _base(message: Message) -> str | None:
    for comment in message.auto_comments:
        m = BASE_RE.match(comment.strip())
        if m:
            return m.group(1)
    return None
