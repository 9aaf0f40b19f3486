import ctypes
import signal
import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from rulesref import catalogs
from rulesref.reference.corpus import CorpusError
from rulesref.reference.loading import load_corpus


class Command(BaseCommand):
    help = ("Set up and serve the site locally: compile the message catalogs, migrate the database, load the corpus "
            "when it changed, collect the static files, and serve on 127.0.0.1:8000 with a task worker beside it.")

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
        worker = self.start_worker()
        self.stdout.write(self.style.SUCCESS(f"serving on http://{host}:{port}/ (Ctrl-C to stop)"))
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))  # stopped as by Ctrl-C: the worker too
        try:
            call_command("runserver", f"{host}:{port}", use_reloader=False)
        finally:
            if worker is not None:
                worker.terminate()
                worker.wait(timeout=30)

    def start_worker(self) -> subprocess.Popen | None:
        """The task worker (rulesref/background.py) for this site, as a process of its own that ends with the
        server; none when tasks run in the writer's process (RULESREF_TASKS=immediate)."""
        if settings.RULESREF_TASKS != "queue":
            return None
        self.stdout.write("task worker started (manage.py db_worker)")
        return subprocess.Popen([sys.executable, str(settings.BASE_DIR / "manage.py"), "db_worker", "--no-reload",
                                 "--queue-name", "*", "--verbosity", "0"], cwd=settings.BASE_DIR,
                                preexec_fn=_ends_with_parent)


def _ends_with_parent() -> None:
    """In the worker before it starts: Linux stops it when quickstart's process ends, however it ends (a kill
    leaves no worker behind); elsewhere quickstart's own exit stops it."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
