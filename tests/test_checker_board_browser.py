"""The t9a board editor in real Chromium: place two units by clicking the board, ask charge-reactions and see Stand
and Shoot allowed, drag the charger closer than its Advance Rate and see Stand and Shoot refused with its reason;
turn with the keyboard; and untrusted unit names that must never run as script."""
from __future__ import annotations

import pytest

from tests.test_checker_browser import DESKTOP, settle

pytestmark = [pytest.mark.browser]

PAYLOAD = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2;alert(1)">'


def board_xy(page, x, y):
    """Where the board point (x, y) in inches is on the page, in CSS pixels."""
    return page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector('svg.tboard');
          const p = svg.createSVGPoint();
          p.x = x - parseFloat(svg.dataset.minx); p.y = parseFloat(svg.dataset.maxy) - y;
          const q = p.matrixTransform(svg.getScreenCTM());
          return [q.x, q.y];
        }""", [x, y])


def click_board(page, x, y):
    page.locator("svg.tboard").scroll_into_view_if_needed()
    px, py = board_xy(page, x, y)
    page.mouse.click(px, py)
    settle(page)


def unit(page, uid):
    return page.locator(f'svg.tboard a.bunit[data-unit="{uid}"]')


def place_by_clicking(page, side, x, y, advance_rate, missile=""):
    form = page.locator("#board-place")
    form.locator('[name="place_side"]').select_option(side)  # sides are chosen, never typed
    form.locator('[name="place_ar"]').fill(str(advance_rate))
    form.locator('[name="place_missile"]').select_option(missile)
    click_board(page, x, y)


def stand_and_shoot(page, status):
    return page.locator(f".answer .finding.st-{status}", has_text="Stand and Shoot")


def test_place_ask_drag_and_ask_again(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/t9a/")
    page.locator('input[type=radio][name=tool][value="place"]').check()
    settle(page)
    place_by_clicking(page, "red", 24, 12, 5)
    assert unit(page, "red-1").count() == 1
    place_by_clicking(page, "blue", 24, 30, 4, missile="yes")
    assert unit(page, "blue-1").count() == 1
    assert page.locator("#unit-h").inner_text() == "Unit blue-1"
    assert page.locator("svg.tboard g.arcs polygon").count() == 4  # the selected unit's four arcs

    # R turns the selected unit 15° clockwise, Shift+R back
    page.locator('input[type=radio][name=tool][value="select"]').check()
    settle(page)
    page.locator("body").press("r")
    settle(page)
    assert page.locator('.board-move input[name="facing"]').input_value() == "195"
    page.locator("body").press("Shift+R")
    settle(page)
    assert page.locator('.board-move input[name="facing"]').input_value() == "180"

    page.locator("#ask-q").select_option("charge-reactions")
    settle(page)
    page.locator("#f-p-charger").select_option("red-1")
    page.locator("#f-p-target").select_option("blue-1")
    page.get_by_role("button", name="Ask", exact=True).click()
    settle(page)
    assert page.locator(".answer .verdict").inner_text() == "yes"
    assert stand_and_shoot(page, "pass").filter(has_text="farther than the Advance Rate").count() == 1
    assert stand_and_shoot(page, "fail").count() == 0
    assert page.locator("svg.tboard line.flee").count() == 1  # the answer's drawing on the editable board

    # drag the charger to 2" from the target's front, inside its Advance Rate of 5"
    sx, sy = board_xy(page, 24, 12)
    tx, ty = board_xy(page, 24, 26)
    page.mouse.move(sx, sy)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(sx + (tx - sx) * i / 10, sy + (ty - sy) * i / 10)
    page.mouse.up()
    settle(page)
    assert unit(page, "red-1").get_attribute("data-y") == "26.0" or \
        abs(float(unit(page, "red-1").get_attribute("data-y")) - 26) < 0.1
    page.get_by_role("button", name="Ask", exact=True).click()
    settle(page)
    refused = stand_and_shoot(page, "fail")
    assert refused.count() == 1 and "Advance Rate" in refused.inner_text()
    assert "flee" in page.locator(".answer").inner_text().lower()
    # undo goes back to where the charger was
    page.get_by_role("link", name="Undo").click()
    settle(page)
    assert abs(float(unit(page, "red-1").get_attribute("data-y")) - 12) < 0.1
    assert page.errors == [] and page.dialogs == []


def test_move_with_the_form_and_see_a_refusal_at_its_field(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/t9a/")
    page.locator('input[type=radio][name=tool][value="place"]').check()
    settle(page)
    place_by_clicking(page, "red", 24, 12, 5)
    place_by_clicking(page, "blue", 24, 30, 4, missile="yes")
    unit(page, "red-1").click()
    settle(page)
    assert page.locator("#unit-h").inner_text() == "Unit red-1"
    form = page.locator("form.board-move")
    form.locator('[name="y"]').fill("30")
    form.get_by_role("button", name="Move and turn").click()
    settle(page)
    assert "overlaps" in form.locator(".errorlist").inner_text()
    assert abs(float(unit(page, "red-1").get_attribute("data-y")) - 12) < 0.1


def test_untrusted_unit_names_never_run(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/t9a/")
    page.locator('input[type=radio][name=tool][value="place"]').check()
    settle(page)
    place_by_clicking(page, "red", 24, 12, 5)
    place_by_clicking(page, "blue", 24, 30, 4, missile="yes")
    page.locator("details.unit-props summary").click()
    page.locator('[name="bu-name"]').fill(PAYLOAD)
    page.get_by_role("button", name="Save the unit").click()
    settle(page)
    assert page.locator("svg.tboard text", has_text="window.__pwned=1").count() == 1  # drawn as text
    assert page.locator('[name="bu-name"]').input_value() == PAYLOAD
    # an id that is not an id is refused, and its echo is text
    if not page.locator('[name="bu-id"]').is_visible():
        page.locator("details.unit-props summary").click()
    page.locator('[name="bu-id"]').fill('"><svg onload=alert(2)>')
    page.get_by_role("button", name="Save the unit").click()
    settle(page)
    assert page.locator(".unit-props .errorlist").count() >= 1
    # ask, so the name is in the findings too; then share and open the link
    page.locator("#ask-q").select_option("charge-reactions")
    settle(page)
    page.locator("#f-p-charger").select_option("red-1")
    page.locator("#f-p-target").select_option("blue-1")
    page.get_by_role("button", name="Ask", exact=True).click()
    settle(page)
    page.get_by_role("button", name="Save and get a link").click()
    settle(page)
    page.goto(page.locator("#share-link").input_value())
    settle(page)
    page.wait_for_timeout(300)
    assert page.dialogs == []
    assert page.evaluate("window.__pwned === undefined")
    assert page.evaluate("document.querySelectorAll('script:not([src])').length") == 0
    assert page.evaluate("document.querySelectorAll('[onerror],[onload]').length") == 0
    assert page.evaluate("document.querySelectorAll('img').length") == 0


def test_add_terrain_by_clicking_and_declare_a_charge(site, page_factory):
    page = page_factory(**DESKTOP)
    page.goto(f"{site.url}/en/checker/t9a/")
    page.locator('input[type=radio][name=tool][value="place"]').check()
    settle(page)
    place_by_clicking(page, "red", 24, 12, 5)
    place_by_clicking(page, "blue", 24, 30, 4)

    # the place-terrain tool opens the terrain tab; a click on the board puts a new piece's centre there
    page.locator('input[type=radio][name=tool][value="place-terrain"]').check()
    settle(page)
    form = page.locator("#terrain-add")
    form.locator('[name="nt-name"]').fill("Wood <b>")
    form.locator('[name="nt-obscuring"]').check()
    click_board(page, 10, 20)
    piece = page.locator('svg.tboard a.bterrain[data-terrain="terrain-1"]')
    assert piece.count() == 1 and "sel" in piece.get_attribute("class")
    assert page.locator("svg.tboard a.bterrain text").text_content() == "Wood <b>"
    assert page.locator("#terrain-h").inner_text() == "Terrain piece terrain-1"
    assert page.locator(".terrain-list li").inner_text().startswith("terrain-1 · Wood <b>")
    # its corners, edited as text, redraw it
    page.locator('[name="te-polygon"]').fill("6, 16\n14, 16\n10, 24")
    page.get_by_role("button", name="Save the terrain piece").click()
    settle(page)
    assert len(page.locator("svg.tboard a.bterrain polygon").get_attribute("points").split()) == 3
    # a polygon of two corners is refused next to the field, and nothing changes
    page.locator('[name="te-polygon"]').fill("6, 16\n14, 16")
    page.get_by_role("button", name="Save the terrain piece").click()
    settle(page)
    assert "at least 3 corners" in page.locator(".terrain-edit .errorlist").inner_text()
    assert len(page.locator("svg.tboard a.bterrain polygon").get_attribute("points").split()) == 3

    # declare a charge from the charges tab: listed, and drawn on the board
    page.locator('input[type=radio][name=tool][value="select"]').check()
    settle(page)
    page.locator(".board-scenario .panel-tabs a", has_text="Declared charges").click()
    settle(page)
    add = page.locator("form.charge-add")
    add.locator('[name="ch-charger"]').select_option("red-1")
    add.locator('[name="ch-target"]').select_option("red-1")
    add.get_by_role("button", name="Declare").click()
    settle(page)
    assert "cannot charge itself" in page.locator("form.charge-add .errorlist").inner_text()
    add = page.locator("form.charge-add")
    add.locator('[name="ch-charger"]').select_option("red-1")
    add.locator('[name="ch-target"]').select_option("blue-1")
    add.get_by_role("button", name="Declare").click()
    settle(page)
    assert page.locator(".charge-list li .entry").all_inner_texts() == ["red-1 (red) → blue-1 (blue)"]
    assert page.locator("svg.tboard line.charge-line").count() == 1
    # a click on the terrain piece with the select tool selects it
    click_board(page, 10, 18)
    assert page.locator("#terrain-h").inner_text() == "Terrain piece terrain-1"
    assert page.errors == [] and page.dialogs == []


def test_a_refused_edit_on_a_phone_keeps_the_page_where_it_was_and_says_why_in_russian(site, page_factory):
    """The editor is swapped whole after each edit; the page must not jump by its height (scroll anchoring)."""
    page = page_factory(width=390, height=844)
    page.goto(f"{site.url}/ru/checker/t9a/examples/reactions-all-three/?sel=knights")
    settle(page)
    form = page.locator("form.board-move")
    form.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    form.locator('[name="y"]').fill("22")
    form.get_by_role("button").click()
    settle(page)
    assert "перекрывает" in page.locator("form.board-move .errorlist").inner_text()
    assert abs(page.evaluate("window.scrollY") - before) < 60
    assert page.errors == []
