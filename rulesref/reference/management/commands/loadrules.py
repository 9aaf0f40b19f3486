from django.core.management.base import BaseCommand, CommandError

from rulesref.reference.corpus import CorpusError
from rulesref.reference.loading import load_corpus


class Command(BaseCommand):
    help = "Load the rules corpus from fixtures/corpus/ into the database (one transaction; unchanged books are skipped)."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="reload books whose fixture files did not change")

    def handle(self, *args, force=False, **options):
        try:
            report = load_corpus(force=force)
        except CorpusError as exc:
            raise CommandError(f"{exc}\nNothing was loaded; the database is as it was.") from None
        for slug in report.loaded:
            self.stdout.write(f"{slug}: loaded {report.counts[slug]} sections")
        for slug in report.unchanged:
            self.stdout.write(f"{slug}: unchanged")
