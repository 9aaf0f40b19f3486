import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rulesref.reference.corpus import (
    BOOK_SLUG_RE,
    LANGUAGES,
    CorpusError,
    SectionDoc,
    is_table,
    number_patterns,
    read_book,
    render_language,
    set_chapters,
    write_text,
)
from rulesref.reference.importing import ImportConfig, decode_text, import_text, merge_into, new_chapters
from rulesref.reference.loading import corpus_dir, render_errata


class Command(BaseCommand):
    help = ("Import raw pasted rule text into the corpus files of a rulebook and language. The numbering scheme, "
            "chapters, titles, lists, tables, notes and examples are read from the text itself; every line dropped as "
            "junk, every guess and every line that could not be placed is reported by its line number. An import "
            "configuration (import.toml beside the file, or fixtures/sources/<book>/import.toml) overrides any guess.")

    def add_arguments(self, parser):
        parser.add_argument("book")
        parser.add_argument("lang", choices=LANGUAGES)
        parser.add_argument("file", type=Path)
        parser.add_argument("--config", type=Path, help="import configuration (default: import.toml beside the "
                            "file, else fixtures/sources/<book>/import.toml)")
        parser.add_argument("--dry-run", action="store_true",
                            help="report and print the outline it would write; write nothing")

    def handle(self, book, lang, file, config=None, dry_run=False, **options):
        if not BOOK_SLUG_RE.match(book):
            raise CommandError(f"{book!r}: not a rulebook slug (small Latin letters, digits and hyphens)")
        book_dir = corpus_dir() / book
        if not (book_dir / "book.toml").exists():
            raise CommandError(f"{book_dir / 'book.toml'}: unknown rulebook {book!r} (create it with "
                               f"`manage.py addbook {book} --source ru|en --title \"…\"`)")
        try:
            text = decode_text(file.read_bytes(), str(file))
        except FileNotFoundError:
            raise CommandError(f"{file}: no such file") from None
        except (IsADirectoryError, PermissionError) as exc:
            raise CommandError(f"{file}: cannot be read ({exc.strerror})") from None
        except ValueError as exc:
            raise CommandError(f"{exc}; nothing was imported") from None
        cfg_path = self.config_path(config, file, book)
        try:
            cfg = ImportConfig.load(cfg_path)
        except ValueError as exc:
            raise CommandError(f"{exc}\nNothing was imported.") from None
        try:
            doc = read_book(book_dir, partial=True)
        except CorpusError as exc:
            raise CommandError(f"{exc}\nFix the corpus before importing into it.") from None
        source_lang = doc.source_language
        source = doc.languages.get(source_lang) if lang != source_lang else None
        if lang != source_lang and not source:
            raise CommandError(f"{file}: {book} is translated from {source_lang}; import the {source_lang} text first")
        result = import_text(text, lang, cfg, file.name, tuple(number_patterns(doc.meta)), source=source,
                             existing=doc.by_id(lang))
        self.report(file, cfg_path, result)
        if result.errors:
            raise CommandError("\n".join(f"{file}:{e.line}: {e.message}" if e.line else f"{file}: {e.message}"
                                         for e in result.errors) + "\nNothing was written.")
        source_index = doc.by_id(source_lang) if source is not None else None
        merged, warnings = merge_into(doc.languages.get(lang, []), result.sections, cfg, lang, doc.chapters,
                                      source_index)
        for w in warnings:
            self.stderr.write(f"{file}: warning: {w}")
        self.report_stale(file, doc.languages.get(lang, []), result.sections, book_dir / lang)
        chapters = doc.chapters if source is not None else new_chapters(merged, doc.chapters)
        if source is not None:
            self.check_translation(file, merged, result.sections, source_index)
        added = [c for c in chapters if c not in doc.chapters]
        tables = sum(1 for s in result.sections for b in s.blocks if is_table(b))
        self.stdout.write(f"{file}: {_count(len(result.sections), 'section')}, {_count(tables, 'table')}"
                          + (f"; new chapters {', '.join(added)} (added to book.toml)" if added else ""))
        if dry_run:
            self.outline(merged, {s.id for s in result.sections}, added)
            self.stdout.write("dry run: nothing was written")
            return
        files = {book_dir / lang / name: body for name, body in render_language(chapters, merged).items()}
        if added:
            files[book_dir / "book.toml"] = set_chapters((book_dir / "book.toml").read_text(encoding="utf-8"),
                                                         chapters)
        errata = self.errata(doc, result, merged if source is None else doc.sections(source_lang))
        if errata is not None:
            files[book_dir / "errata.toml"] = errata
        self.validate(book_dir, files)
        for path, body in files.items():
            write_text(path, body)
        self.stdout.write(self.style.SUCCESS(f"imported into {book_dir / lang}"))

    def config_path(self, config: Path | None, file: Path, book: str) -> Path | None:
        if config is not None:
            if not config.is_file():
                raise CommandError(f"{config}: no such import configuration")
            return config
        for candidate in (file.parent / "import.toml", Path(settings.FIXTURES_DIR) / "sources" / book / "import.toml"):
            if candidate.is_file():
                return candidate
        return None

    def report(self, file: Path, cfg_path: Path | None, result) -> None:
        out = self.stdout.write
        out(f"{file}: configuration: {cfg_path or 'none (every guess is the importer’s own)'}")
        if result.scheme:
            out(f"{file}: numbering: {'; '.join(result.scheme)}")
        for d in result.dropped:
            out(f"{file}:{d.line}: dropped ({d.reason}): {d.text.strip()[:70]}")
        for d in result.unplaced:
            out(f"{file}:{d.line}: not placed ({d.reason}), not imported: {d.text.strip()[:70]}")
        for g in result.guesses:
            out(f"{file}:{g.line}: guess: {g.message}")
        for c in result.corrections:
            out(f"{file}: corrected in {c.section}: {c.wrong} -> {c.right}")
        for w in result.warnings:
            self.stderr.write(f"{file}: warning: {w}")

    def report_stale(self, file: Path, existing: list[SectionDoc], imported: list[SectionDoc], lang_dir: Path) -> None:
        """Sections of the chapter files this text fills that the text no longer has: kept (a chapter may come from
        several texts), and said, so a section dropped from the text can be removed by hand."""
        ids = {s.id for s in imported}
        files = {s.file for s in existing if s.id in ids}
        for section in existing:
            if section.id not in ids and not section.absent and section.file in files:
                self.stderr.write(f"{file}: warning: section {section.id} ({Path(section.file).name}:{section.line}) "
                                  f"is not in this text; it is kept — remove it from {lang_dir} if the text dropped "
                                  "it")

    def check_translation(self, file: Path, merged: list[SectionDoc], imported: list[SectionDoc],
                          source_index: dict[str, SectionDoc]) -> None:
        missing = [s.id for s in merged if s.id not in source_index]
        if missing:
            raise CommandError(f"{file}: sections {missing} are not in the source text; import the source first "
                               "(nothing was written)")
        for section in imported:
            original = source_index[section.id]
            if len(section.blocks) != len(original.blocks):
                self.stderr.write(f"{file}:{section.line}: warning: section {section.id} has {len(section.blocks)} "
                                  f"paragraphs here and {len(original.blocks)} in the source; the parallel view and "
                                  "the workspace pair them one to one")

    def errata(self, doc, result, source_order: list[SectionDoc]) -> str | None:
        """errata.toml with this import's corrections replacing the ones recorded before for the same typos."""
        if not result.corrections:
            return None
        errata = [e for e in doc.errata if not any(
            e.get("section") == c.section and e.get("lang") == c.lang and e.get("wrong") == c.wrong
            for c in result.corrections)]
        errata += [dict(section=c.section, lang=c.lang, wrong=c.wrong, right=c.right, note=c.note)
                   for c in result.corrections]
        return render_errata(errata, order=[s.id for s in source_order])

    def validate(self, book_dir: Path, files: dict[Path, str]) -> None:
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
                raise CommandError(f"the imported text would not load: {exc}\nNothing was written.") from None

    def outline(self, merged: list[SectionDoc], imported: set[str], added: list[str]) -> None:
        """The tree this import would write: the chapters it touches, marked where a section is new or absent."""
        touched: set[str] = set()
        chapter = None
        for s in merged:
            if s.level == 1:
                chapter = s.id
            if s.id in imported:
                touched.add(chapter)
        chapter = None
        self.stdout.write("outline:")
        for s in merged:
            if s.level == 1:
                chapter = s.id
            if chapter not in touched:
                continue
            notes = []
            if s.id in added:
                notes.append("new chapter")
            if s.absent:
                notes.append("not in the text")
            if s.changed:
                notes.append("changed")
            tables = sum(1 for b in s.blocks if is_table(b))
            paragraphs = len(s.blocks) - tables
            if paragraphs:
                notes.append(_count(paragraphs, "paragraph"))
            if tables:
                notes.append(_count(tables, "table"))
            title = s.title or "(untitled)"
            self.stdout.write(f"{'  ' * s.level}{s.id}  {title}" + (f"  [{'; '.join(notes)}]" if notes else ""))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
