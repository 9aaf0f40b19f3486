#!/usr/bin/env python
"""The site as production runs it: a cached section page's server time, the page rate against a static file's
under gunicorn (2 sync workers, DEBUG off), and the bytes a browser receives — on SQLite and on PostgreSQL.

``figures(quick)`` for bench/run.py; ``python bench/web.py [--quick]`` prints them alone. Each backend is measured
in a process of its own (``--worker sqlite|postgres``), with its own var directory and database, so the two
never share a connection, a cache or a warm page.

- ``web.<db>.section_page.cached.server_time.p50``: Django's whole WSGI handler (request start and end, every
  middleware) for a section page that the page cache holds, no network; target ≤ 0.5 ms.
- ``web.<db>.gunicorn.page_to_static_rate``: requests per second for the section page divided by those for a
  static file of the same size served by the same gunicorn (WhiteNoise), both compressed as a browser asks for
  them; measured in rounds that alternate which goes first, the median of the rounds' ratios, with their spread
  (``…_min``, ``…_max``); target ≥ 0.5.
- ``web.wire.*``: bytes over HTTP for a page and every script and stylesheet it loads, as headless Chromium
  receives them (its own Accept-Encoding); targets: a section page ≤ 30 KB, the hex checker and the t9a board with
  an answer ≤ 45 KB each. Without Chromium, urllib asks with ``gzip, br`` and a note says so.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import harness  # noqa: E402

SECTION = "/en/rules/mpbs/9.3.1/"
WIRE_PAGES = [
    ("section_page", SECTION, "<= 30"),
    ("hex_checker_with_answer", "/en/checker/mpbs/examples/interception-example-9.3/", "<= 45"),
    ("t9a_board_with_answer", "/en/checker/t9a/examples/charge-clear/", "<= 45"),
]
CHROMIUM = os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium")


def figures(quick: bool, backends: list[str] | None = None):
    for backend in backends or harness.backends("web"):  # this file run as a worker for each
        yield from harness.worker_figures([sys.executable, __file__, "--worker", backend] + (["--quick"] if quick else []),
                                          backend)


emit = harness.emit


def prepare() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    with open(os.devnull, "w") as quiet:
        call_command("quickstart", no_serve=True, stdout=quiet)


def cached_server_time(n: int) -> float:
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    handler = WSGIHandler()
    environ = RequestFactory().get(SECTION, HTTP_ACCEPT_ENCODING="gzip, deflate, br").environ

    def one():
        # The WSGI call itself, as gunicorn makes it: it starts and ends the request, which closes or checks the
        # database connection each time (CONN_HEALTH_CHECKS), work get_response alone would leave out.
        status = []
        response = handler(dict(environ), lambda s, headers: status.append(s))
        b"".join(response)
        response.close()
        assert status[0].startswith("200"), status

    return harness.median(harness.timings_ms(one, n, warmup=20))


def same_size_static() -> str:
    """A copy of the section page as a static file, compressed as collectstatic compresses the site's own files,
    for the server to serve as its baseline (WhiteNoise finds it when the server starts)."""
    from django.conf import settings
    from django.test import Client
    from whitenoise.compress import Compressor

    body = Client().get(SECTION).content
    folder = Path(settings.STATIC_ROOT) / "bench"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "same-size.html"
    path.write_bytes(body)
    for _ in Compressor(quiet=True).compress(str(path)):
        pass
    return "/static/bench/same-size.html"


def rate_ratio(base: str, static: str, rounds: int, seconds: float):
    page = lambda: harness.request_rate(base + SECTION, seconds)  # noqa: E731
    file = lambda: harness.request_rate(base + static, seconds)  # noqa: E731
    page(), file()  # warm both workers on both paths
    pages, files = harness.alternating(page, file, rounds)
    return harness.median(pages), harness.median(files), harness.ratio_and_spread(pages, files)


def wire_bytes(base: str, path: str) -> tuple[float, str]:
    """KB over the wire for the page and its subresources, and how it was measured."""
    if Path(CHROMIUM).exists():
        try:
            return _wire_bytes_chromium(base + path), "chromium"
        except ImportError:
            pass
    return _wire_bytes_urllib(base, path), "urllib"


def _wire_bytes_chromium(url: str) -> float:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        page = browser.new_page()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        received: dict[str, float] = {}
        cdp.on("Network.loadingFinished", lambda e: received.__setitem__(e["requestId"], e["encodedDataLength"]))
        page.goto(url, wait_until="networkidle")
        browser.close()
    return sum(received.values()) / 1024


def _wire_bytes_urllib(base: str, path: str) -> float:
    status, body, headers = harness.get(base + path, accept_encoding="gzip, br")
    html = harness.get(base + path, accept_encoding="")[1]
    total = len(body)
    for asset in sorted(set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', html))):
        total += len(harness.get(base + asset.decode(), accept_encoding="gzip, br")[1])
    return total / 1024


def worker(backend: str, quick: bool) -> None:
    prepare()
    emit(f"web.{backend}.section_page.cached.server_time.p50", cached_server_time(200 if quick else 2000), "ms",
         "<= 0.5")
    env = harness.site_env(Path(os.environ["RULESREF_VAR_DIR"]), os.environ.get("DATABASE_URL", ""))
    static = same_size_static()
    with harness.gunicorn(env, workers=2, ready_path=SECTION) as base:
        page, file, (ratio, low, high) = rate_ratio(base, static, rounds=2 if quick else 6,
                                                    seconds=0.5 if quick else 2.0)
        emit(f"web.{backend}.gunicorn.section_page_rate", page, "req/s")
        emit(f"web.{backend}.gunicorn.static_same_size_rate", file, "req/s")
        emit(f"web.{backend}.gunicorn.page_to_static_rate", ratio, "ratio", ">= 0.5")
        emit(f"web.{backend}.gunicorn.page_to_static_rate_min", low, "ratio")
        emit(f"web.{backend}.gunicorn.page_to_static_rate_max", high, "ratio")
        if backend == "sqlite":  # the bytes do not depend on the database
            for name, path, target in WIRE_PAGES:
                kb, how = wire_bytes(base, path)
                if how != "chromium":
                    print(f"# web: no Chromium at {CHROMIUM}; {name} measured with urllib (gzip, br)", flush=True)
                emit(f"web.wire.{name}", kb, "KB", target)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--worker", choices=["sqlite", "postgres"])
    parser.add_argument("--backends", default="", help="comma-separated: sqlite,postgres (default: both)")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.quick)
        return
    for item in figures(args.quick, [b for b in args.backends.split(",") if b] or None):
        print(harness.figure(item).line(), flush=True)


if __name__ == "__main__":
    main()
