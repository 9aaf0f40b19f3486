#!/usr/bin/env python
"""Rule history benchmarks: `figures(scale)` yields `(name, value, unit, target)`; run alone with
`python bench/history.py [--quick|--smoke]`, which prints `name value unit target` lines.

On a generated book (bench/corpus_gen.py; 5,000 sections and 10 reloads full, 300 and 3 quick, 30 and 1 smoke)
loaded through ``loadrules``' own code:

- what recording a revision adds to a reload that changes one text (the comparison of every text with the versions
  in force), and to a reload that changes nothing (no revision is made);
- how compact the history is: text version rows per text after the reloads that each change one text (1 + k/N
  for k reloads when only changed texts are stored; k + 1 if every revision copied every text);
- a section's history page and "what changed since revision 1" over the generated book.

Needs Django set up on a throw-away database (bench/run.py's setup does that).
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import harness  # noqa: E402
import run  # noqa: E402  (bench/run.py: the temporary database; sets the environment on import)



def _change_one_text(book_dir: Path, n: int) -> None:
    """Change one word of the first English file's first paragraph (a different change each time)."""
    path = sorted((book_dir / "en").glob("*.md"))[0]
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        if line and not line.startswith(("#", "|", ">")):
            lines[i] = f"{line} (revised {n})"
            break
    path.write_text("\n".join(lines), encoding="utf-8")


def figures(scale: harness.Scale = harness.FULL):
    import corpus_gen
    from django.test import Client

    from rulesref.reference import history
    from rulesref.reference.loading import load_corpus
    from rulesref.reference.models import Book, SectionText, TextVersion

    size, reloads = scale.pick((5_000, 10), (300, 3), (30, 1))
    requests = scale.pick(5, 5)
    root = Path(tempfile.mkdtemp(prefix="rulesref-history-"))
    book_dir = corpus_gen.write(root, size, slug=f"hist{size}")
    load_corpus(root)
    book = Book.objects.get(slug=f"hist{size}")
    texts = SectionText.objects.filter(section__book=book).count()

    start = time.perf_counter()
    history.record(book, "load")  # nothing changed: the comparison alone
    yield f"history.{size}.compare_unchanged", (time.perf_counter() - start) * 1000, "ms", ""

    start = time.perf_counter()
    load_corpus(root, force=True)
    yield f"history.{size}.reload_unchanged_s", time.perf_counter() - start, "s", ""
    book.refresh_from_db()
    assert book.revision == 1, "a reload without changes made a revision"

    seconds = []
    for n in range(reloads):
        _change_one_text(book_dir, n)
        start = time.perf_counter()
        load_corpus(root)
        seconds.append(time.perf_counter() - start)
    book.refresh_from_db()
    assert book.revision == 1 + reloads
    yield f"history.{size}.reload_one_change_s", sorted(seconds)[len(seconds) // 2], "s", ""
    rows = TextVersion.objects.filter(book=book).count()
    yield f"history.{size}.version_rows_per_text", rows / texts, "rows", f"<= {1 + 2 * reloads / texts:.3f}"

    client = Client()
    sid = sorted(TextVersion.objects.filter(book=book, since__gt=1).values_list("sid", flat=True))[0]
    for name, url in (("section_history", f"/en/rules/{book.slug}/{sid}/history/"),
                      ("changes_since_1", f"/en/rules/{book.slug}/changes/?since=1"),
                      ("feed", f"/en/rules/{book.slug}/changes/feed/")):
        assert client.get(url).status_code == 200, url
        start = time.perf_counter()
        for _ in range(requests):
            client.get(url)
        yield f"history.{size}.{name}", (time.perf_counter() - start) * 1000 / requests, "ms", "<= 200"
    Book.objects.filter(pk=book.pk).delete()


if __name__ == "__main__":
    run.setup_django()
    for item in figures(harness.Scale.from_argv(sys.argv)):
        print(*item)
