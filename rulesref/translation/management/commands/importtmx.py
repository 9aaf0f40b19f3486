from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...exchange.tmx import import_tmx, read_tmx
from ...exchange.units import ExchangeError
from ._common import book_and_language


class Command(BaseCommand):
    help = ("Import a TMX file (1.1-1.4, from rulesref or a CAT tool such as OmegaT, memoQ or Trados) into a "
            "rulebook's translation memory: every unit with a variant in the book's source and target languages. "
            "Nothing is imported unless every such unit is clean (or --partial).")

    def add_arguments(self, parser):
        parser.add_argument("book", help="rulebook slug (mpbs, t9a)")
        parser.add_argument("file", help="the TMX file")
        parser.add_argument("--partial", action="store_true", help="import the clean units even when others are broken")
        parser.add_argument("--dry-run", action="store_true", help="read and report only")

    def handle(self, *args, book, file, partial=False, dry_run=False, **options):
        book_obj, lang = book_and_language(book, None)
        try:
            data = Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read: {exc.strerror}") from None
        try:
            plan = read_tmx(data, book_obj, lang, Path(file).name)
        except ExchangeError as exc:
            raise CommandError(f"{file}: {exc}\nNothing was imported.") from None
        for problem in plan.problems:
            self.stderr.write(f"{file}: {problem}")
        summary = (f"{file}: {len(plan.units)} units, {len(plan.pairs)} {book_obj.source_language} → {lang}, "
                   f"{plan.other_languages} in other languages, {len(plan.problems)} problems")
        if plan.with_codes:
            summary += f", {plan.with_codes} with inline codes (dropped: the memory keeps plain text)"
        if dry_run:
            self.stdout.write(summary + " (dry run: nothing written)")
            return
        import_tmx(plan, partial=partial)
        if not plan.written:
            raise CommandError(summary + "; nothing was imported (use --partial to import the clean units)")
        self.stdout.write(summary + f"; {plan.created} new memory entries, {plan.known} already there")
        if plan.problems:
            raise SystemExit(1)
