#!/usr/bin/env python
"""The site as production runs it: a cached section page's server time, the page rate against a static file's
under gunicorn (2 sync workers, DEBUG off), and the bytes a browser receives — on SQLite and on PostgreSQL.

``figures(scale)`` for bench/run.py; ``python bench/web.py [--quick|--smoke]`` prints them alone. Each backend is measured
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


def figures(scale: harness.Scale, backends: list[str] | None = None):
    for backend in backends or harness.backends("web"):  # this file run as a worker for each
        yield from harness.worker_figures([sys.executable, __file__, "--worker", backend] + scale.argv, backend)


emit = harness.emit


def cached_server_time(n: int, warmup: int) -> float:
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

    return harness.median(harness.timings_ms(one, n, warmup=warmup))


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


def wire_kb(base: str) -> tuple[dict[str, float], str]:
    """KB over the wire for each of WIRE_PAGES with its subresources, and how they were measured."""
    paths = {name: path for name, path, _ in WIRE_PAGES}
    if Path(CHROMIUM).exists():
        try:
            return _wire_bytes_chromium(base, paths), "chromium"
        except ImportError:
            pass
    return {name: _wire_bytes_urllib(base, path) for name, path in paths.items()}, "urllib"


def _wire_bytes_chromium(base: str, paths: dict[str, str]) -> dict[str, float]:
    """One browser; each page in a context of its own (no cache, no service worker, no cookie of another page)."""
    from playwright.sync_api import sync_playwright

    kb = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        for name, path in paths.items():
            context = browser.new_context()
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
            received: dict[str, float] = {}
            cdp.on("Network.loadingFinished", lambda e, got=received: got.__setitem__(e["requestId"],
                                                                                    e["encodedDataLength"]))
            page.goto(base + path, wait_until="networkidle")
            context.close()
            kb[name] = sum(received.values()) / 1024
        browser.close()
    return kb


def _wire_bytes_urllib(base: str, path: str) -> float:
    status, body, headers = harness.get(base + path, accept_encoding="gzip, br")
    html = harness.get(base + path, accept_encoding="")[1]
    total = len(body)
    for asset in sorted(set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', html))):
        total += len(harness.get(base + asset.decode(), accept_encoding="gzip, br")[1])
    return total / 1024


def worker(backend: str, scale: harness.Scale) -> None:
    harness.prepare_site()
    emit(f"web.{backend}.section_page.cached.server_time.p50",
         cached_server_time(scale.pick(2000, 200), warmup=scale.pick(20, 20, 1)), "ms", "<= 0.5")
    env = harness.site_env(Path(os.environ["RULESREF_VAR_DIR"]), os.environ.get("DATABASE_URL", ""))
    static = same_size_static()
    with harness.gunicorn(env, workers=scale.pick(2, 2), ready_path=SECTION) as base:  # one with --smoke
        page, file, (ratio, low, high) = rate_ratio(base, static, rounds=scale.pick(6, 2),
                                                    seconds=scale.pick(2.0, 0.5, 0.05))
        emit(f"web.{backend}.gunicorn.section_page_rate", page, "req/s")
        emit(f"web.{backend}.gunicorn.static_same_size_rate", file, "req/s")
        emit(f"web.{backend}.gunicorn.page_to_static_rate", ratio, "ratio", ">= 0.5")
        emit(f"web.{backend}.gunicorn.page_to_static_rate_min", low, "ratio")
        emit(f"web.{backend}.gunicorn.page_to_static_rate_max", high, "ratio")
        if backend == "sqlite":  # the bytes do not depend on the database
            kb, how = wire_kb(base)
            if how != "chromium":
                print(f"# web: no Chromium at {CHROMIUM}; measured with urllib (gzip, br)", flush=True)
            for name, _, target in WIRE_PAGES:
                emit(f"web.wire.{name}", kb[name], "KB", target)


def main() -> None:
    parser = argparse.ArgumentParser()
    harness.Scale.add_arguments(parser)
    parser.add_argument("--worker", choices=["sqlite", "postgres"])
    parser.add_argument("--backends", default="", help="comma-separated: sqlite,postgres (default: both)")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, harness.Scale.parsed(args))
        return
    for item in figures(harness.Scale.parsed(args), [b for b in args.backends.split(",") if b] or None):
        print(harness.figure(item).line(), flush=True)


if __name__ == "__main__":
    main()
