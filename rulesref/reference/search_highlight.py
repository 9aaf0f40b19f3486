"""Search results highlighted: the words a query matches (every inflected form, and the words a prefix begins) in
``<mark>``, on escaped text, and a snippet of the text around the first of them."""
from __future__ import annotations

import html
from functools import lru_cache

from django.utils.safestring import SafeString

from rulesref.text import WORD_RE, fold, stem_word

from .search_query import candidate_re, word_starts
from .search_ranking import PREFIX_MIN, SNIPPET_WIDTH


def is_wanted(word: str, wanted: set[str] | frozenset[str]) -> bool:
    """Whether a word of the text is one the query matches: its stem is wanted, or begins with a wanted stem of
    PREFIX_MIN letters or more. (frozenset() of a frozenset is the same object: no copy.)"""
    stem = stem_word(fold(word))
    return stem in wanted or stem.startswith(_prefixes(frozenset(wanted)))


@lru_cache(maxsize=512)
def _prefixes(wanted: frozenset[str]) -> tuple[str, ...]:
    """The wanted stems a word may begin with, as str.startswith takes them."""
    return tuple(s for s in wanted if len(s) >= PREFIX_MIN)


def marks(text: str, wanted: set[str], first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of the words of ``text`` that a query of these stems matches (every inflected form)."""
    folded, wanted = fold(text), frozenset(wanted)
    if len(folded) != len(text):  # a case mapping changed the length: offsets would not line up
        return [(m.start(), m.end()) for m in WORD_RE.finditer(text) if is_wanted(m.group(), wanted)][
            :1 if first_only else None]
    spans = []
    for m in word_starts(candidate_re(wanted), folded):
        if is_wanted(text[m.start():m.end()], wanted):
            spans.append((m.start(), m.end()))
            if first_only:
                break
    return spans


def highlight(text: str, wanted: set[str]) -> SafeString:
    """``text`` escaped, with the words the query matches in ``<mark>``. (The standard library's escape: Django's
    adds checks for lazy strings that cost more than the escaping on every hit of every keystroke.)"""
    out, position = [], 0
    for start, end in marks(text, wanted):
        out.append(html.escape(text[position:start]))
        out.append(f"<mark>{html.escape(text[start:end])}</mark>")
        position = end
    out.append(html.escape(text[position:]))
    return SafeString("".join(out))


def snippet(body: str, wanted: set[str], width: int = SNIPPET_WIDTH) -> SafeString:
    """About ``width`` characters of the text around its first matching word, on one line, highlighted. Only the
    window is flattened and escaped, not the whole text."""
    found = marks(body, wanted, first_only=True)
    start = max(0, found[0][0] - width // 3) if found else 0
    if start:
        start = body.find(" ", start) + 1 or start
    window = " ".join(body[start:start + 2 * width].split())
    end = min(len(window), width)
    cut = end < len(window) or start + 2 * width < len(body)
    if end < len(window):
        space = window.rfind(" ", 0, end)
        end = space if space > 0 else end
    text = highlight(window[:end], wanted)
    return SafeString(("… " if start else "") + text + (" …" if cut else ""))
