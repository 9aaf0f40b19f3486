"""Generated rulebooks (bench/corpus_gen.py) for tests at size: loaded as loadrules loads them (their workspace
synced, as the task does after a load), and removed again with everything kept under their slug."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import corpus_gen  # noqa: E402


def load(slug: str, sections: int, root: Path):
    from rulesref.reference.models import Book

    corpus_gen.load(sections, root=root, slug=slug)
    return Book.objects.get(slug=slug)


def remove(*slugs: str) -> None:
    """The books and what is keyed by their slug rather than tied to their rows (the translation memory, the
    source texts kept for diffs, the QA state)."""
    from rulesref.reference.models import Book
    from rulesref.translation import memory
    from rulesref.translation.models import MemoryEntry, QAState, SourceText, TermOccurrence

    Book.objects.filter(slug__in=slugs).delete()
    memory.forget(MemoryEntry.objects.filter(book__in=slugs))
    SourceText.objects.filter(book__in=slugs).delete()
    QAState.objects.filter(book__in=slugs).delete()
    TermOccurrence.objects.filter(book__in=slugs).delete()
