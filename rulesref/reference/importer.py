"""Turn raw pasted rule text (web pages, PDF extractions) into corpus sections.

Pure Python. ``import_text`` reads the text line by line: it finds numbered headings (``11. 4. 5.``,
``XIII .7. C``) and unnumbered ones (short lines without final punctuation), normalises numbers, keeps
paragraphs, lists and lettered clauses, turns the change markers ``>>`` / ``> >`` into the ``.changed`` flag,
corrects the typos listed in the book's import configuration (recording each correction as an erratum), and drops
junk (lines of ``|``, site footers, page furniture), reporting every line it dropped and why.

The import configuration (``fixtures/sources/<book>/import.toml``) supplies what raw text cannot say: the ids and
parents of unnumbered headings, the titles of parent sections the text does not contain, the printed page of a
file, and the errata.
"""
from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import SectionDoc, is_numbered, numeric_parent, source_revision

NUM_HEAD_RE = re.compile(
    r"^(?P<marker>>\s?>\s*)?"
    r"(?P<num>\d{1,2}(?:\s*\.\s*\d{1,2}){0,3}|[IVXLC]+(?:\s*\.\s*(?:\d{1,2}|[A-Z]))+)"
    r"(?P<dot>\s*\.)?(?:\s+(?P<rest>\S.*))?$"
)
HEADING_IN_TEXT_RE = re.compile(r"\d+(?:\s*\.\s*\d+)+\.?\s+[А-ЯЁA-Z]")
TITLE_PREFIX_RE = re.compile(r"^(?P<title>[^:.!?«»]{2,70}?):\s+(?P<body>\S.*)$")
FOOTER_RE = re.compile(r"Дата добавления:|Мы поможем в написании|просмотров:\s*\d+", re.I)
PAGE_RE = re.compile(r"^(?:Страница|Стр\.|Page)\s+(\d+)$", re.I)
BULLET_RE = re.compile(r"^[•·▪◦*-]\s+")
MARKER_ONLY_RE = re.compile(r"^(>\s?>)\s*")

TRANSLIT = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r",
                     "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "iu", "ia"]))


@dataclass
class Dropped:
    line: int
    reason: str
    text: str


@dataclass
class Correction:
    section: str
    lang: str
    wrong: str
    right: str
    note: str = ""


@dataclass
class ImportResult:
    sections: list[SectionDoc]
    dropped: list[Dropped] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass
class ImportConfig:
    outline: dict[str, dict[str, str]] = field(default_factory=dict)
    headings: list[dict] = field(default_factory=list)
    files: list[dict] = field(default_factory=list)
    errata: list[dict] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None) -> "ImportConfig":
        if path is None or not path.exists():
            return cls()
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return cls(outline=data.get("outline", {}), headings=data.get("heading", []),
                   files=data.get("file", []), errata=data.get("erratum", []))

    def heading_for(self, text: str) -> dict | None:
        key = _heading_key(text)
        for heading in self.headings:
            if any(_heading_key(m) == key for m in heading.get("match", [])):
                return heading
        return None

    def file_options(self, filename: str) -> dict:
        stem = filename.split(".", 1)[0]
        for options in self.files:
            if options.get("name", "").split(".", 1)[0] == stem:
                return options
        return {}


def _heading_key(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def normalise_number(raw: str) -> str:
    """``11. 4. 5`` -> ``11.4.5``; ``XIII .7. C`` -> ``XIII.7.C``."""
    return re.sub(r"\s*\.\s*", ".", raw.strip()).strip(".")


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).lower()
    out = "".join(TRANSLIT.get(ch, ch) for ch in text)
    out = re.sub(r"[^a-z0-9]+", "-", out).strip("-")
    return out or "section"


def sentence_case(title: str) -> str:
    """``ОТХОД (Withdraw)`` -> ``Отход (Withdraw)``: words printed in capitals are lowered, the first raised."""
    words = re.sub(r"\([^()]*\)", "", title).split()
    if sum(1 for w in words if _is_caps(w)) * 2 < len([w for w in words if any(c.isalpha() for c in w)]):
        return title
    lowered = [w.lower() if _is_caps(w) else w for w in title.split(" ")]
    text = " ".join(lowered)
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
    return text


def _is_caps(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 1 and all(c.isupper() for c in letters) and (len(letters) > 1 or len(word) == 1)


def _is_unnumbered_heading(line: str) -> bool:
    return (len(line) <= 70 and line[-1] not in ".:;,!?…" and not BULLET_RE.match(line)
            and not re.match(r"^[a-z1-9]\)\s", line) and line[0].isupper())


def import_text(text: str, lang: str, config: ImportConfig, filename: str = "") -> ImportResult:
    """Parse raw rule text into sections (in reading order, parents not yet included)."""
    result = ImportResult(sections=[])
    options = config.file_options(filename)
    page = options.get("page")
    current: SectionDoc | None = None
    blocks: list[list[str]] = []  # each block: lines; a list block has several "- " lines

    def flush() -> None:
        if current is not None:
            current.body = "\n\n".join("\n".join(b) for b in blocks)
        blocks.clear()

    def start(section: SectionDoc) -> None:
        nonlocal current
        flush()
        if page is not None:
            section.attrs["page"] = str(page)
        result.sections.append(section)
        current = section

    errata = [(re.compile(rf"(?<!\w){re.escape(e['wrong'])}(?!\w)"), e) for e in config.errata
              if e.get("lang", "ru") == lang]
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.replace("\u00a0", " ").strip()
        fixed: list[dict] = []
        for pattern, erratum in errata:
            if pattern.search(line):
                line = pattern.sub(erratum["right"], line)
                fixed.append(erratum)
        if not line:
            continue
        if set(line) <= set("| "):
            result.dropped.append(Dropped(number, "line of '|' (page furniture)", raw_line))
            continue
        if FOOTER_RE.search(line):
            result.dropped.append(Dropped(number, "site footer", raw_line))
            continue
        if PAGE_RE.match(line):
            result.dropped.append(Dropped(number, "page number", raw_line))
            continue
        m = NUM_HEAD_RE.match(line)
        if m and (m.group("dot") or m.group("rest") or "." in m.group("num")):
            rest = (m.group("rest") or "").strip()
            if len(HEADING_IN_TEXT_RE.findall(rest)) >= 2:
                result.dropped.append(Dropped(number, "page title listing several headings", raw_line))
                continue
            section_id = normalise_number(m.group("num"))
            title, body = _split_title(rest)
            section = SectionDoc(id=section_id, title=sentence_case(title), level=0, line=number)
            if m.group("marker"):
                section.flags.add("changed")
            start(section)
            _record(result, section, fixed, lang)
            if body:
                blocks.append([body])
            continue
        marker = MARKER_ONLY_RE.match(line)
        candidate = line[marker.end():] if marker else line
        if _is_unnumbered_heading(candidate):
            configured = config.heading_for(candidate)
            if configured is None:
                parent = current.id if current else None
                section_id = slugify(candidate)
                result.warnings.append(f"line {number}: unnumbered heading {candidate!r} has no id in the import "
                                       f"configuration; using {section_id!r} under {parent!r}")
                configured = {"id": section_id, "parent": parent}
            section = SectionDoc(id=configured["id"], title=candidate, level=0, line=number,
                                 parent=configured.get("parent"))
            if configured.get("page") is not None:
                section.attrs["page"] = str(configured["page"])
            if marker:
                section.flags.add("changed")
            start(section)
            _record(result, section, fixed, lang)
            continue
        if current is None:
            result.dropped.append(Dropped(number, "text before the first heading", raw_line))
            continue
        _record(result, current, fixed, lang)
        if marker:
            # A change marker before the first paragraph flags the section (6.1 prints it there).
            current.flags.add("changed")
            line = candidate
        if BULLET_RE.match(line):
            item = "- " + BULLET_RE.sub("", line, count=1)
            if blocks and blocks[-1][0].startswith("- "):
                blocks[-1].append(item)
            else:
                blocks.append([item])
        else:
            blocks.append([line])
    flush()
    return result


def _record(result: ImportResult, section: SectionDoc, fixed: list[dict], lang: str) -> None:
    for erratum in fixed:
        result.corrections.append(Correction(section.id, lang, erratum["wrong"], erratum["right"],
                                             erratum.get("note", "")))


def _split_title(rest: str) -> tuple[str, str]:
    if not rest:
        return "", ""
    m = TITLE_PREFIX_RE.match(rest)
    if m and len(m.group("title").split()) <= 6:
        return m.group("title").strip(), m.group("body").strip()
    if len(rest) <= 80 and rest[-1] not in ".!?:;…":
        return rest, ""
    return "", rest


def merge_into(existing: list[SectionDoc], imported: list[SectionDoc], config: ImportConfig, lang: str,
               chapters: list[str], source_index: dict[str, SectionDoc] | None = None) -> tuple[list[SectionDoc], list[str]]:
    """Merge imported sections into a language's existing sections; return them in tree order with levels set.

    Sections with the same id are replaced. Parents the text lacks are created from the configuration's outline
    as ``.absent`` titled nodes. In a translation, ``src`` records the digest of the source section it follows.
    """
    warnings: list[str] = []
    nodes: dict[str, SectionDoc] = {s.id: s for s in existing}
    order: list[str] = [s.id for s in existing]
    parents: dict[str, str | None] = {s.id: s.parent for s in existing}
    created = [SectionDoc(id=sid, title=o.get(lang, ""), level=0, flags={"absent"}, parent=o.get("parent"),
                          attrs={"page": str(o["page"])} if "page" in o else {})
               for sid, o in config.outline.items() if o.get("create") and sid not in nodes]
    for section in [*imported, *created]:
        parent = section.parent if section.parent is not None else numeric_parent(section.id)
        if parent is None and not is_numbered(section.id) and section.id not in chapters:
            warnings.append(f"section {section.id!r} has no parent; placed at top level")
        parents[section.id] = parent
        if section.id not in nodes:
            order.append(section.id)
        nodes[section.id] = section
        while parent is not None and parent not in nodes:
            title = config.outline.get(parent, {}).get(lang, "")
            if not title:
                warnings.append(f"parent {parent!r} of {section.id!r} has no title in the import outline")
            absent = SectionDoc(id=parent, title=title, level=0, flags={"absent"})
            outline_parent = config.outline.get(parent, {}).get("parent")
            grand = outline_parent if outline_parent is not None else numeric_parent(parent)
            nodes[parent] = absent
            parents[parent] = grand
            order.append(parent)
            parent = grand
    children: dict[str | None, list[str]] = {}
    for sid in order:
        children.setdefault(parents[sid], []).append(sid)
    for sid, kids in children.items():
        kids.sort(key=lambda k: _sibling_key(k, order))
    roots = children.get(None, [])
    roots.sort(key=lambda k: (chapters.index(k) if k in chapters else len(chapters), order.index(k)))
    out: list[SectionDoc] = []

    def walk(sid: str, level: int) -> None:
        node = nodes[sid]
        node.level, node.parent = level, parents[sid]
        if source_index is not None and sid in source_index and not node.absent:
            node.attrs["src"] = source_revision(source_index[sid].title, source_index[sid].body)
        out.append(node)
        for kid in children.get(sid, []):
            walk(kid, level + 1)

    for root in roots:
        walk(root, 1)
    return out, warnings


def _sibling_key(sid: str, order: list[str]) -> tuple:
    if is_numbered(sid):
        parts = []
        for part in sid.split("."):
            parts.append((0, int(part), "") if part.isdigit() else (1, 0, part))
        return (0, tuple(parts), 0)
    return (1, (), order.index(sid))
