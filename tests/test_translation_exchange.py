"""PO and XLIFF exchange: what an export holds, round trips with and without edits, and every import that must be
refused (with where and why) while nothing is written."""
from __future__ import annotations

import io
import re

import pytest
from babel.messages.pofile import read_po, write_po
from django.core.management import call_command
from django.core.management.base import CommandError
from test_translation_support import book, item, save, without_translation
from test_translation_views import snapshot

from rulesref.reference.models import SectionText
from rulesref.translation import workflow
from rulesref.translation.exchange import export_units, plan_import
from rulesref.translation.exchange.po import read_catalog, write_catalog
from rulesref.translation.exchange.units import ExchangeError
from rulesref.translation.exchange.xliff import read_xliff, write_xliff
from rulesref.translation.models import Revision, Status
from rulesref.translation.exchange.formats import run_import

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def export_po() -> bytes:
    return write_catalog(book(), "en", export_units(book(), "en"))


def export_xliff() -> bytes:
    return write_xliff(book(), "en", export_units(book(), "en"))


def catalog_of(data: bytes):
    return read_po(io.BytesIO(data))


def po_bytes(catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=76, include_previous=True)
    return out.getvalue()


def edit_po(data: bytes, context: str, new: str | None = None, *, fuzzy: bool | None = None, msgid: str | None = None,
            drop_comments: bool = False) -> bytes:
    catalog = catalog_of(data)
    message = next(m for m in catalog if m.context == context)
    if new is not None:
        message.string = new
    if fuzzy is not None:
        (message.flags.add if fuzzy else message.flags.discard)("fuzzy")
    if msgid is not None:
        catalog.delete(message.id, context)
        catalog.add(msgid, message.string, context=context, auto_comments=message.auto_comments,
                    flags=message.flags)
    if drop_comments:
        for m in catalog:
            m.auto_comments = []
    return po_bytes(catalog)


def import_po(data: bytes, *, user=None, status=Status.REVIEW, partial=False):
    return run_import(book(), "en", data, "test.po", fmt="po", user=user, status=status, partial=partial)


def import_xliff(data: bytes, *, user=None, status=Status.REVIEW, partial=False):
    return run_import(book(), "en", data, "test.xlf", fmt="xliff", user=user, status=status, partial=partial)


# ---------------------------------------------------------------------------------------------------- PO


def test_po_export_one_message_per_paragraph_with_context_hints_and_base():
    data = export_po().decode()
    catalog = catalog_of(data.encode())
    assert catalog.project == "rulesref" and catalog.version == "mpbs" and str(catalog.locale) == "en"
    contexts = [m.context for m in catalog if m.id]
    assert contexts[:3] == ["5.7:title", "5.7.1:title", "5.7.1:1"]
    assert len(contexts) == len(set(contexts)) == sum(1 for _ in export_units(book(), "en"))
    message = catalog.get(item("9.3.1").source.body.split("\n\n")[1], context="9.3.1:2")
    assert message is not None and message.string.startswith("a) The enemy unit performs")
    hits = next(m for m in catalog if m.context == "11.4.10:1")
    assert "хиту формирования → formation hits" in hits.user_comments  # glossary hints: translator comments
    assert any(re.fullmatch(r"base [0-9a-f]{12}", c) for c in hits.auto_comments)
    assert "11.4.10 Хиты формирования, paragraph 1" in hits.auto_comments
    assert not hits.fuzzy


def test_outdated_entries_are_fuzzy_with_the_previous_source():
    item("11.4.10")  # the workspace keeps the source it has seen
    old = item("11.4.10").source.body
    SectionText.objects.filter(section__sid="11.4.10", language="ru", section__book__slug="mpbs").update(
        body=old.replace("хиту построения", "хиту морали", 1))
    data = export_po()
    catalog = catalog_of(data)
    message = next(m for m in catalog if m.context == "11.4.10:1")
    assert message.fuzzy and message.string == item("11.4.10").translation.body
    title = next(m for m in catalog if m.context == "11.4.10:title")
    assert not title.fuzzy  # the title did not change
    entry = data.decode().split('msgctxt "11.4.10:1"')[0].rsplit("\n\n", 1)[1]
    assert entry.startswith("# ") and "#, fuzzy" in entry
    assert '#| msgid ""' in entry and '#| "Если движение' in entry
    assert "хиту построения" in entry.split("#, fuzzy")[1]  # the previous source, not the new one


def test_po_round_trip_without_edits_changes_nothing(translator):
    without_translation("9.3.2")
    save("9.2.3", translator, body=item("9.2.3").translation.body + " Draft.", status=Status.DRAFT)
    item("11.4.10")
    old = item("11.4.10").source.body
    SectionText.objects.filter(section__sid="11.4.10", language="ru", section__book__slug="mpbs").update(
        body=old + " Новое.")
    before = snapshot()
    plan = import_po(export_po(), user=translator)
    assert plan.clean and not plan.written and plan.changes == [] and plan.unchanged == plan.total
    assert snapshot() == before


def test_po_round_trip_with_edits_makes_one_revision_per_section(translator):
    data = export_po()
    data = edit_po(data, "11.4.10:1", "Moving into a hex that causes a formation hit: advancing, pursuing or "
                                      "retreating into it causes one too, on top of the hit for Close Combat (11.2.F).")
    data = edit_po(data, "11.4.10:title", "Formation Hits")
    data = edit_po(data, "9.3.5:title", "Unused title") if False else data
    plan = import_po(data, user=translator)
    assert plan.clean and plan.written and len(plan.applied) == 1
    rev = plan.applied[0]
    assert (rev.origin, rev.author, rev.status) == ("po", translator, Status.REVIEW)
    assert rev.comment == "imported from test.po (paragraphs: title, 1)"
    t = item("11.4.10").translation
    assert t.title == "Formation Hits" and t.body.startswith("Moving into a hex")
    # and the same file again is a no-op
    assert not import_po(data, user=translator).written


def test_a_fuzzy_entry_imports_as_a_draft_and_clearing_fuzzy_confirms_an_outdated_section(translator):
    item("11.4.10")
    old = item("11.4.10").source.body
    SectionText.objects.filter(section__sid="11.4.10", language="ru", section__book__slug="mpbs").update(
        body=old.replace("хиту построения", "хиту морали", 1))
    assert item("11.4.10").state == "outdated"
    data = export_po()
    still_fuzzy = edit_po(data, "11.4.10:1", "A first attempt at the new text (11.2.F).")
    plan = import_po(still_fuzzy, user=translator)
    assert plan.written and plan.applied[0].status == Status.DRAFT
    assert item("11.4.10").state == "outdated"  # not confirmed yet
    confirmed = edit_po(export_po(), "11.4.10:1", fuzzy=False)
    plan = import_po(confirmed, user=translator)
    assert plan.written and plan.applied[0].comment.startswith("confirmed against the new source")
    assert item("11.4.10").state == Status.REVIEW


def test_po_command_round_trip(tmp_path, translator):
    path = tmp_path / "mpbs.po"
    call_command("exportpo", "mpbs", "en", str(path))
    before = snapshot()
    call_command("importpo", "mpbs", "en", str(path))
    assert snapshot() == before
    path.write_bytes(edit_po(path.read_bytes(), "11.4.9:1", "An advance or pursuit after Close Combat triggers a "
                                                              "reaction (9.0), except by the units in that combat."))
    out = io.StringIO()
    call_command("importpo", "mpbs", "en", str(path), "--user", "tina", stdout=out)
    assert "11.4.9: revision 2 (review)" in out.getvalue()
    assert item("11.4.9").translation.revisions.first().author == translator


REJECTIONS = [
    ("unknown section", lambda d: edit_po(d, "11.4.10:1", msgid=None).replace(b'msgctxt "11.4.10:1"', b'msgctxt "11.4.99:1"'),
     "11.4.99:1", "no translatable section “11.4.99”"),
    ("unknown paragraph", lambda d: d.replace(b'msgctxt "11.4.10:1"', b'msgctxt "11.4.10:7"'),
     "11.4.10:7", "has no paragraph 7 (it has 1)"),
    ("malformed context", lambda d: d.replace(b'msgctxt "11.4.10:1"', b'msgctxt "eleven"'),
     "eleven", "expected “section:paragraph”"),
    ("source changed since export", lambda d: d.replace("ближнем бою (11. 2. F).".encode(), "бою (11. 2. F).".encode()),
     "11.4.10:1", "source text changed since this file was exported"),
    ("broken clause label", lambda d: edit_po(d, "9.3.1:2", "The enemy unit performs a triggering action listed in "
                                              "9.1.3 anywhere within four hexes of the cavalry unit, and"),
     "9.3.1:2", "must start with “a) ”"),
    ("broken list", lambda d: edit_po(d, "9.2.4:2", "under a “Rally” order, or a leader, or a cavalry unit"),
     "9.2.4:2", "is a list"),
    ("heading line", lambda d: edit_po(d, "11.4.9:1", "# Reaction\nAn advance triggers a reaction (9.0)."),
     "11.4.9:1", "read it as a heading"),
    ("QA error: Cyrillic left", lambda d: edit_po(d, "11.4.9:1", "An advance after Close Combat triggers a reaction "
                                                  "(9.0), за исключением the units in that combat."),
     "11.4.9:1", "Cyrillic text left"),
    ("QA error: numbers", lambda d: edit_po(d, "9.3.1:2", "a) The enemy unit performs a triggering action listed in "
                                            "9.1.3 anywhere within three hexes of the cavalry unit, and"),
     "9.3.1:2", "numbers"),
    ("QA error: references", lambda d: edit_po(d, "11.4.9:1", "An advance triggers a reaction (9.1), except here."),
     "11.4.9:1", "references"),
]


@pytest.mark.parametrize("name, corrupt, context, message", REJECTIONS, ids=[r[0] for r in REJECTIONS])
def test_rejected_po_entries_write_nothing_and_say_where_and_why(translator, name, corrupt, context, message):
    data = edit_po(export_po(), "11.4.9:1", "An advance or pursuit after a Close Combat triggers a reaction (9.0), "
                                            "except by the units involved in the Close Combat that produced the result.")
    bad = corrupt(data)
    before = snapshot()
    plan = import_po(bad, user=translator)
    assert not plan.written and snapshot() == before
    found = [p for p in plan.problems if p.context == context]
    assert found and message in found[0].message, plan.problems
    assert re.fullmatch(r"line \d+", found[0].where)
    # with --partial the clean entries go in, the bad one is reported and left out
    if context != "11.4.9:1":
        partial = import_po(bad, user=translator, partial=True)
        assert partial.written and [r.translation.section.sid for r in partial.applied] == ["11.4.9"]
        assert [p.context for p in partial.problems] == [context]


def test_a_duplicate_context_is_rejected(translator):
    data = export_po().decode()
    block = data[data.index('msgctxt "11.4.9:title"'):]
    block = block[:block.index("\n\n") + 2]
    plan = import_po((data + "\n" + block.replace("Reaction", "Reaction again")).encode(), user=translator)
    assert not plan.written and any("already at line" in p.message for p in plan.problems)


def test_an_entry_changed_in_the_workspace_since_export_is_a_conflict(translator, reviewer):
    data = export_po()
    save("11.4.9", reviewer, body="The reviewer's newer text (9.0).", status=Status.APPROVED)
    mine = edit_po(data, "11.4.9:1", "My offline text (9.0).")
    plan = import_po(mine, user=translator)
    assert not plan.written and "changed in the workspace since this file was exported (by rita)" in plan.problems[0].message
    assert item("11.4.9").translation.body == "The reviewer's newer text (9.0)."
    # a file whose tool dropped the export marks is judged by its export date
    unmarked = edit_po(data, "11.4.9:1", "My offline text (9.0).", drop_comments=True)
    plan = import_po(unmarked, user=translator)
    assert not plan.written and "cannot tell whether the workspace changed" in plan.problems[0].message


def test_a_gap_between_translated_paragraphs_is_rejected(translator):
    without_translation("9.2.4")
    data = export_po()
    data = edit_po(data, "9.2.4:title", "Withdraw")
    data = edit_po(data, "9.2.4:3", "A unit that Withdraws as a reaction may not move adjacent to an enemy unit.")
    plan = import_po(data, user=translator)
    assert not plan.written and any("paragraph 1 of section 9.2.4 would stay empty" in p.message for p in plan.problems)


@pytest.mark.parametrize("data, message", [
    (b"\x00\x01garbage\xff", "not a valid PO file"),
    (b'msgid "x"\nmsgstr "y"\nmsgid broken', "not a valid PO file"),
    (b'msgid ""\nmsgstr ""\n"Project-Id-Version: rulesref mpbs\\n"\n"Language: de\\n"\n', "translation into “de”, not “en”"),
    (b'msgid ""\nmsgstr ""\n"Project-Id-Version: rulesref t9a\\n"\n"Language: en\\n"\n', "not an export of the rulebook “mpbs”"),
    (b'msgid ""\nmsgstr ""\n"Project-Id-Version: rulesref mpbs\\n"\n', "no Language header"),
], ids=["binary", "syntax", "language", "book", "no-language"])
def test_files_that_are_not_an_export_of_this_book_are_refused(data, message):
    with pytest.raises(ExchangeError, match=message):
        read_catalog(data, book(), "en")


def test_plural_entries_are_refused():
    data = export_po() + b'\nmsgctxt "11.4.9:1"\nmsgid "one"\nmsgid_plural "many"\nmsgstr[0] "x"\nmsgstr[1] "y"\n'
    entries, _ = read_catalog(data, book(), "en")
    plan = plan_import(book(), "en", entries)
    assert any("plural entry" in p.message for p in plan.problems)


def test_importpo_command_reports_every_problem_and_exits_non_zero(tmp_path, translator):
    path = tmp_path / "bad.po"
    data = edit_po(export_po(), "11.4.9:1", "Реакция (9.0).")
    path.write_bytes(data.replace(b'msgctxt "11.4.10:1"', b'msgctxt "11.4.10:5"'))
    err = io.StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command("importpo", "mpbs", "en", str(path), stderr=err)
    assert "11.4.9:1: QA errors" in err.getvalue() and "11.4.10:5: unknown context" in err.getvalue()
    with pytest.raises(CommandError, match="unknown rulebook 'nope'"):
        call_command("importpo", "nope", "en", str(path))
    with pytest.raises(CommandError, match="'ru' is not a target language"):
        call_command("importpo", "mpbs", "ru", str(path))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("importpo", "mpbs", "en", str(tmp_path / "missing.po"))


# ---------------------------------------------------------------------------------------------------- XLIFF


def edit_xliff(data: bytes, unit_id: str, new_target: str) -> bytes:
    text = data.decode()
    start = text.index(f'<unit id="{unit_id}"')
    end = text.index("</unit>", start)
    unit = text[start:end]
    from xml.sax.saxutils import escape

    unit = re.sub(r'<target xml:space="preserve">.*?</target>',
                  f'<target xml:space="preserve">{escape(new_target)}</target>', unit, flags=re.S)
    unit = unit.replace('state="initial"', 'state="translated"')
    return (text[:start] + unit + text[end:]).encode()


def test_xliff_export_is_xliff_2_with_glossary_and_states():
    text = export_xliff().decode()
    assert text.startswith("<?xml version='1.0' encoding='utf-8'?>")
    assert '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0"' in text and 'version="2.0"' in text
    assert 'srcLang="ru" trgLang="en"' in text
    assert '<unit id="11.4.10:1"' in text and 'state="final"' in text
    assert "<gls:term source=\"rulesref-glossary\">хиту формирования</gls:term>" in text
    assert "<gls:translation>formation hits</gls:translation>" in text


def test_xliff_round_trip_without_edits_changes_nothing(translator):
    without_translation("9.3.2")
    workflow.book_items(book(), "en")
    before = snapshot()
    plan = import_xliff(export_xliff(), user=translator)
    assert plan.clean and not plan.written and plan.unchanged == plan.total
    assert snapshot() == before


def test_xliff_round_trip_with_edits(translator):
    data = edit_xliff(export_xliff(), "11.4.9:1", "An advance or pursuit after Close Combat triggers a reaction (9.0) "
                                                   "— except by the units in that combat. <b>&amp;</b>")
    plan = import_xliff(data, user=translator)
    assert plan.written and plan.applied[0].origin == "xliff"
    assert item("11.4.9").translation.body.endswith("<b>&amp;</b>")  # plain text, kept exactly
    assert not import_xliff(export_xliff(), user=translator).written


def test_xliff_segments_split_by_a_cat_tool_are_joined(translator):
    text = export_xliff().decode()
    start = text.index('<unit id="11.4.9:1"')
    end = text.index("</unit>", start)
    unit = text[start:end]
    source = re.search(r'<source xml:space="preserve">(.*?)</source>', unit, re.S).group(1)
    target = re.search(r'<target xml:space="preserve">(.*?)</target>', unit, re.S).group(1)
    s1, s2 = source.split(", ", 1)
    t1, t2 = target.split(", ", 1)
    t2 = t2.replace("the result", "that result")
    split = (f'<segment state="translated"><source>{s1}, </source><target>{t1}, </target></segment>'
             f'<segment state="translated"><source>{s2}</source><target>{t2}</target></segment>')
    unit = re.sub(r"<segment.*</segment>", split, unit, flags=re.S)
    plan = import_xliff((text[:start] + unit + text[end:]).encode(), user=translator)
    assert plan.written and item("11.4.9").translation.body.endswith("that result.")


@pytest.mark.parametrize("data, message", [
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><xliff>&b;</xliff>', "refused"),
    (b'<?xml version="1.0"?><!DOCTYPE x SYSTEM "file:///etc/passwd"><xliff/>', "refused"),
    (b'<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0"><file>', "not well-formed XML at line 1"),
    (b'<html/>', "root element is <html>"),
    (b'<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2"/>', "not an export of the rulebook"),
    (b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.1" srcLang="ru" trgLang="en"/>', "version 2.1"),
    (b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="ru" trgLang="de"/>', "into “de”"),
    (b'<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="ru" trgLang="en"><file id="t9a"/></xliff>',
     "not an export of the rulebook “mpbs”"),
], ids=["billion-laughs", "external-dtd", "malformed", "not-xliff", "xliff-1.2", "version", "language", "book"])
def test_xliff_files_that_are_unsafe_or_not_an_export_of_this_book_are_refused(data, message):
    with pytest.raises(ExchangeError, match=message):
        read_xliff(data, book(), "en")


def test_xliff_inline_markup_and_changed_sources_are_reported(translator):
    data = export_xliff().decode()
    data = data.replace('<target xml:space="preserve">An advance or pursuit',
                        '<target xml:space="preserve"><ph id="1"/>An advance or pursuit', 1)
    data = data.replace("ближнем бою (11. 2. F).", "бою (11. 2. F).", 1)
    plan = import_xliff(data.encode(), user=translator)
    assert not plan.written
    messages = {p.context: p.message for p in plan.problems}
    assert "inline element <ph>" in messages["11.4.9:1"] and "source text changed" in messages["11.4.10:1"]
    assert plan.problems[0].where.startswith("unit ")


def test_xliff_commands(tmp_path):
    path = tmp_path / "mpbs.xlf"
    out = io.StringIO()
    call_command("exportxliff", "mpbs", "en", str(path), stdout=out)
    assert "86 units" in out.getvalue()
    before = snapshot()
    call_command("importxliff", "mpbs", "en", str(path))
    assert snapshot() == before
    path.write_bytes(b"<not xml")
    with pytest.raises(CommandError, match="not well-formed XML"):
        call_command("importxliff", "mpbs", "en", str(path))


# ---------------------------------------------------------------------------------------------------- web


def test_web_export_and_import(tina, translator):
    po = tina.get("/en/translate/mpbs/+export/po/")
    assert po.status_code == 200 and po["Content-Disposition"] == 'attachment; filename="mpbs-en.po"'
    xlf = tina.get("/en/translate/mpbs/+export/xliff/")
    assert xlf["Content-Type"].startswith("application/xliff+xml")
    from django.core.files.uploadedfile import SimpleUploadedFile

    edited = edit_po(po.content, "11.4.9:1", "An advance or pursuit after Close Combat triggers a reaction (9.0), "
                                              "except by the units of that combat.")
    response = tina.post("/en/translate/mpbs/+import/", {
        "file": SimpleUploadedFile("mine.po", edited), "status": "review"})
    html = response.content.decode()
    assert response.status_code == 200 and "Imported: 1 revision written." in html
    assert Revision.objects.filter(origin="po", author=translator).count() == 1
    bad = tina.post("/en/translate/mpbs/+import/", {"file": SimpleUploadedFile("x.txt", b"hello"), "status": "draft"})
    assert bad.status_code == 400 and "is not a PO, XLIFF or TMX file" in bad.content.decode()
    approve = tina.post("/en/translate/mpbs/+import/", {"file": SimpleUploadedFile("mine.po", edited), "status": "approved"})
    assert approve.status_code == 400 and "Select a valid choice" in approve.content.decode()


def test_web_import_report_escapes_the_uploaded_text(tina):
    payload = '<script>alert(1)</script><img src=x onerror=alert(2)>'
    data = export_po().replace(b'msgctxt "11.4.10:1"', f'msgctxt "{payload}"'.encode().replace(b'"<', b'"<'))
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = tina.post("/en/translate/mpbs/+import/", {"file": SimpleUploadedFile("x.po", data), "status": "draft"})
    html = response.content.decode()
    assert response.status_code == 400 and "unknown context" in html
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_units_text_and_contexts():
    assert workflow.parse_unit_context("9.3.1:2") == ("9.3.1", 2)
    assert workflow.parse_unit_context("XIII.7.C:title") == ("XIII.7.C", 0)
    assert workflow.parse_unit_context("9.3.1:02") is None and workflow.parse_unit_context(":1") is None
    assert workflow.unit_context("hold", 0) == "hold:title"
