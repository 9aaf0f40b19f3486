import tomllib
import unicodedata
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from rulesref.reference.corpus import BOOK_SLUG_RE, KINDS, LANGUAGES, RESERVED_IDS, book_toml, write_text
from rulesref.reference.loading import book_dirs, corpus_dir
from rulesref.reference.models import Book

MAX_SLUG = 40
MAX_TITLE = 200  # Book.title_ru / title_en

IMPORT_TEMPLATE = """\
# How `manage.py importtext {slug} <lang> <file>` reads the raw texts of this rulebook (used when the text has no
# import.toml beside it). The importer infers everything itself and reports each guess by line number; write here
# only what it guessed wrong. See docs/corpus-format.md ("Import configuration").
#
# [outline."3"]                       # a parent section the text does not contain: its title in each language
# ru = "Движение"
# en = "Movement"
#
# [[heading]]                         # a line that is a heading: its id, parent and title
# match = ["Подготовка к огню", "Preparing to fire"]
# id = "fire-preparation"
# parent = "7.2"
#
# [[text]]                            # lines that are text, never a heading, a table cell or junk
# match = ["Лес"]
#
# [[junk]]                            # lines to drop
# match = ["ЖЕЛЕЗНЫЙ РУБЕЖ · ПРАВИЛА"]
#
# [[table]]                           # a table pasted one cell per line: its first cell and its columns (0: none)
# match = "Ландшафт"
# columns = 3
#
# [[erratum]]                         # an obvious typo of the source, corrected and listed on the errata page
# wrong = "ПРМЕЧАНИЕ"
# right = "ПРИМЕЧАНИЕ"
# note = "пропущена буква"
"""


class Command(BaseCommand):
    help = ("Create a new rulebook: fixtures/corpus/SLUG/book.toml (and an import configuration template under "
            "fixtures/sources/SLUG/). Then `importtext SLUG LANG FILE` and `loadrules`.")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the book's address: /<lang>/rules/SLUG/ (small Latin letters, digits, "
                            "hyphens)")
        parser.add_argument("--source", required=True, help="the language of the original text: ru or en")
        parser.add_argument("--title", required=True, help="the title in the source language")
        parser.add_argument("--title-other", default="", help="the title in the other language")
        parser.add_argument("--kind", default="none",
                            help="none (no scenario checker, the default), hex or tabletop")

    def handle(self, slug, source, title, title_other="", kind="none", **options):
        if not BOOK_SLUG_RE.match(slug) or len(slug) > MAX_SLUG or slug in RESERVED_IDS:
            raise CommandError(f"{slug!r}: not a usable slug: small Latin letters, digits and single hyphens, "
                               f"starting with a letter, at most {MAX_SLUG} characters (like 'musket-pike'); "
                               "nothing was written")
        if source not in LANGUAGES:
            raise CommandError(f"--source {source!r}: the language of the original is one of "
                               f"{', '.join(LANGUAGES)}; nothing was written")
        if kind not in KINDS:
            raise CommandError(f"--kind {kind!r}: one of {', '.join(KINDS)}; nothing was written")
        titles = {source: self.clean_title("--title", title)}
        if title_other:
            other = next(lang for lang in LANGUAGES if lang != source)
            titles[other] = self.clean_title("--title-other", title_other)
        book_dir = corpus_dir() / slug
        if book_dir.exists():
            raise CommandError(f"{book_dir}: the slug {slug!r} is taken (that folder exists); nothing was written")
        try:
            in_database = Book.objects.filter(slug=slug).exists()
        except DatabaseError:
            in_database = False  # no database yet (a fresh clone before migrate): the folder check is the one
        if in_database:
            raise CommandError(f"the slug {slug!r} is taken by a rulebook in the database (its fixture folder is "
                               "gone; run loadrules to drop it, or choose another slug); nothing was written")
        positions = []
        for other_dir in book_dirs():
            try:
                positions.append(int(tomllib.loads((other_dir / "book.toml").read_text(encoding="utf-8"))
                                     .get("position", 0)))
            except (tomllib.TOMLDecodeError, ValueError, TypeError):
                continue
        text = book_toml(slug, source, titles, kind, max(positions, default=0) + 1)
        tomllib.loads(text)  # what is written must read back
        write_text(book_dir / "book.toml", text)
        template = Path(settings.FIXTURES_DIR) / "sources" / slug / "import.toml"
        if not template.exists():
            write_text(template, IMPORT_TEMPLATE.format(slug=slug))
        self.stdout.write(self.style.SUCCESS(f"created {book_dir / 'book.toml'}"))
        self.stdout.write(f"next: python manage.py importtext {slug} {source} <text file>; then python manage.py "
                          "loadrules")

    def clean_title(self, option: str, title: str) -> str:
        title = unicodedata.normalize("NFC", " ".join(title.split()))
        if not title:
            raise CommandError(f"{option}: the title is empty; nothing was written")
        if len(title) > MAX_TITLE:
            raise CommandError(f"{option}: {len(title)} characters; a title is at most {MAX_TITLE}; nothing was "
                               "written")
        bad = next((ch for ch in title if unicodedata.category(ch) in ("Cc", "Cs", "Cn", "Co")), None)
        if bad is not None:
            raise CommandError(f"{option}: the title holds the character U+{ord(bad):04X}, which is not text; nothing "
                               "was written")
        return title
