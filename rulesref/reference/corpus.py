"""The corpus on disk: Markdown files with one heading per section (see docs/corpus-format.md).

Pure Python (no Django), so the importer, the loader and the tests share one reader and one writer.
``read_book`` parses a rulebook's fixture tree and validates it; ``write_language`` writes sections back in the
canonical form, so that reading then writing a canonical file gives the same bytes.
"""
from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from rulesref.text import word_count  # noqa: F401 (the translators' word count, read from here)

from .numbering import CORPUS_CLAUSE_RE, PatternError, compile_patterns, is_numbered, numeric_parent  # noqa: F401

LANGUAGES = ("ru", "en")

# A heading: hashes, a title (may be empty), then the attribute block {#id .flag key=value}.
HEADING_RE = re.compile(r"^(#{1,6})(?: (.*?))? *\{([^{}]*)\}\s*$")
ATTR_RE = re.compile(r"#(?P<id>\S+)|\.(?P<flag>[a-z]+)|(?P<key>[a-z]+)=(?P<value>\S+)")
SLUG_ID_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
BOOK_SLUG_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
CLAUSE_RE = CORPUS_CLAUSE_RE
FLAGS = ("absent", "changed")
KEYS = ("page", "src")
KINDS = ("none", "hex", "tabletop")  # the board a book's scenarios use; "none": no checker
TABLE_DELIMITER_RE = re.compile(r"^\|(?: *:?-{3,}:? *\|)+$")


class CorpusError(ValueError):
    """A fixture file that cannot be loaded: ``path:line: what is wrong``."""

    def __init__(self, path: Path | str, line: int, message: str):
        self.path, self.line, self.message = str(path), line, message
        super().__init__(f"{path}:{line}: {message}")


def toml_line(exc: tomllib.TOMLDecodeError) -> int:
    """The line a TOML error is on (tomllib says it only in its message: "… (at line 3, column 9)")."""
    m = re.search(r"at line (\d+)", str(exc))
    return int(m.group(1)) if m else 0


# URL segments of the rulebook pages (/rules/<book>/errata/, …/changes/, …/faq/, …/rulings/<n>/)
RESERVED_IDS = {"errata", "changes", "faq", "rulings"}


def valid_id(section_id: str) -> bool:
    return section_id not in RESERVED_IDS and (is_numbered(section_id) or bool(SLUG_ID_RE.match(section_id)))


def split_blocks(body: str) -> list[str]:
    return [b for b in body.split("\n\n") if b.strip()] if body else []


# ---------------------------------------------------------------- tables


def escape_cell(text: str) -> str:
    """A table cell's text as written between bars: ``\\`` and ``|`` escaped with a backslash."""
    return text.replace("\\", "\\\\").replace("|", "\\|")


def _split_row(line: str) -> tuple[list[str], bool]:
    """The cells of one ``| a | b |`` line, unescaped, and whether the line is closed by an unescaped bar."""
    cells, current, escaped, closed = [], [], False, False
    for ch in line.strip()[1:]:
        closed = False
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "|":
            cells.append("".join(current).strip())
            current, closed = [], True
        else:
            current.append(ch)
    return cells, closed


def is_table(block: str) -> bool:
    """A table block: a ``| … |`` header row, then a ``| --- |`` delimiter row (see docs/corpus-format.md)."""
    lines = block.split("\n")
    return len(lines) >= 2 and lines[0].startswith("|") and bool(TABLE_DELIMITER_RE.match(lines[1].strip()))


def table_problem(block: str) -> tuple[int, str] | None:
    """(line within the block, what is wrong) for a malformed table block, else None."""
    lines = block.split("\n")
    header, closed = _split_row(lines[0])
    if not closed:
        return 0, "a table row starts and ends with '|'"
    columns = lines[1].count("|") - 1
    if columns != len(header):
        return 1, f"the delimiter row has {columns} columns, the header {len(header)}"
    for n, line in enumerate(lines[2:], start=2):
        cells, closed = _split_row(line)
        if not line.startswith("|") or not closed:
            return n, "a table row starts and ends with '|'"
        if len(cells) != len(header):
            return n, f"a table row has {len(cells)} cells, the header {len(header)}"
    return None


def parse_table(block: str) -> tuple[list[str], list[list[str]]] | None:
    """(header cells, rows of cells) of a table block, unescaped; None if the block is not a table."""
    if not is_table(block) or table_problem(block):
        return None
    lines = block.split("\n")
    return _split_row(lines[0])[0], [_split_row(line)[0] for line in lines[2:]]


def render_table(header: list[str], rows: list[list[str]]) -> str:
    """The canonical text of a table block."""
    def row(cells: list[str]) -> str:
        return "| " + " | ".join(escape_cell(c) for c in cells) + " |"

    return "\n".join([row(header), "|" + " --- |" * len(header), *(row(r) for r in rows)])


def clause_label(block: str) -> str | None:
    """The letter of a lettered clause (``c) …`` -> ``c``), else None."""
    m = CLAUSE_RE.match(block)
    return m.group(1) if m else None


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def source_revision(title: str, body: str) -> str:
    """The revision id of a source section's text: translations record the one they were made from (``src=``),
    and a translation whose recorded revision differs from the current one is outdated."""
    return digest(title + "\n" + body)




@dataclass
class SectionDoc:
    """One section as written in one language's file."""

    id: str
    title: str
    level: int
    body: str = ""
    flags: set[str] = field(default_factory=set)
    attrs: dict[str, str] = field(default_factory=dict)
    parent: str | None = None
    file: str = ""
    line: int = 0

    @property
    def blocks(self) -> list[str]:
        return split_blocks(self.body)

    @property
    def absent(self) -> bool:
        return "absent" in self.flags

    @property
    def changed(self) -> bool:
        return "changed" in self.flags

    @property
    def page(self) -> int | None:
        return int(self.attrs["page"]) if "page" in self.attrs else None

    def heading(self) -> str:
        parts = [f"#{self.id}"] + [f".{f}" for f in FLAGS if f in self.flags]
        parts += [f"{k}={self.attrs[k]}" for k in KEYS if k in self.attrs]
        title = f" {self.title}" if self.title else ""
        return f"{'#' * self.level}{title} {{{' '.join(parts)}}}"


@dataclass
class BookDoc:
    slug: str
    source_language: str
    chapters: list[str]
    title: dict[str, str]
    description: dict[str, str]
    meta: dict
    languages: dict[str, list[SectionDoc]]
    errata: list[dict]
    digest: str

    def sections(self, lang: str | None = None) -> list[SectionDoc]:
        return self.languages.get(lang or self.source_language, [])

    def by_id(self, lang: str) -> dict[str, SectionDoc]:
        return {s.id: s for s in self.languages.get(lang, [])}


def parse_file(path: Path, text: str | None = None) -> list[SectionDoc]:
    """Sections of one Markdown file, in order, with their structural parents (within the file)."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    outline = _Outline(path)
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("#"):
            outline.heading(number, line)
        else:
            outline.text(number, line)
    outline.close_body()
    for section in outline.sections:
        if section.absent and section.body:
            raise CorpusError(path, section.line, f"section {section.id!r} is marked .absent but has text")
    return outline.sections


class _Outline:
    """One file's sections as its lines are read: the sections so far, the open headings above the current line,
    and the current section's body lines."""

    def __init__(self, path: Path):
        self.path = path
        self.sections: list[SectionDoc] = []
        self.stack: list[SectionDoc] = []
        self.body_lines: list[str] = []

    def close_body(self) -> None:
        if self.sections:
            self.sections[-1].body = "\n".join(self.body_lines).strip("\n")
            _check_tables(self.path, self.sections[-1].line + 1, self.body_lines)
        self.body_lines.clear()

    def heading(self, number: int, line: str) -> None:
        m = HEADING_RE.match(line)
        if not m:
            raise CorpusError(self.path, number, f"malformed heading {line[:60]!r}: expected '## Title {{#id}}'")
        self.close_body()
        level, title, attr_text = len(m.group(1)), (m.group(2) or "").strip(), m.group(3)
        section = _section_from_heading(self.path, number, level, title, attr_text)
        section.parent = self._parent(number, level, section.id)
        self.sections.append(section)
        self.stack.append(section)

    def _parent(self, number: int, level: int, sid: str) -> str | None:
        """The heading a new one of ``level`` sits under: the nearest open heading one level up (none for level 1)."""
        while self.stack and self.stack[-1].level >= level:
            self.stack.pop()
        if self.stack and self.stack[-1].level != level - 1 or not self.stack and level != 1:
            raise CorpusError(self.path, number, f"unknown parent: heading level {level} of {sid!r} "
                              f"does not follow a level {level - 1} heading")
        return self.stack[-1].id if self.stack else None

    def text(self, number: int, line: str) -> None:
        if not self.sections and line.strip():
            raise CorpusError(self.path, number, "text before the first heading")
        self.body_lines.append(line)


def _check_tables(path: Path, first_line: int, body_lines: list[str]) -> None:
    """Every table block of a section body is well formed (a CorpusError names the line that is not)."""
    start = 0
    for i, line in enumerate([*body_lines, ""]):
        if line.strip():
            continue
        block = "\n".join(body_lines[start:i])
        if block and is_table(block):
            problem = table_problem(block)
            if problem:
                raise CorpusError(path, first_line + start + problem[0], f"malformed table: {problem[1]}")
        start = i + 1


def _section_from_heading(path: Path, number: int, level: int, title: str, attr_text: str) -> SectionDoc:
    section_id, flags, attrs = None, set(), {}
    position = 0
    for m in ATTR_RE.finditer(attr_text):
        if attr_text[position:m.start()].strip():
            break
        position = m.end()
        if m.group("id"):
            if section_id is not None:
                raise CorpusError(path, number, "two ids in one heading")
            section_id = m.group("id")
        elif m.group("flag"):
            if m.group("flag") not in FLAGS:
                raise CorpusError(path, number, f"unknown flag .{m.group('flag')} (known: {', '.join(FLAGS)})")
            flags.add(m.group("flag"))
        else:
            key, value = m.group("key"), m.group("value")
            if key not in KEYS:
                raise CorpusError(path, number, f"unknown key {key}= (known: {', '.join(KEYS)})")
            if key == "page" and not value.isdigit():
                raise CorpusError(path, number, f"page={value} is not a page number")
            attrs[key] = value
    if attr_text[position:].strip():
        raise CorpusError(path, number, f"malformed attributes {{{attr_text}}}")
    if section_id is None:
        raise CorpusError(path, number, "heading without an id: add {#id}")
    if not valid_id(section_id):
        raise CorpusError(path, number, f"malformed id {section_id!r}: a rule number (9.3.1, XIII.7.C, O22.3) "
                          "or a slug")
    return SectionDoc(id=section_id, title=title, level=level, flags=flags, attrs=attrs,
                      file=str(path), line=number)


def read_book(book_dir: Path, partial: bool = False) -> BookDoc:
    """Read and validate one rulebook: book.toml, every language's chapter files, errata.toml.

    ``partial`` accepts a book still being imported: missing language directories and chapter files.
    """
    meta_path = book_dir / "book.toml"
    meta = _read_meta(meta_path, book_dir.name)
    source = meta["source_language"]
    hasher = hashlib.sha256(meta_path.read_bytes())
    languages: dict[str, list[SectionDoc]] = {}
    for lang in LANGUAGES:
        sections = _read_language(book_dir / lang, meta, lang == source and not partial, hasher)
        if sections is not None:
            languages[lang] = sections
    _validate(languages, source)
    errata = _read_errata(book_dir / "errata.toml", hasher)
    return BookDoc(slug=meta["slug"], source_language=source, chapters=list(meta["chapters"]),
                   title=meta["title"], description=meta.get("description", {}), meta=meta,
                   languages=languages, errata=errata, digest=hasher.hexdigest()[:16])


def _read_meta(meta_path: Path, folder: str) -> dict:
    try:
        meta = tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CorpusError(meta_path, 0, "missing book.toml") from None
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(meta_path, toml_line(exc), f"invalid TOML: {exc}") from None
    _validate_meta(meta_path, meta, folder)
    return meta


def _read_language(lang_dir: Path, meta: dict, required: bool, hasher) -> list[SectionDoc] | None:
    """One language's sections, chapter file by chapter file in book.toml's order (None: no directory for it).
    ``required`` (the source language of a finished book): its directory and every chapter file must exist."""
    if not lang_dir.is_dir():
        if required and meta["chapters"]:
            raise CorpusError(lang_dir, 0, "missing the source language directory")
        return None
    known = {f"{c}.md" for c in meta["chapters"]}
    for extra in sorted(p.name for p in lang_dir.glob("*.md")):
        if extra not in known:
            raise CorpusError(lang_dir / extra, 0, "file not listed in book.toml chapters")
    sections: list[SectionDoc] = []
    for chapter in meta["chapters"]:
        path = lang_dir / f"{chapter}.md"
        if path.exists():
            sections.extend(_read_chapter(path, chapter, hasher))
        elif required:
            raise CorpusError(path, 0, f"missing chapter file for {chapter!r}")
    return sections


def _read_chapter(path: Path, chapter: str, hasher) -> list[SectionDoc]:
    raw = path.read_bytes()
    hasher.update(path.name.encode() + raw)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(path, raw[: exc.start].count(b"\n") + 1, "not UTF-8 text") from None
    file_sections = parse_file(path, text)
    if not file_sections or file_sections[0].id != chapter or file_sections[0].level != 1:
        raise CorpusError(path, 1, f"a chapter file starts with '# Title {{#{chapter}}}'")
    return file_sections


def _read_errata(errata_path: Path, hasher) -> list[dict]:
    if not errata_path.exists():
        return []
    hasher.update(errata_path.read_bytes())
    try:
        return tomllib.loads(errata_path.read_text(encoding="utf-8")).get("erratum", [])
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(errata_path, toml_line(exc), f"invalid TOML: {exc}") from None


def _validate_meta(path: Path, meta: dict, folder: str) -> None:
    """book.toml has what loading needs, each value of the right kind (see docs/corpus-format.md)."""
    for key in ("slug", "source_language", "chapters", "title"):
        if key not in meta:
            raise CorpusError(path, 0, f"missing key {key!r}")
    if meta["slug"] != folder:
        raise CorpusError(path, 0, f"slug {meta['slug']!r} is not the folder's name {folder!r}")
    if meta["source_language"] not in LANGUAGES:
        raise CorpusError(path, 0, f"source_language {meta['source_language']!r}: one of {', '.join(LANGUAGES)}")
    if meta.get("kind", "none") not in KINDS:
        raise CorpusError(path, 0, f"kind {meta.get('kind')!r}: one of {', '.join(KINDS)}")
    _validate_chapters(path, meta["chapters"])
    title = meta["title"]
    if not isinstance(title, dict) or not isinstance(title.get(meta["source_language"]), str):
        raise CorpusError(path, 0, f"title: a table with the title in the source language, "
                          f"[title] {meta['source_language']} = \"…\"")
    _validate_numbering(path, meta.get("numbering", {}))


def _validate_chapters(path: Path, chapters) -> None:
    if not isinstance(chapters, list) or not all(isinstance(c, str) and valid_id(c) for c in chapters):
        raise CorpusError(path, 0, "chapters: a list of section ids (\"5\", \"XIII\", \"charge-phase\")")
    if len(set(chapters)) != len(chapters):
        raise CorpusError(path, 0, "chapters: an id is listed twice")


def _validate_numbering(path: Path, numbering) -> None:
    if not isinstance(numbering, dict) or not isinstance(numbering.get("patterns", []), list):
        raise CorpusError(path, 0, "numbering: a table with patterns = [\"regular expression\", …]")
    try:
        compile_patterns(tuple(numbering.get("patterns", [])))
    except PatternError as exc:
        raise CorpusError(path, 0, f"numbering.patterns: {exc}") from None


def number_patterns(meta: dict) -> list[str]:
    """The book's own ways of printing a rule number (``[numbering] patterns`` in book.toml)."""
    return list(meta.get("numbering", {}).get("patterns", []))


def set_chapters(meta_text: str, chapters: list[str]) -> str:
    """book.toml's text with its ``chapters`` list replaced, everything else kept byte for byte."""
    line = f"chapters = {json.dumps(chapters, ensure_ascii=False)}"
    text, count = re.subn(r"^chapters\s*=\s*\[[^\]]*\]", lambda _m: line, meta_text, count=1, flags=re.M)
    if not count:
        raise ValueError("book.toml has no 'chapters = [...]' line")
    return text


def book_toml(slug: str, source: str, titles: dict[str, str], kind: str, position: int) -> str:
    """The book.toml that ``addbook`` writes for a new rulebook."""
    lines = [f"slug = {json.dumps(slug)}", f"source_language = {json.dumps(source)}", f"position = {position}",
             "chapters = []", f"kind = {json.dumps(kind)}", "", "[title]"]
    lines += [f"{lang} = {json.dumps(titles[lang], ensure_ascii=False)}" for lang in LANGUAGES if titles.get(lang)]
    lines += ["", "# Ways this book prints a rule number that the importer, the references and search do not know:",
              "# regular expressions with a group (?P<num>…) holding the number (see docs/corpus-format.md).",
              "[numbering]", "patterns = []", ""]
    return "\n".join(lines)


def _validate(languages: dict[str, list[SectionDoc]], source: str) -> None:
    source_index: dict[str, SectionDoc] = {}
    for lang, sections in languages.items():
        seen: dict[str, SectionDoc] = {}
        for s in sections:
            if s.id in seen:
                first = seen[s.id]
                raise CorpusError(s.file, s.line, f"duplicate id {s.id!r} (first at {first.file}:{first.line})")
            seen[s.id] = s
            expected = numeric_parent(s.id)
            if expected is not None and s.parent != expected and is_numbered(s.parent or ""):
                raise CorpusError(s.file, s.line, f"unknown parent: {s.id!r} sits under {s.parent!r}, "
                                  f"its number says {expected!r}")
        if lang == source:
            source_index = seen
    for lang, sections in languages.items():
        if lang == source:
            continue
        for s in sections:
            original = source_index.get(s.id)
            if original is None:
                raise CorpusError(s.file, s.line, f"section {s.id!r} is not in the source ({source}) text")
            if original.parent != s.parent:
                raise CorpusError(s.file, s.line, f"section {s.id!r} sits under {s.parent!r} here but under "
                                  f"{original.parent!r} in the source")


def render_file(sections: list[SectionDoc]) -> str:
    """The canonical text of one chapter file."""
    out: list[str] = []
    for s in sections:
        out.append(s.heading())
        out.append("")
        if s.body:
            out.append(s.body)
            out.append("")
    return "\n".join(out)


def render_language(chapters: list[str], sections: list[SectionDoc]) -> dict[str, str]:
    """One language's sections as chapter files: file name -> canonical text (a file per top-level section)."""
    by_chapter: dict[str, list[SectionDoc]] = {}
    current = None
    for s in sections:
        if s.level == 1:
            current = s.id
        by_chapter.setdefault(current, []).append(s)
    return {f"{chapter}.md": render_file(by_chapter[chapter]) for chapter in chapters if chapter in by_chapter}


def write_text(path: Path, text: str) -> None:
    """Write a fixture file whole or not at all (a temporary file renamed over it), only if it changed."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_language(book_dir: Path, lang: str, chapters: list[str], sections: list[SectionDoc]) -> list[Path]:
    """Write one language's sections into its chapter files (a file per top-level section); return the paths."""
    written = []
    for name, text in render_language(chapters, sections).items():
        path = book_dir / lang / name
        write_text(path, text)
        written.append(path)
    return written
