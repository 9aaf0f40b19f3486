"""The exchange formats' registry (translation/exchange/formats.py): each format one class with its name, label,
content type and extension; an upload's format detected by its name, else by its bytes; a format added by a class
and one line of the TRANSLATION_EXCHANGE_FORMATS setting, which the export URL then serves with no view changed."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesref.translation.exchange import formats

pytest_plugins = ["test_translation_support"]
ROOT = Path(__file__).resolve().parent.parent

DETECTED = [
    ("mpbs-en.po", b"", "po"),
    ("mpbs-en.PO", b"<xliff/>", "po"),  # the name says it outright
    ("memory.tmx", b"msgid", "tmx"),
    ("mpbs-en.xlf", b'<?xml version="1.0"?>\n<xliff version="2.0"/>', "xliff"),
    ("mpbs-en-1.2.xliff", b'<xliff version="1.2"/>', "xliff"),  # XLIFF reads both versions
    ("omegat.xml", b'<?xml version="1.0"?><!DOCTYPE tmx SYSTEM "tmx11.dtd"><tmx version="1.1"/>', "tmx"),
    ("export.xlf", b"<tmx version='1.4'/>", "tmx"),  # a TMX file named .xlf is read as what it is
    ("upload", b"  \n<xliff/>", "xliff"),
    ("upload", b'# comment\nmsgid ""\nmsgstr ""\n', "po"),
    ("notes.xml", b'msgid ""', "xliff"),  # an XML name: never PO
    ("notes.txt", b"hello", None),
    ("", b"", None),
]


@pytest.mark.parametrize(("name", "data", "expected"), DETECTED)
def test_an_upload_is_detected_by_its_name_else_by_its_bytes(name, data, expected):
    found = formats.detect(name, data)
    assert (found.name if found else None) == expected


def test_every_registered_format_says_what_it_is():
    registered = formats.registered()
    assert list(registered) == ["po", "xliff", "xliff12", "tmx"]
    for name, fmt in registered.items():
        assert fmt.name == name and fmt.label and fmt.extension.startswith(".")
        assert "/" in fmt.content_type
    assert formats.get("docx") is None
    assert [f.name for f in registered.values() if isinstance(f, formats.TranslationFormat)] == [
        "po", "xliff", "xliff12"]
    with pytest.raises(KeyError):
        formats.translation_format("tmx")  # the memory is not imported as revisions


def test_no_view_or_command_branches_on_a_format_name():
    """The registry is the one place that knows the formats: the exchange views and the commands name none."""
    for path in (ROOT / "rulesref/translation/views/exchange.py",
                 ROOT / "rulesref/translation/management/commands/_exchange.py"):
        text = path.read_text(encoding="utf-8")
        assert "read_catalog" not in text and "read_xliff" not in text and "write_tmx" not in text, path
        assert 'fmt == "' not in text and "== 'po'" not in text, path


class CsvFormat(formats.ExchangeFormat):
    """A format of the test's own: proves that a new format needs a class and one line of the setting."""

    name, label, extension, content_type = "csv", "CSV", ".csv", "text/csv"

    def export(self, book, lang):
        return f"book,lang\n{book.slug},{lang}\n".encode()


@pytest.mark.django_db
def test_a_format_added_to_the_setting_is_served_by_the_export_url(settings, tina):
    client = tina
    settings.TRANSLATION_EXCHANGE_FORMATS = ["rulesref.translation.exchange.formats.PoFormat",
                                             f"{__name__}.CsvFormat"]
    response = client.get("/en/translate/mpbs/+export/csv/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="mpbs-en.csv"' in response["Content-Disposition"]
    assert response.content == b"book,lang\nmpbs,en\n"
    assert client.get("/en/translate/mpbs/+export/tmx/").status_code == 404  # not in the setting: not served
