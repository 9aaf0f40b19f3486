from django.core.management.base import BaseCommand

from ...exchange.tmx import book_entries, write_tmx
from ...workflow import ensure_translations
from ._common import book_and_language, write_output


class Command(BaseCommand):
    help = ("Export a rulebook's translation memory as TMX 1.4b (one unit per memory entry: every approved title and "
            "paragraph, and what TMX imports brought in). The same memory always gives the same bytes.")

    def add_arguments(self, parser):
        parser.add_argument("book", help="rulebook slug (mpbs, t9a)")
        parser.add_argument("file", help="file to write ('-' for standard output)")

    def handle(self, *args, book, file, **options):
        book_obj, lang = book_and_language(book, None)
        ensure_translations(book_obj, lang)  # the memory has every published translation
        data = write_tmx(book_obj)
        if not write_output(file, data):
            return
        self.stdout.write(f"{file}: {book_entries(book_obj).count()} translation units")
