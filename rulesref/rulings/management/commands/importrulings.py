"""manage.py importrulings BOOK FILE: rulings from a text file of questions and answers (rulings/importing.py)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rulesref.reference.models import Book
from rulesref.translation.models import Status

from ... import importing


class Command(BaseCommand):
    help = ("Import rulings from a text file of questions and answers with their clause numbers (docs/rulings.md). "
            "Every record is checked first; a file with any problem imports nothing. Questions the rulebook already "
            "has a ruling for are skipped.")

    def add_arguments(self, parser):
        parser.add_argument("book")
        parser.add_argument("file", type=Path)
        parser.add_argument("--publish", action="store_true", help="publish them at once (else they are drafts)")
        parser.add_argument("--language", choices=["ru", "en"],
                            help="the language of records that do not say (default: the rulebook's source language)")
        parser.add_argument("--dry-run", action="store_true", help="check the file and say what it holds; write nothing")

    def handle(self, *args, book, file, publish=False, language=None, dry_run=False, **options):
        book_obj = Book.objects.filter(slug=book).first()
        if book_obj is None:
            raise CommandError(f"no rulebook {book!r}")
        try:
            text = file.read_bytes()[:importing.MAX_BYTES + 1].decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{file}: {exc}") from None
        if len(text.encode()) > importing.MAX_BYTES:
            raise CommandError(f"{file}: over {importing.MAX_BYTES} bytes")
        plan = importing.plan(book_obj, text, language)
        for record, number in plan.skipped:
            self.stdout.write(f"{file}:{record.line}: skipped, ruling {number} already answers it")
        if not plan.clean:
            raise CommandError("\n".join(f"{file}:{p.line}: {p.message}" for p in plan.problems) +
                               "\nnothing was imported")
        if dry_run:
            self.stdout.write(f"{len(plan.wanted)} rulings would be imported (dry run: nothing written)")
            return
        importing.apply(plan, user=None, status=Status.APPROVED if publish else Status.DRAFT)
        numbers = ", ".join(str(r.number) for r in plan.made)
        self.stdout.write(f"{len(plan.made)} rulings imported" + (f": {numbers}" if numbers else ""))
