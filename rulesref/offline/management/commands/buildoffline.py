from django.core.management.base import BaseCommand, CommandError

from rulesref.offline import bundle, copies, index
from rulesref.reference.models import Book


class Command(BaseCommand):
    help = ("Build the offline copies (search index and bundle) of every rulebook, or of those named, that are not "
            "current. Changes build their copies by themselves (an approval's in a builder process that runs this "
            "command), and so does migrate; this is for a site that set RULESREF_OFFLINE_COPIES=off, or to rebuild "
            "by hand.")

    def add_arguments(self, parser):
        parser.add_argument("books", nargs="*", help="book slugs (default: every book)")
        parser.add_argument("--force", action="store_true", help="build even the copies that are current")

    def handle(self, *args, books=(), force=False, **options):
        found = list(Book.objects.filter(slug__in=books) if books else Book.objects.all())
        missing = sorted(set(books) - {b.slug for b in found})
        if missing:
            raise CommandError(f"no such rulebook: {', '.join(missing)}")
        for book in found:
            if bundle.too_large(book):
                copies.refresh_if_stale(book)
                self.stdout.write(f"{book.slug}: {bundle.sections(book)} sections, more than a whole offline copy "
                                  f"holds (RULESREF_OFFLINE_MAX_SECTIONS): none is built")
                continue
            if force:
                index.refresh(book)
                made = bundle.build(book)
            elif bundle.is_current(book) and index.is_current(book):
                self.stdout.write(f"{book.slug}: current")
                continue
            else:
                made = copies.build_until_current(book.pk)
            if made is None:
                self.stdout.write(f"{book.slug}: current, or being built by another process")
                continue
            self.stdout.write(f"{book.slug}: built revision {made.revision}, {made.entries} entries, "
                              f"{made.size / 1000:.0f} KB to download")
