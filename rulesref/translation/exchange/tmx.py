"""TMX 1.4b: the translation memory of a rulebook, exported for other tools and imported from them.

Export (``write_tmx``): one ``<tu>`` per memory entry of the book, in the order the entries were made, with a
``tuid`` derived from the two texts (the same in every database), the entry's dates (``creationdate``,
``changedate``) and creator, and its origin, context and note as ``x-rulesref-*`` properties; the header's date is
the newest entry's, so the same memory always gives the same bytes.

Import (``read_tmx`` then ``import_tmx``): any TMX 1.1–1.4 file as CAT tools write them — OmegaT's (a DOCTYPE line,
``lang`` or ``xml:lang``, dates on the ``<tuv>``), memoQ's (``xml:lang="ru-RU"``, properties such as
``x-document``, inline ``<ph>``/``<bpt>``/``<ept>`` codes), Trados'. A unit gives one memory pair for the book's
direction when it has a variant in each of the book's two languages (regions ignored: ``EN-US`` is ``en``); units in
other languages are counted and left out, which is how a multilingual memory is read. Inline codes are dropped and
their text kept where it is text (``<hi>``), since the memory holds plain text; how many units had codes is said.
The file is read with defusedxml (entities and external references refused, and elements nested past
``xliff.MAX_XML_DEPTH``, naming the line); a unit that is broken (no text, a control character) is a problem
reported with where it is, and as with PO and XLIFF nothing is imported unless the file is clean, or ``partial``.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import datetime, timezone

from django.utils.translation import gettext

from rulesref.reference.corpus import digest
from rulesref.reference.models import Book

from .. import memory
from ..conf import setting
from ..models import MemoryEntry
from .controls import control_characters, replace_controls
from .units import ExchangeError, ImportProblem
from .xliff import XML_NS, parse_xml

DATE_FORMAT = "%Y%m%dT%H%M%SZ"
PROP = "x-rulesref-"
MAX_BYTES = 50 * 1024 * 1024
CODE_TAGS = {"bpt", "ept", "ph", "it", "ut", "sub"}  # native codes (and sub-flows): not text of the segment
TEXT_TAGS = {"hi"}  # highlighted text: its text is the segment's


def _date(value: datetime) -> str:
    return value.astimezone(timezone.utc).strftime(DATE_FORMAT)


def _parse_date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.strptime(value.strip(), DATE_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def _clean(text: str) -> str:
    """Text as XML 1.0 can carry it (a control character written in an older entry would break the file)."""
    return replace_controls(text)


def book_entries(book: Book):
    return MemoryEntry.objects.filter(book=book.slug).order_by("pk")


def write_tmx(book: Book) -> bytes:
    entries = list(book_entries(book))
    newest = max((e.changed for e in entries), default=datetime(2000, 1, 1, tzinfo=timezone.utc))
    root = ET.Element("tmx", {"version": "1.4"})
    header = ET.SubElement(root, "header", {
        "creationtool": setting("TRANSLATION_PROJECT"), "creationtoolversion": "1", "datatype": "plaintext",
        "segtype": "paragraph", "adminlang": "en", "srclang": book.source_language,
        "o-tmf": setting("TRANSLATION_PROJECT"), "creationdate": _date(newest)})
    ET.SubElement(header, "prop", {"type": f"{PROP}book"}).text = book.slug
    body = ET.SubElement(root, "body")
    for entry in entries:
        attrs = {"tuid": digest(f"{entry.source_key}:{entry.target_key}:{entry.source_language}:"
                                f"{entry.target_language}"),
                 "creationdate": _date(entry.created), "changedate": _date(entry.changed)}
        if entry.creator:
            attrs["creationid"] = entry.creator
        if entry.source_language != book.source_language:
            attrs["srclang"] = entry.source_language
        tu = ET.SubElement(body, "tu", attrs)
        for name, value in (("origin", entry.origin), ("context", entry.context), ("note", entry.note)):
            if value:
                ET.SubElement(tu, "prop", {"type": PROP + name}).text = _clean(value)
        for lang, text in ((entry.source_language, entry.source), (entry.target_language, entry.target)):
            tuv = ET.SubElement(tu, "tuv", {f"{{{XML_NS}}}lang": lang})
            ET.SubElement(tuv, "seg").text = _clean(text)
    ET.indent(root, space="  ")
    # indent() adds white space only inside elements with children: a <seg>'s text stays exactly as it is.
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


@dataclass
class TmxUnit:
    pair: memory.Pair | None
    where: str
    error: str | None = None
    had_codes: bool = False
    other_languages: bool = False


@dataclass
class TmxImport:
    units: list[TmxUnit]
    problems: list[ImportProblem] = field(default_factory=list)
    created: int = 0
    known: int = 0
    written: bool = False

    @property
    def pairs(self) -> list[memory.Pair]:
        return [u.pair for u in self.units if u.pair is not None]

    @property
    def other_languages(self) -> int:
        return sum(1 for u in self.units if u.other_languages)

    @property
    def with_codes(self) -> int:
        return sum(1 for u in self.units if u.had_codes)


def _lang(element) -> str:
    value = element.get(f"{{{XML_NS}}}lang") or element.get("lang") or ""
    return value.split("-")[0].split("_")[0].lower()


def _segment_text(seg) -> tuple[str, bool]:
    """A <seg>'s text without inline codes, and whether it had any.

    In document order, with a stack of its own rather than recursion: however deeply the <hi> nest (the reader
    bounds them, xliff.MAX_XML_DEPTH), no Python recursion limit is reached."""
    parts, codes = [], False
    stack: list = [seg]  # elements whose text and children come next, and tails (strings) to add
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        parts.append(item.text or "")
        for child in reversed(item):
            stack.append(child.tail or "")
            tag = child.tag.split("}")[-1] if isinstance(child.tag, str) else ""
            if tag in TEXT_TAGS:
                stack.append(child)
            else:
                codes = True  # bpt, ept, ph, it, ut, sub, or an element TMX does not define: not segment text
    return "".join(parts), codes


def _segment_error(text: str) -> str | None:
    """What makes a segment unusable as memory: no text, or a refused character (controls.py)."""
    if not text.strip():
        return gettext("an empty segment")
    controls = control_characters(text)
    if controls:
        return gettext("control characters in the text (%(chars)s)") % {"chars": ", ".join(controls)}
    return None


def _tmx_parts(root):
    """The header and body of a TMX root element, after checking that it is TMX of a version read here."""
    if root.tag != "tmx":
        raise ExchangeError(gettext("not a TMX file: the root element is <%(tag)s>") % {"tag": root.tag.split("}")[-1]})
    version = root.get("version", "")
    if version not in ("1.1", "1.2", "1.3", "1.4", "1.4b"):
        raise ExchangeError(gettext("TMX version %(version)s: versions 1.1 to 1.4 are read") % {"version": version or "?"})
    header, body = root.find("header"), root.find("body")
    if header is None or body is None:
        raise ExchangeError(gettext("not a TMX file: it has no <header> or no <body>"))
    return header, body


@dataclass(frozen=True)
class _Direction:
    """What every unit of one file is read into: the book and its two languages, and what the header says of the
    file (the note an entry from a foreign file gets: its name and tool; whether it is one of our own exports)."""

    book: str
    source: str
    target: str
    note: str
    ours: bool


def _variants(tu) -> tuple[dict[str, tuple[str, bool, object]], str | None]:
    """A unit's variants by language (the first of each): text, whether it had inline codes, the <tuv>; or the
    error that makes the unit unreadable."""
    variants: dict[str, tuple[str, bool, object]] = {}
    for tuv in tu.findall("tuv"):
        seg = tuv.find("seg")
        if seg is None:
            return variants, gettext("a <tuv> without a <seg>")
        text, codes = _segment_text(seg)
        variants.setdefault(_lang(tuv), (text, codes, tuv))
    return variants, None


def _read_unit(tu, number: int, direction: _Direction) -> TmxUnit:
    where = gettext("unit %(n)s") % {"n": number} + (f" ({tu.get('tuid')})" if tu.get("tuid") else "")
    variants, error = _variants(tu)
    if error is None and (direction.source not in variants or direction.target not in variants):
        return TmxUnit(None, where, other_languages=True)
    if error is None:  # the target's problem is named when both have one
        error = _segment_error(variants[direction.target][0]) or _segment_error(variants[direction.source][0])
    if error:
        return TmxUnit(None, where, error=error)
    (source, source_codes, _), (target, target_codes, target_tuv) = (variants[direction.source],
                                                                     variants[direction.target])
    return TmxUnit(_pair(tu, target_tuv, source, target, direction), where, had_codes=source_codes or target_codes)


def _pair(tu, target_tuv, source: str, target: str, direction: _Direction) -> memory.Pair:
    """The memory pair of a readable unit, with its dates, creator, origin, context and note."""
    created, changed, creator = _made(tu, target_tuv)
    origin, context, note = _provenance(tu, direction)
    return memory.Pair(direction.source, direction.target, source, target, origin=origin, book=direction.book,
                       context=(context or "")[:200], note=note or "", creator=creator, created=created,
                       changed=changed)


def _made(tu, target_tuv) -> tuple[datetime | None, datetime | None, str]:
    """When a unit was made and changed, and by whom: the unit's attributes, else its target variant's."""
    created = _parse_date(tu.get("creationdate") or target_tuv.get("creationdate")) or None
    changed = _parse_date(tu.get("changedate") or target_tuv.get("changedate")) or created
    creator = tu.get("creationid") or target_tuv.get("changeid") or target_tuv.get("creationid") or ""
    return created, changed, creator


def _provenance(tu, direction: _Direction) -> tuple[str, str | None, str | None]:
    """Origin, context and note: our own properties for our own exports; for another tool's, the origin TMX, the
    unit id and the file's note (or memoQ's ``x-document``)."""
    props = {p.get("type", ""): p.text or "" for p in tu.findall("prop")}
    if not direction.ours:
        return MemoryEntry.Origin.TMX, tu.get("tuid") or "", props.get("x-document") or direction.note
    origin = props.get(PROP + "origin")
    if origin not in MemoryEntry.Origin.values:
        origin = MemoryEntry.Origin.TMX
    return origin, props.get(PROP + "context"), props.get(PROP + "note", "")


def read_tmx(data: bytes, book: Book, lang: str, filename: str = "") -> TmxImport:
    """Every unit of a TMX file as a memory pair of the book's direction (book source → ``lang``), or a reason."""
    header, body = _tmx_parts(parse_xml(data, MAX_BYTES, allow_doctype=True))
    tool = " ".join(filter(None, (header.get("creationtool"), header.get("creationtoolversion"))))
    direction = _Direction(book.slug, book.source_language, lang, " · ".join(filter(None, (filename, tool))),
                           header.get("o-tmf") == setting("TRANSLATION_PROJECT"))
    result = TmxImport(units=[])
    for number, tu in enumerate(body.iter("tu"), start=1):
        unit = _read_unit(tu, number, direction)
        result.units.append(unit)
        if unit.error:
            result.problems.append(ImportProblem(unit.where, "", unit.error))
    return result


def import_tmx(plan: TmxImport, *, partial: bool = False) -> TmxImport:
    """Add the file's pairs to the memory, unless it has problems and ``partial`` is not given."""
    if plan.problems and not partial:
        return plan
    pairs = plan.pairs
    made = memory.add_pairs(pairs)
    plan.created = len(made)
    plan.known = len({p.key() for p in pairs}) - plan.created
    plan.written = True
    return plan
