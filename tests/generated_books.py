"""Generated rulebooks (bench/corpus_gen.py) for tests at size: loaded as loadrules loads them (their workspace
synced, as the task after a load does, where a test asks), and removed again with everything kept under their
slug."""
from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import corpus_gen  # noqa: E402


def load(slug: str, sections: int, root: Path, sync: bool = False):
    """Load a generated book of ``sections`` sections; ``sync``: also bring its translator's workspace in step as
    the task after a load does (its translations, memory, QA) — work only the workspace's tests need."""
    from django.test import override_settings

    from rulesref.reference.models import Book

    tasks = None if sync else {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    with override_settings(TASKS=tasks) if tasks else nullcontext():
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
