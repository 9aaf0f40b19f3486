"""The whole import of one file into a rulebook's corpus, as ``manage.py importtext`` runs it.

``import_file`` reads the text and the configuration, imports, merges into the book, checks a translation against
its source, records the errata, warns of sections the text no longer has, checks that what would be written loads,
and writes it (or, for a dry run, writes nothing). It reports through an ``Outcome`` and raises ``Refused`` (with
everything that is wrong) when nothing may be written; the command only prints.
"""
from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..corpus import (
    CorpusError,
    SectionDoc,
    is_table,
    number_patterns,
    read_book,
    render_language,
    set_chapters,
    write_text,
)
from . import ImportConfig, decode_text, import_text, merge_into, new_chapters
from .report import ImportResult


class Refused(Exception):
    """The import cannot be made; nothing was written. The message says why, line by line."""


@dataclass
class Outcome:
    out: list[str] = field(default_factory=list)  # the report, for standard output
    warnings: list[str] = field(default_factory=list)  # for standard error
    written: Path | None = None


@dataclass
class Request:
    book_dir: Path
    lang: str
    file: Path
    config: Path | None = None
    hint: str | None = None
    dry_run: bool = False


def import_file(request: Request) -> Outcome:
    outcome = Outcome()
    file = request.file
    text = _read(file)
    cfg = _config(request)
    doc = _book(request.book_dir)
    source = doc.languages.get(doc.source_language) if request.lang != doc.source_language else None
    if request.lang != doc.source_language and not source:
        raise Refused(f"{file}: {request.book_dir.name} is translated from {doc.source_language}; import the "
                      f"{doc.source_language} text first")
    result = import_text(text, request.lang, cfg, file.name, tuple(number_patterns(doc.meta)), source=source,
                         existing=doc.by_id(request.lang))
    report(outcome, file, request.config, result)
    if result.errors:
        raise Refused("\n".join(f"{file}:{e.line}: {e.message}" if e.line else f"{file}: {e.message}"
                                for e in result.errors) + "\nNothing was written.")
    merged, chapters = _merge(request, outcome, doc, cfg, result, source is not None)
    added = [c for c in chapters if c not in doc.chapters]
    tables = sum(1 for s in result.sections for b in s.blocks if is_table(b))
    outcome.out.append(f"{file}: {count(len(result.sections), 'section')}, {count(tables, 'table')}"
                       + (f"; new chapters {', '.join(added)} (added to book.toml)" if added else ""))
    if request.dry_run:
        outcome.out += outline(merged, {s.id for s in result.sections}, added) + rejected(file, result) + \
            glued(file, result)
        outcome.out.append("dry run: nothing was written")
        return outcome
    _write(request, doc, result, merged, chapters, added, source is not None)
    outcome.written = request.book_dir / request.lang
    return outcome


def _merge(request: Request, outcome: Outcome, doc, cfg: ImportConfig, result: ImportResult,
           translation: bool) -> tuple[list[SectionDoc], list[str]]:
    file, lang = request.file, request.lang
    source_index = doc.by_id(doc.source_language) if translation else None
    merged, warnings = merge_into(doc.languages.get(lang, []), result.sections, cfg, lang, doc.chapters, source_index)
    outcome.warnings += [f"{file}: warning: {w}" for w in warnings]
    outcome.warnings += stale(file, doc.languages.get(lang, []), result.sections, request.book_dir / lang)
    if translation:
        outcome.warnings += check_translation(file, merged, result.sections, source_index)
        return merged, doc.chapters
    return merged, new_chapters(merged, doc.chapters)


def _write(request: Request, doc, result: ImportResult, merged: list[SectionDoc], chapters: list[str],
           added: list[str], translation: bool) -> None:
    book_dir = request.book_dir
    files = {book_dir / request.lang / name: body for name, body in render_language(chapters, merged).items()}
    if added:
        files[book_dir / "book.toml"] = set_chapters((book_dir / "book.toml").read_text(encoding="utf-8"), chapters)
    erratum_file = errata(doc, result, doc.sections(doc.source_language) if translation else merged)
    if erratum_file is not None:
        files[book_dir / "errata.toml"] = erratum_file
    validate(book_dir, files)
    for path, body in files.items():
        write_text(path, body)


# ---------------------------------------------------------------- reading


def _read(file: Path) -> str:
    try:
        return decode_text(file.read_bytes(), str(file))
    except FileNotFoundError:
        raise Refused(f"{file}: no such file") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise Refused(f"{file}: cannot be read ({exc.strerror})") from None
    except ValueError as exc:
        raise Refused(f"{exc}; nothing was imported") from None


def _config(request: Request) -> ImportConfig:
    try:
        cfg = ImportConfig.load(request.config)
    except ValueError as exc:
        raise Refused(f"{exc}\nNothing was imported.") from None
    if request.hint is not None:
        cfg.hint = request.hint
    return cfg


def _book(book_dir: Path):
    try:
        return read_book(book_dir, partial=True)
    except CorpusError as exc:
        raise Refused(f"{exc}\nFix the corpus before importing into it.") from None


def keep_hint(path: Path, hint: str) -> None:
    """Write the hint into the import configuration, so a re-import reads the text the same way."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    line = "hint = " + '"' + hint.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if re.search(r"(?m)^hint\s*=.*$", text):
        text = re.sub(r"(?m)^hint\s*=.*$", lambda _: line, text, count=1)
    else:
        text = f"# An example of a heading's label (importtext --hint), kept for re-imports.\n{line}\n\n{text}"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, text)


# ---------------------------------------------------------------- the report


def count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def report(outcome: Outcome, file: Path, cfg_path: Path | None, result: ImportResult) -> None:
    out = outcome.out
    out.append(f"{file}: configuration: {cfg_path or 'none (every guess is the importer’s own)'}")
    if result.scheme:
        out.append(f"{file}: numbering: {'; '.join(result.scheme)}")
    out += [f"{file}:{d.line}: dropped ({d.reason}): {d.text.strip()[:70]}" for d in result.dropped]
    out += [f"{file}:{d.line}: not placed ({d.reason}), not imported: {d.text.strip()[:70]}" for d in result.unplaced]
    out += [f"{file}:{g.line}: guess: {g.message}" for g in result.guesses]
    out += [f"{file}: corrected in {c.section}: {c.wrong} -> {c.right}" for c in result.corrections]
    outcome.warnings += [f"{file}: warning: {w}" for w in result.warnings]


def rejected(file: Path, result: ImportResult) -> list[str]:
    if not result.rejected:
        return ["rejected labels: none"]
    return [f"rejected labels ({len(result.rejected)}):"] + [
        f"  {file}:{r.line}: {r.label}: {r.reason}" for r in result.rejected]


def glued(file: Path, result: ImportResult) -> list[str]:
    """The labels read without a page number a PDF extraction glued to them, if any."""
    if not result.glued:
        return []
    return [f"page numbers glued to labels ({len(result.glued)}):"] + [
        f"  {file}:{g.line}: {g.printed} read as {g.number} (page number {g.page} dropped)" for g in result.glued]


def _notes(s: SectionDoc, imported: set[str], added: list[str]) -> list[str]:
    notes = ["new chapter"] if s.id in added else []
    if s.absent:
        notes.append("not in the text")
    if s.changed:
        notes.append("changed")
    tables = sum(1 for b in s.blocks if is_table(b))
    if len(s.blocks) - tables:
        notes.append(count(len(s.blocks) - tables, "paragraph"))
    if tables:
        notes.append(count(tables, "table"))
    return notes


def outline(merged: list[SectionDoc], imported: set[str], added: list[str]) -> list[str]:
    """The tree this import would write (the chapters it touches, each section with its paragraphs and tables and
    marked where it is new or absent), then the sections per level."""
    chapter, touched = None, set()
    for s in merged:
        chapter = s.id if s.level == 1 else chapter
        if s.id in imported:
            touched.add(chapter)
    lines, levels, chapter = ["outline:"], {}, None
    for s in merged:
        chapter = s.id if s.level == 1 else chapter
        if chapter not in touched:
            continue
        levels[s.level] = levels.get(s.level, 0) + 1
        notes = _notes(s, imported, added)
        lines.append(f"{'  ' * s.level}{s.id}  {s.title or '(untitled)'}" + (f"  [{'; '.join(notes)}]" if notes else ""))
    lines.append("sections per level: " + ", ".join(f"level {level}: {n}" for level, n in sorted(levels.items())))
    return lines


# ---------------------------------------------------------------- checks


def stale(file: Path, existing: list[SectionDoc], imported: list[SectionDoc], lang_dir: Path) -> list[str]:
    """Sections of the chapter files this text fills that the text no longer has: kept (a chapter may come from
    several texts), and said, so a section dropped from the text can be removed by hand."""
    ids = {s.id for s in imported}
    files = {s.file for s in existing if s.id in ids}
    return [f"{file}: warning: section {s.id} ({Path(s.file).name}:{s.line}) is not in this text; it is kept — remove "
            f"it from {lang_dir} if the text dropped it"
            for s in existing if s.id not in ids and not s.absent and s.file in files]


def check_translation(file: Path, merged: list[SectionDoc], imported: list[SectionDoc],
                      source_index: dict[str, SectionDoc]) -> list[str]:
    missing = [s.id for s in merged if s.id not in source_index]
    if missing:
        raise Refused(f"{file}: sections {missing} are not in the source text; import the source first "
                      "(nothing was written)")
    return [f"{file}:{s.line}: warning: section {s.id} has {len(s.blocks)} paragraphs here and "
            f"{len(source_index[s.id].blocks)} in the source; the parallel view and the workspace pair them one to one"
            for s in imported if len(s.blocks) != len(source_index[s.id].blocks)]


def errata(doc, result: ImportResult, source_order: list[SectionDoc]) -> str | None:
    """errata.toml with this import's corrections replacing the ones recorded before for the same typos."""
    from ..loading import render_errata  # the loader needs Django; the rest of this package does not

    if not result.corrections:
        return None
    kept = [e for e in doc.errata if not any(
        e.get("section") == c.section and e.get("lang") == c.lang and e.get("wrong") == c.wrong
        for c in result.corrections)]
    kept += [dict(section=c.section, lang=c.lang, wrong=c.wrong, right=c.right, note=c.note)
             for c in result.corrections]
    return render_errata(kept, order=[s.id for s in source_order])


def validate(book_dir: Path, files: dict[Path, str]) -> None:
    """What would be written must read back as a valid book: tried on a copy first."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / book_dir.name
        shutil.copytree(book_dir, copy)
        for path, body in files.items():
            target = copy / path.relative_to(book_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body, encoding="utf-8")
        try:
            read_book(copy, partial=True)
        except CorpusError as exc:
            raise Refused(f"the imported text would not load: {exc}\nNothing was written.") from None
