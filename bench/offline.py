#!/usr/bin/env python
"""Offline copy benchmarks: `figures(scale)` yields `(name, value, unit, target)`; run alone with
`python bench/offline.py [--quick|--smoke]`, which prints `name value unit target` lines.

- what both rulebooks' offline copies weigh on the wire, and what the version check weighs;
- how long the writer's side takes to build both copies after a change, and how long asking for them takes
  then (a request only reads what is stored);
- how long keeping a rulebook takes in Chromium, from the click to "kept", against gunicorn on loopback (the
  contents page measured the copy when it opened, as it does for a reader), for each book and both in turn;
- how long building the search index takes at load time, and offline search per query in the browser.

Needs Django set up on a throw-away database (bench/run.py's setup does that) and, for the browser figures,
Chromium (skipped with a note when it is missing).
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import harness  # noqa: E402  (bench/harness.py: free ports)
import run  # noqa: E402  (bench/run.py: the temporary database the site runs on)

CHROMIUM = os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium")
QUERIES = ["перехватить", "intercepting", "retreat priorities", "stand and shoot", "хиты построения", "9.3.1",
           "XIII.7.C", "хеджхог", "преследование", "withdrawing"]


def server_figures():
    from django.test import Client

    from rulesref.offline import bundle, index
    from rulesref.reference import pagecache
    from rulesref.reference.models import Book

    client = Client()
    books = list(Book.objects.all())
    t = time.perf_counter()
    for book in books:
        index.build(book)
    yield "offline.index.build_both_books", (time.perf_counter() - t) * 1000, "ms", ""
    pagecache.clear()  # after a change no page of the book is cached: the writer renders every one
    t = time.perf_counter()
    for book in books:
        bundle.build(book)  # what the end of a load or an approval does (copies.py), never a reader's request
    yield "offline.copy.build_both_books", time.perf_counter() - t, "s", ""  # once per change, by the writer
    sizes = []
    t = time.perf_counter()
    for book in books:
        sizes.append(json.loads(client.get(f"/offline/{book.slug}/info.json").content)["size"])
    yield "offline.copy.info_both_books", (time.perf_counter() - t) * 1000, "ms", ""  # reads only
    for book, size in zip(books, sizes):
        yield f"offline.copy.{book.slug}.transferred", size / 1e6, "MB", ""
    yield "offline.copy.both_books.transferred", sum(sizes) / 1e6, "MB", "<= 1.5"
    yield "offline.version_check.bytes", len(client.get("/offline/versions.json").content), "bytes", "<= 1000"


def browser_figures(scale: harness.Scale):
    if not Path(CHROMIUM).exists():
        print(f"# offline browser figures skipped: no Chromium at {CHROMIUM}", file=sys.stderr)
        return
    from playwright.sync_api import sync_playwright

    # The server of run.setup_django's temporary var directory; addressed as localhost, a secure context, as
    # service workers need.
    with harness.gunicorn(dict(os.environ), workers=scale.pick(2, 2), threads=2) as served:
        base = served.replace("127.0.0.1", "localhost")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM,
                                        args=["--headless", "--no-sandbox", "--disable-gpu",
                                              "--disable-background-networking"])
            rounds = scale.pick(3, 1)
            times = {"mpbs": [], "t9a": [], "both": []}
            search_times = []
            for _ in range(rounds):
                context = browser.new_context()
                page = context.new_page()
                total = 0.0
                for slug in ("mpbs", "t9a"):
                    seconds = keep(page, base, slug)
                    times[slug].append(seconds)
                    total += seconds
                times["both"].append(total)
                search_times.append(offline_search_ms(page, base))
                context.close()
            browser.close()
        for slug in ("mpbs", "t9a"):
            yield f"offline.keep.{slug}", statistics.median(times[slug]), "s", ""
        yield "offline.keep.both_books", statistics.median(times["both"]), "s", "<= 5"
        yield "offline.search.browser.p50", statistics.median(search_times), "ms", ""


def wait_until(page, expression: str, timeout: float = 30000, interval: float = 20):
    """Poll a JavaScript expression until it is truthy (as tests/browsing.py does: Playwright's wait_for_function
    evaluates with eval(), which the site's Content-Security-Policy forbids)."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            if page.evaluate(expression):
                return
        except Error:  # what the expression reads may not be on the page yet
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"not true after {timeout / 1000:.0f} s: {expression}")
        page.wait_for_timeout(interval)


def keep(page, base: str, slug: str) -> float:
    page.goto(f"{base}/en/rules/{slug}/")
    wait_until(page, "navigator.serviceWorker.controller !== null", timeout=30000)
    wait_until(page, "document.querySelector('.offline-status').textContent.match(/\\d/)", timeout=60000)
    t = time.perf_counter()
    page.click(f"[data-offline-keep='{slug}'] [data-offline-action=keep]")
    wait_until(page, "!document.querySelector('[data-offline-action=remove]').hidden", timeout=60000)
    return time.perf_counter() - t


def offline_search_ms(page, base: str) -> float:
    page.goto(f"{base}/en/search/")
    return page.evaluate("""async (queries) => {
        for (const src of ['/static/offline/stem.js', '/static/offline/search.js']) {
            await new Promise(r => { const s = document.createElement('script'); s.src = src; s.onload = r;
                                     document.head.appendChild(s); });
        }
        const indexes = await Promise.all(['mpbs', 't9a'].map(b => fetch('/offline/' + b + '/index.json')
                                                                  .then(r => r.json())));
        const engine = new RulesrefSearch(indexes), times = [];
        for (let round = 0; round < 3; round++) for (const q of queries) {
            const t = performance.now(); engine.search(q, 'en', '', ''); times.push(performance.now() - t);
        }
        times.sort((a, b) => a - b);
        return times[Math.floor(times.length / 2)];
    }""", QUERIES)


def figures(scale: harness.Scale = harness.FULL):
    yield from server_figures()
    yield from browser_figures(scale)


if __name__ == "__main__":
    run.setup_django()
    for name, value, unit, target in figures(harness.Scale.from_argv(sys.argv)):
        print(f"{name} {value:.3f} {unit} {target}" if isinstance(value, float) else f"{name} {value} {unit} {target}",
              flush=True)
