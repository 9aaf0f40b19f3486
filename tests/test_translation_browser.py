"""The workspace in real Chromium: sign in, edit a section, see a QA warning (live, then saved), save; a second
browser saves the same section from the same version and lands on the conflict page with both texts; and untrusted
text (a translation, an uploaded PO) never runs as script."""
from __future__ import annotations

import io
import re

import pytest
from babel.messages.pofile import read_po, write_po
from test_translation_support import SOURCE_935, book, english, item, make_user, sign_in, untranslated

from rulesref.translation import workflow
from rulesref.translation.exchange import export_units
from rulesref.translation.exchange.po import write_catalog
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("fast_passwords")]
SID = "11.4.9"
PAYLOAD = ('<script>alert("script")</script> <img src=x onerror=alert("img")> '
           '<a href="javascript:alert(\'js\')">x</a> "><svg onload=alert("svg")> javascript:alert(1)')


def test_edit_see_qa_save_and_a_second_browser_gets_the_conflict_page(site, page_factory):
    make_user("tina", "translators")
    make_user("rita", "reviewers")
    workflow.book_items(book(), "en")
    url = f"/en/translate/mpbs/{SID}/"
    tina, rita = page_factory(), page_factory()
    sign_in(tina, site.url, "tina", url)
    sign_in(rita, site.url, "rita", url)  # both have the section open at the same version
    assert tina.locator("h1").inner_text().startswith(SID)
    assert tina.locator(".ed-source").first.inner_text().strip().endswith("Ответное действие")

    field = tina.locator("textarea[name=p1]")
    field.fill("An advance or pursuit after Close Combat triggers a reaction (9.0), кроме the units in that combat.")
    panel = tina.locator("#qa-panel")
    panel.get_by_text("Cyrillic text left in the translation").wait_for(timeout=10_000)  # live, as typed
    assert "as typed, not saved" in panel.inner_text()
    tina.select_option("select[name=status]", "draft")
    tina.fill("input[name=comment]", "first pass")
    tina.click("button[name=save]")
    tina.wait_for_url(f"{site.url}{url}")
    assert "Saved as revision 2" in tina.locator(".messages").inner_text()
    assert tina.locator(".qa-inline li", has_text="Cyrillic text left").count() == 1  # the saved QA warning

    rita.locator("textarea[name=p1]").fill("Rita's reading of the rule (9.0).")
    rita.click("button[name=save]")
    rita.wait_for_url(re.compile(rf".*/translate/mpbs/{re.escape(SID)}/conflict/\d+/$"))
    conflict = rita.locator("section.conflict")
    assert "Someone saved this section while you were editing it" in conflict.inner_text()
    assert "кроме the units" in conflict.inner_text() and "Rita's reading of the rule (9.0)." in conflict.inner_text()
    assert conflict.locator(".diff del").count() and conflict.locator(".diff ins").count()
    assert rita.locator("textarea[name=p1]").input_value() == "Rita's reading of the rule (9.0)."  # nothing lost
    rita.locator("textarea[name=p1]").fill("Merged: an advance or pursuit after Close Combat triggers a reaction (9.0).")
    rita.click("button[name=save]")
    rita.wait_for_url(f"{site.url}{url}")
    assert item(SID).translation.body.startswith("Merged:")
    assert tina.errors == [] and rita.errors == [] and tina.dialogs == [] and rita.dialogs == []


def test_untrusted_translation_and_uploaded_po_never_run(site, page_factory, tmp_path):
    make_user("tina", "translators")
    rita = make_user("rita", "reviewers")
    workflow.book_items(book(), "en")
    page = page_factory()
    url = f"/en/translate/mpbs/{SID}/"
    sign_in(page, site.url, "tina", url)
    page.locator("textarea[name=p1]").fill(f"{PAYLOAD} (9.0)")
    page.locator("input[name=title]").fill("Reaction <img src=x onerror=alert('title')>")
    page.click("button[name=save]")
    page.wait_for_url(f"{site.url}{url}")
    t = item(SID).translation
    workflow.save_translation(t, user=rita, title=t.title, body=t.body, status=Status.APPROVED,
                              base_version=t.version, source_revision=t.source_revision)  # published too

    po_payload = '<script>alert("po")</script> <img src=x onerror=alert("po")> (11.2.F).'
    catalog = read_po(io.BytesIO(write_catalog(book(), "en", export_units(book(), "en"))))
    next(m for m in catalog if m.context == "11.4.10:1").string = po_payload
    next(m for m in catalog if m.context == "11.4.10:title").context = "<script>alert('ctx')</script>"
    upload = tmp_path / "evil.po"
    with upload.open("wb") as fh:
        write_po(fh, catalog)
    page.goto(f"{site.url}/en/translate/mpbs/+import/")
    page.set_input_files("input[type=file]", str(upload))
    page.check("input[name=partial]")
    page.click("button.primary")
    page.locator(".import-report").wait_for()
    report = page.locator(".import-report").inner_text()
    assert "unknown context" in report and "<script>alert('ctx')</script>" in report
    assert "Imported: 1 revision written." in report
    assert item("11.4.10").translation.body == po_payload

    for path in ("/en/translate/mpbs/11.4.10/", "/en/translate/mpbs/11.4.10/diff/", url, f"{url}revisions/", f"{url}revisions/2/", f"{url}diff/?a=1&b=2", "/en/translate/mpbs/",
                 f"/en/rules/mpbs/{SID}/", f"/en/rules/mpbs/{SID}/?view=parallel"):
        page.goto(f"{site.url}{path}")
    page.wait_for_timeout(300)
    assert page.dialogs == [] and page.errors == []
    assert page.locator("script:not([src])").count() == 0


def test_a_translator_sees_a_memory_suggestion_with_its_percentage_and_inserts_it(site, page_factory):
    """9.3.6 is made a new, untranslated section whose source differs from 9.3.5's by one word; 9.3.5's approved
    English is in the memory, so the editor offers it with its percentage, and one click puts it in the field."""
    make_user("tina", "translators")
    workflow.ensure_translations(book(), "en")
    untranslated("9.3.6", SOURCE_935.replace("также могут перехватывать", "тоже могут перехватывать"))
    expected = english("9.3.5").body
    page = page_factory()
    url = "/en/translate/mpbs/9.3.6/"
    sign_in(page, site.url, "tina", url)
    suggestion = page.locator("#row-1 .tm-match").first
    percent = suggestion.locator(".tm-percent").inner_text()
    assert re.fullmatch(r"9\d%", percent), percent
    assert suggestion.locator(".tm-diff del").inner_text() == "также"
    assert suggestion.locator(".tm-diff ins").inner_text() == "тоже"
    field = page.locator("textarea[name=p1]")
    assert field.input_value() == ""
    suggestion.locator("button.tm-insert").click()
    assert field.input_value() == expected
    page.locator("#row-1 .term-insert", has_text="insert").first.click()  # a glossary term at the cursor
    assert field.input_value().startswith(expected) and field.input_value() != expected
    page.locator("#qa-panel", has_text="as typed, not saved").wait_for(timeout=10_000)  # the insert counts as typing
    assert page.errors == [] and page.dialogs == []


def test_a_reader_reports_a_problem_and_a_reviewer_sees_it_in_the_queue_and_the_editor(site, page_factory):
    """An anonymous reader opens the form under paragraph 2 of 9.3.1 (in place, with htmx), sends a message full of
    markup, follows the report by its link; the reviewer finds it on the dashboard, in the queue and beside
    paragraph 2 in the editor, accepts it, and the reader's page says so. No script of the payload ever runs."""
    from django.core.cache import cache

    cache.clear()
    make_user("rita", "reviewers")
    reader = page_factory(width=390, height=844)
    reader.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    reader.locator(".report-problem a").nth(1).click()
    form = reader.locator("#report-en-2 form.report-form")
    form.wait_for()
    assert "a) The enemy unit performs" in form.locator(".report-quote").inner_text()
    form.locator("input[value=translation]").check()
    form.locator("textarea").fill(f"Four hexes, not two. {PAYLOAD}")
    form.locator("button[type=submit]").click()
    thanks = reader.locator("#report-en-2 .report-thanks")
    thanks.wait_for()
    thanks.locator("a").click()
    reader.wait_for_url(re.compile(r".*/en/reports/[\w-]+/$"))
    assert "Four hexes, not two." in reader.locator("main").inner_text()
    assert reader.locator(".status").inner_text() == "new"
    follow_url = reader.url

    rita = page_factory()
    sign_in(rita, site.url, "rita", "/en/translate/mpbs/")
    assert "1" in rita.locator(".report-counts a", has_text="new").inner_text()
    rita.locator("#reports-h ~ ul.report-list a", has_text="9.3.1").click()
    rita.wait_for_url(f"{site.url}/en/translate/mpbs/9.3.1/")
    assert "Four hexes, not two." in rita.locator("#row-2 .reader-reports").inner_text()
    rita.goto(f"{site.url}/en/translate/mpbs/+reports/")
    card = rita.locator("li.report-card").first
    assert "Four hexes, not two." in card.inner_text() and "<script>" in card.inner_text()  # shown as text
    card.locator("select").select_option("accepted")
    card.locator("textarea").fill("Thank you, fixed in the next revision.")
    card.locator("button[type=submit]").click()
    rita.locator(".messages", has_text="accepted").wait_for()
    reader.goto(follow_url)
    assert reader.locator(".status").inner_text() == "accepted"
    assert "Thank you, fixed in the next revision." in reader.locator("main").inner_text()
    for page in (reader, rita):
        page.wait_for_timeout(200)
        assert page.dialogs == [] and page.errors == []
        assert page.locator("script:not([src])").count() == 0
