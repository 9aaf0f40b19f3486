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
from defusedxml.ElementTree import DefusedXMLParser
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext

from rulesref.reference.models import Book

from .units import ExchangeError, ExportUnit, FileEntry

XLIFF_NS = "urn:oasis:names:tc:xliff:document:2.0"
XLIFF12_NS = "urn:oasis:names:tc:xliff:document:1.2"
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
# Elements inside one another: our XLIFF nests 6 (xliff, file, unit, glossary, glossEntry, term), a TMX 5 to its
# <seg> and a few <hi>/<bpt> in it; a CAT tool's groups add a few more. Past this the file is refused while it is
# read, before anything walks the tree (a TMX segment's text is gathered level by level).
MAX_XML_DEPTH = 64


def _q(tag: str, ns: str = XLIFF_NS) -> str:
    return f"{{{ns}}}{tag}"


def _text(value: str) -> str:
    return INVALID_XML_RE.sub("\ufffd", value)


def write_xliff(book: Book, lang: str, units: list[ExportUnit], now: datetime | None = None,
                version: str = "2.0") -> bytes:
    now = now or timezone.now()
    if version == "1.2":
        return write_xliff12(book, lang, units, now)
    if version != "2.0":
        raise ValueError(f"XLIFF {version}: only 2.0 and 1.2 are written")
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


class _TooDeep(Exception):
    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


class _BoundedTreeBuilder(ET.TreeBuilder):
    """ElementTree's tree builder, refusing an element nested more than ``limit`` deep as the parser meets it."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit, self.depth, self.line = limit, 0, lambda: 0

    def start(self, tag, attrs):
        self.depth += 1
        if self.depth > self.limit:
            raise _TooDeep(self.line())
        return super().start(tag, attrs)

    def end(self, tag):
        self.depth -= 1
        return super().end(tag)


def parse_xml(data: bytes, max_bytes: int = MAX_BYTES, allow_doctype: bool = False, max_depth: int = MAX_XML_DEPTH):
    """An uploaded XML file's root element, read with defusedxml: entity declarations and external references are
    refused (a DOCTYPE line alone, as OmegaT writes at the head of a TMX file, only where ``allow_doctype``), and so
    is an element nested more than ``max_depth`` deep, at the line where it opens."""
    if len(data) > max_bytes:
        raise ExchangeError(gettext("the file is too large (%(size)s bytes; the limit is %(limit)s)")
                            % {"size": len(data), "limit": max_bytes})
    builder = _BoundedTreeBuilder(max_depth)
    try:
        parser = DefusedXMLParser(target=builder, forbid_dtd=not allow_doctype, forbid_entities=True,
                                  forbid_external=True)
        # defusedxml's parser is ElementTree's Python one, with its expat parser at hand
        builder.line = lambda: getattr(getattr(parser, "parser", None), "CurrentLineNumber", 0)
        parser.feed(data)
        return parser.close()
    except _TooDeep as exc:
        raise ExchangeError(gettext("elements nested more than %(limit)s levels deep at line %(line)s")
                            % {"limit": max_depth, "line": exc.line}) from None
    except DefusedXmlException as exc:
        raise ExchangeError(gettext("refused: the XML uses a DTD or entities (%(error)s)") % {"error": exc}) from None
    except ET.ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        raise ExchangeError(gettext("not well-formed XML at line %(line)s, column %(column)s")
                            % {"line": line, "column": column + 1}) from None
    except (ValueError, UnicodeError) as exc:
        raise ExchangeError(gettext("not an XML file: %(error)s") % {"error": exc}) from None


def read_xliff(data: bytes, book: Book, lang: str) -> tuple[list[FileEntry], datetime | None]:
    """The entries of an uploaded XLIFF file, 2.0 or 1.2 (told apart by the namespace of the root)."""
    root = parse_xml(data)
    if root.tag == _q("xliff", XLIFF12_NS):
        return read_xliff12(root, book, lang)
    if root.tag != _q("xliff"):
        raise ExchangeError(gettext("not an XLIFF 2.0 or 1.2 file: the root element is <%(tag)s>")
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


# ---------------------------------------------------------------------------------------------------- XLIFF 1.2
# The same units in the OASIS 1.2 vocabulary, which many CAT tools still read alone: one <trans-unit> per title or
# paragraph (id and resname the context), xml:space="preserve"; the target's state is "needs-translation" for a
# missing unit (no target), "needs-review-translation" for an outdated one (with the source it was translated from
# as an <alt-trans alttranstype="previous-version">), "translated" for a draft or a unit in review, "final" (and
# approved="yes") for an approved one. Glossary hints and the location are <note from="…">; rr:base carries the
# digest as in 2.0. On import a unit counts as confirmed when its state is translated, signed-off or final.

STATE12 = {"draft": "translated", "review": "translated", "approved": "final"}
CONFIRMED12 = {"translated", "signed-off", "final"}


def write_xliff12(book: Book, lang: str, units: list[ExportUnit], now: datetime) -> bytes:
    # Written with plain tag names and the namespace declared on the root: ElementTree's prefix registry is global,
    # and the 2.0 writer has the default prefix.
    root = ET.Element("xliff", {"xmlns": XLIFF12_NS, "xmlns:rr": RR_NS, "version": "1.2"})
    file_el = ET.SubElement(root, "file", {
        "original": f"rulesref/{book.slug}", "source-language": book.source_language, "target-language": lang,
        "datatype": "plaintext", "product-name": "rulesref", "rr:exported": now.isoformat()})
    header = ET.SubElement(file_el, "header")
    ET.SubElement(header, "note", {"from": "rulesref"}).text = _text(
        f"{book.title(lang)} ({book.slug}): {book.source_language} → {lang}. "
        f"Import with `manage.py importxliff {book.slug} {lang} FILE` or in the workspace.")
    body = ET.SubElement(file_el, "body")
    for export in units:
        unit = export.unit
        if not unit.source:
            continue
        attrs = {"id": unit.context, "resname": unit.context, "xml:space": "preserve"}
        if export.status == "approved" and unit.target and not export.fuzzy:
            attrs["approved"] = "yes"
        attrs["rr:base"] = export.base
        unit_el = ET.SubElement(body, "trans-unit", attrs)
        ET.SubElement(unit_el, "source").text = _text(unit.source)
        if unit.target:
            state = "needs-review-translation" if export.fuzzy else STATE12.get(export.status, "translated")
            ET.SubElement(unit_el, "target", {"state": state}).text = _text(unit.target)
        ET.SubElement(unit_el, "note", {"from": "location"}).text = _text(export.label)
        # The unit's own context, as CAT tools read it (translate-toolkit's PO-in-XLIFF convention): without it, two
        # units with the same source (the titles «Процедура» of 5.7.2 and 9.3.2) were one message to them.
        context = ET.SubElement(unit_el, "context-group", {"name": "po-entry", "purpose": "information"})
        ET.SubElement(context, "context", {"context-type": "x-po-msgctxt"}).text = _text(unit.context)
        where = ET.SubElement(unit_el, "context-group", {"name": "po-reference", "purpose": "location"})
        ET.SubElement(where, "context", {"context-type": "sourcefile"}).text = _text(unit.context)
        for source, required, definition in export.hints:
            ET.SubElement(unit_el, "note", {"from": "glossary"}).text = _text(f"{source} → {required}: {definition}")
        if export.fuzzy and unit.previous is not None:
            alt = ET.SubElement(unit_el, "alt-trans", {"alttranstype": "previous-version"})
            ET.SubElement(alt, "source").text = _text(unit.previous)
    ET.indent(root, space="  ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def read_xliff12(root, book: Book, lang: str) -> tuple[list[FileEntry], datetime | None]:
    if root.get("version") not in ("1.2", "1.1"):
        raise ExchangeError(gettext("XLIFF version %(version)s: only 2.0 and 1.2 are supported")
                            % {"version": root.get("version") or "?"})
    files = root.findall(_q("file", XLIFF12_NS))
    if len(files) != 1 or files[0].get("original") != f"rulesref/{book.slug}":
        raise ExchangeError(gettext("the file is not an export of the rulebook “%(book)s”") % {"book": book.slug})
    file_el = files[0]
    if file_el.get("source-language", "").split("-")[0].lower() != book.source_language:
        raise ExchangeError(gettext("the file's source language is “%(found)s”, not “%(lang)s”")
                            % {"found": file_el.get("source-language", ""), "lang": book.source_language})
    if file_el.get("target-language", "").split("-")[0].lower() != lang:
        raise ExchangeError(gettext("the file is a translation into “%(file)s”, not “%(lang)s”")
                            % {"file": file_el.get("target-language", ""), "lang": lang})
    exported = parse_datetime(file_el.get(_q("exported", RR_NS), "") or "")
    entries = []
    for unit in file_el.iter(_q("trans-unit", XLIFF12_NS)):
        unit_id = unit.get("id", "")
        where = gettext("unit %(id)s") % {"id": unit_id or "?"}
        source_el, target_el = unit.find(_q("source", XLIFF12_NS)), unit.find(_q("target", XLIFF12_NS))
        try:
            if source_el is None:
                raise ExchangeError(gettext("%(where)s: a unit without a <source>") % {"where": where})
            source = _plain12(source_el, where)
            target = _plain12(target_el, where) if target_el is not None else ""
        except ExchangeError as exc:
            entries.append(FileEntry(unit_id, "", "", where, error=str(exc).split(": ", 1)[-1]))
            continue
        state = target_el.get("state", "translated") if target_el is not None else "new"
        confirmed = state in CONFIRMED12 or unit.get("approved") == "yes"
        entries.append(FileEntry(unit_id, source, target, where, confirmed=confirmed,
                                 base=unit.get(_q("base", RR_NS))))
    return entries, exported


def _plain12(element, where: str) -> str:
    """A 1.2 <source>/<target>: plain text, or text a tool segmented into <mrk mtype="seg"> parts, joined."""
    children = list(element)
    if children and all(c.tag == _q("mrk", XLIFF12_NS) and c.get("mtype") == "seg" for c in children):
        return (element.text or "") + "".join(_plain(c, where) + (c.tail or "") for c in children)
    return _plain(element, where)
