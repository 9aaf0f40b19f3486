#!/usr/bin/env python
"""Screenshots of the reference pages and of the scenario checker, at phone and desktop widths.

    python docs/make_screenshots.py              # writes docs/screenshots/*.png
    python docs/make_screenshots.py reference    # only the reference pages (reference-*.png)
    python docs/make_screenshots.py checker      # only the checker
    python docs/make_screenshots.py books        # only a table, "Report a problem" and an English-source book
    python docs/make_screenshots.py history      # only the rule history (history-*.png)
    python docs/make_screenshots.py coverage     # only the engines' coverage maps (coverage-*.png)

It builds a temporary SQLite database with the corpus (never touching var/), serves the site with Django's test
server on a free local port, and drives Debian's Chromium (RULESREF_CHROMIUM, default /usr/bin/chromium) with
Playwright. Shots, each at 1366 x 900 and 390 x 844: the hex editor with a position being built (a unit selected,
its sectors shown); the answer to "Can this cavalry intercept?" on the 9.3 example (the verdict beside the map,
path, line of sight, sectors, the cited clauses), in English and in Russian; the same after the cavalry is moved
out of range (the verdict and its decisive clause); the measure tool between the two units; the t9a board with a
declared charge in the scenario panel and a unit selected (its arcs drawn), the answer to "Which reactions may the
target declare?" (the Flee line and positions, the odds, the cited clauses) in both languages, and the measure tool
between the two units. The rule history (``history``, from a copy of fixtures/ so the corpus is never touched):
9.3.1 changed in both languages and loaded again, its history page with the word diff and "what changed since
revision 1", and a link shared before the change opened after it (the answer then and now, the changed clause), in
both languages.
"""
from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium")
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve() -> str:
    sys.path.insert(0, str(ROOT))
    os.environ["RULESREF_VAR_DIR"] = tempfile.mkdtemp(prefix="rulesref-shots-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("quickstart", no_serve=True, stdout=open(os.devnull, "w"))
    from django.core.servers.basehttp import WSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    port = free_port()
    server = WSGIServer(("127.0.0.1", port), Quiet)
    server.set_app(StaticFilesHandler(get_wsgi_application()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{port}"


def settle(page) -> None:
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(80)
    page.wait_for_function("!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def shoot(page, stem: str, size: str, width: int) -> None:
    """What the screen shows: the map or board with the verdict beside it (on a phone, at its foot)."""
    page.screenshot(path=str(OUT / f"{stem}.png"), full_page=False)


REFERENCE_SIZES = {"desktop": (1366, 900), "phone": (390, 844)}

# A change of 9.3.1a in both languages (four hexes become three), loaded as revision 2 for the history shots.
HISTORY_EDITS = [
    ("mpbs/en/9.md", "anywhere within four hexes of the cavalry unit", "anywhere within three hexes of the cavalry unit"),
    ("mpbs/ru/9.md", "где-либо в пределах четырех гексов", "где-либо в пределах трёх гексов"),
    ("mpbs/en/9.md", "c) The cavalry unit is not disordered, and",
     "c) The cavalry unit is neither disordered nor out of command, and"),
    ("mpbs/ru/9.md", "c) Кавалерийское подразделение не рассеяно, и",
     "c) Кавалерийское подразделение не рассеяно и не вне командования, и"),
]


def each_screen(browser):
    """Each of REFERENCE_SIZES in each language: the size's name, whether it is a phone, a page of that size (one
    browser context per size, closed after its languages) and the language."""
    for name, (width, height) in REFERENCE_SIZES.items():
        phone = name == "phone"
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1,
                                      has_touch=phone, is_mobile=phone)
        page = context.new_page()
        try:
            for lang in ("en", "ru"):
                yield name, phone, page, lang
        finally:
            context.close()


def history_fixtures() -> Path:
    """A copy of fixtures/ for the site to load (set before Django starts), to be changed by history_shots."""
    import shutil

    target = Path(tempfile.mkdtemp(prefix="rulesref-shots-fixtures-")) / "fixtures"
    shutil.copytree(ROOT / "fixtures", target)
    os.environ["RULESREF_FIXTURES_DIR"] = str(target)
    return target


def history_shots(browser, base: str, fixtures: Path) -> None:
    """A section's history with its word diff and "what changed since revision 1", both languages, both widths."""
    from rulesref.reference.index import invalidate
    from rulesref.reference.loading import load_corpus

    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the load runs beside Playwright's event loop, in this thread
    context = browser.new_context(viewport={"width": 1366, "height": 900}, device_scale_factor=1)
    page = context.new_page()  # a link shared before the change: opened after it, it says what changed
    page.goto(f"{base}/en/checker/mpbs/examples/interception-example-9.3/")
    page.locator("section.answer").wait_for()
    page.get_by_role("button", name="Save and get a link").click()
    page.locator("#share-link").wait_for()
    shared = page.locator("#share-link").input_value()
    context.close()
    for relative, old, new in HISTORY_EDITS:
        path = fixtures / "corpus" / relative
        text = path.read_text(encoding="utf-8")
        assert old in text, (relative, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    load_corpus()
    invalidate()
    for name, phone, page, lang in each_screen(browser):
        page.goto(f"{base}/{lang}/rules/mpbs/9.3.1/history/")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(OUT / f"history-diff-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/mpbs/changes/?since=1")
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(OUT / f"history-changes-{lang}-{name}.png"))
        page.goto(shared.replace("/en/", f"/{lang}/", 1))
        page.wait_for_load_state("networkidle")
        page.locator("#then-now").scroll_into_view_if_needed()
        page.evaluate("window.scrollTo(0, document.querySelector('#then-now').getBoundingClientRect().top"
                      " + window.scrollY - 60)")
        page.screenshot(path=str(OUT / f"history-shared-link-{lang}-{name}.png"))


def reference_shots(browser, base: str) -> None:
    """Home, a section with a term's tooltip open, search and the glossary, in both languages, at 1366×900 and
    390×844 (what the screen shows, not the whole page)."""
    for name, phone, page, lang in each_screen(browser):
        page.goto(f"{base}/{lang}/")
        settle(page)
        page.screenshot(path=str(OUT / f"reference-home-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/mpbs/9.3.1/")
        settle(page)
        term = page.locator('.text a.term[data-term="formation-hits"]')
        term.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -window.innerHeight / 3)")
        if phone:
            term.tap()
        else:
            term.hover()
        page.locator("#term-tip").wait_for(state="visible")
        page.screenshot(path=str(OUT / f"reference-section-tooltip-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/search/?q=" + ("перехватить" if lang == "ru" else "intercepting"))
        settle(page)
        page.screenshot(path=str(OUT / f"reference-search-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/glossary/mpbs/")
        settle(page)
        page.fill("#term-filter", "хит" if lang == "ru" else "formation")
        page.screenshot(path=str(OUT / f"reference-glossary-{lang}-{name}.png"))


HARBOUR = ROOT / "tests" / "reference_data" / "harbour"  # a small English-source rulebook with a table


def coverage_shots(browser, base: str) -> None:
    """The coverage map of the mpbs engine (totals and the 9.3.1 clauses) and of the t9a engine (its rules outside
    the corpus), in both languages, at 1366×900 and 390×844."""
    for name, phone, page, lang in each_screen(browser):
        page.goto(f"{base}/{lang}/rules/mpbs/coverage/")
        settle(page)
        page.screenshot(path=str(OUT / f"coverage-mpbs-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/mpbs/coverage/#c-9.3.1c")
        settle(page)
        page.screenshot(path=str(OUT / f"coverage-mpbs-clause-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/t9a/coverage/#outside")
        settle(page)
        page.screenshot(path=str(OUT / f"coverage-t9a-outside-{lang}-{name}.png"))


def books_shots(browser, base: str) -> None:
    """A table in the rule text (tests/reference_data/harbour, loaded into the temporary database only), the same
    English-source book's untranslated section read in Russian, "Report a problem" beside a paragraph (pointed at,
    on a wide screen; a short line on a phone), and the table in the parallel view, in both languages, at 1366×900
    and 390×844."""
    for name, phone, page, lang in each_screen(browser):
        page.goto(f"{base}/{lang}/rules/harbour/1.2/")
        settle(page)
        page.screenshot(path=str(OUT / f"reference-table-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/harbour/2.2/")
        settle(page)
        page.screenshot(path=str(OUT / f"reference-english-source-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/mpbs/9.3.1/")
        settle(page)
        paragraph = page.locator(".text > p").nth(2)
        paragraph.scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, -window.innerHeight / 4)")
        if not phone:
            paragraph.hover()
            page.wait_for_timeout(200)
        page.screenshot(path=str(OUT / f"reference-report-{lang}-{name}.png"))
        page.goto(f"{base}/{lang}/rules/harbour/1.2/?view=parallel")
        settle(page)
        page.screenshot(path=str(OUT / f"reference-parallel-table-{lang}-{name}.png"))


def main() -> None:
    from playwright.sync_api import sync_playwright

    parts = set(sys.argv[1:]) or {"reference", "checker", "books", "coverage", "history"}
    fixtures = history_fixtures() if "history" in parts else None
    base = serve()
    if "books" in parts:  # before Playwright starts its event loop in this thread (the ORM is synchronous)
        from rulesref.reference.corpus import read_book
        from rulesref.reference.loading import load_book

        load_book(read_book(HARBOUR))
    OUT.mkdir(parents=True, exist_ok=True)
    example = "/{lang}/checker/mpbs/examples/interception-example-9.3/?q=can-intercept&p-unit=CAV-1"
    board = "/en/checker/t9a/examples/charge-across-declared-path/?panel=charges&sel=knights"
    board_answer = ("/{lang}/checker/t9a/examples/reactions-all-three/?q=charge-reactions"
                    "&p-charger=knights&p-target=archers")
    measure = "/en/checker/mpbs/examples/interception-example-9.3/?tool=measure&m=u:CAV-1&m=u:HI-1"
    board_measure = "/ru/checker/t9a/examples/reactions-all-three/?tool=measure&m=u:knights&m=u:archers"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        if "reference" in parts:
            reference_shots(browser, base)
        if "books" in parts:
            books_shots(browser, base)
        if "coverage" in parts:
            coverage_shots(browser, base)
        for name, (width, height) in SIZES.items() if "checker" in parts else ():
            context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
            page = context.new_page()
            # The editor: a new position with two units, the cavalry selected (its front, flank and rear shown).
            page.goto(f"{base}/en/checker/mpbs/?tool=place&side=blue&kind=heavy-infantry&two=1")
            page.locator('svg.hexmap a.hx[data-hex="0506"]').click()
            settle(page)
            page.locator('select[name="side"]').select_option("red")
            settle(page)
            page.locator('.tools select[name="kind"]').select_option("cavalry")
            settle(page)
            page.locator('.tools input[name="two"]').uncheck()
            settle(page)
            page.locator('svg.hexmap a.hx[data-hex="0903"]').click()
            settle(page)
            page.locator('input[type=radio][name=tool][value="terrain"]').check()
            settle(page)
            for label in ("0704", "0705", "0804"):
                page.locator(f'svg.hexmap a.hx[data-hex="{label}"]').click()
                settle(page)
            page.locator('input[type=radio][name=tool][value="select"]').check()
            settle(page)
            page.locator('svg.hexmap a.hx[data-hex="0903"]').click()
            settle(page)
            shoot(page, f"editor-{name}", name, width)
            for lang in ("en", "ru"):
                page.goto(base + example.format(lang=lang))
                settle(page)
                shoot(page, f"answer-{lang}-{name}", name, width)
            # The cavalry moved out of range: the verdict changes beside the map, the path is gone.
            page.locator('svg.hexmap a.hx[data-hex="0708"]').click()
            settle(page)
            page.locator('svg.hexmap a.hx[data-hex="0110"]').click()
            settle(page)
            shoot(page, f"answer-moved-ru-{name}", name, width)
            page.goto(base + measure)
            settle(page)
            page.locator(".measure-panel").scroll_into_view_if_needed()
            shoot(page, f"measure-{name}", name, width)
            # The t9a board: a declared charge listed and drawn, the charger selected with its four arcs.
            page.goto(base + board)
            settle(page)
            shoot(page, f"board-{name}", name, width)
            for lang in ("en", "ru"):
                page.goto(base + board_answer.format(lang=lang))
                settle(page)
                shoot(page, f"board-answer-{lang}-{name}", name, width)
            page.goto(base + board_measure)
            settle(page)
            page.locator(".measure-panel").scroll_into_view_if_needed()
            shoot(page, f"board-measure-{name}", name, width)
            context.close()
        if "history" in parts:  # last: it changes the corpus the other shots show
            history_shots(browser, base, fixtures)
        browser.close()
    for path in sorted(OUT.glob("*.png")):
        print(path.relative_to(ROOT), path.stat().st_size // 1024, "KB")


if __name__ == "__main__":
    main()
