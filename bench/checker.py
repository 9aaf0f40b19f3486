#!/usr/bin/env python
"""Checker benchmarks: ``figures(scale)`` yields ``(name, value, unit, target)`` for bench/run.py; runnable alone
(``python bench/checker.py [--quick|--smoke]``, which sets up its own temporary database like bench/run.py).

- ``checker.api.ruling.overhead_p50``: a can-intercept ruling through the JSON API (Django's handler, no network)
  minus the engine's own time for the same question (≤ 10 ms).
- ``checker.editor_40x30.render.p50``: the editor for a 40 × 30 map with 60 units (≤ 50 ms).
- ``checker.editor.compressed_weight`` (the 9.3 example with its answer) and ``checker.board.compressed_weight``
  (the t9a example of all three charge reactions, answered): gzip of the page and every script and stylesheet it
  loads, as a browser receives them (≤ 45 KB each); ``checker.editor.external_requests`` (0).
- ``checker.largest_map.*`` and ``checker.largest_board.*``: the editor page of the largest scenario the engine's
  limits accept (a 100 × 100 map with 400 units, terrain painted on a third of it; a 144 × 96 inch board with 150
  units and 100 terrain pieces of 64 corners): its render time (≤ 500 ms) and its HTML (≤ 2,048 KB), alone and with
  a question answered (the engine's own time is in it).
- ``checker.board_drag.*``: the round trip of a drag on the t9a board as the script sends it (an htmx POST of
  ``board-move`` with charge-reactions asked), and where its time goes: the engine reading the new scenario, the
  engine answering, and the rest (storing the draft, rendering the page).
"""
from __future__ import annotations

import gzip
import json
import math
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.request import Request, urlopen

import harness  # bench/ is on the path: run as a script, or imported by run.py

ROOT = Path(__file__).resolve().parent.parent
PAGE_MS, PAGE_KB, WIRE_KB = 500, 2048, 45


def _p50(fn, n: int, warmup: int | None = None) -> float:
    for _ in range(max(2, n // 10) if warmup is None else warmup):
        fn()
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def big_scenario(columns: int = 40, rows: int = 30, units: int = 60) -> dict:
    """A valid position: ``units`` units in lines facing each other, some terrain, an event."""
    from rulesref.checker.hex import edits as hexedit

    data = hexedit.blank("mpbs")
    data["map"].update({"columns": columns, "rows": rows})
    width = len(str(max(columns, rows)))
    label = f"{{:0{max(2, width)}d}}{{:0{max(2, width)}d}}".format
    data["map"]["terrain"] = {label(c, r): ("woods" if (c + r) % 3 else "rough")
                              for c in range(5, columns - 4, 4) for r in range(10, rows - 9, 3)}
    per_line = max(1, (columns - 2) // 2)
    for i in range(units):
        side = "blue" if i % 2 == 0 else "red"
        line = i // 2 // per_line
        col = 2 + (i // 2) % per_line * 2
        row = (rows - 6 - 2 * line) if side == "blue" else (6 + 2 * line)
        kind = ("heavy-infantry", "cavalry", "light-infantry", "artillery")[i % 4]
        data, _uid = hexedit.place_unit(data, label(col, row), side, kind, False)
        data["units"][-1]["movement"] = {"allowance": 6 if kind == "cavalry" else 4}
        data["units"][-1]["morale"] = {"rating": 7}
    return hexedit.set_event(data, data["units"][0]["id"], "move", [], 1)


def largest_map() -> dict:
    """The largest hex scenario the limits accept: every dimension at its most, terrain on a third of the map."""
    from rulesref.engine.mpbs import limits

    most = limits()
    data = big_scenario(most["columns"], most["rows"], most["units"])
    terrain = data["map"]["terrain"]
    for c in range(1, most["columns"] + 1):
        for r in range(1, most["rows"] + 1):
            if (c * 7 + r * 3) % 3 == 0:
                terrain.setdefault(f"{c:03d}{r:03d}", ("woods", "rough", "town")[(c + r) % 3])
    data["map"]["dead_zones"] = [f"{c:03d}050" for c in range(1, most["columns"] + 1, 2)]
    data["map"]["los_blocking"] = [f"{c:03d}051" for c in range(1, most["columns"] + 1, 2)]
    return data


def largest_board() -> dict:
    """The largest tabletop scenario the limits accept: the biggest board, the most units in rows facing each other,
    the most terrain pieces, each a circle of the most corners."""
    from rulesref.checker.tabletop import edits
    from rulesref.engine.t9a import limits

    most = limits()
    data = edits.set_board(edits.blank(), most["board_width"], most["board_depth"])
    per_row = int(most["board_width"] // 6) - 1
    for i in range(most["units"]):
        side = "red" if i % 2 == 0 else "blue"
        row, col = divmod(i // 2, per_row)
        y = 4 + 4 * row if side == "red" else most["board_depth"] - 4 - 4 * row
        data, _uid = edits.place_unit(data, 6 + 6 * col, y, side, width=5, depth=2, advance_rate=5,
                                      missile_weapons=bool(i % 3))
    corners = most["polygon_vertices"]
    per_line = 20
    for k in range(most["terrain"]):
        cx, cy = 4 + (k % per_line) * 7, 30 + (k // per_line) * 8
        polygon = [[round(cx + 2.5 * math.cos(2 * math.pi * j / corners), 2),
                    round(cy + 2.5 * math.sin(2 * math.pi * j / corners), 2)] for j in range(corners)]
        data, _tid = edits.add_terrain(data, polygon, f"wood {k}", obscuring=True)
    data["declared_charges"] = [{"charger": "red-1", "target": "blue-1"}]
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


class Pages:
    """Django's handler, no network: GET and htmx POST of the checker's pages."""

    def __init__(self):
        from django.core.handlers.wsgi import WSGIHandler
        from django.test import RequestFactory

        self.handler, self.factory = WSGIHandler(), RequestFactory()

    def get(self, path: str):
        response = self.handler.get_response(self.factory.get(path))
        assert response.status_code == 200, (path, response.status_code)
        return response

    def post(self, path: str, data: dict, htmx: bool = True):
        request = self.factory.post(path, data, **({"HTTP_HX_REQUEST": "true"} if htmx else {}))
        request._dont_enforce_csrf_checks = True
        response = self.handler.get_response(request)
        assert response.status_code == 200, (path, response.status_code, response.content[:500])
        return response


def api_figures(pages: Pages, n: int, warmup: int | None = None):
    from rulesref.checker import books
    from rulesref.engine import ask

    example = books.example("mpbs", "interception-example-9.3")
    scenario = {k: v for k, v in example.data.items() if k != "questions"}
    params = {"unit": "CAV-1"}
    body = json.dumps({"scenario": scenario, "params": params})

    def api():
        request = pages.factory.post("/api/v1/mpbs/rulings/can-intercept", body, content_type="application/json",
                                     REMOTE_ADDR=harness.client_address())  # many readers: no rate limit refuses
        response = pages.handler.get_response(request)
        assert response.status_code == 200, response.content

    engine = _p50(lambda: ask("mpbs", "can-intercept", scenario, params).to_dict("en"), n, warmup)
    through_api = _p50(api, n, warmup)
    yield "checker.api.ruling.engine_p50", engine, "ms", ""
    yield "checker.api.ruling.p50", through_api, "ms", ""
    yield "checker.api.ruling.overhead_p50", through_api - engine, "ms", "<= 10"


def weight_figures(path_40x30: str):
    from django.test import Client

    client = Client()
    pages = {
        "checker.editor": client.get("/en/checker/mpbs/examples/interception-example-9.3/", follow=True).content,
        "checker.board": client.get("/en/checker/t9a/examples/reactions-all-three/", follow=True).content,
        "checker.editor_40x30": client.get(path_40x30).content,
    }
    external: set[str] = set()
    for name, html in pages.items():
        weight, found = _weight(client, html)
        external |= set(found)
        yield f"{name}.compressed_weight", weight, "KB", f"<= {WIRE_KB}" if name != "checker.editor_40x30" else ""
    yield "checker.editor.external_requests", float(len(external)), "requests", "== 0"


def largest_figures(pages: Pages, n: int, warmup: int | None = None):
    from rulesref.checker.models import Draft

    for name, book, data, question in (
            ("checker.largest_map", "mpbs", largest_map(), "q=can-intercept&p-unit=CAV-1"),
            ("checker.largest_board", "t9a", largest_board(), "q=charge-reactions&p-charger=red-1&p-target=blue-1")):
        path = f"/en/checker/{book}/?d={Draft.make(book, data, None).key}"
        size = len(pages.get(path).content) / 1024
        yield f"{name}.render.p50", _p50(lambda: pages.get(path), n, warmup), "ms", f"<= {PAGE_MS}"
        yield f"{name}.html_size", size, "KB", f"<= {PAGE_KB}"
        asked = f"{path}&{question}"
        yield f"{name}.answered.render.p50", _p50(lambda: pages.get(asked), max(2, n // 2) if warmup is None else n,
                                                  warmup), "ms", f"<= {PAGE_MS}"
        yield f"{name}.answered.html_size", len(pages.get(asked).content) / 1024, "KB", f"<= {PAGE_KB}"


def drag_figures(pages: Pages, n: int, warmup: int | None = None):
    """A drag on the t9a board as checker.js sends it, and where its time goes."""
    from rulesref.checker import books
    from rulesref.checker.models import Draft
    from rulesref.engine import ask, t9a

    example = books.example("t9a", "reactions-all-three")
    data = {k: v for k, v in example.data.items() if k != "questions"}
    draft = Draft.make("t9a", data, None)
    unit = data["units"][0]
    x, y = unit["centre"]
    params = {"charger": "knights", "target": "archers"}
    query = "&q=charge-reactions&p-charger=knights&p-target=archers"
    step = [0]

    def drag():
        step[0] += 1
        pages.post(f"/en/checker/t9a/?d={draft.key}&sel={unit['id']}{query}",
                   {"action": "board-move", "d": draft.key, "sel": unit["id"], "q": "charge-reactions",
                    "p-charger": "knights", "p-target": "archers", "facing": "", "x": x + (step[0] % 2) * 0.5,
                    "y": y})

    moved = json.loads(json.dumps(data))
    moved["units"][0]["centre"] = [x + 0.5, y]
    total = _p50(drag, n, warmup)
    reading = _p50(lambda: t9a.load_scenario(json.loads(json.dumps(moved))), n, warmup)
    answering = _p50(lambda: ask("t9a", "charge-reactions", t9a.load_scenario(moved), params), n, warmup) - reading
    yield "checker.board_drag.round_trip.p50", total, "ms", f"<= {PAGE_MS}"
    yield "checker.board_drag.engine_reading.p50", reading, "ms", ""
    yield "checker.board_drag.engine_answer.p50", answering, "ms", ""
    yield "checker.board_drag.rest.p50", total - reading - answering, "ms", ""


def example_requests() -> list[tuple[str, bytes]]:
    """Every question of every example scenario of both books as the API is asked it: (address, JSON body)."""
    from rulesref.checker import books

    requests = []
    for book in ("mpbs", "t9a"):
        for example in books.examples(book).values():
            scenario = {k: v for k, v in example.data.items() if k != "questions"}
            for question in example.data.get("questions", []):
                requests.append((f"/api/v1/{book}/rulings/{question['question']}",
                                 json.dumps({"scenario": scenario, "params": question.get("params", {})}).encode()))
    return requests


def end_to_end_figures(rounds: int, workers: int = 2):
    """A ruling of the example scenarios end to end, as the API pays it: POSTed to gunicorn (2 sync workers, DEBUG
    off; one with ``--smoke``) over loopback, each scenario freshly read from the body; the median over the questions
    in a round, less a static file's median over as many requests, in rounds alternating which goes first. The spread
    of the rounds is beside it."""
    env = harness.site_env(Path(os.environ["RULESREF_VAR_DIR"]), os.environ.get("DATABASE_URL", ""),
                           RULESREF_RATE_LIMITS="0")
    requests = example_requests()
    with harness.gunicorn(env, workers=workers) as base:
        def post(path: str, body: bytes) -> float:
            start = time.perf_counter()
            with urlopen(Request(base + path, data=body, headers={"Content-Type": "application/json"}),
                         timeout=30) as response:
                response.read()
            return (time.perf_counter() - start) * 1000

        def rulings() -> float:
            return harness.median([post(path, body) for path, body in requests])

        def static() -> float:
            return harness.median(harness.request_ms(base + "/static/rulesref/site.css", len(requests)))

        rulings()  # both workers past their own start-up
        asked, files = harness.alternating(rulings, static, rounds)
    above = [a - f for a, f in zip(asked, files)]
    yield "checker.api.examples_end_to_end.minus_static.p50", harness.median(above), "ms", "<= 3"
    yield "checker.api.examples_end_to_end.minus_static_min", min(above), "ms", ""
    yield "checker.api.examples_end_to_end.minus_static_max", max(above), "ms", ""
    ratio, low, high = harness.ratio_and_spread(asked, files)
    yield "checker.api.examples_end_to_end.to_static", ratio, "ratio", ""
    yield "checker.api.examples_end_to_end.to_static_min", low, "ratio", ""
    yield "checker.api.examples_end_to_end.to_static_max", high, "ratio", ""


def figures(scale: harness.Scale = harness.FULL):
    from rulesref.checker.models import Draft

    n = scale.pick(60, 10)
    warmup = scale.pick(None, None, 0)  # None: a tenth of the calls, at least two
    pages = Pages()
    yield from api_figures(pages, scale.pick(n * 2, n * 2), warmup)
    yield from end_to_end_figures(scale.pick(9, 3), workers=scale.pick(2, 2))
    path = f"/en/checker/mpbs/?d={Draft.make('mpbs', big_scenario(), None).key}"
    yield "checker.editor_40x30.render.p50", _p50(lambda: pages.get(path), n, warmup), "ms", "<= 50"
    yield from weight_figures(path)
    yield from largest_figures(pages, scale.pick(max(3, n // 6), max(3, n // 6)), warmup)
    yield from drag_figures(pages, scale.pick(max(3, n // 3), max(3, n // 3)), warmup)


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
    for name, value, unit, target in figures(harness.Scale.from_argv(sys.argv)):
        print(f"{name} {value:.3f} {unit} {target}".rstrip(), flush=True)


if __name__ == "__main__":
    main()
