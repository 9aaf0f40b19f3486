"""The first ten minutes, on a phone, in Russian (#30), in real Chromium.

- Every kind of page, both languages, at 390 px with a touch screen (and the main ones at 1366 px): no axe-core
  violation, no wider than the screen, no code name (snake_case, a dotted path, a file name) in the text a player
  reads, no console error (a Content-Security-Policy violation is one).
- The checker by touch at 390 px: every tool in sight, the map fits and zooms, nothing lies over it, one tap does
  one thing (a second measure tap while the first is on its way is not lost); a retreat and a charge built by
  tapping, and their answers read in words.
"""
from __future__ import annotations

import re

import pytest

from tests.axecore import axe_violations, code_names, peoples_text, wider_than_screen
from tests.browsing import refused_by_the_policy
from tests.test_checker_board_browser import board_xy, unit
from tests.test_checker_browser import settle

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.browser]

PHONE = dict(width=390, height=844, has_touch=True, is_mobile=True)
DESKTOP = dict(width=1366, height=900)

# Every kind of page a reader or a player opens (the checker's with an answer on both boards, the board with its
# units placed and one selected, a panel of each board's scenario).
PAGES = {
    "home": "/{lang}/",
    "contents": "/{lang}/rules/mpbs/",
    "section": "/{lang}/rules/mpbs/9.3.1/",
    "parallel": "/{lang}/rules/mpbs/9.3.1/?view=parallel",
    "t9a section": "/{lang}/rules/t9a/XIII.7.C/",
    "search": "/{lang}/search/?q=hedgehog",
    "glossary": "/{lang}/glossary/mpbs/",
    "term": "/{lang}/glossary/mpbs/hedgehog/",
    "errata": "/{lang}/rules/mpbs/errata/",
    "what changed": "/{lang}/rules/mpbs/changes/?since=1",
    "section history": "/{lang}/rules/mpbs/9.3.1/history/",
    "section at a revision": "/{lang}/rules/mpbs/9.3.1/@1/",
    "coverage mpbs": "/{lang}/rules/mpbs/coverage/",
    "coverage t9a": "/{lang}/rules/t9a/coverage/",
    "404": "/{lang}/rules/mpbs/9.3.9/",
    "sign-in": "/{lang}/accounts/login/",
    "gallery": "/{lang}/checker/",
    "new hex map": "/{lang}/checker/mpbs/",
    "hex answer": "/{lang}/checker/mpbs/examples/retreat/",
    "hex answer, unit selected": "/{lang}/checker/mpbs/examples/interception-example-9.3/?sel=CAV-1",
    "hex measure": "/{lang}/checker/mpbs/examples/interception-example-9.3/?tool=measure&m=u:CAV-1&m=u:HI-1",
    "hex tables": "/{lang}/checker/mpbs/examples/retreat/?panel=tables",
    "new board": "/{lang}/checker/t9a/",
    "board answer": "/{lang}/checker/t9a/examples/reactions-all-three/",
    "board answer, unit selected": "/{lang}/checker/t9a/examples/reactions-all-three/?sel=knights",
    "board pursuit": "/{lang}/checker/t9a/examples/pursuit-two-pursuers/?panel=pursuit",
    "board charges": "/{lang}/checker/t9a/examples/charge-already-declared/?panel=charges",
}
DESKTOP_PAGES = ("home", "section", "search", "glossary", "coverage mpbs", "gallery", "hex answer, unit selected",
                 "board answer, unit selected", "board pursuit")
# Pages whose answer quotes the engine's findings where they once named scenario fields and files (pursuit.fled[0].roll,
# missile_weapons, TERMS.md): the field a player may fill in is now data on the finding, never in its words.
ENGINE_WORDING = {
    "reactions, missile weapons unknown": "/{lang}/checker/t9a/examples/reactions-missile-weapons-unknown/",
    "pursuit, friend in the way": "/{lang}/checker/t9a/examples/pursuit-pivot-friend-in-the-way/",
    "orders change": "/{lang}/checker/mpbs/examples/orders-change/",
}


def open_page(page_factory, size):
    page = page_factory(**size)
    page.failed = []
    page.on("console", lambda m: m.type == "error" and page.failed.append(m.text[:200]))
    page.on("response", lambda r: r.status >= 500 and page.failed.append(f"{r.status} {r.url}"))
    return page


def check(page, base: str, url: str) -> list[str]:
    """What is wrong with one page: its axe-core violations, what sticks out past the screen, the code names in its
    text, its console errors."""
    page.failed.clear()
    page.goto(base + url)
    if "/checker/" in url:
        settle(page)
    found = axe_violations(page)
    found += [f"wider than the screen: {e}" for e in wider_than_screen(page)]
    found += [f"code name: {name}" for name in sorted(set(code_names(peoples_text(page))))]
    found += [f"console: {m}" for m in page.failed if "404 (Not Found)" not in m or not url.endswith("9.3.9/")]
    return found


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_kind_of_page_on_a_phone(site, page_factory, lang):
    """axe-core found nested-interactive on the board with units, landmark-unique on search and glossary; the
    errata page was 501 px wide on a 390 px phone; the coverage map and the gallery showed code names."""
    page = open_page(page_factory, PHONE)
    problems = {kind: found for kind, url in PAGES.items() if (found := check(page, site.url, url.format(lang=lang)))}
    assert problems == {}
    assert page.errors == []


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_main_pages_on_a_desktop(site, page_factory, lang):
    page = open_page(page_factory, DESKTOP)
    problems = {kind: found for kind in DESKTOP_PAGES if (found := check(page, site.url, PAGES[kind].format(lang=lang)))}
    assert problems == {}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_engines_answers_name_no_code(site, page_factory, lang):
    page = open_page(page_factory, PHONE)
    found = {kind: code_names(peoples_text(page)) for kind, url in ENGINE_WORDING.items()
             if page.goto(site.url + url.format(lang=lang)) and not settle(page)}
    assert {kind: names for kind, names in found.items() if names} == {}


# --- the checker by touch -----------------------------------------------------------------------------------------

def tap_hex(page, label):
    page.locator(f'svg.hexmap a.hx[data-hex="{label}"]').tap()
    settle(page)


def choose_tool(page, tool):
    page.locator(f'label.tool:has(input[value="{tool}"])').tap()
    settle(page)


def box(page, selector):
    return page.locator(selector).first.bounding_box()


def overlaps(a, b) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_the_hex_map_by_touch(site, page_factory):
    """#30 point 2: "Fit" and "−" changed nothing (the map stayed 736 px wide in a 356 px box); the fixed verdict bar
    covered the bottom of the screen and took taps meant for the map; the tool row showed one and a half of its
    seven tools; the second tap of the measure tool was lost. Then a retreat built by tapping, answered in words."""
    page = open_page(page_factory, PHONE)
    page.goto(f"{site.url}/ru/checker/mpbs/")
    settle(page)
    # every tool in sight, none in a row that scrolls, each a finger's target
    tools = page.locator("label.tool")
    assert tools.count() == 7
    for i in range(7):
        b = tools.nth(i).bounding_box()
        assert b["x"] >= 0 and b["x"] + b["width"] <= 390 and b["height"] >= 24, tools.nth(i).inner_text()
    assert page.evaluate("[...document.querySelectorAll('.tools fieldset')].every(f => f.scrollWidth <= f.clientWidth)")
    # the map fits its box, "+" makes it bigger, "−" and "Fit" bring it back
    width = lambda: page.evaluate("document.querySelector('.map-scroll > svg').getBoundingClientRect().width")  # noqa: E731
    inner = page.evaluate("document.querySelector('.map-scroll').clientWidth")
    assert width() <= inner + 1
    page.locator("button[data-zoom=in]").tap()
    assert width() > inner * 1.2
    page.locator("button[data-zoom=out]").tap()
    assert width() <= inner + 1
    page.locator("button[data-zoom=in]").tap()
    page.locator("button[data-zoom=in]").tap()
    page.locator("button[data-zoom=fit]").tap()
    assert width() <= inner + 1
    # a retreat built by tapping: a red and a blue heavy infantry side by side
    choose_tool(page, "place")
    page.locator('select[name="side"]').select_option("red")
    settle(page)
    tap_hex(page, "0405")
    red = page.locator("#unit-h").inner_text().split()[-1]  # the unit just placed is selected
    page.locator('select[name="side"]').select_option("blue")
    settle(page)
    tap_hex(page, "0406")
    blue = page.locator("#unit-h").inner_text().split()[-1]
    assert page.locator("svg.hexmap g.unit").count() == 2 and red != blue
    choose_tool(page, "select")
    tap_hex(page, "0405")  # the red unit lost the close combat
    page.locator("#ask-q").select_option("retreat")
    settle(page)
    page.locator('select[name="p-result"]').select_option("broken")
    settle(page)
    page.locator(f'input[name="p-fought"][value="{blue}"]').tap()
    settle(page)
    bar = page.locator(".verdict-bar")
    assert bar.locator(".verdict").inner_text() == "отступление"
    assert re.fullmatch(rf"{red} отступает на 2 гекса к северному краю карты: в \d{{4}}( через \d{{4}})?"
                        r"(( или в \d{4}( через \d{4})?)* \(выбирает владелец\))?\.",
                        bar.locator(".vb-headline").inner_text()), bar.inner_text()
    # nothing lies over the map: the verdict is in the page's flow, and a tap in the map's middle reaches a hex
    assert page.evaluate("getComputedStyle(document.querySelector('.verdict-bar')).position") != "fixed"
    assert not overlaps(box(page, ".verdict-bar"), box(page, ".map-scroll"))
    page.locator(".map-scroll").scroll_into_view_if_needed()
    assert page.evaluate("""() => { const r = document.querySelector('.map-scroll').getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, Math.min(r.bottom, innerHeight) - 12);
        return !!(hit && hit.closest('svg.hexmap')); }""")
    # the measure tool: the second tap, made while the first is still on its way, is not lost
    choose_tool(page, "measure")
    held = []
    page.route(re.compile(r".*[?&]pick=.*"), lambda route: held.append(route) if not held else route.continue_())
    page.locator('svg.hexmap a.hx[data-hex="0402"]').tap()
    page.wait_for_timeout(200)
    page.locator('svg.hexmap a.hx[data-hex="0602"]').tap()
    page.wait_for_timeout(200)
    assert len(held) == 1
    held[0].continue_()
    settle(page)
    settle(page)
    assert page.locator(".measure-panel .picks").inner_text() == "гекс 0402 ↔ гекс 0602"
    assert page.errors == [] and page.failed == []


def tap_board(page, x, y):
    page.locator("svg.tboard").scroll_into_view_if_needed()
    px, py = board_xy(page, x, y)
    page.touchscreen.tap(px, py)
    settle(page)


def test_the_board_by_touch_declares_a_charge_and_reads_the_reactions(site, page_factory):
    """#30 point 3: the declared-charge form offered the charger as its own target, and asking the reactions to the
    declared charge answered "no — red-1 has already declared a charge against blue-1"; the answer's marks took the
    taps meant for the units under them."""
    page = open_page(page_factory, PHONE)
    page.goto(f"{site.url}/ru/checker/t9a/")
    settle(page)
    assert page.locator("label.tool").count() == 4
    choose_tool(page, "place")
    form = page.locator("#board-place")
    form.locator('[name="place_side"]').select_option("red")
    form.locator('[name="place_ar"]').fill("5")
    tap_board(page, 24, 14)
    form.locator('[name="place_side"]').select_option("blue")
    form.locator('[name="place_ar"]').fill("4")
    form.locator('[name="place_missile"]').select_option("yes")
    tap_board(page, 24, 30)
    assert unit(page, "red-1").count() == 1 and unit(page, "blue-1").count() == 1
    choose_tool(page, "select")
    tap_board(page, 24, 14)  # the charger
    assert "sel=red-1" in page.url
    page.locator(".panel-tabs a", has_text="Объявленные нападения").tap()
    settle(page)
    add = page.locator("form.charge-add")
    assert add.locator('[name="ch-charger"]').input_value() == "red-1"
    assert add.locator('[name="ch-target"]').input_value() == "blue-1"
    add.locator("button[type=submit]").tap()
    settle(page)
    page.locator(".shortcuts a").first.tap()
    settle(page)
    bar = page.locator(".verdict-bar")
    assert bar.locator(".verdict").inner_text() == "да"
    assert bar.locator(".vb-headline").inner_text() == \
        "blue-1 может объявить реакцию: Держать позицию, Стоять и стрелять или Отступать."
    assert "уже объявило нападение" not in page.locator(".answer").inner_text()
    # one tap, one action: the target, under the answer's Flee marks, is selected by a tap on it
    assert page.locator("svg.tboard .ruling .flee-axis").count() == 1
    tap_board(page, 24, 30)
    assert "sel=blue-1" in page.url
    assert page.errors == [] and page.failed == []


# --- the translator's workspace ---------------------------------------------------------------------------------

WORKSPACE = {
    "workspace": "/{lang}/translate/",
    "dashboard": "/{lang}/translate/mpbs/",
    "dashboard t9a": "/{lang}/translate/t9a/",
    "editor": "/{lang}/translate/mpbs/9.3.4/",
    "revisions": "/{lang}/translate/mpbs/9.3.4/revisions/",
    "revision": "/{lang}/translate/mpbs/9.3.4/revisions/1/",
    "diff": "/{lang}/translate/mpbs/9.3.4/diff/",
    "reports": "/{lang}/translate/mpbs/+reports/",
    "import": "/{lang}/translate/mpbs/+import/",
}


@pytest.fixture
def reviewer(site):
    """A reviewer's session (as a cookie), and section 9.3.4 saved once more, so it has revisions to compare."""
    from django.test import Client
    from test_translation_support import editor_data, make_user

    from rulesref.reference.models import Book
    from rulesref.translation import workflow

    rita = make_user("rita", "translators", "reviewers")
    workflow.book_items(Book.objects.get(slug="mpbs"), "en")
    client = Client()
    client.force_login(rita)
    data = editor_data("9.3.4")
    data["p1"] += " (checked)"
    assert client.post("/en/translate/mpbs/9.3.4/", data).status_code == 302
    return client.cookies["sessionid"].value


def signed_in(page, base: str, session: str):
    host = re.sub(r"^https?://", "", base).split(":")[0]
    page.context.add_cookies([{"name": "sessionid", "value": session, "domain": host, "path": "/"}])
    return page


@pytest.mark.usefixtures("fast_passwords")
def test_the_workspace_on_a_phone(site, page_factory, reviewer):
    """The dashboard was 489 px wide and the revisions 680 px on a 390 px phone; the editor had a landmark per
    paragraph's glossary terms and jumped from h1 to h3; approving a text with QA errors showed the page's top
    while the confirmation waited 4,000 px further down."""
    page = signed_in(open_page(page_factory, PHONE), site.url, reviewer)
    problems = {f"{kind} {lang}": found for lang in ("ru", "en") for kind, url in WORKSPACE.items()
                if (found := check(page, site.url, url.format(lang=lang)))}
    assert problems == {}
    # approve a text with QA errors: the confirmation is where the reviewer pressed the button
    page.goto(f"{site.url}/ru/translate/mpbs/11.4.5/")
    field = page.locator("#id_p1")
    field.fill(field.input_value().replace("2 hexes", "five hexes", 1))
    page.locator("#id_status").select_option("approved")
    with page.expect_navigation():
        page.locator(".save-bar button[type=submit]").tap()
    confirm = page.locator("#approve-errors")
    confirm.wait_for(state="visible")
    b = confirm.bounding_box()
    assert 0 <= b["y"] < 844, b  # in view, not 4,000 px down
    assert confirm.inner_text().startswith("Утвердить и опубликовать с 2 ошибками проверки?")


@pytest.mark.csp_violations_expected
def test_every_browser_test_would_see_an_inline_style_the_policy_refuses(site, page_factory):
    """Item 8: checker edits were said to log Content-Security-Policy refusals (inline styles). page_factory fails
    any test whose pages meet one, and every checker test edits positions by clicking and tapping; this proves the
    watch sees one: an inline style attribute swapped into a real page, as an htmx fragment with one would be."""
    page = page_factory(**PHONE)
    page.goto(f"{site.url}/ru/checker/mpbs/examples/retreat/")
    settle(page)
    assert page.refused == []
    with page.expect_console_message(refused_by_the_policy):
        page.locator("main").evaluate("m => m.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    assert any("inline style" in m for m in page.refused), page.refused
