"""Live search and term tooltips in headless Chromium: by typing, by keyboard and by tap."""
import pytest

pytestmark = [pytest.mark.browser]


def test_live_search_as_you_type(site, page_factory):
    page = page_factory(width=1200, height=800)
    page.goto(f"{site.url}/ru/rules/mpbs/5.7/")
    page.fill("#site-search-q", "перехватить")
    first = page.locator("#site-search-results .hits a").first
    first.wait_for()
    assert first.inner_text().startswith("9.3.1 ")  # the clause that says who may intercept (#13)
    first.click()
    page.wait_for_url(f"{site.url}/ru/rules/mpbs/9.3.1/")
    # Enter on a number goes straight to the section
    page.fill("#site-search-q", "11. 4. 5")
    page.press("#site-search-q", "Enter")
    page.wait_for_url(f"{site.url}/ru/rules/mpbs/11.4.5/")
    assert page.errors == []


def test_a_reader_who_only_reads_never_fetches_htmx_and_a_search_typed_at_once_still_answers(site, page_factory):
    page = page_factory(width=1200, height=800)
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(f"{site.url}/en/rules/mpbs/9.3/")
    page.wait_for_load_state("networkidle")
    assert not [url for url in fetched if "htmx" in url]  # the page, its CSS and its own scripts only
    page.locator("#site-search-q").press_sequentially("hedgehog")  # typed before htmx has arrived
    # The answer to the whole word: the results of a beginning typed on the way («he», a word of its own below
    # three letters) may come first and are replaced by it.
    page.locator("#site-search-results .hits a", has_text="Hedgehog").first.wait_for()
    assert len([url for url in fetched if "htmx" in url]) == 1
    assert page.errors == []


def test_tooltip_by_keyboard(site, page_factory):
    page = page_factory(width=1200, height=800)
    page.goto(f"{site.url}/en/rules/mpbs/9.2.3/")
    tip = page.locator("#term-tip")  # one tooltip, filled from the term's definition on the page
    assert not tip.is_visible()
    for _ in range(200):  # Tab through the page until the term has focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement && document.activeElement.textContent") == "Hedgehog":
            break
    assert tip.is_visible()
    assert tip.inner_text().startswith("ёж")
    page.keyboard.press("Tab")  # the tooltip leaves with the focus (for the next term, if the focus is on one)
    assert not tip.is_visible() or not tip.inner_text().startswith("ёж")


def test_tooltip_by_tap_then_follow(site, page_factory):
    page = page_factory(width=390, height=844, has_touch=True, is_mobile=True)
    page.goto(f"{site.url}/ru/rules/mpbs/9.3.1/")
    link = page.locator('p.clause[id="9.3.1e"] a.term', has_text="хиты построения")
    tip = page.locator("#term-tip")
    link.tap()
    assert tip.is_visible() and "formation hits" in tip.inner_text()
    assert page.url.endswith("/ru/rules/mpbs/9.3.1/")  # the first tap only explains
    link.tap()
    page.wait_for_url(f"{site.url}/ru/glossary/mpbs/formation-hits/")


def test_glossary_filters_as_you_type(site, page_factory):
    page = page_factory(width=1200, height=800)
    page.goto(f"{site.url}/en/glossary/mpbs/")
    page.fill("#term-filter", "hedge")
    visible = page.locator(".term-row:visible")
    assert visible.count() == 1 and "Hedgehog" in visible.first.inner_text()


def test_untrusted_glossary_and_query_never_run(site, page_factory, corpus_copy, settings):
    import shutil
    from pathlib import Path

    glossary = corpus_copy.parent / "glossary"
    shutil.copytree(Path(__file__).resolve().parent.parent / "fixtures" / "glossary", glossary)
    path = glossary / "mpbs.toml"
    text = path.read_text(encoding="utf-8")
    evil = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)'
    text = text.replace('en = "Hedgehog"', f'en = "Hedgehog {evil}"', 1)
    text = text.replace('definition_en = "', f'definition_en = "{evil} ', 1)
    path.write_text(text, encoding="utf-8")
    page = page_factory(width=1200, height=800)
    page.goto(f"{site.url}/ru/rules/mpbs/9.2.3/")
    page.goto(f"{site.url}/en/glossary/mpbs/")
    page.goto(f"{site.url}/en/glossary/mpbs/hedgehog/")
    page.goto(f"{site.url}/en/search/?q=%3Cscript%3Ealert(4)%3C/script%3E%20%3Cimg%20src%3Dx%20onerror%3Dalert(5)%3E")
    page.fill("#site-search-q", '"><img src=x onerror=alert(6)>')
    page.wait_for_timeout(600)
    assert page.dialogs == []
