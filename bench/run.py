#!/usr/bin/env python
"""rulesref benchmarks: every area's figures, one per line as `name value unit target`.

    python bench/run.py            # everything, as the targets in docs/benchmarks.md are meant (takes a while)
    python bench/run.py --quick    # a small version of each figure that CI can afford
    python bench/run.py --smoke    # the least work that yields every figure: the form of the lines, no measurement
    python bench/run.py --only search,web

Each area's module ``bench/<area>.py`` exposes ``figures(scale)`` yielding ``(name, value, unit, target)`` (see
bench/harness.py for the contract and the scales). run.py sets Django up first — a throw-away SQLite database in a
temporary directory with the corpus loaded, DEBUG off; it never touches var/ — keeps a copy of that site for the
modules' workers (``harness.prepared_site``), then collects the modules in turn. A module
that is not there yet is skipped with a note; one that fails is reported and the run exits non-zero. The last line
counts the targets met. Lines starting with ``#`` are notes. PostgreSQL figures use the server named by
RULESREF_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432/postgres; each module makes its own
database there and drops it).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

# (module, what it measures): every area's module, in the order they print.
MODULES = [
    ("search", "search at 2,000-100,000 generated sections, SQLite FTS5 and PostgreSQL"),
    ("web", "the production stack: cached page time, page/static rate under gunicorn, bytes on the wire"),
    ("pages", "reference pages rendered without the cache"),
    ("engine_mpbs", "mpbs rules engine"),
    ("engine_t9a", "t9a rules engine"),
    ("checker", "scenario checker pages and API"),
    ("memory", "translation memory look-ups"),
    ("offline", "reading offline: bundle size and index"),
    ("security", "worst cases of the hardened URLs"),
    ("history", "rule history: recording revisions, compact storage, history pages"),
    ("writes", "writes at 20,000 sections: approvals, the workspace's pages, the sitemap, the word diff"),
    ("rulings", "2,000 rulings over 20,000 sections: the FAQ, a section page with rulings, a ruling, search"),
]


def setup_django() -> None:
    """A temporary var directory (SQLite database, static files, secret) with the site ready as quickstart makes
    it; production settings (DEBUG off, no shared cache)."""
    tmp = Path(tempfile.mkdtemp(prefix="rulesref-bench-"))
    os.environ["RULESREF_VAR_DIR"] = str(tmp)
    for name in ("DATABASE_URL", "DEBUG", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    import django
    from django.core.management import call_command

    django.setup()
    with open(os.devnull, "w") as quiet:
        call_command("quickstart", no_serve=True, stdout=quiet)
    import harness

    # The modules change this site as they measure: the workers start from a copy of it as quickstart left it.
    site = harness.copy_site(tmp, Path(tempfile.mkdtemp(prefix="rulesref-bench-site-")))
    os.environ[harness.SITE_ENV] = str(site)


def collect(name: str, scale):
    """The figures of one module (its ``figures(scale)``), checked against the contract."""
    from harness import figure

    module = importlib.import_module(name)
    for item in module.figures(scale):
        yield figure(item)


def main(argv: list[str] | None = None) -> int:
    from harness import Scale

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    Scale.add_arguments(parser)
    parser.add_argument("--only", default="", help="comma-separated modules, e.g. search,web")
    args = parser.parse_args(argv)
    scale = Scale.parsed(args)
    wanted = [m for m in args.only.split(",") if m] or [m for m, _ in MODULES]
    unknown = set(wanted) - {m for m, _ in MODULES}
    if unknown:
        parser.error(f"unknown module(s): {', '.join(sorted(unknown))}")
    setup_django()
    met = total = 0
    failed = []
    for name, what in MODULES:
        if name not in wanted:
            continue
        if not (ROOT / "bench" / f"{name}.py").exists():
            print(f"# bench/{name}.py ({what}) is not there yet: skipped", flush=True)
            continue
        print(f"# bench/{name}.py: {what}", flush=True)
        try:
            for fig in collect(name, scale):
                print(fig.line(), flush=True)
                verdict = fig.met()
                if verdict is not None:
                    total += 1
                    met += verdict
        except Exception:  # one area's failure must not hide the others' figures
            failed.append(name)
            print(f"# bench/{name}.py failed:", flush=True)
            print("\n".join(f"#   {line}" for line in traceback.format_exc().splitlines()), flush=True)
    print(f"targets met: {met} of {total}" + (f"; failed: {', '.join(failed)}" if failed else ""), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
