#!/usr/bin/env python
"""Translation memory look-ups at 20,000 sections: ``figures(scale)`` yields ``(name, value, unit, target)``.

The memory is filled with every title and paragraph pair of a rulebook made by ``bench/corpus_gen.py`` (realistic
Russian and English text: real word frequencies mixed with the rulebooks' own terms), through the memory's own
``add_pairs``, as approving every section would. The queries are paragraphs of that book with one word changed, one
word dropped or two words swapped — what a translator meets in a similar paragraph — and, to measure the cost of
finding nothing, paragraphs that are in no entry. Figures:

- ``memory_match_p50`` / ``memory_match_p95``: milliseconds per look-up (``memory.matches``: the three queries and
  the scoring), target p50 <= 50 ms at 20,000 sections;
- ``memory_match_vs_pk_lookup``: the same p50 as a ratio to a primary-key fetch of one entry, measured interleaved
  with the look-ups (the machine's speed cancels out);
- ``memory_near_match_found``: the share of changed paragraphs whose entry is offered at or above the threshold;
- ``memory_entries``: the size of the memory.

``python bench/memory.py [--quick|--smoke]`` runs it alone on a throw-away SQLite database; ``bench/run.py`` collects
it. The figures of a smaller run end in ``_quick`` or ``_smoke`` (2,000 sections and 60 queries; 40 and 10), the
p50's target left out.
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import harness  # noqa: E402

SECTIONS, QUICK_SECTIONS, SMOKE_SECTIONS = 20_000, 2_000, 40
QUERIES, QUICK_QUERIES, SMOKE_QUERIES = 300, 60, 10
TARGET_P50_MS = 50


def _pairs(book) -> list:
    from rulesref.reference.corpus import split_blocks
    from rulesref.translation import memory

    pairs = []
    for section in book.sections:
        ru_blocks, en_blocks = split_blocks(section.body["ru"]), split_blocks(section.body["en"])
        units = [(section.title["ru"], section.title["en"])]
        if len(ru_blocks) == len(en_blocks):
            units += list(zip(ru_blocks, en_blocks, strict=True))
        for n, (ru, en) in enumerate(units):
            pairs.append(memory.Pair("ru", "en", ru, en, book=book.slug, context=f"{section.sid}:{n or 'title'}"))
    return pairs


def _changed(text: str, rng: random.Random) -> str:
    """The paragraph as a similar one reads: a word replaced, dropped, or two swapped."""
    words = text.split(" ")
    if len(words) < 6:
        return text + " ещё"
    i = rng.randrange(1, len(words) - 2)
    kind = rng.choice(("replace", "drop", "swap"))
    if kind == "replace":
        words[i] = rng.choice(("подразделение", "противника", "гекса", "кавалерии", "приказом"))
    elif kind == "drop":
        del words[i]
    else:
        words[i], words[i + 1] = words[i + 1], words[i]
    return " ".join(words)


def figures(scale: harness.Scale = harness.FULL):
    import corpus_gen  # bench/corpus_gen.py (the search area's generator of realistic rulebooks)

    from rulesref.translation import memory
    from rulesref.translation.conf import setting
    from rulesref.translation.models import MemoryEntry

    sections = scale.pick(SECTIONS, QUICK_SECTIONS, SMOKE_SECTIONS)
    queries = scale.pick(QUERIES, QUICK_QUERIES, SMOKE_QUERIES)
    book = corpus_gen.generate(sections, seed=7, slug=f"tm{sections}")
    memory.forget(MemoryEntry.objects.filter(book=book.slug))
    pairs = _pairs(book)
    started = time.perf_counter()
    for start in range(0, len(pairs), 5000):
        memory.add_pairs(pairs[start:start + 5000])
    fill_seconds = time.perf_counter() - started
    rng = random.Random(11)
    paragraphs = [p for p in pairs if len(p.source.split()) >= 8]
    near = [(_changed(p.source, rng), p.target) for p in rng.sample(paragraphs, queries)]
    novel = [" ".join(rng.sample(p.source.split(), len(p.source.split()))) + " Совершенно новый абзац."
             for p in rng.sample(paragraphs, queries // 5)]
    ids = list(MemoryEntry.objects.filter(book=book.slug).values_list("pk", flat=True)[:1000])
    threshold = setting("TRANSLATION_MEMORY_THRESHOLD")
    memory.matches(near[0][0], "ru", "en")  # warm the caches once
    lookups, baseline, found = [], [], 0
    for n, text in enumerate([q for q, _ in near] + novel):
        # interleaved: the baseline before the look-up on even rounds, after it on odd ones
        order = (0, 1) if n % 2 == 0 else (1, 0)
        for which in order:
            t = time.perf_counter()
            if which == 0:
                MemoryEntry.objects.get(pk=ids[n % len(ids)])
                baseline.append(time.perf_counter() - t)
            else:
                result = memory.matches(text, "ru", "en")
                lookups.append(time.perf_counter() - t)
                if n < len(near) and any(m.target == near[n][1] and m.score >= threshold for m in result):
                    found += 1
    p50 = statistics.median(lookups) * 1000
    p95 = statistics.quantiles(lookups, n=20)[-1] * 1000
    suffix = "" if scale == harness.FULL else f"_{scale.name}"
    yield f"memory_entries{suffix}", MemoryEntry.objects.filter(book=book.slug).count(), "entries", ""
    yield f"memory_fill{suffix}", round(fill_seconds, 1), "s", ""
    yield f"memory_match_p50{suffix}", round(p50, 2), "ms", f"<= {TARGET_P50_MS}" if not suffix else ""
    yield f"memory_match_p95{suffix}", round(p95, 2), "ms", ""
    yield f"memory_match_vs_pk_lookup{suffix}", round(p50 / (statistics.median(baseline) * 1000), 1), "ratio", ""
    yield f"memory_near_match_found{suffix}", round(found / len(near), 3), "share", ">= 0.95"
    memory.forget(MemoryEntry.objects.filter(book=book.slug))


def main() -> None:
    scale = harness.Scale.from_argv(sys.argv[1:])
    os.environ["RULESREF_VAR_DIR"] = tempfile.mkdtemp(prefix="rulesref-bench-memory-")
    for name in ("DATABASE_URL", "DEBUG", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rulesref.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    for name, value, unit, target in figures(scale):
        print(f"{name} {value} {unit} {target}".rstrip())


if __name__ == "__main__":
    main()
