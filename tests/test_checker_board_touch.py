"""The t9a board on a phone: a unit dragged with a finger moves (real touch events through Chromium's DevTools
protocol, as a touch screen sends them), and a drag the browser cancels leaves the unit where it was."""
from __future__ import annotations


import pytest

from tests.test_checker_board import two_units
from tests.test_checker_board_browser import board_xy, unit
from tests.test_checker_browser import settle

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def two_units_url(site) -> str:
    from rulesref.checker.models import Draft

    data, _, _ = two_units()  # red-1 at (24, 8), blue-1 at (24, 30)
    draft = Draft.make("t9a", data, None)
    return f"{site.url}/en/checker/t9a/?d={draft.key}&sel=red-1"


def touch(cdp, kind: str, x: float | None = None, y: float | None = None) -> None:
    points = [] if x is None else [{"x": x, "y": y, "radiusX": 4, "radiusY": 4, "force": 1, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_a_finger_drags_a_unit_and_the_page_does_not_scroll(site, page_factory):
    page = page_factory(**PHONE)
    page.goto(two_units_url(site))
    settle(page)
    page.locator("svg.tboard").scroll_into_view_if_needed()
    scrolled = page.evaluate("window.scrollY")
    cdp = page.context.new_cdp_session(page)
    sx, sy = board_xy(page, 24, 8)
    tx, ty = board_xy(page, 24, 16)
    touch(cdp, "touchStart", sx, sy)
    for i in range(1, 9):
        touch(cdp, "touchMove", sx + (tx - sx) * i / 8, sy + (ty - sy) * i / 8)
    touch(cdp, "touchEnd")
    settle(page)
    assert abs(float(unit(page, "red-1").get_attribute("data-y")) - 16) < 0.2
    assert page.evaluate("window.scrollY") == scrolled  # the finger moved the unit, not the page
    assert page.errors == []


def test_a_cancelled_touch_drag_puts_the_unit_back(site, page_factory):
    page = page_factory(**PHONE)
    page.goto(two_units_url(site))
    settle(page)
    page.locator("svg.tboard").scroll_into_view_if_needed()
    cdp = page.context.new_cdp_session(page)
    sx, sy = board_xy(page, 24, 8)
    touch(cdp, "touchStart", sx, sy)
    touch(cdp, "touchMove", sx, sy + 40)
    touch(cdp, "touchCancel")
    settle(page)
    moved = unit(page, "red-1")
    assert moved.get_attribute("transform") in (None, "")
    assert abs(float(moved.get_attribute("data-y")) - 8) < 0.01
    assert page.evaluate("document.querySelector('svg.tboard').classList.contains('dragging')") is False
    assert page.errors == []
