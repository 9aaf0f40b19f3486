"""The dashboard's export links come from the format registry (#31): a format added by a class and one line of the
TRANSLATION_EXCHANGE_FORMATS setting gets its link with no template changed, and a format left out of the setting
gets none; the links are in the reader's language."""
from __future__ import annotations

import re

import pytest

from rulesref.translation.exchange import formats

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
DEFAULT = ["rulesref.translation.exchange.formats.PoFormat", "rulesref.translation.exchange.formats.XliffFormat",
           "rulesref.translation.exchange.formats.Xliff12Format", "rulesref.translation.exchange.formats.TmxFormat"]


class TsvFormat(formats.ExchangeFormat):
    """A format of the test's own, with no link text of its own: the dashboard says "Export TSV"."""

    name, label, extension, content_type = "tsv", "TSV", ".tsv", "text/tab-separated-values"

    def export(self, book, lang):
        return f"{book.slug}\t{lang}\n".encode()


def export_links(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<a class="button" href="/\w+/translate/mpbs/\+export/(\w+)/" download>([^<]*)</a>', html)


def test_the_dashboard_links_every_registered_format_in_the_settings_order(tina, settings):
    settings.TRANSLATION_EXCHANGE_FORMATS = DEFAULT
    assert export_links(tina.get("/en/translate/mpbs/").content.decode()) == [
        ("po", "Export PO"), ("xliff", "Export XLIFF 2.0"), ("xliff12", "Export XLIFF 1.2"),
        ("tmx", "Export the translation memory (TMX)")]
    russian = export_links(tina.get("/ru/translate/mpbs/").content.decode())
    assert russian[0] == ("po", "Экспорт PO") and russian[3] == ("tmx", "Экспорт памяти переводов (TMX)")


def test_a_format_added_by_one_line_of_the_setting_gets_its_link(tina, settings):
    settings.TRANSLATION_EXCHANGE_FORMATS = [DEFAULT[0], f"{__name__}.TsvFormat"]
    html = tina.get("/en/translate/mpbs/").content.decode()
    assert export_links(html) == [("po", "Export PO"), ("tsv", "Export TSV")]  # and no link to a format left out
    assert export_links(tina.get("/ru/translate/mpbs/").content.decode())[1] == ("tsv", "Экспорт TSV")
    response = tina.get("/en/translate/mpbs/+export/tsv/")
    assert response.status_code == 200 and response.content == b"mpbs\ten\n"
