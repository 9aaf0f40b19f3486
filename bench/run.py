#!/usr/bin/env python
"""rulesref benchmarks: each figure on its own line as `name value unit`.

Run from the repository root: `python bench/run.py`. It uses a temporary SQLite database (the corpus loaded),
so it never touches var/. Targets are listed in docs/benchmarks.md.
"""
from __future__ import annotations

import gzip
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
TMP = Path(tempfile.mkdtemp(prefix="rulesref-bench-"))
os.environ["RULESREF_VAR_DIR"] = str(TMP)
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")

SECTION = "/en/rules/mpbs/9.3.1/"


def emit(name: str, value: float, unit: str) -> None:
    print(f"{name} {value:.3f} {unit}" if isinstance(value, float) else f"{name} {value} {unit}", flush=True)


def setup_django():
    import django
    from django.core.management import call_command

    django.setup()
    call_command("quickstart", no_serve=True, stdout=open(os.devnull, "w"))


def section_page_server_time(n: int = 400, cold: bool = False) -> float:
    """p50 of the time Django's handler takes for a section page (no network), in ms; ``cold`` renders every
    time (the page cache emptied before each request), otherwise the page comes from the page cache."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    from rulesref.reference import pagecache

    handler = WSGIHandler()
    factory = RequestFactory()
    for _ in range(20):
        handler.get_response(factory.get(SECTION))
    times = []
    for _ in range(n):
        if cold:
            pagecache.clear()
        t = time.perf_counter()
        response = handler.get_response(factory.get(SECTION))
        times.append((time.perf_counter() - t) * 1000)
        assert response.status_code == 200
    return statistics.median(times)


def page_weight() -> tuple[float, list[str]]:
    """Compressed size of a section page with its CSS and JS, in KB, and any request to another host."""
    from django.test import Client

    client = Client()
    html = client.get(SECTION).content
    total = len(gzip.compress(html))
    assets = re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)
    for asset in assets:
        response = client.get(asset.decode())
        body = b"".join(response.streaming_content) if response.streaming else response.content
        total += len(gzip.compress(body))
    external = [u.decode() for u in re.findall(rb'(?:src|href)="((?:https?:)?//[^"]+)"', html)
                if not re.match(rb"https?://(testserver|127\.0\.0\.1|localhost)", u)]
    return total / 1024, external


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request_rate(url: str, seconds: float = 4.0, threads: int = 4) -> float:
    count = 0
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker():
        nonlocal count
        local = 0
        while time.perf_counter() < stop:
            with urlopen(url, timeout=10) as response:
                response.read()
            local += 1
        with lock:
            count += local

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return count / seconds


def gunicorn_ratio() -> tuple[float, float, float]:
    """Requests per second for a section page and for a static file of the same size, both from gunicorn with
    2 workers on loopback (WhiteNoise serving the file), and their ratio."""
    from django.test import Client

    html = Client().get(SECTION).content
    static_root = TMP / "static"
    (static_root / "bench").mkdir(parents=True, exist_ok=True)
    (static_root / "bench" / "same-size.html").write_bytes(html)
    port = free_port()
    env = dict(os.environ, RULESREF_VAR_DIR=str(TMP))
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "rulesref.wsgi:application", "--workers", "2",
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning"], cwd=ROOT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urlopen(base + SECTION, timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        urlopen(base + "/static/bench/same-size.html", timeout=2).read()
        request_rate(base + SECTION, 1.0)
        page = request_rate(base + SECTION)
        static = request_rate(base + "/static/bench/same-size.html")
    finally:
        server.terminate()
        server.wait(10)
    return page, static, page / static


def main() -> None:
    setup_django()
    emit("reference.section_page.server_time.p50", section_page_server_time(), "ms")
    emit("reference.section_page.server_time_uncached.p50", section_page_server_time(cold=True), "ms")
    weight, external = page_weight()
    emit("reference.section_page.compressed_weight", weight, "KB")
    emit("reference.section_page.external_requests", len(external), "requests")
    page, static, ratio = gunicorn_ratio()
    emit("reference.section_page.gunicorn_rate", page, "req/s")
    emit("reference.static_same_size.gunicorn_rate", static, "req/s")
    emit("reference.section_page.rate_ratio_to_static", ratio, "ratio")
    for module_name in ("search", "engine_mpbs", "engine_t9a", "checker"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        for name, value, unit in module.run():
            emit(name, value, unit)


if __name__ == "__main__":
    main()
