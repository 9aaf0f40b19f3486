#!/usr/bin/env python
"""Checker benchmarks: ``run() -> [(name, value, unit)]`` for bench/run.py; also runnable alone
(``python bench/checker.py``, which sets up its own temporary database like bench/run.py).

- ``checker.api.ruling.p50`` and ``checker.api.ruling.engine_p50``: a can-intercept ruling through the JSON API
  (Django's handler, no network) and the engine's own time for the same question; ``checker.api.ruling.overhead_p50``
  is the difference (target ≤ 10 ms).
- ``checker.editor_40x30.render.p50``: the editor page for a 40 x 30 map with 60 units (target ≤ 50 ms).
- ``checker.editor.compressed_weight`` (the 9.3 example with its answer) and ``checker.editor_40x30.compressed_weight``:
  gzip of the page and every script and stylesheet it loads (target ≤ 100 KB), and ``checker.editor.external_requests``
  (target 0).
"""
from __future__ import annotations

import gzip
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _p50(fn, n: int) -> float:
    for _ in range(max(3, n // 10)):
        fn()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def big_scenario(columns: int = 40, rows: int = 30, units: int = 60) -> dict:
    """A valid 40 x 30 position: 60 units in two lines facing each other, some terrain, an event."""
    from rulesref.checker.hex import edits as hexedit

    data = hexedit.blank("mpbs")
    data["map"].update({"columns": columns, "rows": rows})
    data["map"]["terrain"] = {f"{c:02d}{r:02d}": ("woods" if (c + r) % 3 else "rough")
                              for c in range(5, 36, 4) for r in range(10, 21, 3)}
    placed = 0
    for i in range(units):
        side = "blue" if i % 2 == 0 else "red"
        col = 2 + (i // 2) % 19 * 2
        row = 24 if side == "blue" else 6
        row += (i // 38) * 2
        kind = ("heavy-infantry", "cavalry", "light-infantry", "artillery")[i % 4]
        label = f"{col:02d}{row:02d}"
        data, uid = hexedit.place_unit(data, label, side, kind, False)
        data["units"][-1]["movement"] = {"allowance": 6 if kind == "cavalry" else 4}
        data["units"][-1]["morale"] = {"rating": 7}
        placed += 1
    data = hexedit.set_event(data, data["units"][0]["id"], "move", [], 1)
    return data


def _weight(client, html: bytes) -> tuple[float, list[str]]:
    total = len(gzip.compress(html))
    for asset in sorted(set(re.findall(rb'(?:src|href)="(/static/[^"]+)"', html))):
        response = client.get(asset.decode())
        body = b"".join(response.streaming_content) if response.streaming else response.content
        total += len(gzip.compress(body))
    external = [u.decode() for u in re.findall(rb'(?:src|href)="((?:https?:)?//[^"]+)"', html)
                if not re.match(rb"https?://(testserver|127\.0\.0\.1|localhost)", u)]
    return total / 1024, external


def run() -> list[tuple[str, float, str]]:
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import Client, RequestFactory

    from rulesref.checker import books
    from rulesref.checker.models import Draft
    from rulesref.engine import ask

    out: list[tuple[str, float, str]] = []
    handler = WSGIHandler()
    factory = RequestFactory()
    example = books.example("mpbs", "interception-example-9.3")
    scenario = {k: v for k, v in example.data.items() if k != "questions"}
    params = {"unit": "CAV-1"}
    body = json.dumps({"scenario": scenario, "params": params})

    def api():
        request = factory.post("/api/v1/mpbs/rulings/can-intercept", body, content_type="application/json")
        response = handler.get_response(request)
        assert response.status_code == 200, response.content

    engine = _p50(lambda: ask("mpbs", "can-intercept", scenario, params).to_dict("en"), 200)
    through_api = _p50(api, 200)
    out += [("checker.api.ruling.engine_p50", engine, "ms"), ("checker.api.ruling.p50", through_api, "ms"),
            ("checker.api.ruling.overhead_p50", through_api - engine, "ms")]

    big = Draft.make("mpbs", big_scenario(), None)
    path = f"/en/checker/mpbs/?d={big.key}"

    def editor():
        response = handler.get_response(factory.get(path))
        assert response.status_code == 200

    out.append(("checker.editor_40x30.render.p50", _p50(editor, 60), "ms"))
    client = Client()
    weight, external = _weight(client, client.get("/en/checker/mpbs/examples/interception-example-9.3/", follow=True).content)
    out.append(("checker.editor.compressed_weight", weight, "KB"))
    weight_big, external_big = _weight(client, client.get(path).content)
    out.append(("checker.editor_40x30.compressed_weight", weight_big, "KB"))
    out.append(("checker.editor.external_requests", float(len(set(external) | set(external_big))), "requests"))
    return out


def main() -> None:
    sys.path.insert(0, str(ROOT))
    tmp = Path(tempfile.mkdtemp(prefix="rulesref-bench-checker-"))
    os.environ["RULESREF_VAR_DIR"] = str(tmp)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("quickstart", no_serve=True, stdout=open(os.devnull, "w"))
    for name, value, unit in run():
        print(f"{name} {value:.3f} {unit}", flush=True)


if __name__ == "__main__":
    main()
