from django.core.management.base import BaseCommand

from ... import qa
from ...models import QAResult
from ._common import book_and_language


class Command(BaseCommand):
    help = ("Run the translation QA checks on a rulebook and print `section: check: message` lines. Exits 1 when "
            "there are errors (dismissed problems are not counted; --warnings-as-errors counts warnings too).")

    def add_arguments(self, parser):
        parser.add_argument("book", help="rulebook slug (mpbs, t9a)")
        parser.add_argument("--lang", help="target language (default: the book's translation language)")
        parser.add_argument("--check", action="append", default=[], help="only this check id (repeatable)")
        parser.add_argument("--errors-only", action="store_true", help="print errors only")
        parser.add_argument("--show-dismissed", action="store_true", help="print dismissed problems too")
        parser.add_argument("--warnings-as-errors", action="store_true", help="exit 1 on warnings too")

    def handle(self, *args, book, lang=None, check=(), errors_only=False, show_dismissed=False,
               warnings_as_errors=False, **options):
        book_obj, lang = book_and_language(book, lang)
        items = qa.bring_up_to_date(book_obj, lang)
        results: dict[int, list[QAResult]] = {}
        for result in QAResult.objects.filter(translation__section__book=book_obj, translation__language=lang):
            results.setdefault(result.translation_id, []).append(result)
        counts = {"error": 0, "warning": 0, "dismissed": 0}
        for item in items:
            for result in results.get(item.translation.pk, []):
                if check and result.check_id not in check:
                    continue
                if self._count(result, counts, show_dismissed, errors_only):
                    self.stdout.write(f"{item.section.sid}: {self._line(result)}")
        summary = (f"{book_obj.slug} ({book_obj.source_language} → {lang}): {counts['error']} errors, "
                   f"{counts['warning']} warnings, {counts['dismissed']} dismissed, {len(items)} sections")
        self.stderr.write(summary)
        failing = counts["error"] + (counts["warning"] if warnings_as_errors else 0)
        if failing:
            raise SystemExit(1)

    @staticmethod
    def _count(result: QAResult, counts: dict[str, int], show_dismissed: bool, errors_only: bool) -> bool:
        """Count the problem; whether it is printed."""
        if result.dismissed:
            counts["dismissed"] += 1
            if not show_dismissed:
                return False
        elif result.severity in counts:
            counts[result.severity] += 1
        return not errors_only or result.severity == "error"

    @staticmethod
    def _line(result: QAResult) -> str:
        where = "title: " if result.paragraph == 0 else f"paragraph {result.paragraph}: " if result.paragraph else ""
        tags = [result.severity] + (["dismissed"] if result.dismissed else [])
        return f"{result.check_id}: {where}{result.text()} [{', '.join(tags)}]"
