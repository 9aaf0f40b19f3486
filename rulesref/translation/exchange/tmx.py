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

import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import datetime, timezone

from django.utils.translation import gettext

from rulesref.reference.corpus import digest
from rulesref.reference.models import Book

from .. import memory
from ..conf import setting
from ..models import MemoryEntry
from .units import ExchangeError, ImportProblem
from .xliff import XML_NS, parse_xml

DATE_FORMAT = "%Y%m%dT%H%M%SZ"
PROP = "x-rulesref-"
MAX_BYTES = 50 * 1024 * 1024
CODE_TAGS = {"bpt", "ept", "ph", "it", "ut", "sub"}  # native codes (and sub-flows): not text of the segment
TEXT_TAGS = {"hi"}  # highlighted text: its text is the segment's
CONTROL_OK = {"\n", "\t"}


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
    return "".join(c if c in CONTROL_OK or unicodedata.category(c) != "Cc" else "\ufffd" for c in text)


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


def _control(text: str) -> list[str]:
    return [f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in ("Cc", "Cs") and c not in CONTROL_OK]


def read_tmx(data: bytes, book: Book, lang: str, filename: str = "") -> TmxImport:
    """Every unit of a TMX file as a memory pair of the book's direction (book source → ``lang``), or a reason."""
    root = parse_xml(data, MAX_BYTES, allow_doctype=True)
    if root.tag != "tmx":
        raise ExchangeError(gettext("not a TMX file: the root element is <%(tag)s>") % {"tag": root.tag.split("}")[-1]})
    version = root.get("version", "")
    if version not in ("1.1", "1.2", "1.3", "1.4", "1.4b"):
        raise ExchangeError(gettext("TMX version %(version)s: versions 1.1 to 1.4 are read") % {"version": version or "?"})
    header, body = root.find("header"), root.find("body")
    if header is None or body is None:
        raise ExchangeError(gettext("not a TMX file: it has no <header> or no <body>"))
    tool = " ".join(filter(None, (header.get("creationtool"), header.get("creationtoolversion"))))
    note = " · ".join(filter(None, (filename, tool)))
    ours = header.get("o-tmf") == setting("TRANSLATION_PROJECT")
    source_lang = book.source_language
    result = TmxImport(units=[])
    for number, tu in enumerate(body.iter("tu"), start=1):
        where = gettext("unit %(n)s") % {"n": number} + (f" ({tu.get('tuid')})" if tu.get("tuid") else "")
        props = {p.get("type", ""): p.text or "" for p in tu.findall("prop")}
        variants: dict[str, tuple[str, bool, object]] = {}
        error = None
        for tuv in tu.findall("tuv"):
            seg = tuv.find("seg")
            if seg is None:
                error = gettext("a <tuv> without a <seg>")
                break
            text, codes = _segment_text(seg)
            variants.setdefault(_lang(tuv), (text, codes, tuv))
        if error is None and (source_lang not in variants or lang not in variants):
            result.units.append(TmxUnit(None, where, other_languages=True))
            continue
        if error is None:
            for text, _codes, _tuv in (variants[source_lang], variants[lang]):
                if not text.strip():
                    error = gettext("an empty segment")
                elif _control(text):
                    error = gettext("control characters in the text (%(chars)s)") % {
                        "chars": ", ".join(dict.fromkeys(_control(text)))}
        if error:
            result.units.append(TmxUnit(None, where, error=error))
            result.problems.append(ImportProblem(where, "", error))
            continue
        (source, source_codes, _), (target, target_codes, target_tuv) = variants[source_lang], variants[lang]
        created = _parse_date(tu.get("creationdate") or target_tuv.get("creationdate")) or None
        changed = _parse_date(tu.get("changedate") or target_tuv.get("changedate")) or created
        creator = tu.get("creationid") or target_tuv.get("changeid") or target_tuv.get("creationid") or ""
        origin = props.get(PROP + "origin") if ours else None
        if origin not in MemoryEntry.Origin.values:
            origin = MemoryEntry.Origin.TMX
        context = props.get(PROP + "context") if ours else (tu.get("tuid") or "")
        entry_note = props.get(PROP + "note", "") if ours else (props.get("x-document") or note)
        pair = memory.Pair(source_lang, lang, source, target, origin=origin, book=book.slug,
                           context=(context or "")[:200], note=entry_note or "", creator=creator, created=created,
                           changed=changed)
        result.units.append(TmxUnit(pair, where, had_codes=source_codes or target_codes))
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
