"""TMX 1.4b export and import of the translation memory, and XLIFF 1.2 beside 2.0 (issue #15 point 2): lossless,
byte-stable round trips on the corpus; files written as OmegaT and memoQ write them import; bad files are refused
with a clear error and nothing is written."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from test_translation_support import book, english, item, source_text

from rulesref.translation import memory, workflow
from rulesref.translation.exchange import export_units
from rulesref.translation.exchange.tmx import import_tmx, read_tmx, write_tmx
from rulesref.translation.exchange.units import ExchangeError
from rulesref.translation.exchange.xliff import read_xliff, write_xliff
from rulesref.translation.models import MemoryEntry, Revision, Status, Translation
from rulesref.translation.exchange.formats import run_import

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_memory():
    """Each test starts from a memory that has taken none of the corpus's translations yet (a load puts them in:
    ``ensure_translations`` takes them again where a test wants them)."""
    memory.forget(MemoryEntry.objects.all())
    Translation.objects.update(memory_digest="")
DATA = Path(__file__).resolve().parent / "translation_data"
NOW = datetime(2026, 5, 4, 12, 0, tzinfo=timezone.utc)


def tmx_import(data: bytes, name: str = "test.tmx", partial: bool = False):
    return import_tmx(read_tmx(data, book(), "en", name), partial=partial)


# ---------------------------------------------------------------------------------------------------- TMX


def test_the_tmx_export_holds_every_memory_entry_of_the_book():
    workflow.ensure_translations(book(), "en")
    text = write_tmx(book()).decode()
    assert text.startswith("<?xml version='1.0' encoding='utf-8'?>\n<tmx version=\"1.4\">")
    assert re.search(r'<header [^>]*srclang="ru"[^>]*o-tmf="rulesref"', text)
    assert text.count("<tu ") == MemoryEntry.objects.filter(book="mpbs").count() > 80
    assert '<prop type="x-rulesref-context">9.3.5:1</prop>' in text
    assert f"<seg>{english('9.3.5').body}</seg>" in text and '<tuv xml:lang="en">' in text


def test_the_tmx_round_trip_is_byte_stable():
    workflow.ensure_translations(book(), "en")
    first = write_tmx(book())
    again = tmx_import(first)
    assert again.written and again.created == 0 and again.known == len(again.pairs)  # its own export: all known
    assert write_tmx(book()) == first
    memory.forget(MemoryEntry.objects.filter(book="mpbs"))
    assert write_tmx(book()).count(b"<tu ") == 0
    fresh = tmx_import(first)
    assert fresh.created == first.count(b"<tu ") and fresh.problems == []
    assert write_tmx(book()) == first  # texts, dates, creators, origins, contexts: nothing lost


def test_a_tmx_file_written_by_omegat_imports():
    result = tmx_import((DATA / "omegat-project_save.tmx").read_bytes(), "project_save.tmx")
    assert result.written and result.problems == []
    assert (len(result.units), len(result.pairs), result.other_languages, result.created) == (6, 5, 1, 5)
    entry = MemoryEntry.objects.get(source__startswith="Кавалерия не может")
    assert entry.target == "Cavalry may not intercept through enemy artillery units."
    assert (entry.origin, entry.book, entry.creator) == ("tmx", "mpbs", "vera")
    assert entry.created == datetime(2024, 5, 11, 9, 32, 7, tzinfo=timezone.utc)
    assert entry.changed == datetime(2024, 5, 11, 9, 34, 15, tzinfo=timezone.utc)
    assert "project_save.tmx" in entry.note and "OmegaT" in entry.note
    assert MemoryEntry.objects.get(source__startswith="Результат").target.startswith("A <Stands> result")
    found = memory.matches("Удалите все маркеры «Перехват выполнен» в конце каждой активации.", "ru", "en")
    assert found and found[0].target == "Remove all “Interception Done” markers at the end of the activation."


def test_a_tmx_file_written_by_memoq_imports_with_its_inline_codes_dropped():
    result = tmx_import((DATA / "memoq-mpbs-ru-en.tmx").read_bytes(), "memoq.tmx")
    assert result.written and (len(result.pairs), result.with_codes, result.other_languages) == (3, 1, 0)
    marked = MemoryEntry.objects.get(source__startswith="Отметьте подразделение")
    assert marked.source.endswith("маркером «Перехват выполнен».")
    assert marked.target == "Mark the unit that attempted an Interception with an “Interception Done” marker."
    assert marked.note == "mpbs-9.docx" and marked.creator == "ANNA.K"
    assert MemoryEntry.objects.get(source__startswith="Кавалерия может").target == \
        "Cavalry may intercept through friendly artillery units."


@pytest.mark.parametrize("data, message", [
    (b"this is not xml", "not well-formed XML at line 1"),
    (b"<xliff version='2.0'/>", "not a TMX file: the root element is <xliff>"),
    (b"<tmx version='9.0'><header/><body/></tmx>", "TMX version 9.0"),
    (b"<tmx version='1.4'><body/></tmx>", "no <header> or no <body>"),
    (b'<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
     b"<tmx version='1.4'><header/><body><tu><tuv xml:lang='ru'><seg>&b;</seg></tuv></tu></body></tmx>",
     "refused: the XML uses a DTD or entities"),
    (b'<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
     b"<tmx version='1.4'><header/><body><tu><tuv xml:lang='ru'><seg>&x;</seg></tuv></tu></body></tmx>",
     "refused: the XML uses a DTD or entities"),
])
def test_bad_tmx_files_are_refused_with_a_clear_error(data, message):
    with pytest.raises(ExchangeError, match=re.escape(message)):
        read_tmx(data, book(), "en")
    assert MemoryEntry.objects.count() == 0


def test_a_broken_unit_stops_the_import_unless_partial():
    data = ("<tmx version='1.4'><header srclang='ru'/><body>"
            "<tu><tuv xml:lang='ru'><seg>Первый текст.</seg></tuv><tuv xml:lang='en'><seg>First text.</seg></tuv></tu>"
            "<tu tuid='b'><tuv xml:lang='ru'><seg>Второй</seg></tuv><tuv xml:lang='en'><seg>   </seg></tuv></tu>"
            "<tu><tuv xml:lang='ru'><seg>Третий\x0b</seg></tuv><tuv xml:lang='en'><seg>Third</seg></tuv></tu>"
            "</body></tmx>").encode().replace(b"\x0b", b"&#11;")
    with pytest.raises(ExchangeError):  # XML 1.0 cannot carry U+000B even as a reference: refused as not XML
        read_tmx(data, book(), "en")
    data = data.replace(b"<tu><tuv xml:lang='ru'><seg>\xd0\xa2\xd1\x80\xd0\xb5\xd1\x82\xd0\xb8\xd0\xb9&#11;", b"<tu><tuv xml:lang='ru'><seg>\xd0\xa2\xd1\x80\xd0\xb5\xd1\x82\xd0\xb8\xd0\xb9")
    result = tmx_import(data)
    assert not result.written and [(p.where, p.message) for p in result.problems] == [("unit 2 (b)", "an empty segment")]
    assert MemoryEntry.objects.count() == 0
    assert tmx_import(data, partial=True).created == 2


def test_the_tmx_commands(tmp_path, capsys):
    path = tmp_path / "mpbs.tmx"
    call_command("exporttmx", "mpbs", str(path))
    assert "translation units" in capsys.readouterr().out and path.read_bytes().startswith(b"<?xml")
    call_command("importtmx", "mpbs", str(DATA / "omegat-project_save.tmx"))
    out = capsys.readouterr().out
    assert "6 units, 5 ru → en, 1 in other languages, 0 problems; 5 new memory entries" in out
    bad = tmp_path / "bad.tmx"
    bad.write_bytes(b"<tmx version='1.4'><header/></tmx>")
    with pytest.raises(CommandError, match="no <header> or no <body>.*\nNothing was imported"):
        call_command("importtmx", "mpbs", str(bad))


def test_the_workspace_exports_and_imports_tmx(tina):
    response = tina.get("/en/translate/mpbs/+export/tmx/")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/x-tmx+xml")
    assert b'o-tmf="rulesref"' in response.content
    with (DATA / "memoq-mpbs-ru-en.tmx").open("rb") as fh:
        page = tina.post("/en/translate/mpbs/+import/", {"file": fh, "status": "review"})
    html = page.content.decode()
    assert page.status_code == 200 and "3 new entries" in html and "1 with inline codes, kept as plain text" in html


# ---------------------------------------------------------------------------------------------------- XLIFF 1.2


def export12(now: datetime = NOW) -> bytes:
    return write_xliff(book(), "en", export_units(book(), "en"), now=now, version="1.2")


def test_xliff_12_export_has_the_1_2_vocabulary_and_states():
    text = export12().decode()
    assert '<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:rr="urn:x-rulesref:xliff:1" version="1.2">' in text
    assert re.search(r'<file original="rulesref/mpbs" source-language="ru" target-language="en" datatype="plaintext"', text)
    assert text.count("<trans-unit ") == len([u for u in export_units(book(), "en") if u.unit.source])
    unit = re.search(r'<trans-unit id="9.3.5:1"[^>]*>(.*?)</trans-unit>', text, re.S)
    assert 'approved="yes"' in unit.group(0) and '<target state="final">' in unit.group(1)


def test_xliff_12_round_trip_is_lossless_and_byte_stable(translator):
    first = export12()
    plan = run_import(book(), "en", first, "mpbs.xlf", fmt="xliff", user=translator, status=Status.REVIEW,
                      partial=False)
    assert plan.clean and not plan.written and plan.unchanged == plan.total
    assert export12() == first
    entries, exported = read_xliff(first, book(), "en")
    assert exported == NOW and {e.context: e.target for e in entries}["9.3.5:1"] == english("9.3.5").body


def test_xliff_12_edits_come_back_as_revisions(translator):
    data = export12().decode()
    new = "A cavalry unit that intercepted may still act when its wing is activated. Cavalry units of a wing " \
          "that has finished its activation may intercept as well."
    data = re.sub(r'(<trans-unit id="9.3.5:1".*?<target state=")final(">).*?(</target>)',
                  lambda m: f"{m.group(1)}translated{m.group(2)}{new}{m.group(3)}", data, flags=re.S)
    plan = run_import(book(), "en", data.encode(), "tool.xlf", fmt="xliff", user=translator, status=Status.REVIEW,
                      partial=False)
    assert plan.written and plan.applied[0].origin == Revision.Origin.XLIFF
    assert item("9.3.5").translation.body == new


def test_xliff_12_marks_an_outdated_unit_with_its_previous_source():
    text = source_text("9.3.5")
    text.body = text.body.replace("также могут", "тоже могут")
    text.save()
    data = export12().decode()
    unit = re.search(r'<trans-unit id="9.3.5:1".*?</trans-unit>', data, re.S).group(0)
    assert '<target state="needs-review-translation">' in unit and 'approved="yes"' not in unit
    assert '<alt-trans alttranstype="previous-version">' in unit and "также могут" in unit
    entries, _ = read_xliff(data.encode(), book(), "en")
    assert not next(e for e in entries if e.context == "9.3.5:1").confirmed


def test_xliff_12_segments_a_tool_marked_are_joined():
    data = export12().decode()
    old = english("9.3.5").body
    first, second = old.split(". ", 1)
    data = data.replace(f"<target state=\"final\">{old}</target>",
                        f'<target state="final"><mrk mtype="seg" mid="1">{first}.</mrk> '
                        f'<mrk mtype="seg" mid="2">{second}</mrk></target>')
    entries, _ = read_xliff(data.encode(), book(), "en")
    assert next(e for e in entries if e.context == "9.3.5:1").target == old


@pytest.mark.parametrize("change, message", [
    (lambda d: d.replace('version="1.2">', 'version="1.0">', 1), "XLIFF version 1.0"),
    (lambda d: d.replace('original="rulesref/mpbs"', 'original="rulesref/t9a"'), "not an export of the rulebook"),
    (lambda d: d.replace('target-language="en"', 'target-language="de"'), "a translation into “de”"),
])
def test_bad_xliff_12_files_are_refused(change, message):
    with pytest.raises(ExchangeError, match=re.escape(message)):
        read_xliff(change(export12().decode()).encode(), book(), "en")


def test_inline_markup_in_an_xliff_12_unit_is_reported_for_that_unit():
    data = export12().decode().replace(f"<target state=\"final\">{english('9.3.5').body}</target>",
                                       '<target state="final">A <g id="1">bold</g> claim.</target>')
    entries, _ = read_xliff(data.encode(), book(), "en")
    assert "inline element <g>" in next(e for e in entries if e.context == "9.3.5:1").error


def test_exportxliff_writes_1_2_on_request(tmp_path):
    path = tmp_path / "mpbs.xlf"
    call_command("exportxliff", "mpbs", "en", str(path), "--xliff-version", "1.2")
    assert b'xmlns="urn:oasis:names:tc:xliff:document:1.2"' in path.read_bytes()
    call_command("exportxliff", "mpbs", "en", str(path))
    assert b'xmlns="urn:oasis:names:tc:xliff:document:2.0"' in path.read_bytes()
