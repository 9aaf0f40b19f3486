"""Real pages in headless Chromium: a section page and the parallel view at phone and desktop widths, the
language switch, links, and untrusted text that must never run as script."""
import pytest

from rulesref.reference.index import invalidate
from rulesref.reference.loading import load_corpus

pytestmark = [pytest.mark.browser]

PHONE = dict(width=390, height=844)
DESKTOP = dict(width=1280, height=900)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_section_page(site, page_factory, size):
    page = page_factory(**size)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    assert page.locator("h1").inner_text() == "9.3.1 Eligibility"
    assert page.locator("p.clause").count() == 7
    # nothing overflows sideways on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.get_by_role("link", name="9.1.3").count() == 0  # not in the corpus: not a link
    assert page.locator(".ref-missing", has_text="10.9.3b").get_attribute("title") == "Section 10.9.3b is not in this corpus"
    page.get_by_role("link", name="This section in Russian").click()
    page.wait_for_url(f"{site.url}/ru/rules/mpbs/9.3.1/")
    assert page.locator("h1").inner_text() == "9.3.1 Способность"
    assert page.errors == []


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_parallel_view(site, page_factory, size):
    page = page_factory(**size)
    page.goto(f"{site.url}/ru/rules/mpbs/9.2.4/?view=parallel")
    rows = page.locator(".parallel-grid .row:not(.head)")
    assert rows.count() == 3
    ru_box = rows.nth(0).locator('.cell[lang="ru"]').bounding_box()
    en_box = rows.nth(0).locator('.cell[lang="en"]').bounding_box()
    if size is DESKTOP:
        assert abs(ru_box["y"] - en_box["y"]) < 2 and en_box["x"] > ru_box["x"] + ru_box["width"]  # side by side
    else:
        assert en_box["y"] >= ru_box["y"] + ru_box["height"] - 1  # stacked
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_following_a_reference_and_copying_the_link(site, page_factory):
    page = page_factory(**DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page.goto(f"{site.url}/en/rules/mpbs/9.2.1/")
    page.locator("a.ref", has_text="9.2.4").click()
    page.wait_for_url(f"{site.url}/en/rules/mpbs/9.2.4/")
    assert "Withdraw" in page.locator("h1").inner_text()
    button = page.get_by_role("button", name="Copy link")
    button.click()
    page.locator("button.copy-link", has_text="Link copied").wait_for()  # CSP: no string predicates (eval)


def test_untrusted_corpus_text_never_runs(site, page_factory, corpus_copy):
    payload = ('<script>alert("script")</script> <img src=x onerror=alert("img")> '
               '<a href="javascript:alert(\'js\')">x</a> "><svg onload=alert("svg")>')
    path = corpus_copy / "mpbs" / "en" / "9.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace("### Eligibility {#9.3.1", f"### Eligibility {payload} {{#9.3.1", 1)
    text = text.replace("An inactive cavalry unit", f"{payload} (9.3.2) javascript:alert('t') An inactive cavalry unit", 1)
    path.write_text(text, encoding="utf-8")
    load_corpus()
    invalidate()
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/?view=parallel")
    page.goto(f"{site.url}/en/rules/mpbs/9.3.2/")  # the payload's title shows in prev/next and backlinks
    page.goto(f"{site.url}/en/rules/mpbs/")
    page.wait_for_timeout(200)
    assert page.dialogs == []
    assert page.locator("script:not([src])").count() == 0
