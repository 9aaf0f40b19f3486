from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from rulesref.reference.corpus import BOOK_SLUG_RE, LANGUAGES
from rulesref.reference.importing.service import Refused, Request, import_file, keep_hint
from rulesref.reference.loading import corpus_dir


class Command(BaseCommand):
    help = ("Import raw pasted rule text into the corpus files of a rulebook and language. The numbering scheme, "
            "chapters, titles, lists, tables, notes and examples are read from the text itself; every line dropped as "
            "junk, every guess, every label rejected and every line that could not be placed is reported by its line "
            "number. An import configuration (import.toml beside the file, or fixtures/sources/<book>/import.toml) "
            "overrides any guess.")

    def add_arguments(self, parser):
        parser.add_argument("book")
        parser.add_argument("lang", choices=LANGUAGES)
        parser.add_argument("file", type=Path)
        parser.add_argument("--config", type=Path, help="import configuration (default: import.toml beside the "
                            "file, else fixtures/sources/<book>/import.toml)")
        parser.add_argument("--dry-run", action="store_true",
                            help="report, print the outline it would write and the labels it rejected; write nothing")
        parser.add_argument("--hint", help="an example of a heading's label as the text prints it (\"Article 1\", "
                            "\"§ 1\", \"1)\") or the word that introduces headings (\"Параграф\"), where the "
                            "importer guessed wrong; kept in the import configuration for re-imports")

    def handle(self, book, lang, file, config=None, dry_run=False, hint=None, **options):
        if not BOOK_SLUG_RE.match(book):
            raise CommandError(f"{book!r}: not a rulebook slug (small Latin letters, digits and hyphens)")
        book_dir = corpus_dir() / book
        if not (book_dir / "book.toml").exists():
            raise CommandError(f"{book_dir / 'book.toml'}: unknown rulebook {book!r} (create it with "
                               f"`manage.py addbook {book} --source ru|en --title \"…\"`)")
        if hint is not None and (not hint.strip() or "\n" in hint):
            raise CommandError("--hint: one line, an example of a heading's label or the word before it; nothing "
                               "was written")
        cfg_path = self.config_path(config, file, book)
        try:
            outcome = import_file(Request(book_dir, lang, file, cfg_path, hint, dry_run))
        except Refused as exc:
            raise CommandError(str(exc)) from None
        for line in outcome.out:
            self.stdout.write(line)
        for line in outcome.warnings:
            self.stderr.write(line)
        if hint is not None and not dry_run:
            kept = cfg_path or Path(settings.FIXTURES_DIR) / "sources" / book / "import.toml"
            keep_hint(kept, hint)
            self.stdout.write(f"hint {hint!r} kept in {kept}")
        if outcome.written is not None:
            self.stdout.write(self.style.SUCCESS(f"imported into {outcome.written}"))

    def config_path(self, config: Path | None, file: Path, book: str) -> Path | None:
        if config is not None:
            if not config.is_file():
                raise CommandError(f"{config}: no such import configuration")
            return config
        for candidate in (file.parent / "import.toml", Path(settings.FIXTURES_DIR) / "sources" / book / "import.toml"):
            if candidate.is_file():
                return candidate
        return None
