#!/usr/bin/env python
"""Screenshots of what a new player meets first on a phone, in Russian (#30), at 390 x 844 with a touch screen:

    python docs/make_phone_screenshots.py    # writes docs/screenshots/phone-ru-*.png

- ``phone-ru-checker-mpbs.png``: the mpbs retreat example, the verdict in words above the fitted map;
- ``phone-ru-checker-t9a.png``: the t9a charge-reactions example, which reactions in words, the board fitted;
- ``phone-ru-errata.png``: the errata page, each correction a card (no sideways scrolling);
- ``phone-ru-approve-confirm.png``: a reviewer approving a text with QA errors lands on the confirmation.

Like docs/make_screenshots.py (whose temporary server it uses): a temporary SQLite database with the corpus,
Django's test server on a free local port, Debian's Chromium driven by Playwright.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_screenshots import CHROMIUM, OUT, serve  # noqa: E402

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 1, "has_touch": True, "is_mobile": True}
PASSWORD = "phone-shots-only"


def settled(page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(150)


def reviewer() -> None:
    """A reviewer for the approval shot (in the temporary database only)."""
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user("rita", password=PASSWORD)
    for name in ("translators", "reviewers"):
        user.groups.add(Group.objects.get_or_create(name=name)[0])


def main() -> None:
    from playwright.sync_api import sync_playwright

    base = serve()
    reviewer()  # before Playwright starts its event loop in this thread (the ORM is synchronous)
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_context(**PHONE).new_page()
        for stem, url in (("checker-mpbs", "/ru/checker/mpbs/examples/retreat/"),
                          ("checker-t9a", "/ru/checker/t9a/examples/reactions-all-three/")):
            page.goto(base + url)
            settled(page)
            page.locator("h1").scroll_into_view_if_needed()
            page.evaluate("window.scrollTo(0, document.querySelector('.verdict-bar').getBoundingClientRect().top"
                          " + window.scrollY - 8)")
            page.screenshot(path=str(OUT / f"phone-ru-{stem}.png"))
        page.goto(base + "/ru/rules/mpbs/errata/")
        page.screenshot(path=str(OUT / "phone-ru-errata.png"))
        page.goto(base + "/ru/accounts/login/")
        page.fill("input[name=username]", "rita")
        page.fill("input[name=password]", PASSWORD)
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        page.goto(base + "/ru/translate/mpbs/11.4.5/")
        field = page.locator("#id_p1")
        field.fill(field.input_value().replace("2 hexes", "five hexes", 1))
        page.locator("#id_status").select_option("approved")
        with page.expect_navigation():
            page.locator(".save-bar button[type=submit]").tap()
        page.locator("#approve-errors").wait_for(state="visible")
        page.screenshot(path=str(OUT / "phone-ru-approve-confirm.png"))
        browser.close()
    print(f"written: {OUT}/phone-ru-*.png")


if __name__ == "__main__":
    main()
