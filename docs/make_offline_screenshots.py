#!/usr/bin/env python
"""Screenshots of the offline copy, at phone (390×844) and desktop (1366×900) widths, in English and Russian:

    python docs/make_offline_screenshots.py     # writes docs/screenshots/offline-*.png

A rulebook's contents page with the "Keep this rulebook offline" control before, during (the download slowed
to a crawl, so the progress bar is caught half way) and after keeping a copy; a page opened offline, with its
notice; and the "rules were updated" notice after a change. Serves the site as docs/make_screenshots.py does.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import os  # noqa: E402

from make_screenshots import CHROMIUM, OUT, serve  # noqa: E402

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM is used between Playwright calls, in this thread

SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def shoot(page, name: str) -> None:
    page.wait_for_timeout(150)
    page.screenshot(path=str(OUT / f"offline-{name}.png"))


def main() -> None:
    from playwright.sync_api import sync_playwright

    base = serve()
    from rulesref.reference.models import Book

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        for lang in ("en", "ru"):
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
                page = context.new_page()
                page.goto(f"{base}/{lang}/rules/mpbs/")
                page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
                page.wait_for_function("document.querySelector('.offline-status').textContent.match(/\\d/)")
                page.locator(".offline-keep").scroll_into_view_if_needed()
                shoot(page, f"before-{lang}-{size}")
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 20,
                                                               "downloadThroughput": 60_000, "uploadThroughput": -1})
                page.click("[data-offline-action=keep]")
                page.wait_for_function("document.querySelector('.offline-progress progress').value >= 30",
                                       timeout=60000)
                shoot(page, f"during-{lang}-{size}")
                cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 0,
                                                               "downloadThroughput": -1, "uploadThroughput": -1})
                page.wait_for_function("!document.querySelector('[data-offline-action=remove]').hidden",
                                       timeout=120000)
                shoot(page, f"after-{lang}-{size}")
                context.set_offline(True)
                page.goto(f"{base}/{lang}/rules/mpbs/9.3.1/")
                page.locator(".offline-notice").wait_for()
                shoot(page, f"page-{lang}-{size}")
                Book.objects.get(slug="mpbs").bump_version()
                context.set_offline(False)
                page.evaluate("window.dispatchEvent(new Event('online'))")
                page.locator(".offline-banner").wait_for()
                shoot(page, f"updated-{lang}-{size}")
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
