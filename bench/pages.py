#!/usr/bin/env python
"""Reference page figures: server time of a section page (cached, not cached, first render of its text), and
the HTML a glossary term adds per further occurrence.

    python bench/pages.py [--quick|--smoke]      # prints `name value unit target` lines

``figures(scale)`` yields ``(name, value, unit, target)`` for bench/run.py. Times are the median of Django's
handler (all middleware, no network) on the section of #11's table, 9.3.1, and over every section of both
rulebooks, each request with the Accept-Encoding Chromium sends (so a page the cache lacks pays the compression a
browser's first request pays). "uncached" is a page the page cache lacks, its rendered text kept from an earlier request (a reader
of another page, or of the same page before a restart of the page cache); "first render" also renders the text
again, as the first request after a change of the book's content does. Run standalone, it uses a temporary
SQLite database with the corpus loaded (never var/). ``--smoke`` asks for every tenth section where the figure is
over every section.
"""
from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import harness  # noqa: E402
SECTION = "/en/rules/mpbs/9.3.1/"
BROWSER_ENCODINGS = "gzip, deflate, br, zstd"  # what Chromium sends


def _setup() -> None:
    """Django with the corpus loaded: bench/run.py has done it already; run alone, in a temporary var dir."""
    sys.path.insert(0, str(ROOT))
    from django.apps import apps

    if apps.ready:
        return
    os.environ["RULESREF_VAR_DIR"] = tempfile.mkdtemp(prefix="rulesref-bench-pages-")
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("quickstart", no_serve=True, stdout=open(os.devnull, "w"))


def _server_times(urls: list[str], n: int, before=None, clock=time.perf_counter) -> list[float]:
    """Milliseconds per request of each URL in turn, ``before()`` run untimed before each request. The clock is
    the wall clock, or time.thread_time for the processor time alone (on a shared machine a request that is
    preempted waits a whole time slice: the processor time says what the page costs)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    handler, factory = WSGIHandler(), RequestFactory(headers={"Accept-Encoding": BROWSER_ENCODINGS})
    for url in urls:  # warm: templates compiled, index built, connections open
        assert handler.get_response(factory.get(url)).status_code == 200, url
    times = []
    for _ in range(n):
        for url in urls:
            if before is not None:
                before()
            request = factory.get(url)
            start = clock()
            response = handler.get_response(request)
            times.append((clock() - start) * 1000)
            assert response.status_code == 200, url
    return times


def _forget_rendered_texts() -> None:
    from rulesref.reference import index, pagecache

    pagecache.clear()
    for book_index in list(index._cache.values()):
        book_index.clear_fragments()


def _bytes_per_further_occurrence() -> float:
    """Bytes of HTML one more use of a term adds to a section (its first use already on the page): rendered
    from a paragraph that names "formation hits" 400 times, less its plain text."""
    from django.conf import settings

    from rulesref.reference.glossary import book_glossary
    from rulesref.reference.index import book_index
    from rulesref.reference.models import Book
    from rulesref.reference.render import render_text

    glossary = book_glossary(settings.FIXTURES_DIR, "mpbs")
    index = book_index(Book.objects.get(slug="mpbs"))
    one, many = "The formation hits.", "The " + ", then ".join(["formation hits"] * 401) + "."
    first = render_text([one], "9.3.1", index, "en", glossary).blocks[0]
    more = render_text([many], "9.3.1", index, "en", glossary).blocks[0]
    return ((len(more) - len(many)) - (len(first) - len(one))) / 400


def figures(scale: harness.Scale = harness.FULL):
    _setup()
    from rulesref.reference import pagecache
    from rulesref.reference.models import Section

    n = scale.pick(400, 60)
    every = [f"/{lang}/rules/{s.book.slug}/{s.sid}/" for s in Section.objects.select_related("book")
             for lang in ("en", "ru")][::scale.pick(1, 1, 10)]
    rounds = scale.pick(10, 2)
    yield ("reference.section_page.server_time.p50", statistics.median(_server_times([SECTION], n)), "ms", "<= 0.5")
    yield ("reference.section_page.server_time_uncached.p50",
           statistics.median(_server_times([SECTION], n, pagecache.clear)), "ms", "<= 5")
    yield ("reference.section_page.cpu_time_uncached.p50",
           statistics.median(_server_times([SECTION], n, pagecache.clear, time.thread_time)), "ms", "")
    yield ("reference.section_page.server_time_uncached.every_section.p50",
           statistics.median(_server_times(every, rounds, pagecache.clear)), "ms", "<= 5")
    yield ("reference.section_page.server_time_parallel_uncached.p50",
           statistics.median(_server_times([SECTION + "?view=parallel"], n, pagecache.clear)), "ms", "")
    yield ("reference.section_page.server_time_first_render.p50",
           statistics.median(_server_times([SECTION], n, _forget_rendered_texts)), "ms", "")
    yield ("reference.section_page.cpu_time_first_render.p50",
           statistics.median(_server_times([SECTION], n, _forget_rendered_texts, time.thread_time)), "ms", "")
    yield ("reference.section_page.server_time_first_render.every_section.p50",
           statistics.median(_server_times(every, rounds, _forget_rendered_texts)), "ms", "")
    yield ("reference.term.html_per_further_occurrence", _bytes_per_further_occurrence(), "bytes", "<= 100")


def main() -> None:
    for name, value, unit, target in figures(harness.Scale.from_argv(sys.argv)):
        print(f"{name} {value:.3f} {unit} {target}".rstrip(), flush=True)


if __name__ == "__main__":
    main()
