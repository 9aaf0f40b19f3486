from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rulesref.reference.corpus import CorpusError, LANGUAGES, parse_file, read_book, write_language
from rulesref.reference.importer import ImportConfig, import_text, merge_into
from rulesref.reference.loading import corpus_dir, write_errata


class Command(BaseCommand):
    help = ("Import raw pasted rule text (like fixtures/sources/*) into the corpus files of a rulebook and language: "
            "headings, paragraphs, lists and change markers kept; typos from the import configuration corrected; "
            "junk dropped and listed.")

    def add_arguments(self, parser):
        parser.add_argument("book")
        parser.add_argument("lang", choices=LANGUAGES)
        parser.add_argument("file", type=Path)
        parser.add_argument("--config", type=Path, help="import configuration (default: import.toml beside the file)")
        parser.add_argument("--dry-run", action="store_true", help="report what would be imported; write nothing")

    def handle(self, book, lang, file, config=None, dry_run=False, **options):
        book_dir = corpus_dir() / book
        if not (book_dir / "book.toml").exists():
            raise CommandError(f"{book_dir / 'book.toml'}: unknown rulebook {book!r} (create its book.toml first)")
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise CommandError(f"{file}: no such file") from None
        except UnicodeDecodeError:
            raise CommandError(f"{file}: not UTF-8 text") from None
        cfg = ImportConfig.load(config or file.parent / "import.toml")
        try:
            doc = read_book(book_dir, partial=True)
        except CorpusError as exc:
            raise CommandError(f"{exc}\nFix the corpus before importing into it.") from None
        result = import_text(text, lang, cfg, file.name)
        if not result.sections:
            raise CommandError(f"{file}: no heading found; nothing to import")
        for d in result.dropped:
            self.stdout.write(f"{file}:{d.line}: dropped ({d.reason}): {d.text.strip()[:70]}")
        for c in result.corrections:
            self.stdout.write(f"{file}: corrected in {c.section}: {c.wrong} -> {c.right}")
        source_index = doc.by_id(doc.source_language) if lang != doc.source_language else None
        merged, warnings = merge_into(doc.languages.get(lang, []), result.sections, cfg, lang, doc.chapters,
                                      source_index)
        for w in result.warnings + warnings:
            self.stderr.write(f"{file}: warning: {w}")
        roots = [s.id for s in merged if s.level == 1 and s.id not in doc.chapters]
        if roots:
            raise CommandError(f"{book_dir / 'book.toml'}: add the chapters {roots} to 'chapters' first")
        if lang != doc.source_language:
            missing = [s.id for s in merged if s.id not in source_index]
            if missing:
                raise CommandError(f"{file}: sections {missing} are not in the source text; import the source first")
        self.stdout.write(f"{file}: {len(result.sections)} sections")
        if dry_run:
            return
        for path in write_language(book_dir, lang, doc.chapters, merged):
            parse_file(path)  # what was written must read back
        errata = [e for e in doc.errata if not any(
            e.get("section") == c.section and e.get("lang") == c.lang and e.get("wrong") == c.wrong
            for c in result.corrections)]
        errata += [dict(section=c.section, lang=c.lang, wrong=c.wrong, right=c.right, note=c.note)
                   for c in result.corrections]
        if errata:
            source = merged if lang == doc.source_language else doc.sections(doc.source_language)
            write_errata(book_dir, errata, order=[s.id for s in source])
        self.stdout.write(self.style.SUCCESS(f"imported into {book_dir / lang}"))
