#!/usr/bin/env python
"""Search at 2,000, 20,000 and 100,000 generated sections (bench/corpus_gen.py), on SQLite FTS5 and on PostgreSQL.

``figures(scale)`` for bench/run.py (``--quick``: 2,000 sections only, fewer rounds; ``--smoke``: 40 sections, one
round, a query of each kind); ``python bench/search.py [--quick|--smoke]`` prints them alone. The books are written once as corpus trees; each database is then measured in a
worker process of its own (its own var directory and database), which loads each book through loadrules' own code
next to the real rulebooks — one generated book at a time — while a gunicorn server (2 sync workers, DEBUG off)
started before the load serves it. Per database and size:

- ``loadrules_s``: the load itself, index included (shown for growth).
- ``first_search_after_loadrules``: the first search a reader makes once loadrules has ended, over HTTP from the
  server that was running all along, less a static file's time on the same server (target ≤ 150 ms at 20,000).
- ``p50``: ``search()`` in the process over the query list (QUERIES: terms in both languages, several words,
  misspellings, numbers), median of the rounds (targets ≤ 15 ms at 20,000, ≤ 40 ms at 100,000).
- ``http_minus_static.p50``: the live-search request (the fragment the search box asks for as the reader types,
  ``HX-Request: true``) over HTTP, less a static file's time, measured in alternating rounds (same targets);
  ``page_http_minus_static.p50``: the same for the whole results page (the form sent without script, a shared
  link). (Before 2026-12-02 the first figure was measured on the whole page, though named for the fragment.)
- ``view_to_raw_query``: the search view (Django's handler, the live-search fragment) against the raw index query
  alone — the ranked full-text query of the same words that a bare implementation would run and show (FTS5 bm25 or
  ts_rank on the stored vector, 30 rows, the last word a plain prefix) — measured in alternating rounds, median of
  the per-round ratios of the p50s, with ``…_min``/``…_max`` beside it. The target (≤ 2) is set at 100,000
  sections, where the index query is the cost that grows: at 2,000 and 20,000 it takes 0.1-2.5 ms, no more than a
  view costs in Python alone to order and render 30 highlighted results, so the ratio there is shown to follow.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import harness  # noqa: E402

QUERIES = ["перехват", "перехватить", "withdrawing", "hedgehog", "хиты построения", "retreat priorities",
           "stand and shoot", "отступление", "cavalry intercept", "хеджхог", "приказ сбор", "formation hits",
           "преследование", "подразделение", "movement", "кавалерийское подразделение противника",
           "interseption", "9.3.1", "5.3.2", "XIII.7.C"]
SMOKE_QUERIES = ["перехват", "retreat priorities", "interseption", "9.3.1", "XIII.7.C"]  # one of each kind
SIZES = (2000, 20000, 100000)
SMOKE_SIZE = 40
TARGETS = {20000: "<= 15", 100000: "<= 40"}
RATIO_TARGETS = {100000: "<= 2"}  # see view_to_raw_query above
STATIC = "/static/rulesref/site.css"
LIVE = {"HX-Request": "true"}  # what the search box sends as the reader types: the results fragment


def figures(scale: harness.Scale, sizes: tuple[int, ...] | None = None):
    import corpus_gen

    sizes = sizes or scale.pick(SIZES, SIZES[:1], (SMOKE_SIZE,))
    root = Path(tempfile.mkdtemp(prefix="rulesref-bench-corpus-"))
    for n in sizes:
        start = time.perf_counter()
        corpus_gen.write(root / str(n), n, slug=f"gen{n}")
        yield f"search.corpus_{n}.generate_s", time.perf_counter() - start, "s", ""
    for backend in harness.backends("search"):
        args = [sys.executable, __file__, "--worker", backend, "--root", str(root),
                "--sizes", ",".join(map(str, sizes))] + scale.argv
        yield from harness.worker_figures(args, backend)


# ---------------------------------------------------------------------------------------------- in the worker


emit = harness.emit


def raw_query(words: str):
    """The ranked full-text query of these words alone, as a bare implementation would run it for 30 results."""
    from django.db import connection

    from rulesref.reference.search import Query, clean_query
    from rulesref.reference.searchindex import POSTGRES_CONFIGS, WORD_RE, fold

    q = Query(WORD_RE.findall(fold(clean_query(words)[0])), all_words=True)
    if connection.vendor == "sqlite":
        sql = ("SELECT rowid, bm25(reference_search_fts, 10.0, 1.0) AS rank FROM reference_search_fts "
               "WHERE reference_search_fts MATCH %s ORDER BY rank LIMIT 30")
        params = [q.fts()]
    else:
        sql = ("SELECT * FROM (" + " UNION ALL ".join(
            f"(SELECT t.id, ts_rank(t.search_vector, to_tsquery('{config}', %s), 1) AS rank "
            f"FROM reference_sectiontext t WHERE t.language = '{lang}' AND t.search_book IS NOT NULL "
            f"AND t.search_vector @@ to_tsquery('{config}', %s) ORDER BY rank DESC LIMIT 30)"
            for lang, config in POSTGRES_CONFIGS.items()) + ") m ORDER BY rank DESC LIMIT 30")
        params = [q.tsquery()] * 4

    def run():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            cursor.fetchall()

    return run


def p50_over(fn, queries: list[str], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        for query in queries:
            start = time.perf_counter()
            fn(query)
            times.append((time.perf_counter() - start) * 1000)
    return harness.median(times)


def worker(backend: str, scale: harness.Scale, root: Path, sizes: list[int]) -> None:
    harness.prepare_site()
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory
    from django.utils import translation

    from rulesref.reference.loading import load_corpus
    from rulesref.reference.models import Book
    from rulesref.reference.search import search

    translation.activate("en")
    rounds = scale.pick(5, 2)
    queries = scale.pick(QUERIES, QUERIES, SMOKE_QUERIES)
    handler, factory = WSGIHandler(), RequestFactory()
    words = [q for q in queries if not q[0].isdigit() and not q.startswith("XIII")]

    def view(query: str) -> None:
        request = factory.get("/en/search/?" + urlencode({"q": query}), HTTP_HX_REQUEST="true")
        assert handler.get_response(request).status_code == 200

    search("перехват", "en")  # the process's own start-up (imports, glossary), not the index's
    emit(f"search.{backend}.real_corpus.p50", p50_over(lambda q: search(q, "en"), queries, rounds), "ms", "<= 15")
    env = harness.site_env(Path(os.environ["RULESREF_VAR_DIR"]), os.environ.get("DATABASE_URL", ""))
    with harness.gunicorn(env, workers=scale.pick(2, 2)) as base:  # one with --smoke
        for query in queries:  # both workers past their own start-up, before any generated book exists
            harness.get(base + "/en/search/?" + urlencode({"q": query}))
        for n in sizes:
            name = f"search.{backend}.{n}"
            Book.objects.filter(slug__startswith="gen").delete()
            start = time.perf_counter()
            load_corpus(root / str(n))
            emit(f"{name}.loadrules_s", time.perf_counter() - start, "s")
            static = harness.median(harness.request_ms(base + STATIC, 5))
            start = time.perf_counter()
            harness.get(base + "/en/search/?" + urlencode({"q": "кавалерия перехват"}))
            first = (time.perf_counter() - start) * 1000 - static
            emit(f"{name}.first_search_after_loadrules", first, "ms", "<= 150" if n == 20000 else "")
            search("перехват", "en")
            emit(f"{name}.p50", p50_over(lambda q: search(q, "en"), queries, rounds), "ms", TARGETS.get(n, ""))

            def static_file() -> float:
                return harness.median(harness.request_ms(base + STATIC, len(queries)))

            for figure, headers in (("http_minus_static", LIVE), ("page_http_minus_static", {})):
                def over_http(headers: dict = headers) -> float:
                    return p50_over(lambda q: harness.get(base + "/en/search/?" + urlencode({"q": q}),
                                                          accept_encoding="gzip", headers=headers), queries, 1)

                pages, files = harness.alternating(over_http, static_file, rounds)
                emit(f"{name}.{figure}.p50", harness.median(pages) - harness.median(files), "ms", TARGETS.get(n, ""))
            raws = {q: raw_query(q) for q in words}
            views, raw = harness.alternating(lambda: p50_over(view, words, 1),
                                             lambda: p50_over(lambda q: raws[q](), words, 1), rounds)
            ratio, low, high = harness.ratio_and_spread(views, raw)
            emit(f"{name}.raw_index_query.p50", harness.median(raw), "ms")
            emit(f"{name}.view.p50", harness.median(views), "ms")
            emit(f"{name}.view_to_raw_query", ratio, "ratio", RATIO_TARGETS.get(n, ""))
            emit(f"{name}.view_to_raw_query_min", low, "ratio")
            emit(f"{name}.view_to_raw_query_max", high, "ratio")


def main() -> None:
    parser = argparse.ArgumentParser()
    harness.Scale.add_arguments(parser)
    parser.add_argument("--worker", choices=["sqlite", "postgres"])
    parser.add_argument("--root", type=Path)
    parser.add_argument("--sizes", default="", help="comma-separated numbers of sections, e.g. 20000")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, harness.Scale.parsed(args), args.root, [int(n) for n in args.sizes.split(",")])
        return
    sizes = tuple(int(n) for n in args.sizes.split(",") if n) or None
    for item in figures(harness.Scale.parsed(args), sizes):
        print(harness.figure(item).line(), flush=True)


if __name__ == "__main__":
    main()
