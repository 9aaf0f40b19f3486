"""XLIFF 2.0 (OASIS core, with the glossary module), written with ElementTree and read with defusedxml.

A small writer of our own rather than translate-toolkit: the format we need is one ``<unit>`` per title or paragraph
with plain-text ``<source>``/``<target>``, a few notes and glossary entries: about a hundred lines with the standard
library. translate-toolkit's XLIFF store is 1.2 (its 2.0 support is partial) and would bring lxml with it; reading
an untrusted upload with ``defusedxml`` refuses DTDs, entity expansion and external references outright.

Units: ``id`` is ``<section id>:<paragraph>`` (``9.3.1:2``, ``9.3.1:title``); the segment ``state`` is ``initial``
for a missing or outdated unit (with ``subState="rulesref:outdated"`` and a ``previous-source`` note), otherwise
``translated`` (draft, needs review), or ``final`` (approved). ``rr:base`` on the unit is the digest of the exported
translation, by which an import tells whether the workspace changed the text since.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import datetime

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from rulesref.reference.models import Book

from .units import ExchangeError, ExportUnit, FileEntry

XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0"
GLS_NS = "urn:oasis:names:tc:xliff:glossary:2.0"
RR_NS = "urn:x-rulesref:xliff:1"
XML_NS = "http://www.w3.org/XML/1998/namespace"
ET.register_namespace("", XLIFF_NS)
ET.register_namespace("gls", GLS_NS)
ET.register_namespace("rr", RR_NS)
INVALID_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
STATE = {"missing": "initial", "outdated": "initial", "draft": "translated", "review": "translated",
         "approved": "final"}
MAX_BYTES = 20 * 1024 * 1024


def _q(tag: str, ns: str = XLIFF_NS) -> str:
    return f"{{{ns}}}{tag}"


def _text(value: str) -> str:
    return INVALID_XML_RE.sub("\ufffd", value)


def write_xliff(book: Book, lang: str, units: list[ExportUnit], now: datetime | None = None) -> bytes:
    now = now or timezone.now()
    root = ET.Element(_q("xliff"), {"version": "2.0", "srcLang": book.source_language, "trgLang": lang})
    file_el = ET.SubElement(root, _q("file"), {"id": book.slug, "original": f"rulesref/{book.slug}",
                                               _q("exported", RR_NS): now.isoformat()})
    notes = ET.SubElement(file_el, _q("notes"))
    ET.SubElement(notes, _q("note"), {"category": "rulesref"}).text = _text(
        f"{book.title(lang)} ({book.slug}): {book.source_language} → {lang}. "
        f"Import with `manage.py importxliff {book.slug} {lang} FILE` or in the workspace.")
    for export in units:
        unit = export.unit
        if not unit.source:
            continue
        unit_el = ET.SubElement(file_el, _q("unit"), {"id": unit.context, "name": unit.context,
                                                      "canResegment": "no", _q("base", RR_NS): export.base})
        if export.hints:
            glossary = ET.SubElement(unit_el, _q("glossary", GLS_NS))
            for source, required, definition in export.hints:
                entry = ET.SubElement(glossary, _q("glossEntry", GLS_NS))
                ET.SubElement(entry, _q("term", GLS_NS), {"source": "rulesref-glossary"}).text = _text(source)
                ET.SubElement(entry, _q("translation", GLS_NS)).text = _text(required)
                ET.SubElement(entry, _q("definition", GLS_NS)).text = _text(definition)
        unit_notes = ET.SubElement(unit_el, _q("notes"))
        ET.SubElement(unit_notes, _q("note"), {"category": "location"}).text = _text(export.label)
        if export.fuzzy and unit.previous is not None:
            ET.SubElement(unit_notes, _q("note"), {"category": "previous-source"}).text = _text(unit.previous)
        state = "initial" if export.fuzzy or not unit.target else STATE.get(export.status, "translated")
        attrs = {"state": state}
        if export.fuzzy:
            attrs["subState"] = "rulesref:outdated"
        segment = ET.SubElement(unit_el, _q("segment"), attrs)
        source_el = ET.SubElement(segment, _q("source"), {_q("space", XML_NS): "preserve"})
        source_el.text = _text(unit.source)
        if unit.target:
            target_el = ET.SubElement(segment, _q("target"), {_q("space", XML_NS): "preserve"})
            target_el.text = _text(unit.target)
    ET.indent(root, space="  ")
    # indent() puts whitespace inside elements with children only; <source>/<target> keep their exact text.
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def _plain(element, where: str) -> str:
    """The text of a <source> or <target>: plain text only (inline markup would be lost on the way back)."""
    for child in element:
        tag = child.tag.split("}")[-1] if isinstance(child.tag, str) else "?"
        raise ExchangeError(gettext("%(where)s: inline element <%(tag)s> in the text: this workspace exchanges "
                                    "plain text only") % {"where": where, "tag": tag})
    return element.text or ""


def read_xliff(data: bytes, book: Book, lang: str) -> tuple[list[FileEntry], datetime | None]:
    if len(data) > MAX_BYTES:
        raise ExchangeError(gettext("the file is too large"))
    try:
        root = fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise ExchangeError(gettext("refused: the XML uses a DTD or entities (%(error)s)") % {"error": exc}) from None
    except ET.ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise ExchangeError(gettext("not well-formed XML at line %(line)s, column %(column)s")
                            % {"line": line, "column": column + 1}) from None
    except (ValueError, UnicodeError) as exc:
        raise ExchangeError(gettext("not an XML file: %(error)s") % {"error": exc}) from None
    if root.tag != _q("xliff"):
        raise ExchangeError(gettext("not an XLIFF 2.0 file: the root element is <%(tag)s>")
                            % {"tag": root.tag.split("}")[-1]})
    if root.get("version") != "2.0":
        raise ExchangeError(gettext("XLIFF version %(version)s: only 2.0 is supported")
                            % {"version": root.get("version") or "?"})
    if root.get("srcLang", "").split("-")[0] != book.source_language:
        raise ExchangeError(gettext("the file's source language is “%(found)s”, not “%(lang)s”")
                            % {"found": root.get("srcLang", ""), "lang": book.source_language})
    if root.get("trgLang", "").split("-")[0] != lang:
        raise ExchangeError(gettext("the file is a translation into “%(file)s”, not “%(lang)s”")
                            % {"file": root.get("trgLang", ""), "lang": lang})
    files = root.findall(_q("file"))
    if len(files) != 1 or files[0].get("id") != book.slug:
        raise ExchangeError(gettext("the file is not an export of the rulebook “%(book)s”") % {"book": book.slug})
    exported = parse_datetime(files[0].get(_q("exported", RR_NS), "") or "")
    entries = []
    for unit in files[0].iter(_q("unit")):
        unit_id = unit.get("id", "")
        where = gettext("unit %(id)s") % {"id": unit_id or "?"}
        try:
            source, target, confirmed = _segments(unit, where)
        except ExchangeError as exc:
            entries.append(FileEntry(unit_id, "", "", where, error=str(exc).split(": ", 1)[-1]))
            continue
        entries.append(FileEntry(unit_id, source, target, where, confirmed=confirmed,
                                 base=unit.get(_q("base", RR_NS))))
    return entries, exported


def _segments(unit, where: str) -> tuple[str, str, bool]:
    """A unit's source and target, joining segments a CAT tool may have split, and whether every segment is past
    the "initial" state."""
    sources, targets, confirmed = [], [], True
    parts = [c for c in unit if c.tag in (_q("segment"), _q("ignorable"))]
    if not any(p.tag == _q("segment") for p in parts):
        raise ExchangeError(gettext("%(where)s: a unit without a <segment>") % {"where": where})
    for part in parts:
        source = part.find(_q("source"))
        if source is None:
            raise ExchangeError(gettext("%(where)s: a segment without a <source>") % {"where": where})
        target = part.find(_q("target"))
        sources.append(_plain(source, where))
        targets.append(_plain(target, where) if target is not None else "")
        if part.tag == _q("segment") and part.get("state", "initial") == "initial":
            confirmed = False
    return "".join(sources), "".join(targets), confirmed
