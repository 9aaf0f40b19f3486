#!/usr/bin/env python
"""Rulings at realistic size (#32): 2,000 published rulings over a generated book of 20,000 sections (60 over 300
with ``--quick``, 6 over 30 with ``--smoke``), on SQLite and on PostgreSQL: the book's FAQ page, a section page
with rulings under its clauses, a ruling's page and the search that finds rulings.

``figures(scale)`` for bench/run.py; ``python bench/rulings.py [--quick|--smoke]`` prints them alone. Each database
is measured in a worker process of its own (its own var directory and database, production settings) that loads
the book through loadrules' own code and imports the rulings as a rules editor does (``importrulings``' code, 500 a
file, published: ``import_s``, shown; in a book small enough for an offline copy, as at ``--quick`` and
``--smoke``, it includes the copy built after each file, as the command line builds it). The rulings cite every tenth section with a text, and one section, the
"busy" one, is cited by five, each with a translation for half of them. Times are measured as bench/pages.py
measures pages (its ``_server_times``: the median of Django's handler, no network, the Accept-Encoding Chromium
sends):

- ``faq.server_time.p50``: the FAQ page from the page cache (target ≤ 0.5 ms, as a section page's);
  ``faq.server_time_uncached.p50``: not in the page cache (every published ruling read and placed in book order,
  its first page of 100 rendered; target ≤ 100 ms); ``faq.html_bytes``: that page's size.
- ``section_page.server_time_uncached.p50`` (target ≤ 5 ms, as every section page's) and
  ``section_page.server_time_first_render.p50``: the busy section, its rulings under its clauses.
- ``ruling_page.server_time_uncached.p50``: a ruling's permanent page (target ≤ 5 ms).
- ``search.server_time.p50``: the search page for words of the rulings' questions, which finds sections and
  rulings (target ≤ 50 ms).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import harness  # noqa: E402

SIZE, QUICK_SIZE, SMOKE_SIZE = 20_000, 300, 30
RULINGS, QUICK_RULINGS, SMOKE_RULINGS = 2_000, 60, 6
ROUNDS, QUICK_ROUNDS, SMOKE_ROUNDS = 50, 10, 2
PER_FILE = 500  # rulings/importing.py's most a file
BUSY = 5  # rulings citing the busy section
SEARCH = "перехватить отступающего"


def figures(scale: harness.Scale = harness.FULL):
    import corpus_gen

    size = scale.pick(SIZE, QUICK_SIZE, SMOKE_SIZE)
    root = Path(tempfile.mkdtemp(prefix="rulesref-bench-rulings-"))
    corpus_gen.write(root, size, slug=f"gen{size}")
    for backend in harness.backends("rulings"):
        args = [sys.executable, __file__, "--worker", backend, "--root", str(root), "--size", str(size)] + scale.argv
        yield from harness.worker_figures(args, backend, RULESREF_TASKS="queue", RULESREF_RATE_LIMITS="0",
                                          RULESREF_OFFLINE_COPIES="background")


def records(sids: list[str], count: int) -> list[str]:
    """``count`` rulings as the import reads them: the first BUSY cite the busy section (``sids[0]``), the others
    every section of ``sids`` in turn; every other one with its English translation."""
    out = []
    for n in range(count):
        sid = sids[0] if n < BUSY else sids[n % len(sids)]
        record = [f"Clauses: {sid}",
                  f"Q: Вопрос {n}: может ли подразделение перехватить отступающего противника по пункту {sid}?",
                  f"A: Ответ {n}: нет, по {sid} перехват отступающего подразделения невозможен, если оно уже "
                  f"отступало в эту активацию.\n\nСм. также {sids[(n + 1) % len(sids)]}."]
        if n % 2:
            record += [f"Q/en: Question {n}: may a unit intercept a retreating enemy under {sid}?",
                       f"A/en: Answer {n}: no, under {sid} a retreating unit cannot be intercepted once it has "
                       f"retreated in this activation."]
        out.append("\n".join(record))
    return out


# ---------------------------------------------------------------------------------------------- in the worker

emit = harness.emit


def import_rulings(book, count: int) -> float:
    """Import ``count`` published rulings, PER_FILE a file, as ``importrulings --publish`` does; the seconds."""
    from rulesref.reference.models import SectionText
    from rulesref.rulings import importing
    from rulesref.translation.models import Status

    sids = list(SectionText.objects.filter(section__book=book, section__absent=False, language=book.source_language,
                                           blank=False)
                .order_by("section__position").values_list("section__sid", flat=True))[::10]
    texts = records(sids, count)
    start = time.perf_counter()
    for first in range(0, count, PER_FILE):
        plan = importing.plan(book, "\n---\n".join(texts[first:first + PER_FILE]))
        assert plan.clean, [(p.line, p.message) for p in plan.problems][:5]
        importing.apply(plan, user=None, status=Status.APPROVED)
        assert len(plan.made) == len(plan.wanted), (len(plan.made), len(plan.wanted))
    return time.perf_counter() - start


def worker(backend: str, scale: harness.Scale, root: Path, size: int) -> None:
    harness.prepare_site()
    import pages

    from rulesref.reference import pagecache
    from rulesref.reference.loading import load_corpus
    from rulesref.reference.models import Book
    from rulesref.rulings.models import Citation, Ruling

    count = scale.pick(RULINGS, QUICK_RULINGS, SMOKE_RULINGS)
    rounds = scale.pick(ROUNDS, QUICK_ROUNDS, SMOKE_ROUNDS)
    name, slug = f"rulings.{backend}.{size}", f"gen{size}"
    load_corpus(root)
    book = Book.objects.get(slug=slug)
    emit(f"{name}.import_s", import_rulings(book, count), "s")
    assert Ruling.objects.filter(book=book, state=Ruling.State.PUBLISHED).count() == count
    busy = Citation.objects.filter(ruling__book=book, ruling__number=1).values_list("sid", flat=True).get()
    faq, section = f"/en/rules/{slug}/faq/", f"/en/rules/{slug}/{busy}/"
    ruling = f"/en/rules/{slug}/rulings/{count}/"
    search = f"/ru/search/?{urlencode({'q': SEARCH, 'book': slug})}"

    def p50(urls, before=None) -> float:
        return harness.median(pages._server_times(urls, rounds, before))

    emit(f"{name}.faq.server_time.p50", p50([faq]), "ms", "<= 0.5")
    emit(f"{name}.faq.server_time_uncached.p50", p50([faq], pagecache.clear), "ms", "<= 100")
    emit(f"{name}.faq.html_bytes", len(_page(faq, b'class="ruling')), "bytes")
    _page(section, b'class="rulings-here"')  # the busy section shows its rulings
    _page(search, b"ruling-hits")  # the search finds rulings
    emit(f"{name}.section_page.server_time_uncached.p50", p50([section], pagecache.clear), "ms", "<= 5")
    emit(f"{name}.section_page.server_time_first_render.p50", p50([section], pages._forget_rendered_texts), "ms")
    emit(f"{name}.ruling_page.server_time_uncached.p50", p50([ruling], pagecache.clear), "ms", "<= 5")
    emit(f"{name}.search.server_time.p50", p50([search], pagecache.clear), "ms", "<= 50")


def _page(url: str, shows: bytes) -> bytes:
    """The page's HTML as the handler gives it, uncompressed, after checking that it ``shows`` what it must."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    response = WSGIHandler().get_response(RequestFactory().get(url))
    assert response.status_code == 200 and shows in response.content, (url, shows)
    return response.content


def main() -> None:
    harness.sized_worker_main(__doc__, figures, worker)


if __name__ == "__main__":
    main()
