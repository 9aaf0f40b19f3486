from django.core.management.base import BaseCommand

from rulesref.reference.loading import dump_corpus


class Command(BaseCommand):
    help = "Write the rules corpus from the database back to fixtures/corpus/ (files that did not change are not touched)."

    def handle(self, *args, **options):
        for path in dump_corpus():
            self.stdout.write(str(path))
