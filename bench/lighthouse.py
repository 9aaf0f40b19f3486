#!/usr/bin/env python
"""Lighthouse scores (performance, accessibility, best practices, SEO) of the home page, a section, the search,
the glossary and the translator's dashboard, in Russian and English.

    python bench/lighthouse.py [--quick] [--audits] [PAGE…] [ru|en]   # prints `name value unit target` lines

It serves the site from a temporary SQLite database with the corpus loaded (never var/), DEBUG off, signs a
translator in for the dashboard (the session cookie is passed to Lighthouse as a header), and runs Lighthouse
from the npm registry (`npx --yes lighthouse@12`, so Node.js 18+ and npm are needed) driving Debian's Chromium
(RULESREF_CHROMIUM, default /usr/bin/chromium) with its default settings: a phone, simulated slow 4G and CPU.
``--audits`` also prints every audit that lost points on a page. ``--quick`` runs the section page in English
only. ``figures(quick)`` yields ``(name, value, unit, target)`` for bench/run.py.
"""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium")
LIGHTHOUSE = ["npx", "--yes", "lighthouse@12"]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PAGES = {
    "home": "/{lang}/",
    "section": "/{lang}/rules/mpbs/9.3.1/",
    "search": "/{lang}/search/?q={query}",
    "glossary": "/{lang}/glossary/mpbs/",
    "dashboard": "/{lang}/translate/mpbs/",
}
QUERY = {"ru": "%D0%BF%D0%B5%D1%80%D0%B5%D1%85%D0%B2%D0%B0%D1%82%D0%B8%D1%82%D1%8C", "en": "intercepting"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve() -> tuple[str, str]:
    """The site on a free local port, and the session cookie of a signed-in translator."""
    sys.path.insert(0, str(ROOT))
    os.environ["RULESREF_VAR_DIR"] = tempfile.mkdtemp(prefix="rulesref-lighthouse-")
    os.environ.pop("DATABASE_URL", None)
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("quickstart", no_serve=True, stdout=open(os.devnull, "w"))
    from django.contrib.auth.models import Group, User
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application
    from django.test import Client

    user = User.objects.create_user("lighthouse", password="a-long-local-password")
    user.groups.add(Group.objects.get_or_create(name="translators")[0])
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    port = _free_port()
    server = ThreadedWSGIServer(("127.0.0.1", port), Quiet)
    server.set_app(StaticFilesHandler(get_wsgi_application()))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{port}", session


def audit(url: str, cookie: str = "") -> dict:
    """Lighthouse's report of one page (JSON, as the CLI writes it)."""
    command = [*LIGHTHOUSE, url, "--output=json", "--output-path=stdout", "--quiet",
               f"--only-categories={','.join(CATEGORIES)}",
               "--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking"]
    if cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": f"sessionid={cookie}"}))
    run = subprocess.run(command, capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, CHROME_PATH=CHROMIUM))
    if run.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {run.stderr[-2000:]}")
    return json.loads(run.stdout)


def lost_points(report: dict) -> list[str]:
    """The audits that count towards a category's score and did not get full marks."""
    out = []
    for category in report["categories"].values():
        for ref in category["auditRefs"]:
            result = report["audits"][ref["id"]]
            if ref["weight"] and result["score"] is not None and result["score"] < 1:
                out.append(f"{category['id']}: {ref['id']} {result['score']:.2f} ({result['title']})")
    return out


def figures(quick: bool = False, audits: bool = False, only: tuple[str, ...] = ()):
    if shutil.which("npx") is None or not Path(CHROMIUM).exists():
        print("# bench/lighthouse.py needs npx (Node.js 18+) and Chromium; skipped", flush=True)
        return
    base, session = serve()
    pages = {"section": PAGES["section"]} if quick else PAGES
    pages = {k: v for k, v in pages.items() if k in only} or pages
    langs = [lang for lang in ("en", "ru") if lang in only] or ["en", "ru"]
    for lang in ("en",) if quick else langs:
        for name, path in pages.items():
            report = audit(base + path.format(lang=lang, query=QUERY[lang]),
                           cookie=session if name == "dashboard" else "")
            if report.get("runtimeError"):
                raise RuntimeError(f"{name} {lang}: {report['runtimeError']}")
            final = report.get("finalDisplayedUrl") or report.get("finalUrl", "")
            if "/accounts/login/" in final:
                raise RuntimeError(f"{name} {lang}: redirected to {final} (the translator's session was refused)")
            for category in CATEGORIES:
                score = report["categories"][category]["score"]
                yield (f"lighthouse.{name}.{lang}.{category}", float(score or 0), "score", ">= 0.95")
            if audits:
                for line in lost_points(report):
                    print(f"# {name} {lang} {line}", flush=True)


def main() -> None:
    met = total = 0
    only = tuple(a for a in sys.argv[1:] if not a.startswith("--"))
    for name, value, unit, target in figures("--quick" in sys.argv, "--audits" in sys.argv, only):
        total += 1
        met += value >= 0.95
        print(f"{name} {value:.2f} {unit} {target}", flush=True)
    print(f"lighthouse.targets_met {met} of {total}", flush=True)


if __name__ == "__main__":
    main()
