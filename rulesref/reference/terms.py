"""Where each glossary term is used in a rulebook, computed once per content version and glossary file."""
from __future__ import annotations

import threading

from django.conf import settings

from .glossary import book_glossary, glossary_stamp
from .index import BookIndex

_lock = threading.Lock()
_usage: dict[str, tuple[tuple, dict]] = {}


def term_usage(index: BookIndex) -> dict[str, dict[str, list[str]]]:
    """term id -> language -> ids of the sections whose text uses the term, in book order."""
    stamp = (index.version, glossary_stamp(settings.FIXTURES_DIR, index.slug))
    cached = _usage.get(index.slug)
    if cached and cached[0] == stamp:
        return cached[1]
    glossary = book_glossary(settings.FIXTURES_DIR, index.slug)
    usage: dict[str, dict[str, list[str]]] = {}
    for sid in index.order:
        entry = index.entries[sid]
        for lang, body in entry.bodies.items():
            for match in glossary.find(f"{entry.titles.get(lang, '')}\n{body}", lang):
                listed = usage.setdefault(match.term.id, {}).setdefault(lang, [])
                if sid not in listed:
                    listed.append(sid)
    with _lock:
        _usage[index.slug] = (stamp, usage)
    return usage
