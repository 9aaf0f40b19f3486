from django.core.management.base import BaseCommand, CommandError

from rulesref.reference import searchindex


class Command(BaseCommand):
    help = ("Check the search index against the texts, or refill it. The database keeps it in step with every change "
            "of a text by itself; refill it only after a change of the stemming rules (SQLite).")

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group(required=True)
        action.add_argument("--check", action="store_true", help="list texts missing from the index or indexed wrongly")
        action.add_argument("--rebuild", action="store_true", help="refill the index from the texts")

    def handle(self, *args, check=False, rebuild=False, **options):
        if rebuild:
            self.stdout.write(f"indexed {searchindex.rebuild()} texts")
        problems = searchindex.check()
        for problem in problems:
            self.stdout.write(problem)
        if problems:
            raise CommandError(f"{len(problems)} problems in the search index; run searchindex --rebuild")
        self.stdout.write("the search index matches the texts")
