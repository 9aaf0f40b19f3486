"""The checker in real Chromium: build a position by clicking and with the keyboard, ask can-intercept and see the
path and the findings, the same answer in Russian, the 9.3 example from its rule page, a shared link in a fresh
browser, a broken upload, a phone-sized screen, and untrusted scenario text that must never run as script."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from rulesref.checker import books

pytestmark = [pytest.mark.browser]

PHONE = dict(width=390, height=844)
DESKTOP = dict(width=1280, height=900)


def hex_(page, label):
    return page.locator(f'svg.hexmap a.hx[data-hex="{label}"]')


def settle(page):
    """Wait until htmx has sent, received, swapped and settled whatever the last action started."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(60)
    # (a locator, not wait_for_function: under the Content-Security-Policy a string predicate cannot be evaluated)
    page.locator(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added").first.wait_for(state="detached")
    page.wait_for_load_state("networkidle")


def choose_tool(page, tool):
    page.locator(f'input[type=radio][name=tool][value="{tool}"]').check()
    settle(page)


def set_unit(page, unit, **fields):
    """Select ``unit`` (its counter's hex) and save properties through the side panel's form."""
    page.locator("details.unit-props summary").click()
    for name, value in fields.items():
        page.locator(f'[name="u-{name}"]').fill(str(value))
    page.get_by_role("button", name="Save the unit").click()
    settle(page)


def build_interception_by_clicking(page, base):
    page.goto(f"{base}/en/checker/mpbs/")
    choose_tool(page, "place")
    page.locator('select[name="side"]').select_option("blue")
    settle(page)
    page.locator('.tools select[name="kind"]').select_option("heavy-infantry")
    settle(page)
    page.locator('.tools input[name="two"]').check()
    settle(page)
    hex_(page, "0405").click()
    settle(page)
    assert page.locator('g.unit[data-unit="HI-1"]').count() == 1
    page.locator('select[name="side"]').select_option("red")
    settle(page)
    page.locator('.tools select[name="kind"]').select_option("cavalry")
    settle(page)
    page.locator('.tools input[name="two"]').uncheck()
    settle(page)
    hex_(page, "0708").click()
    settle(page)
    assert page.locator('g.unit[data-unit="CAV-1"]').count() == 1
    # Turn the cavalry two vertices clockwise with the keyboard, from S to NW.
    page.keyboard.press("s")  # the select tool
    settle(page)
    hex_(page, "0708").focus()
    page.keyboard.press("r")
    settle(page)
    page.keyboard.press("r")
    settle(page)
    assert page.locator("#unit-h").inner_text() == "Unit CAV-1"
    set_unit(page, "CAV-1", allowance=6, morale_rating=8)
    hex_(page, "0405").click()
    settle(page)
    assert page.locator("#unit-h").inner_text() == "Unit HI-1"
    set_unit(page, "HI-1", allowance=4, spent=1)
    page.get_by_role("button", name="Set as moving").click()
    settle(page)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_build_a_position_by_clicking_and_ask_can_intercept(site, page_factory, size):
    page = page_factory(**size)
    build_interception_by_clicking(page, site.url)
    page.locator("#ask-q").select_option("can-intercept")
    settle(page)
    page.locator('select[name="p-unit"]').select_option("CAV-1")
    page.get_by_role("button", name="Ask", exact=True).click()
    settle(page)
    assert page.locator(".answer .verdict").inner_text() == "yes"
    assert page.locator(".mk-path polyline").count() == 1  # the interception path drawn
    assert page.locator(".sec-front").count() > 0  # and the cavalry's front sector
    findings = page.locator(".finding")
    assert findings.count() >= 10
    link = page.locator(".finding a.cite", has_text="9.3.1c").first
    assert link.get_attribute("href") == "/en/rules/mpbs/9.3.1/#9.3.1c"
    tip = page.locator(f'#{link.get_attribute("aria-describedby")}')  # the clause's own text, as a tooltip
    page.mouse.move(0, 0)
    assert not tip.is_visible()  # hidden until the clause is pointed at or focused
    link.focus()
    assert tip.is_visible() and tip.get_attribute("lang") == "en"
    assert "The cavalry unit is not disordered" in tip.inner_text()  # 9.3.1c itself
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # Undo steps back through the edits; redo comes back.
    page.locator("a[data-key=undo]").click()
    settle(page)
    # One step back HI-1 is not yet set as moving: nothing triggers an interception, and the answer says so.
    assert page.locator(".answer .verdict").inner_text() == "undetermined"
    assert page.locator(".answer .msg").all_inner_texts() == [
        "The scenario names no triggering event: there is no moving unit to intercept."]
    page.locator("a[data-key=redo]").click()
    settle(page)
    assert page.locator(".answer .verdict").inner_text() == "yes"
    # The same answer in Russian: the same verdict and findings, the clauses linked to the Russian text.
    answer_en = page.locator(".finding").count()
    page.locator("#lang-switch").click()
    page.wait_for_url(re.compile(r"/ru/checker/mpbs/\?"))
    assert page.locator(".finding").count() == answer_en
    link = page.locator(".finding a.cite", has_text="9.3.1c").first
    assert link.get_attribute("href") == "/ru/rules/mpbs/9.3.1/#9.3.1c"
    assert "Способность" in link.inner_text()
    assert page.errors == [] and page.dialogs == []


def test_open_the_93_example_from_its_rule_page(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.7/")
    link = page.get_by_role("link", name="Open this example in the checker")
    link.click()
    page.wait_for_url(re.compile(r"/en/checker/mpbs/examples/interception-example-9\.3/"))
    assert page.locator(".answer .verdict").inner_text() == "yes"
    assert page.locator(".mk-path polyline").count() == 1


def test_the_93_example_shows_the_worked_answer(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/")
    page.get_by_role("link", name="The interception example of 9.3").click()
    settle(page)
    assert page.locator(".answer .verdict").inner_text() == "yes"
    assert page.locator('g.unit[data-unit="HI-1"]').count() == 1
    page.locator("#ask-q").select_option("interception-chance")
    settle(page)
    assert "70" in page.locator(".facts").inner_text()


def test_save_and_open_the_link_in_a_fresh_browser(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/mpbs/examples/interception-example-9.3/")
    choose_tool(page, "terrain")
    hex_(page, "0606").click()  # woods on the path: an edit makes a draft
    settle(page)
    page.get_by_role("button", name="Save and get a link").click()
    settle(page)
    link = page.locator("#share-link").input_value()
    # the link states the whole question: the target is the moving unit the page started from
    assert re.match(rf"^{re.escape(site.url)}/en/checker/mpbs/s/[a-z0-9]{{7}}/\?q=can-intercept&p-unit=CAV-1"
                    rf"&p-target=HI-1$", link)
    verdict = page.locator(".answer .verdict").inner_text()
    units = sorted(page.locator("g.unit").evaluate_all("gs => gs.map(g => g.dataset.unit + g.getAttribute('transform'))"))
    other = page_factory(**PHONE)  # a new browser context: no cookies, no history
    other.goto(link)
    assert other.locator(".answer .verdict").inner_text() == verdict
    assert sorted(other.locator("g.unit").evaluate_all("gs => gs.map(g => g.dataset.unit + g.getAttribute('transform'))")) == units
    assert other.locator('a.hx[data-hex="0606"] use').get_attribute("fill") == "#b9d7a8"


def test_upload_a_broken_file_and_see_the_errors(site, page_factory, tmp_path):
    data = json.loads(books.example("mpbs", "interception-example-9.3").path.read_text())
    data["units"][1]["morale"]["rating"] = 40
    data["units"][0]["type"] = "dragon"
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/mpbs/")
    page.locator('input[name="up-file"]').set_input_files(str(path))
    page.get_by_role("button", name="Upload").click()
    settle(page)
    report = page.locator(".upload-report")
    assert report.is_visible()
    rating = report.locator(".jt-item.jt-bad", has=page.locator(".jt-key", has_text="rating"))
    assert "40 is above the most allowed, 12" in rating.locator(".jt-problem").first.inner_text()
    kind = report.locator(".jt-item.jt-bad", has=page.locator(".jt-key", has_text=re.compile("^type$")))
    assert "dragon" in kind.locator(".jt-problem").first.inner_text()
    assert page.locator("g.unit").count() == 0  # nothing was loaded


PAYLOAD = '<script>alert("s")</script><img src=x onerror=alert("i")>'
# ids and sides are at most 40 characters (the engine's limits): payloads that fit
ID_PAYLOAD = '"><svg onload=alert(1)><b>x</b>"<a>\''  # 36
SIDE_PAYLOAD = 'blue<script>alert("d")</script>'


def test_untrusted_scenario_text_never_runs(site, page_factory, settings, tmp_path):
    fixtures = tmp_path / "fixtures"
    shutil.copytree(settings.FIXTURES_DIR / "scenarios", fixtures / "scenarios")
    data = json.loads(books.example("mpbs", "interception-example-9.3").path.read_text())
    data["title"] = "T " + PAYLOAD
    data["description"] = "javascript:alert('d') " + PAYLOAD
    raw = json.dumps(data).replace('"CAV-1"', json.dumps(ID_PAYLOAD))
    raw = raw.replace('"blue"', json.dumps(SIDE_PAYLOAD))
    (fixtures / "scenarios" / "mpbs" / "evil.json").write_text(raw)
    bilingual = dict(json.loads(raw), title={"en": "T " + PAYLOAD, "ru": "Т " + PAYLOAD},
                     description={"en": PAYLOAD, "ru": "javascript:alert('r')"})
    (fixtures / "scenarios" / "mpbs" / "evil-bilingual.json").write_text(json.dumps(bilingual))
    settings.FIXTURES_DIR = fixtures
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/")
    page.goto(f"{site.url}/ru/checker/")
    page.goto(f"{site.url}/en/checker/mpbs/examples/evil-bilingual/")
    page.goto(f"{site.url}/en/checker/mpbs/examples/evil/")
    settle(page)
    assert page.locator("g.unit").count() == 2
    hex_(page, "0708").click()  # select the evil unit: its id in forms, titles, panels
    settle(page)
    page.get_by_role("button", name="Save and get a link").click()
    settle(page)
    page.goto(page.locator("#share-link").input_value())
    # an upload whose problems quote the payloads
    broken = json.loads(raw)
    broken["units"][0]["type"] = PAYLOAD
    broken["map"]["javascript:alert(1)"] = PAYLOAD
    path = tmp_path / "evil-upload.json"
    path.write_text(json.dumps(broken))
    page.locator('input[name="up-file"]').set_input_files(str(path))
    page.get_by_role("button", name="Upload").click()
    settle(page)
    assert page.locator(".upload-report").is_visible()
    page.goto(f"{site.url}/ru/checker/mpbs/examples/evil/?q=can-intercept&p-unit=" + "%22%3E%3Cscript%3E")
    page.wait_for_timeout(300)
    assert page.dialogs == []
    assert page.evaluate("document.querySelectorAll('script:not([src])').length") == 0
    assert page.evaluate("document.querySelectorAll('[onerror],[onload]').length") == 0
    assert page.evaluate("[...document.querySelectorAll('a[href]')].filter(a => (a.getAttribute('href') || '').trim().toLowerCase().startsWith('javascript')).length") == 0
