"""Links from a rule section into the checker, for the section pages.

``section_links(book, sid, lang)`` gives "Open this example in the checker" on the section whose worked example a
scenario reproduces, "Check this rule" on every section the engine cites, leading to an example scenario whose
question cites it (the finding is pointed out in the answer), and on every section its row of the engine's coverage
map (rulesref/checker/coverage.py). Which sections each example's questions cite is found
by asking the engine once per set of example files (kept until a file changes), so a new example or a new finding
shows up without a list to maintain; the links of each section are likewise built once per set of example files.
"""
from __future__ import annotations

import threading
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from rulesref.reference.index import book_index, books as reference_books

from . import asking, books
from .kinds import kind_of

_lock = threading.Lock()
_cache: dict[str, tuple[dict, dict[str, list[tuple[str, int, str]]]]] = {}
# book -> (the examples they were built from, {(kind, section, language): links}): section_links' answers
_links: dict[str, tuple[dict, dict[tuple[str, str, str], tuple[dict[str, str], ...]]]] = {}


def cited_sections(book: str, examples: dict | None = None) -> dict[str, list[tuple[str, int, str]]]:
    """Section id -> [(example slug, question index, clause)] for every finding of every example question.

    Kept until the examples change: books.examples returns the same dict object until a file changes."""
    if examples is None:
        examples = books.examples(book)
    cached = _cache.get(book)
    if cached is not None and cached[0] is examples:
        return cached[1]
    found: dict[str, list[tuple[str, int, str]]] = {}
    for slug, ex in sorted(examples.items()):
        for i, citation in _citations(book, ex):
            listed = found.setdefault(citation.section, [])
            if not any(s == slug and c == citation.clause for s, _i, c in listed):
                listed.append((slug, i, citation.clause))
    with _lock:
        _cache[book] = (examples, found)
    return found


def _citations(book: str, ex: books.Example):
    """(question index, citation) of every finding of an example's questions that the engine answers."""
    data = {k: v for k, v in ex.data.items() if k != "questions"}
    for i, item in enumerate(ex.data.get("questions") or []):
        if not isinstance(item, dict) or (item.get("expect") or {}).get("error"):
            continue
        outcome = asking.run(book, str(item.get("question", "")), data, item.get("params") or {})
        if outcome.ok:
            for finding in outcome.ruling.findings:
                yield i, finding.citation


def _example_url(book: str, slug: str, lang: str, question: dict[str, Any] | None = None, focus: str = "") -> str:
    with translation.override(lang):
        path = reverse("checker:example", kwargs={"book": book, "slug": slug})
    if question is None:
        return path
    query: list[tuple[str, str]] = [("q", str(question.get("question", "")))]
    for name, value in (question.get("params") or {}).items():
        for v in value if isinstance(value, list) else [value]:
            query.append((f"p-{name}", str(v)))
    if focus:
        query.append(("focus", focus))
    return f"{path}?{urlencode(query)}"


def _has_section(book: str, sid: str) -> bool:
    obj = reference_books().get(book)
    return obj is not None and sid in book_index(obj).entries


def section_links(book, sid: str, lang: str) -> list[dict[str, str]]:
    """The checker links to show on section ``sid`` of ``book`` in ``lang``: [{"label", "url", "kind"}]; none for a
    book without a checker. The reference finds this provider in ``settings.REFERENCE_SECTION_LINKS`` and passes
    the rulebook's row (``book``: a ``Book``, or its slug).

    Every section page asks, so the answer is kept per section and language until the example files change (one
    scan of their folder per call, no query when the caller passes the row)."""
    slug = getattr(book, "slug", book)
    kind = kind_of(slug, getattr(book, "kind", None))
    if kind is None:
        return []
    examples = books.examples(slug)  # the same dict until a file of the folder changes
    key = (kind.id, sid, lang)
    with _lock:
        cached = _links.get(slug)
        if cached is None or cached[0] is not examples:
            cached = _links[slug] = (examples, {})
    found = cached[1].get(key)
    if found is None:
        found = cached[1][key] = tuple(_section_links(slug, sid, lang, examples))
    return [dict(link) for link in found]


def _section_links(book: str, sid: str, lang: str, examples: dict) -> list[dict[str, str]]:
    links: list[dict[str, str]] = []
    with translation.override(lang):
        for slug, ex in sorted(examples.items()):
            if ex.example_of == sid:
                first = ex.questions[0] if ex.questions else None
                links.append({"label": _("Open this example in the checker"),
                              "url": _example_url(book, slug, lang, first), "kind": "example"})
        cited = cited_sections(book, examples).get(sid) or []
        if cited:
            # Prefer a scenario whose answer is "yes" on that clause's own example, else the first one found.
            slug, index, clause = sorted(cited, key=lambda c: (examples[c[0]].example_of != sid, c[0]))[0]
            question = examples[slug].data["questions"][index]
            links.append({"label": _("Check this rule"), "url": _example_url(book, slug, lang, question, clause),
                          "kind": "check"})
        if _has_section(book, sid):
            path = reverse("coverage:coverage", kwargs={"book": book})
            links.append({"label": _("What the rules engine does with this section"), "url": f"{path}#c-{sid}",
                          "kind": "coverage"})
    return links
