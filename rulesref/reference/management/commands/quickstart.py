from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from rulesref import catalogs
from rulesref.reference.corpus import CorpusError
from rulesref.reference.loading import load_corpus


class Command(BaseCommand):
    help = ("Set up and serve the site locally: compile the message catalogs, migrate the database, load the corpus "
            "when it changed, collect the static files, and serve on 127.0.0.1:8000.")

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--no-serve", action="store_true", help="prepare everything, then exit")

    def handle(self, *args, port=8000, host="127.0.0.1", no_serve=False, **options):
        # The catalogs first: migrate and the load render the books' offline copies, which must be in their language.
        compiled = catalogs.compile_all()
        self.stdout.write(f"compiled {len(compiled)} message catalogs")
        call_command("migrate", interactive=False, verbosity=0)
        self.stdout.write("database migrated")
        try:
            report = load_corpus()
        except CorpusError as exc:
            raise CommandError(f"{exc}\nThe corpus was not loaded.") from None
        for slug in report.loaded:
            self.stdout.write(f"corpus {slug}: loaded {report.counts[slug]} sections")
        for slug in report.unchanged:
            self.stdout.write(f"corpus {slug}: unchanged")
        call_command("collectstatic", interactive=False, verbosity=0)
        self.stdout.write("static files collected and compressed")
        if no_serve:
            return
        self.stdout.write(self.style.SUCCESS(f"serving on http://{host}:{port}/ (Ctrl-C to stop)"))
        call_command("runserver", f"{host}:{port}", use_reloader=False)
