"""Turn raw pasted rule text (web pages, PDF extractions) into corpus sections.

Pure Python. ``import_text`` works in stages, each reporting what it did by line number:

1. **Junk** is dropped: lines of ``|``, site footers, page numbers (``Страница 25``, ``— 12 —``, a bare number),
   table-of-contents lines (``3.1 Движение ....... 12``), page titles that list several headings, and headers
   repeated on each page (a line that recurs beside page numbers).
2. **Tables** pasted one cell per line (or with tabs or bars between cells) are found by their shape: a header
   row of words, then rows with the same number of cells in which a column holds numbers.
3. **The numbering scheme** is inferred from the lines that start with a number: dotted numbers with or without
   spaces (``9.2.1.``, ``11. 4. 5``), letter suffixes (``3.1a``), letter or Roman prefixes in Latin or Cyrillic
   (``O22.2`` / ``О22.2``, ``A.3.1``, ``XIII .7. C``), chapters (``6.``, ``3.0``, ``Глава 3``) — a bare number is
   a chapter only where the text has sections under it, so numbered lists inside clauses stay text.
4. **Lines are joined** where the paste broke them: a paragraph wrapped mid-sentence (also across a page break),
   a heading split over two lines, a number on its own line, ``ПРИМЕР:`` on a line of its own.
5. **Sections** are built: numbered headings, unnumbered headings (short title-like lines followed by text),
   paragraphs, lists, lettered clauses (``a) …``; ``3.1a …`` at the start of a paragraph becomes clause ``a`` of
   3.1), notes, examples and tables; change markers ``>>`` / ``> >`` become the ``.changed`` flag; typos listed
   in the import configuration are corrected (each correction recorded as an erratum).

Every guess is reported (``guesses``), every line that could not be placed is reported (``unplaced``), a text that
ends mid-sentence is reported (``warnings``); a text that cannot be imported (empty, binary, no numbers, a number
repeated) gets ``errors`` and nothing is written. The import configuration (``fixtures/sources/<book>/import.toml``)
overrides any guess — heading ids, parents and titles, lines that are text or junk, tables — and supplies what raw
text cannot say: titles of parent sections the text lacks, the printed page of a file, the errata.
"""
from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rulesref.text import fold_key, slugify

from .corpus import RESERVED_IDS, SectionDoc, is_numbered, numeric_parent, render_table, source_revision, valid_id
from .refs import (
    PREFIX_CHARS,
    ROMAN_CHARS,
    SUFFIX_CHARS,
    compile_patterns,
    latinise,
    normalise,
    pattern_number,
)

MAX_TEXT_BYTES = 5_000_000

HEAD_RE = re.compile(
    r"^(?P<marker>>\s?>\s*)?"
    r"(?P<num>"
    rf"(?:(?P<prefix>[{ROMAN_CHARS}]{{1,7}}|[{PREFIX_CHARS}]{{1,3}})(?P<pdot>\s*\.\s*)?)?(?P<first>\d{{1,3}})(?P<parts>(?:\s*\.\s*\d{{1,3}}){{0,4}})"
    rf"(?P<upper>\s*\.\s*[A-ZА-ЯЁ])?(?P<suffix>[{SUFFIX_CHARS}](?![{SUFFIX_CHARS}]))?"
    rf"|(?P<roman>[{ROMAN_CHARS}]+)(?=\s*\.)|(?P<letter>[{PREFIX_CHARS}])(?=\s*\.)"
    r")"
    r"(?P<dot>\s*\.)?(?:\s+(?P<rest>\S.*))?$")
CHAPTER_WORD_RE = re.compile(
    r"^(?P<marker>>\s?>\s*)?(?P<word>глава|chapter|раздел|часть|part)\s+(?P<num>\d{1,3}|[IVXLC]+)\b(?!\.\d)"
    r"\s*[.:—–-]?\s*(?P<rest>.*)$", re.IGNORECASE)
HEADING_IN_TEXT_RE = re.compile(r"\d+(?:\s*\.\s*\d+)+\.?\s+[А-ЯЁA-Z]")
TITLE_PREFIX_RE = re.compile(r"^(?P<title>[^:.!?«»]{2,70}?):\s+(?P<body>\S.*)$")
CAPS_TITLE_RE = re.compile(r"^(?P<title>[A-ZА-ЯЁ][A-ZА-ЯЁ0-9 «»\"'()-]{1,68}[A-ZА-ЯЁ)»])\.\s+(?P<body>\S.*)$")
FOOTER_RE = re.compile(r"Дата добавления:|Мы поможем в написании|просмотров:\s*\d+", re.I)
PAGE_RE = re.compile(r"^(?:(?:Страница|Стр\.?|С\.|Page|P\.)\s*\d{1,4}(?:\s*(?:из|of|/)\s*\d{1,4})?"
                     r"|\d{1,4}\s*(?:/|из|of)\s*\d{1,4}|[-–—]\s*\d{1,4}\s*[-–—])$", re.I)
BARE_NUMBER_RE = re.compile(r"^\d{1,4}$")
TOC_RE = re.compile(r"^\S.{2,}?(?:\s*\.{4,}|\s*…{2,}|\s*(?:\. ){3,})\s*\d{1,4}$")
BULLET_RE = re.compile(r"^[•·▪◦●○■□➢►✓\uf0b7*–—-]\s+")
LETTERED_RE = re.compile(r"^[a-z1-9]\)\s")
PAREN_CLAUSE_RE = re.compile(r"^\((?P<letter>[a-z])\)\s+(?=\S)")
MARKER_ONLY_RE = re.compile(r"^(>\s?>)\s*")
LABEL_RE = re.compile(
    r"^(?:ПРИМЕР|ПРИМЕРЫ|ПРИМЕЧАНИЕ|ПРИМЕЧАНИЯ|ИСКЛЮЧЕНИЕ|ВАЖНО|ПОЯСНЕНИЕ|ЗАМЕЧАНИЕ|ПРИМЕЧАНИЕ АВТОРА|"
    r"EXAMPLE|EXAMPLES|NOTE|NOTES|EXCEPTION|IMPORTANT|CLARIFICATION|DESIGNER'?S NOTE|PLAY NOTE)\b", re.I)
CAPTION_RE = re.compile(r"(?:^|\s)(?:таблиц[аы]|table|chart|схема)(?:\s|$|:)", re.I)
CONTENTS_RE = re.compile(r"^(?:contents|table of contents|содержание|оглавление)$", re.I)
TERMINAL = ".!?…:;"
CLOSING = ")»\"”'’]"
DANGLING_WORDS = {
    "и", "или", "в", "во", "на", "по", "к", "ко", "с", "со", "от", "до", "за", "из", "для", "при", "о", "об", "без",
    "через", "под", "над", "а", "но", "of", "and", "or", "the", "to", "in", "on", "with", "for", "a", "an", "at",
    "by", "from", "into", "vs",
}
NUMERIC_CELL_RE = re.compile(r"\d|^[—–\-−×x+]$|^[—–\-]{1,2}$")


@dataclass
class Dropped:
    line: int
    reason: str
    text: str


@dataclass
class Note:
    """Something the importer guessed or could not do, at a line of the text."""

    line: int
    message: str


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
    guesses: list[Note] = field(default_factory=list)
    unplaced: list[Dropped] = field(default_factory=list)
    errors: list[Note] = field(default_factory=list)
    scheme: list[str] = field(default_factory=list)  # what the importer read the numbering as, in words


@dataclass
class ImportConfig:
    outline: dict[str, dict[str, str]] = field(default_factory=dict)
    headings: list[dict] = field(default_factory=list)
    files: list[dict] = field(default_factory=list)
    errata: list[dict] = field(default_factory=list)
    text_lines: list[str] = field(default_factory=list)
    junk_lines: list[str] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None) -> "ImportConfig":
        """The configuration in ``path`` (none: an empty one); ValueError naming the entry that is wrong."""
        if path is None or not path.exists():
            return cls()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{path}: invalid TOML: {exc}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{path}: not UTF-8 text") from None
        problem = _config_problem(data)
        if problem:
            raise ValueError(f"{path}: {problem}")
        return cls(outline=data.get("outline", {}), headings=data.get("heading", []),
                   files=data.get("file", []), errata=data.get("erratum", []),
                   text_lines=[m for entry in data.get("text", []) for m in _matches(entry)],
                   junk_lines=[m for entry in data.get("junk", []) for m in _matches(entry)],
                   tables=data.get("table", []))

    def __post_init__(self) -> None:
        self._headings = {_heading_key(m): h for h in reversed(self.headings) for m in _matches(h)}
        self._text = {_heading_key(m) for m in self.text_lines}
        self._junk = {_heading_key(m) for m in self.junk_lines}
        self._tables = {_heading_key(m): t for t in reversed(self.tables) for m in _matches(t)}

    def heading_for(self, text: str) -> dict | None:
        return self._headings.get(_heading_key(text)) if self._headings else None

    def file_options(self, filename: str) -> dict:
        stem = filename.split(".", 1)[0]
        for options in self.files:
            if options.get("name", "").split(".", 1)[0] == stem:
                return options
        return {}

    def is_text(self, text: str) -> bool:
        return bool(self._text) and _heading_key(text) in self._text

    def is_junk(self, text: str) -> bool:
        return bool(self._junk) and _heading_key(text) in self._junk

    def table_at(self, text: str) -> dict | None:
        return self._tables.get(_heading_key(text)) if self._tables else None


CONFIG_KEYS = {
    "heading": {"match": "lines", "id": "id", "parent": "id", "title": "title", "page": "page"},
    "text": {"match": "lines"},
    "junk": {"match": "lines"},
    "table": {"match": "lines", "columns": "count"},
    "file": {"name": "string", "page": "page"},
    "erratum": {"wrong": "string", "right": "string", "note": "string", "lang": "lang", "section": "id"},
}
OPEN_TABLES = {"erratum"}  # the translators' errata may carry keys of their own: those are not refused
OUTLINE_KEYS = {"ru": "string", "en": "string", "parent": "id", "page": "page", "create": "flag"}


def _config_problem(data: dict) -> str | None:
    """What is wrong with an import configuration, or None (see docs/corpus-format.md)."""
    def wrong(kind: str, value) -> str | None:
        if kind == "lines":
            values = [value] if isinstance(value, str) else value
            ok = isinstance(values, list) and values and all(isinstance(v, str) and v.strip() for v in values)
            return None if ok else "a line or a list of lines"
        if kind == "id":
            return None if isinstance(value, str) and valid_id(value) else "a section id (9.3.1, O22.3, a-slug)"
        if kind == "title":
            ok = isinstance(value, str) or isinstance(value, dict) and all(
                k in ("ru", "en") and isinstance(v, str) for k, v in value.items())
            return None if ok else 'a title, or a title per language: { ru = "…", en = "…" }'
        if kind in ("page", "count"):
            ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 10_000
            return None if ok else "a whole number"
        if kind == "flag":
            return None if isinstance(value, bool) else "true or false"
        if kind == "lang":
            return None if value in ("ru", "en") else "ru or en"
        return None if isinstance(value, str) else "text in quotes"

    for table, keys in CONFIG_KEYS.items():
        entries = data.get(table, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            return f"{table}: write each entry as [[{table}]]"
        for n, entry in enumerate(entries, start=1):
            for key, value in entry.items():
                if key not in keys:
                    if table in OPEN_TABLES:
                        continue
                    return f"[[{table}]] entry {n}: unknown key {key!r} (known: {', '.join(keys)})"
                problem = wrong(keys[key], value)
                if problem:
                    return f"[[{table}]] entry {n}: {key} must be {problem}"
            required = {"heading": "match", "text": "match", "junk": "match", "table": "match", "file": "name",
                        "erratum": "wrong"}[table]
            if required not in entry or table == "erratum" and "right" not in entry:
                return f"[[{table}]] entry {n}: {required} is required"
    outline = data.get("outline", {})
    if not isinstance(outline, dict):
        return 'outline: write each parent as [outline."9"]'
    for sid, entry in outline.items():
        if not valid_id(sid) or not isinstance(entry, dict):
            return f'[outline.{sid!r}]: a section id with its titles (ru = "…", en = "…")'
        for key, value in entry.items():
            if key not in OUTLINE_KEYS:
                return f"[outline.{sid!r}]: unknown key {key!r} (known: {', '.join(OUTLINE_KEYS)})"
            problem = wrong(OUTLINE_KEYS[key], value)
            if problem:
                return f"[outline.{sid!r}]: {key} must be {problem}"
    unknown = set(data) - set(CONFIG_KEYS) - {"outline"}
    if unknown:
        return f"unknown table {sorted(unknown)[0]!r} (known: outline, {', '.join(CONFIG_KEYS)})"
    return None


def _matches(entry: dict) -> list[str]:
    match = entry.get("match", [])
    return [match] if isinstance(match, str) else list(match)


def _heading_key(text: str) -> str:
    return fold_key(text)


def normalise_number(raw: str) -> str:
    """``11. 4. 5`` -> ``11.4.5``; ``XIII .7. C`` -> ``XIII.7.C``; ``О22.2`` -> ``O22.2``."""
    return normalise(raw)


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


def _all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _ends_sentence(text: str) -> bool:
    return text.rstrip(CLOSING + " ")[-1:] in TERMINAL if text.rstrip(CLOSING + " ") else True


def _title_like(text: str) -> bool:
    return (0 < len(text) <= 80 and text[-1] not in TERMINAL + "," and not BULLET_RE.match(text)
            and not LETTERED_RE.match(text) and (text[0].isupper() or text[0] in "«\"(")
            and not LABEL_RE.match(text))


def _is_roman(text: str) -> bool:
    return bool(re.fullmatch(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})", text)) and bool(text)


def decode_text(raw: bytes, name: str = "text") -> str:
    """The text of an uploaded or pasted file; ValueError saying what is wrong with it otherwise."""
    if not raw.strip():
        raise ValueError(f"{name}: the file is empty")
    if len(raw) > MAX_TEXT_BYTES:
        raise ValueError(f"{name}: {len(raw)} bytes; a text to import is at most {MAX_TEXT_BYTES} bytes")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            raise ValueError(f"{name}: starts like UTF-16 text but is not") from None
    else:
        nul = raw.find(b"\x00")
        if nul >= 0:
            raise ValueError(f"{name}: a binary file (a NUL byte at offset {nul}), not text")
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[:exc.start].count(b"\n") + 1
            hint = ""
            try:
                if re.search("[а-яА-Я]{3}", raw.decode("cp1251")):
                    hint = " (it looks like Windows-1251: convert it, e.g. iconv -f cp1251 -t utf-8)"
            except UnicodeDecodeError:
                pass
            raise ValueError(f"{name}:{line}: not UTF-8 text{hint}") from None
    bad = next((i for i, ch in enumerate(text) if unicodedata.category(ch) in ("Cc", "Cs") and ch not in "\t\n\r\f"),
               None)
    if bad is not None:
        line = text[:bad].count("\n") + 1
        raise ValueError(f"{name}:{line}: a control character U+{ord(text[bad]):04X}; is this a binary file?")
    if not text.strip():
        raise ValueError(f"{name}: the file holds only blank lines")
    return text


# ---------------------------------------------------------------- numbers at the start of a line


@dataclass(frozen=True)
class Head:
    """A rule number at the start of a line, as printed and as an id."""

    number: str  # the id: "9.2.1", "O22.2", "A.3.1", "XIII.7.C", "3" (from "3.0"), clause base for a suffix
    kind: str  # "dotted", "bare" (6.), "prefixed" (O22), "roman" (XIII.), "letter" (A.), "chapter" (Глава 3)
    rest: str
    marker: bool
    letter: str = ""  # the clause letter of "3.1a"
    printed: str = ""
    cyrillic: bool = False
    spaced: bool = False
    zero: bool = False  # printed as N.0

    @property
    def chapter(self) -> str:
        return self.number.split(".", 1)[0] if self.kind == "dotted" and "." in self.number else self.number


@lru_cache(maxsize=4096)
def parse_head(line: str, patterns: tuple[str, ...] = ()) -> Head | None:
    """The rule number a line starts with, or None. Says nothing yet about whether the line is a heading.
    (Cached: each stage asks about the same lines.)"""
    for regex in compile_patterns(patterns):
        m = regex.match(line)
        if m and m.group("num") and m.start("num") < 40:
            rest = line[m.end():].strip(" .:—–-")
            number = pattern_number(m.group("num"))
            if is_numbered(number):
                return Head(number, "dotted" if "." in number else "bare", rest, False, printed=m.group())
    m = CHAPTER_WORD_RE.match(line)
    if m:
        return Head(latinise(m.group("num").upper()), "chapter", m.group("rest").strip(), bool(m.group("marker")),
                    printed=line[:m.start("rest")].strip())
    m = HEAD_RE.match(line)
    if not m:
        return None
    printed = m.group("num")
    marker = bool(m.group("marker"))
    rest = (m.group("rest") or "").strip()
    cyrillic = bool(re.search("[А-ЯЁІЈЅа-я]", printed))
    spaced = bool(re.search(r"\s", printed))
    if m.group("roman") or m.group("letter"):
        prefix = m.group("roman") or m.group("letter")
        return Head(latinise(prefix), "roman" if m.group("roman") else "letter", rest, marker, printed=printed,
                    cyrillic=cyrillic)
    prefix = latinise(m.group("prefix") or "")
    if prefix and not re.fullmatch("[A-Z]+", prefix):
        return None
    upper = m.group("upper")
    if upper and rest and not (prefix and _is_roman(prefix)):
        # "9.3.4. A unit may…": the capital begins the text, it is not a part of the number (XIII .7. C is)
        rest = line[m.start("upper"):].lstrip(" .")
        upper = None
        printed = line[m.start("num"):m.start("upper")].rstrip(" .")
        spaced = bool(re.search(r"\s", printed))
    parts = [m.group("first")] + re.findall(r"\d+", m.group("parts") or "")
    number = (prefix + ("." if m.group("pdot") else "") if prefix else "") + ".".join(parts)
    if upper:
        number += "." + latinise(upper.strip(" ."))
    zero = len(parts) == 2 and parts[1] == "0" and not upper
    if zero:
        number = number[:-2]
    letter = latinise(m.group("suffix") or "")
    dotted = len(parts) > 1 or bool(m.group("pdot")) or bool(upper)
    kind = "dotted" if dotted and not zero else "prefixed" if prefix else "bare"
    return Head(number, kind, rest, marker, letter=letter, printed=printed, cyrillic=cyrillic, spaced=spaced,
                zero=zero)


# ---------------------------------------------------------------- stage data


@dataclass
class Line:
    number: int
    raw: str
    text: str
    fixed: list[dict]
    junk: str = ""
    cell: int = -1  # index of the table the line is a cell of
    keep: bool = False  # the configuration says: text
    configured: dict | None = None  # the configuration's [[heading]] for this line


@dataclass
class Table:
    first: int  # index into lines of the first cell
    last: int
    header: list[str]
    rows: list[list[str]]
    guessed: bool = True


@dataclass
class Item:
    """A logical line: one or more physical lines joined, or a table."""

    line: int
    text: str
    fixed: list[dict]
    head: Head | None = None
    table: Table | None = None
    last: int = 0  # the last line joined into it
    configured: dict | None = None
    keep: bool = False


@dataclass
class Scheme:
    """The numbering scheme read from the text: which chapters have sections under them, which prefixes occur."""

    chapters: set[str] = field(default_factory=set)  # first parts of dotted numbers ("3", "O22", "A", "XIII")
    dotted: int = 0
    prefixes: dict[str, bool] = field(default_factory=dict)  # prefix -> printed in Cyrillic somewhere
    spaced: bool = False
    roman: bool = False
    zero_chapters: bool = False
    clauses: int = 0

    def describe(self) -> list[str]:
        out = []
        if self.dotted:
            out.append("dotted numbers" + (" (some printed with spaces: 11. 4. 5)" if self.spaced else ""))
        for prefix, cyrillic in sorted(self.prefixes.items()):
            out.append(f"prefix {prefix}" + (f" (printed in Cyrillic too; the ids use the Latin {prefix})"
                                             if cyrillic else ""))
        if self.roman:
            out.append("Roman chapter numbers (XIII.7.C)")
        if self.zero_chapters:
            out.append("chapters printed as N.0")
        if self.clauses:
            out.append(f"{self.clauses} clauses numbered with a letter suffix (3.1a), kept as lettered clauses")
        return out


# ---------------------------------------------------------------- the importer


def import_text(text: str, lang: str, config: ImportConfig, filename: str = "", patterns: tuple[str, ...] = (),
                source: list[SectionDoc] | None = None,
                existing: dict[str, SectionDoc] | None = None) -> ImportResult:
    """Parse raw rule text into sections (in reading order, parents not yet included).

    ``patterns``: the book's own number forms (book.toml); ``source``: the source language's sections when this
    text is a translation (its unnumbered headings then take the ids of the source's, by position); ``existing``:
    the sections this language already has (other files, an earlier import of this one)."""
    result = ImportResult(sections=[])
    patterns = tuple(patterns)
    lines = _prepare(text, config, lang)
    _mark_junk(lines, config, result, patterns)
    tables = _find_tables(lines, config, result, patterns)
    _mark_running_heads(lines, patterns)
    known = set(existing or {}) | {s.id for s in source or []}
    scheme = _infer_scheme(lines, patterns, known)
    result.scheme = scheme.describe()
    items = _logical_lines(lines, tables, scheme, result, patterns)
    for line in lines:
        if line.junk:
            result.dropped.append(Dropped(line.number, line.junk, line.raw))
    _Builder(result, config, lang, filename, scheme, source, existing or {}).build(items)
    result.guesses.sort(key=lambda g: g.line)
    return result


def _prepare(text: str, config: ImportConfig, lang: str) -> list[Line]:
    errata = [(re.compile(rf"(?<!\w){re.escape(e['wrong'])}(?!\w)"), e) for e in config.errata
              if e.get("lang", "ru") == lang]
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.replace("\u00a0", " ").replace("\u00ad", "").strip()
        fixed: list[dict] = []
        for pattern, erratum in errata:
            if pattern.search(line):
                line = pattern.sub(erratum["right"], line)
                fixed.append(erratum)
        lines.append(Line(number, raw, line, fixed))
        if line:
            lines[-1].keep = config.is_text(line)
            lines[-1].configured = config.heading_for(MARKER_ONLY_RE.sub("", line))
    return lines


def _mark_junk(lines: list[Line], config: ImportConfig, result: ImportResult, patterns: tuple[str, ...]) -> None:
    for line in lines:
        text = line.text
        if not text or line.keep or line.configured:
            continue
        if config.is_junk(text):
            line.junk = "named as junk in the import configuration"
        elif set(text) <= set("| "):
            line.junk = "line of '|' (page furniture)"
        elif FOOTER_RE.search(text):
            line.junk = "site footer"
        elif PAGE_RE.match(text):
            line.junk = "page number"
        elif TOC_RE.match(text):
            line.junk = "table of contents line"
        elif CONTENTS_RE.match(text):
            line.junk = "table of contents title"
        else:
            head = parse_head(text, patterns)
            if head and head.kind == "dotted" and len(HEADING_IN_TEXT_RE.findall(head.rest)) >= 2:
                line.junk = "page title listing several headings"


def _content(lines: list[Line]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.text and not line.junk]


# ---------------------------------------------------------------- tables


def _cell_like(line: Line, patterns: tuple[str, ...], loose: bool = False) -> bool:
    """A line that can be one cell of a table pasted cell per line (``loose``: of a table the configuration names)."""
    text = line.text
    if line.keep or line.configured or line.junk or not text:
        return False
    if len(text) > (120 if loose else 40) or not loose and len(text.split()) > 5:
        return False
    if BULLET_RE.match(text) or LETTERED_RE.match(text) or LABEL_RE.match(text) or CAPTION_RE.search(text):
        return False
    if text.endswith(":") or MARKER_ONLY_RE.match(text):
        return False
    head = parse_head(text, patterns)
    return not (head and head.rest and head.kind in ("dotted", "chapter"))


def _numeric(cell: str) -> bool:
    return bool(NUMERIC_CELL_RE.search(cell))


def _table_score(cells: list[str], columns: int) -> tuple[float, int] | None:
    """How well ``cells`` read as a header row and rows of ``columns`` cells: (column purity, rows), or None."""
    if columns < 2 or len(cells) % columns or len(cells) // columns < 3:
        return None
    header, rows = cells[:columns], [cells[i:i + columns] for i in range(columns, len(cells), columns)]
    if any(_numeric(h) for h in header):
        return None
    numeric_columns, purity = 0, 0.0
    for j in range(columns):
        values = [_numeric(r[j]) for r in rows]
        if all(values):
            numeric_columns += 1
        purity += max(values.count(True), values.count(False)) / len(values)
    if not numeric_columns:
        return None
    purity /= columns
    return (round(purity, 1), len(rows)) if purity >= 0.75 else None


def _find_tables(lines: list[Line], config: ImportConfig, result: ImportResult,
                 patterns: tuple[str, ...]) -> list[Table]:
    tables: list[Table] = []
    content = _content(lines)
    position = {k: n for n, k in enumerate(content)}
    i = 0
    while i < len(content):
        start = content[i]
        forced = config.table_at(lines[start].text)
        table = _delimited_table(lines, content, i) if forced is None else None
        if table is None:
            if forced is None and not _cell_like(lines[start], patterns):
                i += 1
                continue
            run = [start]
            while len(run) < 400 and i + len(run) < len(content) and \
                    _cell_like(lines[content[i + len(run)]], patterns, loose=forced is not None):
                run.append(content[i + len(run)])
            table = _cell_table(lines, run, forced)
            if table is None:
                i += len(run)  # each line is tried in one run only: the work stays linear in the text
                continue
        tables.append(table)
        for k in content[position[table.first]:position[table.last] + 1]:
            lines[k].cell = len(tables) - 1
        first, last = lines[table.first].number, lines[table.last].number
        if table.guessed:
            result.guesses.append(Note(first, f"lines {first}–{last} read as a table of {len(table.header)} columns "
                                              f"and {len(table.rows)} rows (header: {' | '.join(table.header)}); "
                                              f"if it is not, add [[table]] match = {lines[table.first].text!r} "
                                              f"columns = N (0: not a table) to the import configuration"))
        i = position[table.last] + 1
    return tables


def _delimited_table(lines: list[Line], content: list[int], i: int) -> Table | None:
    """Rows pasted with tabs or bars between the cells: two or more lines with the same number of cells."""
    def cells(text: str) -> list[str] | None:
        if "\t" in text:
            parts = [c.strip() for c in text.split("\t")]
        elif text.startswith("|") and text.endswith("|") and text.count("|") >= 3:
            parts = [c.strip() for c in text[1:-1].split("|")]
        else:
            return None
        return parts if len(parts) >= 2 and any(parts) else None

    rows: list[list[str]] = []
    k = i
    while k < len(content) and not lines[content[k]].keep and (row := cells(lines[content[k]].text)) is not None:
        if rows and len(row) != len(rows[0]):
            break
        if not all(re.fullmatch(r":?-{3,}:?", c) for c in row):  # a Markdown delimiter row
            rows.append(row)
        k += 1
    if len(rows) < 2:
        return None
    return Table(content[i], content[k - 1], rows[0], rows[1:])


def _cell_table(lines: list[Line], run: list[int], forced: dict | None) -> Table | None:
    cells = [lines[k].text for k in run]
    if forced is not None:
        columns = int(forced.get("columns", 0))
        if columns < 2:
            return None
        usable = len(cells) - len(cells) % columns
        if usable < 2 * columns:
            return None
        return Table(run[0], run[usable - 1], cells[:columns], [cells[j:j + columns] for j in
                                                               range(columns, usable, columns)], guessed=False)
    best: tuple | None = None
    for trim_start in range(0, 3):
        for trim_end in range(0, 3):
            part = cells[trim_start:len(cells) - trim_end]
            for columns in range(2, 9):
                score = _table_score(part, columns)
                if score is not None:
                    key = (score[0], -(trim_start + trim_end), score[1], -columns)  # all the lines if it can
                    if best is None or key > best[0]:
                        best = (key, trim_start, trim_end, columns)
    if best is None:
        return None
    _key, trim_start, trim_end, columns = best
    part = run[trim_start:len(run) - trim_end]
    values = cells[trim_start:len(cells) - trim_end]
    return Table(part[0], part[-1], values[:columns], [values[j:j + columns] for j in range(columns, len(values),
                                                                                           columns)])


# ---------------------------------------------------------------- headers repeated on each page


def _mark_running_heads(lines: list[Line], patterns: tuple[str, ...]) -> None:
    """Lines that recur beside page numbers are page headers or footers (a page number inside them may change:
    "12 · RULES", "RULES · 13"); so are lines that recur beside those (a header of two lines). A numbered heading
    repeated so keeps its first occurrence."""
    content = _content(lines)
    position = {k: n for n, k in enumerate(content)}
    groups: dict[str, list[int]] = {}
    for k in content:
        line = lines[k]
        text = line.text
        if line.keep or line.configured or line.cell >= 0 or len(text) > 80 or not re.search(r"[^\W\d_]", text):
            continue
        if BULLET_RE.match(text) or LETTERED_RE.match(text) or LABEL_RE.match(text):
            continue
        head = parse_head(MARKER_ONLY_RE.sub("", text), patterns)
        numbered = head is not None and head.kind in ("dotted", "chapter") and bool(head.rest)
        # A heading's number is what it is; in any other line a number may be the page's.
        key = _heading_key(text) if numbered else re.sub(r"\d+", "#", _heading_key(text))
        groups.setdefault(key, []).append(k)
    repeated = [members for members in groups.values() if len(members) >= 2]

    # A bare number is a page number when the bare numbers around it count up, page by page.
    bare = [k for k in content if lines[k].cell < 0 and BARE_NUMBER_RE.match(lines[k].text)]
    values = [int(lines[k].text) for k in bare]
    pages = {k for i, k in enumerate(bare) if (i > 0 and 1 <= values[i] - values[i - 1] <= 2)
             or (i + 1 < len(bare) and 1 <= values[i + 1] - values[i] <= 2)}

    def page_like(j: int) -> bool:
        return lines[j].junk == "page number" or j in pages

    def near_page_number(k: int) -> bool:
        return any(page_like(j) for j in range(max(0, k - 3), min(len(lines), k + 4)) if j != k)

    furniture = {id(m) for m in repeated if sum(near_page_number(k) for k in m) >= 2}
    marked = {k for m in repeated if id(m) in furniture for k in m}

    def near_furniture(k: int) -> bool:
        n = position[k]
        return any(content[j] in marked for j in (n - 2, n - 1, n + 1, n + 2) if 0 <= j < len(content))

    furniture |= {id(m) for m in repeated if id(m) not in furniture and sum(near_furniture(k) for k in m) >= 2}
    for members in repeated:
        if id(members) not in furniture:
            continue
        head = parse_head(MARKER_ONLY_RE.sub("", lines[members[0]].text), patterns)
        keep_first = head is not None and head.kind in ("dotted", "chapter") and bool(head.rest)
        for k in members[1:] if keep_first else members:
            lines[k].junk = "heading repeated at the top of a page" if keep_first else "header repeated on each page"


# ---------------------------------------------------------------- the numbering scheme


def _infer_scheme(lines: list[Line], patterns: tuple[str, ...], known: set[str]) -> Scheme:
    scheme = Scheme()
    for k in _content(lines):
        if lines[k].cell >= 0 or lines[k].keep:
            continue
        head = parse_head(MARKER_ONLY_RE.sub("", lines[k].text), patterns)
        if head is None:
            continue
        if head.rest and head.rest[0].islower():
            continue
        if head.kind == "dotted":
            scheme.dotted += 1
            scheme.spaced |= head.spaced
            scheme.chapters.add(head.chapter)
            prefix = re.match(r"^[A-Z]+", head.number)
            if prefix:
                name = prefix.group()
                if _is_roman(name) and (len(name) > 1 or name in "IVX") and head.number[len(name):].startswith("."):
                    scheme.roman = True
                else:
                    scheme.prefixes[name] = scheme.prefixes.get(name, False) or head.cyrillic
            if head.letter:
                scheme.clauses += 1
        elif head.zero:
            scheme.zero_chapters = True
    for sid in known:  # the book's own chapters count too (a translation, a second file of the source)
        scheme.chapters.add(sid.split(".", 1)[0])
    return scheme


def _accepts(head: Head, scheme: Scheme, next_chapter: str | None) -> bool:
    """Whether a number at the start of a line begins a heading (or a clause), by the text's scheme.

    A dotted number does, unless the words after it start in small letters (``1.5 дюйма``, ``2.3 и далее``). A bare
    number (``6.``), a prefixed one (``O22``), a Roman numeral or a letter (``XIII.``, ``A.``) begins a chapter only
    where the text has sections under it — or, for a bare number, where the text has no dotted numbers at all, or
    the title is printed in capitals — so the numbered lists inside clauses stay text."""
    rest = head.rest
    if rest and rest[0].islower():
        return False
    if head.kind == "dotted":
        return not head.letter or bool(rest)
    if head.kind == "chapter":
        return not rest or _title_like(_split_title(rest)[0] or rest)
    title = _split_title(rest)[0] if rest else ""
    if rest and not title:
        return False
    if head.kind == "bare":
        if head.zero:
            return True
        if head.number in scheme.chapters:
            return next_chapter is None or next_chapter == head.number or _all_caps(title)
        return not scheme.dotted and bool(title) or (bool(title) and _all_caps(title))
    if head.kind == "roman":
        return head.number in scheme.chapters or (_is_roman(head.number) and bool(title) and not scheme.dotted)
    return head.number in scheme.chapters  # "prefixed" O22, "letter" A.


# ---------------------------------------------------------------- logical lines


def _logical_lines(lines: list[Line], tables: list[Table], scheme: Scheme, result: ImportResult,
                   patterns: tuple[str, ...]) -> list[Item]:
    """Join the lines the paste broke; a table becomes one item; page numbers left alone become junk."""
    content = _content(lines)
    heads = {k: parse_head(MARKER_ONLY_RE.sub("", lines[k].text), patterns) for k in content if lines[k].cell < 0}
    next_chapter: dict[int, str | None] = {}
    upcoming: str | None = None
    for k in reversed(content):
        next_chapter[k] = upcoming
        head = heads.get(k)
        if head and head.kind == "dotted" and _accepts(head, scheme, None):
            upcoming = head.chapter

    def accepted(k: int) -> bool:
        head = heads.get(k)
        return head is not None and not lines[k].keep and _accepts(head, scheme, next_chapter[k])

    items: list[Item] = []
    n = 0
    while n < len(content):
        k = content[n]
        line = lines[k]
        if line.cell >= 0:
            table = tables[line.cell]
            items.append(Item(line.number, "", [], table=table))
            while n < len(content) and lines[content[n]].cell == line.cell:
                n += 1
            continue
        following = content[n + 1] if n + 1 < len(content) else None
        nxt = lines[following] if following is not None and lines[following].cell < 0 else None
        text = line.text
        head = heads.get(k)
        if BARE_NUMBER_RE.match(text) and not line.keep and not line.configured:
            chapter = text.lstrip("0") or "0"
            split = parse_head(f"{chapter}. {nxt.text}", patterns) if nxt is not None and not nxt.keep \
                and not nxt.configured and not heads.get(following) and _title_like(nxt.text) else None
            if split is not None and chapter in scheme.chapters and _accepts(split, scheme, next_chapter[following]):
                items.append(Item(line.number, f"{chapter}. {nxt.text}", line.fixed + nxt.fixed, head=split))
                result.guesses.append(Note(line.number, f"the number {text} on a line of its own and the title on "
                                                        f"line {nxt.number} read as one heading"))
                n += 2
                continue
            line.junk = "page number"
            n += 1
            continue
        item = Item(line.number, text, list(line.fixed), head=head if accepted(k) else None,
                    configured=line.configured, keep=line.keep)
        n += 1
        joinable = nxt is not None and not nxt.keep and not nxt.configured and not heads.get(following)
        if joinable and item.head is not None and not item.head.rest and (item.head.letter or _title_like(nxt.text)):
            # "7.3" (or "3.1a") on a line of its own, its title (or its text) on the next one
            result.guesses.append(Note(line.number, f"the number {text!r} and line {nxt.number} read as one "
                                                    f"{'clause' if item.head.letter else 'heading'}"))
            item.text = f"{text.rstrip()} {nxt.text}"
            item.fixed += nxt.fixed
            item.head = parse_head(MARKER_ONLY_RE.sub("", item.text), patterns)
            n += 1
        elif joinable and item.head is None and not item.configured and LABEL_RE.match(text) and _label_only(text):
            # "ПРИМЕР:" on a line of its own: the example is the next paragraph
            glue = " " if text.rstrip()[-1:] in ":." else ": "
            result.guesses.append(Note(line.number, f"the label {text!r} and line {nxt.number} read as one "
                                                    "paragraph"))
            item.text = text.rstrip() + glue + nxt.text
            item.fixed += nxt.fixed
            n += 1
        # Continuations: a paragraph or heading the paste wrapped mid-sentence, a title split over two lines.
        while n < len(content):
            k2 = content[n]
            cont = lines[k2]
            if item.configured or cont.cell >= 0 or cont.keep or cont.configured or accepted(k2) or not cont.text:
                break
            if BARE_NUMBER_RE.match(cont.text):
                break
            glue = _continuation(item, cont.text)
            if glue is None:
                break
            # "подраз-" + "деление": the hyphen only broke the word; "кто-" + "то": it belongs to it
            item.text = (item.text[:-1] if glue == "" else item.text) + (" " if glue == " " else "") + cont.text
            result.guesses.append(Note(cont.number, f"line {cont.number} continues line {item.line}"
                                                    + (" (a word broken by a hyphen joined)" if glue == "" else "")))
            item.fixed += cont.fixed
            item.last = cont.number
            if item.head is not None:
                item.head = parse_head(MARKER_ONLY_RE.sub("", item.text), patterns)
            n += 1
        items.append(item)
    return items


def _label_only(text: str) -> bool:
    """``ПРИМЕР:``, ``EXAMPLE OF PLAY`` alone on a line: a label waiting for its text on the next line."""
    return len(text) <= 40 and (text.endswith(":") or text.rstrip(".").isupper() or len(text.split()) <= 3) \
        and not TITLE_PREFIX_RE.match(text)


def _continuation(item: Item, text: str) -> str | None:
    """How ``text`` continues ``item``: " " (after a space), "" (a word broken by a hyphen, rejoined without it),
    "-" (a word with a hyphen of its own, rejoined with it), or None (it does not continue it)."""
    if item.table is not None or BULLET_RE.match(text) or LETTERED_RE.match(text) or PAREN_CLAUSE_RE.match(text):
        return None
    if MARKER_ONLY_RE.match(text) or LABEL_RE.match(text):
        return None
    previous = item.text
    heading = item.head is not None
    if not _ends_sentence(previous) and text[0].islower():
        if re.search(r"[^\W\d_]-$", previous):
            return "-" if re.match(r"(?:то|либо|нибудь|таки|ка)\b", text) else ""
        return " "
    if not heading and not _ends_sentence(previous) and text[0].isdigit() and not _title_like(previous) \
            and not re.match(r"\d+[.)]\s", text):  # "1. …", "2) …" begin items of a list, not a wrapped line
        return " "
    title = item.head.rest if heading else previous
    if (heading or _title_like(previous)) and _all_caps(title) and _all_caps(text) and len(text) <= 60 \
            and title.split()[-1].casefold() in DANGLING_WORDS:
        return " "
    return None


def _split_title(rest: str) -> tuple[str, str]:
    if not rest:
        return "", ""
    m = TITLE_PREFIX_RE.match(rest)
    if m and len(m.group("title").split()) <= 6:
        return m.group("title").strip(), m.group("body").strip()
    m = CAPS_TITLE_RE.match(rest)
    if m and len(m.group("title").split()) <= 8 and not LABEL_RE.match(rest):
        return m.group("title").strip(), m.group("body").strip()
    if len(rest) <= 80 and rest[-1] not in ".!?:;…":
        return rest, ""
    return "", rest


# ---------------------------------------------------------------- sections


class _Builder:
    """Turns logical lines into sections: one pass in reading order, every decision reported."""

    def __init__(self, result: ImportResult, config: ImportConfig, lang: str, filename: str, scheme: Scheme,
                 source: list[SectionDoc] | None, existing: dict[str, SectionDoc]):
        self.result, self.config, self.lang, self.scheme = result, config, lang, scheme
        self.page = config.file_options(filename).get("page")
        self.source, self.existing = source, existing
        self.current: SectionDoc | None = None
        self.unnumbered_parent: str | None = None  # where an unnumbered heading goes: under the last numbered one
        self.blocks: dict[str, list[list[str]]] = {}
        self.seen: dict[str, int] = {}  # id -> line of its heading
        self.clauses: dict[tuple[str, str], int] = {}
        self.chapter: str | None = None
        self.unnumbered_rank: dict[str | None, int] = {}
        self.anchored = 0  # headings with a number or named by the configuration

    # -- reporting

    def guess(self, line: int, message: str) -> None:
        self.result.guesses.append(Note(line, message))

    def error(self, line: int, message: str) -> None:
        self.result.errors.append(Note(line, message))

    def record(self, section: SectionDoc, fixed: list[dict]) -> None:
        for erratum in fixed:
            self.result.corrections.append(Correction(section.id, self.lang, erratum["wrong"], erratum["right"],
                                                      erratum.get("note", "")))

    # -- building

    def build(self, items: list[Item]) -> None:
        candidates = [self.unnumbered_candidate(item) for item in items]
        for i, item in enumerate(items):
            if item.table is not None:
                self.add_table(item)
                continue
            text, marker = item.text, False
            m = MARKER_ONLY_RE.match(text)
            if m:
                text, marker = text[m.end():], True
            if item.configured is not None:
                self.configured_heading(item, text, marker)
            elif item.head is not None and self.heading(item, item.head, text, marker):
                pass
            elif candidates[i] and self.current is not None and self.stands_alone(items, candidates, i):
                self.unnumbered_heading(item, text, marker)
            else:
                self.text(item, text, marker)
        self.finish(items)

    def unnumbered_candidate(self, item: Item) -> bool:
        if item.table is not None or item.keep or item.head is not None or item.configured is not None:
            return False
        text = MARKER_ONLY_RE.sub("", item.text)
        return len(text) <= 70 and _title_like(text) and not CAPTION_RE.search(text)

    def stands_alone(self, items: list[Item], candidates: list[bool], i: int) -> bool:
        """An unnumbered heading is a short line followed by text (or by the numbered sections it is the title of),
        not one of a run of short lines (a list without bullets, cells the importer could not read as a table)."""
        if i + 1 >= len(items):
            return False  # a short line at the very end is text (and reported if it ends mid-sentence)
        if candidates[i + 1] or (i > 0 and candidates[i - 1]):
            self.guess(items[i].line, f"{items[i].text!r} kept as text, not as a heading: it is one of a run of "
                                      "short lines, and a heading is followed by its text")
            return False
        return True

    def start(self, section: SectionDoc, fixed: list[dict], marker: bool) -> bool:
        if section.id in self.seen:
            self.error(section.line, f"number {section.id} repeated: its heading is on line {self.seen[section.id]} "
                                     "too")
            return False
        self.seen[section.id] = section.line
        if self.page is not None and "page" not in section.attrs:
            section.attrs["page"] = str(self.page)
        if marker:
            section.flags.add("changed")
        self.result.sections.append(section)
        self.blocks[section.id] = []
        self.current = section
        self.record(section, fixed)
        return True

    def configured_heading(self, item: Item, text: str, marker: bool) -> None:
        configured = item.configured
        head = parse_head(text)
        section_id = configured.get("id") or (head.number if head else None)
        if not section_id:
            self.error(item.line, f"[[heading]] for {text!r} in the import configuration has no id (and the line "
                                  "starts with no number)")
            return
        title, body = (_split_title(head.rest) if head and not configured.get("id") else (text, ""))
        if head and not configured.get("id"):
            title = sentence_case(title)
        named = configured.get("title", {})
        named = named.get(self.lang) if isinstance(named, dict) else named  # a title per language, or one for all
        section = SectionDoc(id=section_id, title=named or title, level=0, line=item.line,
                             parent=configured.get("parent"))
        if configured.get("page") is not None:
            section.attrs["page"] = str(configured["page"])
        if self.start(section, item.fixed, marker):
            self.anchored += 1
            self.unnumbered_parent = section.id if is_numbered(section.id) else section.parent
            if body:
                self.add_block(body)

    def heading(self, item: Item, head: Head, text: str, marker: bool) -> bool:
        """A numbered line: a chapter, a section or a lettered clause. False if it turns out to be text."""
        marker = marker or head.marker
        if head.letter:
            return self.clause(item, head)
        if head.kind == "bare" and self.breaks_chapter_order(head):
            self.guess(item.line, f"{text[:60]!r} read as text (an item of a numbered list), not as chapter "
                                  f"{head.number}: chapter {self.chapter} is already open")
            return False
        if head.zero:
            self.guess(item.line, f"{head.printed} read as chapter {head.number}")
        self.chapter = head.chapter
        title, body = _split_title(head.rest)
        section = SectionDoc(id=head.number, title=sentence_case(title), level=0, line=item.line)
        if self.start(section, item.fixed, marker):
            self.anchored += 1
            self.unnumbered_parent = section.id
            if body:
                self.add_block(body)
        return True

    def breaks_chapter_order(self, head: Head) -> bool:
        if self.chapter is None or not self.chapter.isdigit():
            return False
        return int(head.number) <= int(self.chapter)

    def clause(self, item: Item, head: Head) -> bool:
        base, letter = head.number, head.letter
        if (base, letter) in self.clauses:
            self.error(item.line, f"number {base}{letter} repeated: it is on line {self.clauses[(base, letter)]} too")
            return True
        self.clauses[(base, letter)] = item.line
        if base not in self.blocks:
            self.guess(item.line, f"clause {base}{letter} has no heading {base} before it: section {base} made for "
                                  "it, without a title")
            if not self.start(SectionDoc(id=base, title="", level=0, line=item.line), [], head.marker):
                return True
            self.anchored += 1
            self.chapter = head.chapter
            self.unnumbered_parent = base
        elif self.current is None or self.current.id != base:
            self.guess(item.line, f"clause {base}{letter} comes after section {self.current.id}: placed in {base}")
        target = next(s for s in self.result.sections if s.id == base)
        self.record(target, item.fixed)
        self.blocks[base].append([f"{letter}) {head.rest}"])
        return True

    def unnumbered_heading(self, item: Item, text: str, marker: bool) -> None:
        parent = self.unnumbered_parent
        section_id = self.source_counterpart(parent, item) if self.source is not None else \
            self.slug_for(item, text, parent)
        if section_id is None:
            return
        section = SectionDoc(id=section_id, title=text, level=0, line=item.line, parent=parent)
        self.start(section, item.fixed, marker)

    def slug_for(self, item: Item, text: str, parent: str | None) -> str:
        """A readable id for an unnumbered heading: its slug, made unique by its parent's id where it must be
        (a re-import of the same heading under the same parent keeps its id)."""
        base = slugify(text)
        candidate, n = base, 2
        while candidate in self.seen or candidate in RESERVED_IDS or (candidate in self.existing and (
                self.existing[candidate].parent != parent or self.existing[candidate].title != text)):
            candidate = f"{base}-{slugify(parent)}" if parent and n == 2 else f"{base}-{n}"
            n += 1
        where = f"under {parent}" if parent else "as a new chapter"
        self.guess(item.line, f"unnumbered heading {text!r}: id {candidate!r} {where} (name its id, parent and "
                              "title in the import configuration's [[heading]] if that is wrong)")
        return candidate

    def source_counterpart(self, parent: str | None, item: Item) -> str | None:
        """In a translation: the id of the source's unnumbered heading in the same place (same parent, same rank)."""
        rank = self.unnumbered_rank.get(parent, 0)
        self.unnumbered_rank[parent] = rank + 1
        siblings = [s for s in self.source if s.parent == parent and not is_numbered(s.id) and not s.absent]
        if rank < len(siblings):
            self.guess(item.line, f"unnumbered heading {item.text!r} takes the id {siblings[rank].id!r} of the "
                                  f"source's heading {siblings[rank].title!r} in the same place")
            return siblings[rank].id
        self.error(item.line, f"unnumbered heading {item.text!r} has no counterpart in the source text under "
                              f"{parent or 'the top level'}; name its id in the import configuration's [[heading]]")
        return None

    def text(self, item: Item, text: str, marker: bool) -> None:
        if self.current is None:
            self.result.unplaced.append(Dropped(item.line, "text before the first heading; to keep it, name it as a "
                                                           "heading in the import configuration", item.text))
            return
        self.record(self.current, item.fixed)
        if marker:
            # A change marker before the first paragraph flags the section (6.1 prints it there).
            self.current.flags.add("changed")
        m = PAREN_CLAUSE_RE.match(text)
        if m:
            text = f"{m.group('letter')}) {text[m.end():]}"
        if BULLET_RE.match(text):
            entry = "- " + BULLET_RE.sub("", text, count=1)
            blocks = self.blocks[self.current.id]
            if blocks and blocks[-1][0].startswith("- "):
                blocks[-1].append(entry)
            else:
                blocks.append([entry])
        else:
            self.add_block(text)

    def add_block(self, text: str) -> None:
        self.blocks[self.current.id].append([text])

    def add_table(self, item: Item) -> None:
        if self.current is None:
            self.result.unplaced.append(Dropped(item.line, "a table before the first heading",
                                                " | ".join(item.table.header)))
            return
        self.blocks[self.current.id].append([render_table(item.table.header, item.table.rows)])

    def finish(self, items: list[Item]) -> None:
        for section in self.result.sections:
            section.body = "\n\n".join("\n".join(b) for b in self.blocks[section.id])
        last = items[-1] if items else None
        if last is not None and last.table is None:
            if last.head is not None or last.configured is not None:
                if self.result.sections and not self.result.sections[-1].body:
                    self.result.warnings.append(f"line {last.line}: the text ends with a heading and no text after "
                                                "it; was the paste cut short?")
            elif not _ends_sentence(last.text):
                self.result.warnings.append(f"line {last.last or last.line}: the text ends mid-sentence "
                                            f"({last.text[-40:]!r}); was the paste cut short?")
        if not self.anchored and not self.result.errors:
            self.error(0, "no line starts with a rule number (9.2.1, 3.1a, O22.2, XIII.7.C) and the import "
                          "configuration names no heading: nothing to import (name the headings of a text without "
                          "numbers in its [[heading]] entries)")


# ---------------------------------------------------------------- merging into the corpus


def merge_into(existing: list[SectionDoc], imported: list[SectionDoc], config: ImportConfig, lang: str,
               chapters: list[str], source_index: dict[str, SectionDoc] | None = None) -> tuple[list[SectionDoc], list[str]]:
    """Merge imported sections into a language's existing sections; return them in tree order with levels set.

    Sections with the same id are replaced. Parents the text lacks are created from the configuration's outline
    as ``.absent`` titled nodes. In a translation, ``src`` records the digest of the source section it follows.
    Top-level sections not in ``chapters`` come last, in reading order (the caller adds them to the book).
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
        parents[section.id] = parent
        if section.id not in nodes:
            order.append(section.id)
        nodes[section.id] = section
        while parent is not None and parent not in nodes:
            title = config.outline.get(parent, {}).get(lang, "")
            if not title:
                warnings.append(f"parent {parent!r} of {section.id!r} is not in the text: made without a title "
                                f"(give it one with [outline.{_toml_key(parent)}] {lang} = \"…\" in the import "
                                f"configuration)")
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


def new_chapters(merged: list[SectionDoc], chapters: list[str]) -> list[str]:
    """``chapters`` with the top-level sections of ``merged`` that it lacks: a chapter numbered with digits alone
    goes where its number puts it among the others so numbered, any other after the last, in reading order."""
    out = list(chapters)
    for section in merged:
        if section.level != 1 or section.id in out:
            continue
        position = len(out)
        if section.id.isdigit():
            position = next((i for i, c in enumerate(out) if c.isdigit() and int(c) > int(section.id)), len(out))
        out.insert(position, section.id)
    return out


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f'"{key}"'


def _sibling_key(sid: str, order: list[str]) -> tuple:
    if is_numbered(sid):
        parts = []
        for part in sid.split("."):
            parts.append((0, int(part), "") if part.isdigit() else (1, 0, part))
        return (0, tuple(parts), 0)
    return (1, (), order.index(sid))

