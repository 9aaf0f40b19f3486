#!/usr/bin/env python
"""Writes at scale: the translator's workspace and the sitemap of a 20,000-section generated book (300 with
``--quick``, 30 with ``--smoke``), on SQLite and on PostgreSQL, and the worst word diff of two 200 KB texts (20 KB
with ``--smoke``).

``figures(scale)`` for bench/run.py; ``python bench/writes.py [--quick|--smoke]`` prints them alone. Each database is measured
in a worker process of its own (its own var directory and database) that loads the book through loadrules' own
code, brings its workspace in step as the task after a load does (``sync_after_load_s``, shown), and answers
requests through Django's handler with production settings (DEBUG off, tasks queued for a worker, not run in the
request). Per database:

- ``approval.cpu_max``: the processor time of an approval through the editor (the form posted as a browser posts
  it, confirmed where QA names errors), the worst of several sections (target ≤ 0.5 s); ``approval.wall_p50``
  beside it (PostgreSQL's own work is in another process, so the wall time is shown too).
- ``editor.cpu_p50`` and ``dashboard.cpu_p50``: a section's editor and the book's dashboard (targets ≤ 0.5 s).
- ``sitemap.book_file_cold.cpu`` (target ≤ 0.5 s): the book's sitemap file written anew (cache empty);
  ``sitemap.addresses_per_file_max`` (target ≤ 50,000).
- ``textdiff.worst_200kb.cpu`` (target ≤ 0.5 s): the word diff rendered as HTML of the worst pairs of 200 KB texts
  (unrelated texts, scattered edits), measured once.
"""
from __future__ import annotations

import random
import re
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import harness  # noqa: E402

SIZE, QUICK_SIZE, SMOKE_SIZE = 20_000, 300, 30
ROUNDS, QUICK_ROUNDS = 7, 3
DIFF_KB, SMOKE_DIFF_KB = 200, 20
SECONDS = "<= 0.5"


def figures(scale: harness.Scale = harness.FULL):
    import corpus_gen

    size = scale.pick(SIZE, QUICK_SIZE, SMOKE_SIZE)
    root = Path(tempfile.mkdtemp(prefix="rulesref-bench-writes-"))
    corpus_gen.write(root, size, slug=f"gen{size}")
    yield from diff_figures(scale.pick(DIFF_KB, DIFF_KB, SMOKE_DIFF_KB))
    for backend in harness.backends("writes"):
        args = [sys.executable, __file__, "--worker", backend, "--root", str(root), "--size", str(size)] + scale.argv
        yield from harness.worker_figures(args, backend, RULESREF_TASKS="queue", RULESREF_RATE_LIMITS="0",
                                          RULESREF_OFFLINE_COPIES="background")


def diff_figures(kb: int = DIFF_KB):
    """The word diff of the worst pairs of texts of ``kb`` KB this module can make (the translation's words)."""
    import corpus_gen

    from rulesref.textdiff import html_diff

    def text(seed: int, size: int = kb * 1000) -> str:
        book = corpus_gen.generate(3_000 * kb // DIFF_KB, seed=seed)
        return "\n\n".join(s.body["en"] for s in book.sections if s.body.get("en"))[:size]

    first, other = text(1), text(2)
    words = first.split(" ")
    rng = random.Random(5)
    scattered = " ".join(w if rng.random() > 0.1 else w[::-1] for w in words)
    worst = 0.0
    for old, new in ((first, other), (first, scattered), (first, "")):
        start = time.process_time()
        html_diff(old, new)
        worst = max(worst, time.process_time() - start)
    yield f"writes.textdiff.worst_{kb}kb.cpu", worst, "s", SECONDS


# ---------------------------------------------------------------------------------------------- in the worker


emit = harness.emit


def timed(call) -> tuple[float, float, object]:
    """(processor seconds, wall seconds, result) of ``call()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = call()
    return time.process_time() - cpu, time.perf_counter() - wall, result


def cpu_of(client, path: str) -> float:
    cpu, _, response = timed(lambda: client.get(path))
    assert response.status_code == 200, (path, response.status_code)
    return cpu


def approval(client, slug: str, sid: str) -> tuple[float, float]:
    """An approval through the editor as a reviewer makes it: the first paragraph changed, confirmed if asked."""
    from html import unescape

    url = f"/en/translate/{slug}/{sid}/"
    page = client.get(url).content.decode()
    fields = {name: unescape(value) for name, value in re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"',
                                                                  page)}
    for name, body in re.findall(r'<textarea[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>', page, re.S):
        fields[name] = unescape(body).strip()
    fields.update(p1=f"{fields.get('p1', '')} Indeed so.", status="approved", comment="bench")
    cpu, wall, response = timed(lambda: client.post(url, fields))
    if response.status_code == 409:
        fields["confirm_errors"] = re.search(r'name="confirm_errors" value="([^"]+)"', response.content.decode())[1]
        cpu, wall, response = timed(lambda: client.post(url, fields))
    assert response.status_code == 302, (sid, response.status_code)
    return cpu, wall


def worker(backend: str, scale: harness.Scale, root: Path, size: int) -> None:
    harness.prepare_site()
    from django.contrib.auth.models import Group, User
    from django.core.cache import caches
    from django.test import Client

    from rulesref.reference.loading import load_corpus
    from rulesref.reference.models import Book, SectionText
    from rulesref.translation.workflow import sync_workspace

    rounds = scale.pick(ROUNDS, QUICK_ROUNDS)
    name, slug = f"writes.{backend}.{size}", f"gen{size}"
    load_corpus(root)
    book = Book.objects.get(slug=slug)
    start = time.perf_counter()
    sync_workspace.call(book.pk)  # what the task queued by the load does, in a worker
    emit(f"{name}.sync_after_load_s", time.perf_counter() - start, "s")
    reviewer = User.objects.create_user("bench-reviewer")
    reviewer.groups.add(*Group.objects.filter(name__in=["translators", "reviewers"]))
    client = Client()
    client.force_login(reviewer)
    sids = list(SectionText.objects.filter(section__book=book, language="en", blank=False, section__depth=3)
                .order_by("section__position").values_list("section__sid", flat=True)[:rounds * 3:3])
    client.get(f"/en/translate/{slug}/{sids[-1]}/")  # the process's own start-up, not the book's
    measured = [approval(client, slug, sid) for sid in sids[:rounds]]
    emit(f"{name}.approval.cpu_max", max(cpu for cpu, _ in measured), "s", SECONDS)
    emit(f"{name}.approval.wall_p50", harness.median([wall for _, wall in measured]), "s")
    editors = [cpu_of(client, f"/en/translate/{slug}/{sid}/") for sid in sids[:rounds]]
    emit(f"{name}.editor.cpu_p50", harness.median(editors), "s", SECONDS)
    dashboards = [cpu_of(client, f"/en/translate/{slug}/") for _ in range(rounds)]
    emit(f"{name}.dashboard.cpu_p50", harness.median(dashboards), "s", SECONDS)
    client.logout()
    caches["default"].clear()
    cpu, _, response = timed(lambda: client.get(f"/sitemap-book-{slug}.xml"))
    assert response.status_code == 200
    emit(f"{name}.sitemap.book_file_cold.cpu", cpu, "s", SECONDS)
    index = client.get("/sitemap.xml").content.decode()
    counts = [client.get(path_of(loc)).content.decode().count("<loc>")
              for loc in re.findall(r"<loc>([^<]+)</loc>", index)]
    emit(f"{name}.sitemap.addresses_per_file_max", max(counts), "addresses", "<= 50000")


def path_of(address: str) -> str:
    """The path of an absolute address the sitemap names."""
    return "/" + address.split("://", 1)[1].split("/", 1)[1]


def main() -> None:
    harness.sized_worker_main(__doc__, figures, worker)


if __name__ == "__main__":
    main()
