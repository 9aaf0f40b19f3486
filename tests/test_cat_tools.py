"""The exports as CAT tools read them (#30 point 10), with translate-toolkit as the oracle: every PO, XLIFF 1.2,
XLIFF 2.0 and TMX export of each rulebook is read with every unit kept, each with its own context, source and
target as written; the PO passes GNU gettext's ``msgfmt --check`` (and Babel's own checks where msgfmt is not
installed: CI's machine has it, and CI fails rather than skip).

translate-toolkit merged two XLIFF 1.2 units with the same source («Процедура», the titles of 5.7.2 and 9.3.2): 85
messages out of 86. An outdated paragraph (fuzzy, with its previous source) is in every export checked.
"""
from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from babel.messages.pofile import read_po
from test_translation_support import item

from rulesref.reference.models import Book, SectionText
from rulesref.translation.exchange import export_units
from rulesref.translation.exchange.po import write_catalog
from rulesref.translation.exchange.tmx import book_entries, write_tmx
from rulesref.translation.exchange.xliff import write_xliff

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
BOOKS = ["mpbs", "t9a"]
ID_SEPARATOR = "\x04"  # translate-toolkit's unit ids: the file's name, this, the unit's id


@pytest.fixture
def outdated():
    """Paragraph 1 of mpbs 11.4.10 changed in the source since it was translated (a fuzzy unit)."""
    item("11.4.10")  # the workspace keeps the source it has seen
    old = item("11.4.10").source.body
    SectionText.objects.filter(section__sid="11.4.10", language="ru", section__book__slug="mpbs").update(
        body=old.replace("хиту построения", "хиту морали", 1))


def written(slug: str) -> tuple[Book, list[tuple[str, str, str]]]:
    """The book and its exported units as written: (context, source, target)."""
    book = Book.objects.get(slug=slug)
    units = [(u.unit.context, u.unit.source, u.unit.target) for u in export_units(book, "en") if u.unit.source]
    assert len(units) > 10 and len({c for c, _s, _t in units}) == len(units)
    return book, units


def toolkit_units(store) -> list:
    return [u for u in store.units if not u.isheader()]


def kept(read: list[tuple[str, str, str]], units: list[tuple[str, str, str]]) -> None:
    assert len(read) == len(units)
    assert sorted(read) == sorted(units)


@pytest.mark.parametrize("slug", BOOKS)
def test_po_export_as_translate_toolkit_reads_it(slug, outdated):
    from translate.storage import po

    book, units = written(slug)
    data = write_catalog(book, "en", export_units(book, "en"))
    store = po.pofile(io.BytesIO(data))
    kept([(u.getcontext(), u.source, u.target) for u in toolkit_units(store)], units)
    if slug == "mpbs":
        fuzzy = [u for u in toolkit_units(store) if u.isfuzzy()]
        assert [u.getcontext() for u in fuzzy] == ["11.4.10:1"] and "хиту построения" in fuzzy[0].prev_source
    catalog = read_po(io.BytesIO(data))  # Babel's own checks: placeholders, plural forms
    assert [(m.context, errors) for m, errors in catalog.check()] == []


@pytest.mark.parametrize("slug", BOOKS)
def test_po_export_passes_msgfmt_check(slug, outdated, tmp_path, require):
    require(shutil.which("msgfmt") is not None, "GNU gettext's msgfmt (apt-get install gettext)")
    book, _units = written(slug)
    path = tmp_path / f"{slug}-en.po"
    path.write_bytes(write_catalog(book, "en", export_units(book, "en")))
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "out.mo"), str(path)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr.lower()


@pytest.mark.parametrize("slug", BOOKS)
def test_xliff_12_export_as_translate_toolkit_reads_it(slug, outdated):
    from translate.convert import xliff2po
    from translate.storage import po, xliff

    book, units = written(slug)
    data = write_xliff(book, "en", export_units(book, "en"), version="1.2")
    read = toolkit_units(xliff.xlifffile(io.BytesIO(data)))
    kept([(u.getid().rsplit(ID_SEPARATOR, 1)[-1], u.source, u.target) for u in read], units)
    assert [u.getlocations() for u in read] == [[u.getid().rsplit(ID_SEPARATOR, 1)[-1]] for u in read]
    out = io.BytesIO()
    xliff2po.convertxliff(io.BytesIO(data), out, None)  # merged two units of the same source before
    converted = po.pofile(io.BytesIO(out.getvalue()))
    assert sorted((u.source, u.target) for u in toolkit_units(converted)) == sorted((s, t) for _c, s, t in units)


@pytest.mark.parametrize("slug", BOOKS)
def test_xliff_20_export_as_translate_toolkit_reads_it(slug, outdated):
    from translate.storage import xliff2

    book, units = written(slug)
    data = write_xliff(book, "en", export_units(book, "en"), version="2.0")
    store = xliff2.Xliff2File(data)
    read = [(u.getid().rsplit(ID_SEPARATOR, 1)[-1], u.source, u.target) for u in toolkit_units(store)]
    kept(read, units)


@pytest.mark.parametrize("slug", BOOKS)
def test_tmx_export_as_translate_toolkit_reads_it(slug):
    from translate.storage import tmx

    book = Book.objects.get(slug=slug)
    entries = list(book_entries(book))
    assert entries, "the translation memory of the book is empty"
    store = tmx.tmxfile(io.BytesIO(write_tmx(book)), sourcelanguage=book.source_language, targetlanguage="en")
    read = [(u.source, u.target) for u in store.units]
    assert sorted(read) == sorted((e.source, e.target) for e in entries)
