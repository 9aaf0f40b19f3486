"""Tables and "Report a problem" in Chromium (the reference pages of tests/test_reference_books.py): hostile text in
a table's cells never runs, a wide table scrolls inside its own box on a 390 px phone while the page does not, and
the per-paragraph report link is quiet (in the margin, shown on pointing, on a wide screen; a short line on a phone)
and opens the existing report form under its paragraph."""
from __future__ import annotations

import pytest
from browsing import wait_until

from rulesref.reference.corpus import read_book
from rulesref.reference.index import invalidate
from rulesref.reference.loading import load_book
from rulesref.reference.models import Book, SectionText
from test_reference_books import HARBOUR

pytestmark = [pytest.mark.browser]

WIDE_HOSTILE = ("| Water <script>window.ran=1</script> | Cost <img src=x onerror=\"window.ran=2\"> | Effect | "
                "Notes that go on | More notes | Yet more |\n| --- | --- | --- | --- | --- | --- |\n"
                "| <svg onload=\"window.ran=3\"></svg> | 1 \\| 2 | \"><iframe src=javascript:window.ran=4> | "
                "a long cell of rule text that makes the table wider than any phone screen | see § 1-1 | "
                "<a href=javascript:window.ran=5>link</a> |")


@pytest.fixture
def harbour(site):
    load_book(read_book(HARBOUR))
    book = Book.objects.get(slug="harbour")
    for lang in ("en", "ru"):
        text = SectionText.objects.get(section__book=book, section__sid="1.2", language=lang)
        text.body = text.body.split("\n\n")[0] + "\n\n" + WIDE_HOSTILE
        text.save()
    book.bump_version()
    invalidate()
    return site


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_hostile_table_text_does_not_run_and_a_wide_table_scrolls_inside_its_box(harbour, page_factory, lang):
    page = page_factory(width=390, height=844, has_touch=True, is_mobile=True)
    page.goto(f"{harbour.url}/{lang}/rules/harbour/1.2/")
    table = page.locator(".text table.rules-table")
    assert table.count() == 1
    assert table.locator("thead th").count() == 6 and table.locator("tbody tr").count() == 1
    assert "<script>window.ran=1</script>" in table.locator("thead th").nth(0).inner_text()
    assert table.locator("tbody td").nth(1).inner_text() == "1 | 2"
    assert table.locator("script, img, svg, iframe, a[href^=javascript]").count() == 0
    assert table.locator("a.ref").get_attribute("href") == f"/{lang}/rules/harbour/1.1/"
    page.wait_for_timeout(300)  # anything that would run on load has run
    assert page.evaluate("window.ran") is None and page.dialogs == [] and page.errors == []
    # The page itself never scrolls sideways; the table's box does.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    wrap = page.locator(".table-wrap")
    sizes = wrap.evaluate("el => [el.scrollWidth, el.clientWidth, el.getBoundingClientRect().right]")
    assert sizes[0] > sizes[1] and sizes[2] <= 390
    wrap.evaluate("el => el.scrollLeft = 10000")
    assert wrap.evaluate("el => el.scrollLeft") > 0
    assert page.evaluate("window.scrollX") == 0


@pytest.mark.parametrize("lang, label", [("en", "Report a problem"), ("ru", "Сообщить о проблеме")])
def test_report_a_problem_is_in_the_margin_on_a_wide_screen_until_the_paragraph_is_pointed_at(
        site, page_factory, lang, label):
    page = page_factory(width=1366, height=900)
    page.goto(f"{site.url}/{lang}/rules/mpbs/9.3.1/")
    paragraphs = page.locator(".text > p:not(.report-problem), .text > ul, .text > .table-wrap")
    links = page.locator(".text > .report-problem a")
    assert links.count() == paragraphs.count() > 3
    text_box = page.locator(".text").bounding_box()
    second = links.nth(1)
    assert second.inner_text().strip().endswith(label)
    assert second.evaluate("el => getComputedStyle(el).opacity") == "0"
    box = second.bounding_box()
    assert box["x"] >= text_box["x"] + text_box["width"]  # beside the text, not under it
    target = paragraphs.nth(1).bounding_box()
    assert target["y"] <= box["y"] + box["height"] / 2 <= target["y"] + target["height"]  # by its paragraph
    paragraphs.nth(1).hover()
    wait_until(page, "getComputedStyle(document.querySelectorAll('.text > .report-problem a')[1]).opacity === '1'")
    assert links.nth(0).evaluate("el => getComputedStyle(el).opacity") == "0"
    # the paragraphs are as close together as without the links
    gap = paragraphs.nth(2).bounding_box()["y"] - (target["y"] + target["height"])
    assert gap < 20
    second.focus()
    assert second.evaluate("el => getComputedStyle(el).opacity") == "1"
    second.click()
    page.locator(f"#report-{lang}-2 form.report-form").wait_for()
    assert page.errors == []


def test_report_a_problem_on_a_phone_is_a_short_quiet_line_and_opens_the_form(site, page_factory):
    page = page_factory(width=390, height=844, has_touch=True, is_mobile=True)
    page.goto(f"{site.url}/ru/rules/mpbs/9.3.1/")
    link = page.locator(".text > .report-problem a").nth(1)
    assert link.is_visible() and link.evaluate("el => getComputedStyle(el).opacity") == "1"
    box = link.bounding_box()
    assert box["height"] >= 24 and box["x"] + box["width"] <= 390
    font = float(link.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    body = float(page.locator(".text > p").first.evaluate("el => getComputedStyle(el).fontSize").removesuffix("px"))
    assert font < body * 0.85  # quieter than the rule text
    assert link.get_attribute("aria-label") == "Сообщить о проблеме в абзаце 2"
    link.tap()
    form = page.locator("#report-ru-2 form.report-form")
    form.wait_for()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.errors == []
