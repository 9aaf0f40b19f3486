"""Every kind of page passes its Content-Security-Policy in real Chromium (script-src and style-src 'self', no
'unsafe-inline'): no ``securitypolicyviolation`` event and no CSP error on the console, on load and while used
(live search, tooltips, a hex clicked, a question asked on the board, the editor's live QA). Also the pages the
edge answers with: a refusal, a rate limit, a lock-out."""
from __future__ import annotations

import pytest
from test_translation_support import PASSWORD, book, make_user

from rulesref.translation import workflow

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("fast_passwords")]

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || "") + ":" +
                    e.lineNumber + " " + (e.sample || ""));
});
"""

READING = ["/en/", "/ru/", "/en/rules/mpbs/", "/ru/rules/mpbs/9.3.1/", "/en/rules/mpbs/9.3.1/?view=parallel",
           "/ru/rules/t9a/XIII.7.C/", "/en/rules/mpbs/errata/", "/en/search/?q=intercept", "/ru/search/?q=перехват",
           "/en/glossary/mpbs/", "/ru/glossary/t9a/", "/en/rules/mpbs/99.9/", "/en/nowhere/",
           "/en/checker/", "/ru/checker/mpbs/", "/en/checker/mpbs/examples/interception-example-9.3/",
           "/en/accounts/login/", "/en/search/?q=a%00b"]
BOARD = ["/ru/checker/t9a/", "/ru/checker/t9a/examples/charge-clear/", "/en/checker/t9a/examples/pursuit-two-pursuers/"]


def watched(page_factory, **kwargs):
    page = page_factory(**kwargs)
    page.csp_console = []
    page.add_init_script(WATCH)
    page.on("console", lambda m: "Content Security Policy" in m.text and page.csp_console.append(m.text))
    return page


def violations(page) -> list[str]:
    return page.evaluate("window.__csp || []") + page.csp_console


def visit(page, url: str) -> list[str]:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return violations(page)


def test_reading_checker_and_sign_in_pages_pass_the_policy(site, page_factory):
    page = watched(page_factory, width=1366, height=900)
    found = {url: v for url in READING if (v := visit(page, site.url + url))}
    assert not found, report(found)
    # Used as a reader uses them: live search, a term's tooltip, a hex clicked with the current tool.
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    page.fill("#site-search-q", "interception")
    page.locator("#site-search-results a").first.wait_for()
    page.locator("main .term").first.hover()
    page.goto(f"{site.url}/en/checker/mpbs/examples/interception-example-9.3/")
    page.locator('svg.hexmap a.hx[data-hex="0505"]').click()
    page.wait_for_load_state("networkidle")
    assert not violations(page)


def test_the_tabletop_board_passes_the_policy(site, page_factory):
    page = watched(page_factory, width=1366, height=900)
    found = {url: v for url in BOARD if (v := visit(page, site.url + url))}
    assert page.locator(".answer").count() >= 1
    assert not found, report(found)


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{url}: {line}" for url, lines in found.items() for line in lines)


def test_workspace_pages_pass_the_policy(site, page_factory):
    make_user("rita", "reviewers")
    workflow.book_items(book(), "en")
    page = watched(page_factory, width=390, height=844)
    page.goto(f"{site.url}/ru/accounts/login/?next=/ru/translate/mpbs/")
    page.fill("#id_username", "rita")
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{site.url}/ru/translate/mpbs/")
    assert page.locator("svg.stacked-bar rect").count() > 0  # the progress bar, drawn without style attributes
    found = {}
    for url in ("/ru/translate/", "/ru/translate/mpbs/", "/en/translate/mpbs/11.4.9/",
                "/en/translate/mpbs/11.4.9/revisions/", "/en/translate/mpbs/11.4.9/diff/", "/en/translate/mpbs/+import/"):
        if v := visit(page, site.url + url):
            found[url] = v
    page.goto(f"{site.url}/en/translate/mpbs/11.4.9/")
    page.locator("textarea[name=p1]").fill("A changed paragraph (9.0), typed to trigger the live QA.")
    page.wait_for_timeout(1200)
    page.wait_for_load_state("networkidle")
    if v := violations(page):
        found["editor, typing"] = v
    assert not found


@pytest.mark.rate_limits
def test_the_edges_own_answers_pass_the_policy(site, page_factory, settings):
    settings.RULESREF_RATE_LIMITS = {"checker": "1/h"}
    settings.AXES_FAILURE_LIMIT = 2
    make_user("tina", "translators")
    page = watched(page_factory, width=390, height=844)
    page.goto(f"{site.url}/ru/checker/mpbs/")
    for _ in range(2):  # the second click is over the limit: htmx shows the notice at the top of the page
        page.locator('svg.hexmap a.hx[data-hex="0303"]').click()
        page.wait_for_load_state("networkidle")
    page.locator(".edge-notice").wait_for()
    assert "Слишком много запросов" in page.locator(".edge-notice").inner_text()
    for _ in range(3):
        page.goto(f"{site.url}/en/accounts/login/")
        page.fill("#id_username", "tina")
        page.fill("#id_password", "wrong password")
        page.click("button.primary")
    assert "Too many failed sign-in attempts" in page.locator("main").inner_text()
    assert not violations(page)


def test_admin_pages_pass_the_policy(site, page_factory):
    make_user("root", superuser=True)
    page = watched(page_factory, width=1366, height=900)
    page.goto(f"{site.url}/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{site.url}/admin/")
    found = {url: v for url in ("/admin/", "/admin/reference/section/", "/admin/reference/section/1/change/",
                                "/admin/auth/user/add/", "/admin/axes/accessattempt/")
             if (v := visit(page, site.url + url))}
    assert not found, report(found)
