"""The import and export commands for PO and XLIFF (one implementation, two formats)."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...exchange import export_units
from ...exchange.formats import run_import, translation_format
from ...exchange.units import ExchangeError
from ...models import Status
from ._common import acting_user, book_and_language, write_output


class ExportCommand(BaseCommand):
    fmt = "po"  # the registry's name of the format written (exchange/formats.py)
    versions: dict[str, str] = {}  # --xliff-version's choices: version -> the registry's name of the format

    def add_arguments(self, parser):
        parser.add_argument("book", help="rulebook slug (mpbs, t9a)")
        parser.add_argument("lang", help="target language (en)")
        parser.add_argument("file", help="file to write ('-' for standard output)")
        if self.versions:
            parser.add_argument("--xliff-version", choices=list(self.versions), default=next(iter(self.versions)),
                                help="XLIFF 2.0 (default) or 1.2, for CAT tools that read only 1.2")

    def handle(self, *args, book, lang, file, xliff_version=None, **options):
        book_obj, lang = book_and_language(book, lang)
        exchange_format = translation_format(self.versions.get(xliff_version, self.fmt))
        units = export_units(book_obj, lang)
        data = exchange_format.write(book_obj, lang, units)
        if not write_output(file, data):
            return
        outdated = sum(1 for u in units if u.fuzzy)
        missing = sum(1 for u in units if not u.unit.target)
        self.stdout.write(f"{file}: {len(units)} units ({missing} untranslated, {outdated} outdated)")


class ImportCommand(BaseCommand):
    fmt = "po"

    def add_arguments(self, parser):
        parser.add_argument("book", help="rulebook slug (mpbs, t9a)")
        parser.add_argument("lang", help="target language (en)")
        parser.add_argument("file", help="the file to import")
        parser.add_argument("--partial", action="store_true",
                            help="import the clean entries even when others have problems")
        parser.add_argument("--status", choices=[Status.DRAFT, Status.REVIEW, Status.APPROVED], default=Status.REVIEW,
                            help="status of imported translations (fuzzy/initial entries become drafts; default: review)")
        parser.add_argument("--user", help="record the revisions as made by this user")
        parser.add_argument("--dry-run", action="store_true", help="validate and report only")

    def handle(self, *args, book, lang, file, partial=False, status=Status.REVIEW, user=None, dry_run=False, **opts):
        book_obj, lang = book_and_language(book, lang)
        author = acting_user(user)
        try:
            data = Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"{file}: cannot read: {exc.strerror}") from None
        try:
            if dry_run:
                plan = translation_format(self.fmt).plan(book_obj, lang, data)
            else:
                plan = run_import(book_obj, lang, data, Path(file).name, fmt=self.fmt, user=author, status=status,
                                  partial=partial)
        except ExchangeError as exc:
            raise CommandError(f"{file}: {exc}\nNothing was imported.") from None
        for problem in plan.problems:
            self.stderr.write(f"{file}: {problem}")
        for revision in plan.applied:
            self.stdout.write(f"{revision.translation.section.sid}: revision {revision.number} "
                              f"({revision.status}): {revision.comment}")
        summary = (f"{file}: {plan.total} entries, {plan.unchanged} unchanged, {len(plan.changes)} sections to change, "
                   f"{len(plan.problems)} problems")
        if dry_run:
            self.stdout.write(summary + " (dry run: nothing written)")
        elif plan.problems and not plan.written:
            raise CommandError(summary + ("; nothing was imported (use --partial to import the clean entries)"
                                          if not partial else "; nothing was imported"))
        else:
            self.stdout.write(summary + f"; {len(plan.applied)} revisions written")
            if plan.problems:
                raise SystemExit(1)
