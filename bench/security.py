#!/usr/bin/env python
"""The hardened URLs at their worst: CPU time of the costliest request of at most 1 MB one can construct for each
(target: 0.5 s of CPU, issue #12), through Django's whole stack in the process (no network), with the rate limits
and sign-in throttling on as in production (each request from its own address, so none is refused for its rate).

``figures(scale)`` yields ``(name, value, unit, target)`` for bench/run.py; ``python bench/security.py [--quick|--smoke]``
sets up its own throw-away database and prints the same lines. Each figure is the median of several runs of the
same request (CPU seconds, ``time.process_time``), so the shared machine's load moves it less than wall time.

- ``upload.largest``: the largest scenario file the checker stores (``RULESREF_SCENARIO_MAX_BYTES`` of JSON: a
  100 x 100 map, terrain in every hex, 400 units) uploaded, checked, validated by the engine and stored.
- ``api.*_1mb``: a 1 MB JSON body to a ruling: nested 500,000 deep; 100,000 NUL strings; 40,000 keys that are lone
  surrogates; 100,000 short strings the walk must visit before the engine refuses them.
- ``form.*``: a 1 MB form field ending in a NUL; 1,000 fields (Django's most) of 1 KB each.
- ``search.200_chars``: a search of 200 characters of words in both languages.
- ``sign_in.*``: a wrong password (the password hasher's work, by design the costliest thing here) and an attempt
  on a locked-out account (refused before any hashing).
- ``edge.overhead``: what the edge middleware adds to a request with a 10-field form (µs, no target).
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from itertools import count
from pathlib import Path

import harness  # bench/ is on the path: run as a script, or imported by run.py

ROOT = Path(__file__).resolve().parent.parent
TARGET = "<= 0.5"
_address = harness.client_address


def _cpu(request, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        request()
        times.append(time.process_time() - start)
    return round(statistics.median(times), 4)


def largest_scenario(max_bytes: int) -> dict:
    """A real-looking 100 x 100 position, grown to ``max_bytes`` of JSON with the map's terrain and dead zones."""
    units = []
    for i in range(400):
        side = "blue" if i % 2 == 0 else "red"
        col, row = 1 + (i // 2) % 100, (10 if side == "blue" else 80) + i // 200 * 2
        units.append({"id": f"{side[0].upper()}-{i:03d}", "side": side, "type": ("heavy-infantry", "cavalry")[i % 2],
                      "hexes": [f"{col:03d}{row:03d}"], "facing": "N" if side == "blue" else "S",
                      "morale": {"rating": 7}, "movement": {"allowance": 6}})
    data = {"book": "mpbs", "title": {"en": "The largest position kept", "ru": "Самая большая позиция"},
            "map": {"columns": 100, "rows": 100, "layout": "pointy", "offset": "odd", "dead_zones": [],
                    "terrain": {}}, "units": units}
    kinds = ("woods", "rough", "town", "water")
    hexes = [f"{c:03d}{r:03d}" for r in range(1, 101) for c in range(1, 101)]  # 100 columns: 3 digits each
    for i, label in enumerate(hexes):
        data["map"]["terrain"][label] = kinds[i % 4]

    def size(count: int, **options) -> int:
        data["map"]["dead_zones"] = hexes[:count]
        return len(json.dumps(data, separators=(",", ":"), **options).encode())

    # The fewest dead zones that take the JSON (as ASCII) past max_bytes - 10, or all of them; then as few fewer as
    # bring the UTF-8 text within max_bytes. The size grows with the count: each is found by bisection.
    low, high = 0, len(hexes)
    while low < high:
        middle = (low + high) // 2
        if size(middle) > max_bytes - 10:
            high = middle
        else:
            low = middle + 1
    count = low
    while count and size(count, ensure_ascii=False) > max_bytes:
        count -= 1
    data["map"]["dead_zones"] = hexes[:count]
    return data


def _api_bodies() -> dict[str, str]:
    megabyte = 1024 * 1024 - 64
    deep = '{"scenario": ' + "[" * ((megabyte - 40) // 2) + "]" * ((megabyte - 40) // 2) + "}"
    nul = '{"scenario": {"x": [' + ",".join(['"\\u0000"'] * ((megabyte - 40) // 9)) + "]}}"
    keys = '{"scenario": {' + ",".join(f'"\\ud800{i}":0' for i in range(40_000)) + "}}"
    small = '{"scenario": {"units": [' + ",".join([f'"u{i % 1000:03d}"' for i in range(100_000)]) + "]}}"
    return {"deep_nesting_1mb": deep, "nul_strings_1mb": nul, "surrogate_keys_1mb": keys, "short_strings_1mb": small}


def figures(scale: harness.Scale = harness.FULL):
    from django.test import Client

    runs = scale.pick(5, 2)
    client = Client()
    yield from _upload_figures(client, runs)
    yield from _api_figures(client, runs)
    yield from _form_figures(client, runs)
    yield from _search_figures(client, runs)
    yield from _sign_in_figures(client, runs)
    yield from _edge_figures(scale)


def _upload_figures(client, runs: int):
    """The largest upload the checker keeps."""
    from django.conf import settings

    scenario = largest_scenario(settings.RULESREF_SCENARIO_MAX_BYTES)
    text = json.dumps(scenario, ensure_ascii=False, indent=1)

    drafts = count(1)

    def upload():
        from django.core.files.uploadedfile import SimpleUploadedFile

        scenario["title"]["en"] = f"The largest position kept {next(drafts)}"  # a new draft each time
        body = json.dumps(scenario, ensure_ascii=False, separators=(",", ":")).encode()
        f = SimpleUploadedFile("largest.json", body, content_type="application/json")
        r = client.post("/en/checker/mpbs/", {"action": "upload", "up-file": f}, REMOTE_ADDR=_address())
        assert r.status_code == 303, r.status_code  # accepted and stored: the largest the checker keeps

    yield "security.upload.largest.bytes", len(text.encode()), "B", ""
    yield "security.upload.largest.cpu", _cpu(upload, runs), "s", TARGET


def _api_figures(client, runs: int):
    """1 MB API bodies."""
    for name, body in _api_bodies().items():
        assert len(body.encode()) <= 1024 * 1024, (name, len(body))

        def ask(body=body):
            r = client.post("/api/v1/mpbs/rulings/can-intercept", body, content_type="application/json",
                            REMOTE_ADDR=_address())
            assert 400 <= r.status_code < 500, (name, r.status_code)

        yield f"security.api.{name}.cpu", _cpu(ask, runs), "s", TARGET


def _form_figures(client, runs: int):
    big_field = "x" * (1024 * 1024 - 200) + "\x00"
    many = {f"f{i}": "y" * 1000 for i in range(999)}

    def nul_form():
        r = client.post("/en/checker/mpbs/", {"action": "place", "place_side": big_field}, REMOTE_ADDR=_address())
        assert r.status_code in (400, 413), r.status_code

    def many_fields():
        r = client.post("/en/checker/mpbs/", {"action": "place", **many}, REMOTE_ADDR=_address())
        assert r.status_code < 500, r.status_code

    yield "security.form.nul_1mb.cpu", _cpu(nul_form, runs), "s", TARGET
    yield "security.form.many_fields.cpu", _cpu(many_fields, runs), "s", TARGET


def _search_figures(client, runs: int):
    words = "перехват кавалерия intercepting withdraw отступление 9.3.1 хеджхог facing reaction pursuit "
    query = (words * 5)[:200]

    def search():
        r = client.get("/en/search/", {"q": query}, REMOTE_ADDR=_address())
        assert r.status_code in (200, 302), r.status_code

    yield "security.search.200_chars.cpu", _cpu(search, runs), "s", TARGET


def _sign_in_figures(client, runs: int):
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    user_model = get_user_model()
    names = count(1)

    def wrong_password():
        n = next(names)
        user_model.objects.create_user(f"bench{n}", password="a long right password")
        r = client.post("/en/accounts/login/", {"username": f"bench{n}", "password": "wrong"}, REMOTE_ADDR=_address())
        assert r.status_code == 200, r.status_code

    locked = Client(REMOTE_ADDR="198.51.100.77")
    user_model.objects.create_user("locked", password="a long right password")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked.post("/en/accounts/login/", {"username": "locked", "password": "wrong"})

    def locked_out():
        r = locked.post("/en/accounts/login/", {"username": "locked", "password": "a long right password"})
        assert r.status_code == 429, r.status_code

    yield "security.sign_in.wrong_password.cpu", _cpu(wrong_password, runs), "s", TARGET
    yield "security.sign_in.locked_out.cpu", _cpu(locked_out, runs), "s", TARGET


def _edge_figures(scale: harness.Scale):
    """The edge's own cost on an ordinary request."""
    from django.test import RequestFactory

    from rulesref.security import middleware

    request = RequestFactory().post("/en/checker/mpbs/", {f"f{i}": f"value {i}" for i in range(10)},
                                    REMOTE_ADDR="203.0.113.200")
    rounds = scale.pick(2000, 200)
    start = time.process_time()
    for _ in range(rounds):
        middleware.unstorable_input(request)
    yield "security.edge.text_check.overhead", round((time.process_time() - start) / rounds * 1e6, 1), "us", ""


def _setup() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rulesref-bench-security-"))
    os.environ["RULESREF_VAR_DIR"] = str(tmp)
    for name in ("DATABASE_URL", "DEBUG", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    with open(os.devnull, "w") as quiet:
        call_command("quickstart", no_serve=True, stdout=quiet)


if __name__ == "__main__":
    _setup()
    for name, value, unit, target in figures(harness.Scale.from_argv(sys.argv)):
        print(f"{name} {value} {unit} {target}".rstrip(), flush=True)
