"""A big rulebook's contents in Chromium (tests/test_big_book_pages.py has the rest): "Show N subsections" opens a
section in place with htmx (the page stays where it is), and the links it brings open in turn; without script the
same link is the contents page with that section open, scrolled to it."""
from __future__ import annotations

import re

import pytest
from browsing import wait_until
from generated_books import load

from rulesref.reference.index import invalidate

pytestmark = [pytest.mark.browser]


@pytest.fixture
def big_book(site, settings, tmp_path):
    settings.RULESREF_TOC_ROWS = 20  # 300 sections: the chapters alone, each opening to its sections
    load("scale300", 300, tmp_path)
    invalidate()
    return site


def children_shown(page, sid: str) -> int:
    return page.evaluate(f"(document.getElementById('toc-{sid}').querySelector(':scope > ul.toc') || "
                         f"{{children: []}}).children.length")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_show_opens_a_section_in_place(big_book, page_factory, lang):
    page = page_factory()
    url = f"{big_book.url}/{lang}/rules/scale300/"
    page.goto(url)
    first = page.locator("a.toc-open").first
    sid = first.evaluate("a => a.closest('li').id").removeprefix("toc-")
    count = int(re.search(r"\d+", first.inner_text()).group())
    before = page.locator("a.toc-open").count()
    first.click()
    wait_until(page, f"document.getElementById('toc-{sid}').querySelector(':scope > ul.toc')")
    assert children_shown(page, sid) == count and page.url == url
    assert page.locator(f"[id='toc-{sid}'] > a.toc-open").count() == 0
    inner = page.locator(f"[id='toc-{sid}'] a.toc-open")  # its sections, closed in turn
    assert inner.count() > 0 and page.locator("a.toc-open").count() == before - 1 + inner.count()
    deeper = inner.first.evaluate("a => a.closest('li').id").removeprefix("toc-")
    inner.first.click()
    wait_until(page, f"document.getElementById('toc-{deeper}').querySelector(':scope > ul.toc')")
    assert page.errors == [] and page.dialogs == []


def test_without_script_show_is_the_page_with_the_section_open(big_book, page_factory):
    page = page_factory(java_script_enabled=False)
    page.goto(f"{big_book.url}/en/rules/scale300/")
    first = page.locator("a.toc-open").first
    sid = first.get_attribute("href").split("#toc-")[1]
    count = int(re.search(r"\d+", first.inner_text()).group())
    first.click()
    page.wait_for_load_state()
    assert page.url == f"{big_book.url}/en/rules/scale300/?open={sid}#toc-{sid}"
    assert page.locator(f"[id='toc-{sid}'] > ul.toc > li").count() == count
