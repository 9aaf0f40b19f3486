"""Render the app icons (static/offline/icons/*.png) from their SVG sources with Chromium.

Run from the repository root after changing an SVG: ``python -m rulesref.offline.make_icons``. The PNGs are
committed, so the site needs no image library; Chromium's installability checks ask for PNG icons of 192 and 512
pixels, iOS for a 180-pixel touch icon, and Android's adaptive icons for a maskable one (its drawing kept inside
the central 80%).
"""
from __future__ import annotations

import os
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "offline" / "icons"
SIZES = [("icon.svg", "icon-192.png", 192), ("icon.svg", "icon-512.png", 512), ("icon.svg", "icon-180.png", 180),
         ("maskable.svg", "maskable-512.png", 512)]


def main() -> None:
    from playwright.sync_api import sync_playwright  # a development tool, not a dependency of the site

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium"),
                                    args=["--headless", "--no-sandbox", "--disable-gpu"])
        for source, target, size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<html><body style='margin:0'>{(ICONS / source).read_text()}</body></html>")
            page.locator("svg").evaluate(f"svg => {{ svg.setAttribute('width', {size}); "
                                         f"svg.setAttribute('height', {size}); }}")
            page.screenshot(path=str(ICONS / target), omit_background=True,
                            clip={"x": 0, "y": 0, "width": size, "height": size})
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
