"""A search's words and what they match: the query's stems (the last a prefix once it has PREFIX_MIN letters), whether
a text's stems match it, whether a text uses the words in the very form typed, and the regular expressions that
find the candidate words of a text without stemming every word of it."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rulesref.text import WORD_RE, fold, stem_word

from .search_ranking import PREFIX_MIN


@dataclass
class Query:
    """The words of a query (folded), and whether a text must have all of them or any."""

    words: list[str]
    all_words: bool

    def __post_init__(self) -> None:
        self.stems = [stem_word(w) for w in self.words]
        self.wanted = frozenset(self.stems)
        self.typed = frozenset(self.words)  # the words in the very form typed (folded)
        self.prefix = len(self.stems[-1]) >= PREFIX_MIN  # whether the last word stands for the words it begins

    def fts(self, last: tuple[str, ...] | None = None) -> str:
        """The query as SQLite's FTS5 asks it (search_sqlite.fts_match; bench/search.py's bare query asks it)."""
        from .search_sqlite import fts_match

        return fts_match(self, last)

    def tsquery(self) -> str:
        """The query as PostgreSQL asks it (search_postgres.tsquery; bench/search.py's bare query asks it)."""
        from .search_postgres import tsquery

        return tsquery(self)

    def matches(self, stems) -> bool:
        """Whether a text with these stems matches (the last stem as a prefix), as the index would decide. Asked of
        every row a search orders: a set is taken as it is."""
        present = stems if isinstance(stems, (set, frozenset)) else set(stems)
        last = self.stems[-1]
        last_found = last in present or self.prefix and any(s.startswith(last) for s in present)
        if self.all_words:
            return last_found and all(s in present for s in self.stems[:-1])
        return last_found or any(s in present for s in self.stems[:-1])

    def stems_in(self, text: str, also: frozenset[str] = frozenset()) -> set[str]:
        """The stems of ``text`` that matter to this query (its own, and ``also``), found without stemming every
        word: only the words that begin like one of them are stemmed (Snowball keeps a word's beginning)."""
        wanted = frozenset(self.stems) | also
        found = set()
        last = self.stems[-1]
        for m in word_starts(candidate_re(wanted), fold(text)):
            stem = stem_word(m.group())
            if stem in wanted or self.prefix and stem.startswith(last):
                found.add(stem)
        return found

    def uses(self, text: str) -> bool:
        """Whether ``text`` has the words in the very form typed (all of them, or any for a partial query)."""
        return self.uses_words({m.group() for m in word_starts(_typed_re(tuple(self.words)), fold(text))})

    def uses_words(self, present: set[str] | frozenset[str]) -> bool:
        """``uses`` for a text whose words (folded) are ``present``."""
        return self.typed <= present if self.all_words else not self.typed.isdisjoint(present)


@lru_cache(maxsize=50_000)
def title_words(title: str) -> frozenset[str]:
    """A title's words as Query.uses compares them (folded): the same titles come back search after search (a book's
    titles fit the cache)."""
    return frozenset(WORD_RE.findall(fold(title)))


@lru_cache(maxsize=50_000)
def title_stems(title: str) -> frozenset[str]:
    """A title's stems, from its words (cached as they are)."""
    return frozenset(map(stem_word, title_words(title)))


@lru_cache(maxsize=512)
def candidate_re(wanted: frozenset[str]) -> re.Pattern:
    """Words that may stem to a wanted stem: those starting with the stem less its last letter (Snowball may
    change a final letter, as English y -> i); each candidate is then confirmed by stemming it."""
    prefixes = sorted({w[:max(3, len(w) - 1)] for w in wanted}, key=len, reverse=True)
    return re.compile(r"(?:%s)[^\W_]*" % "|".join(map(re.escape, prefixes)))


@lru_cache(maxsize=512)
def _typed_re(words: tuple[str, ...]) -> re.Pattern:
    """The words typed, whole (matched at a word's start by word_starts)."""
    return re.compile(r"(?:%s)(?![^\W_])" % "|".join(map(re.escape, sorted(set(words), key=len, reverse=True))))


def word_starts(pattern: re.Pattern, text: str):
    """The matches of ``pattern`` in ``text`` that begin a word (after no letter or digit). The patterns leave that
    check to this loop: a lookbehind at their start keeps ``re`` from looking for their first letters quickly, and
    made scanning a text for them about ten times slower. (A match inside a word consumes the rest of that word,
    so no match at a word's start is skipped.)"""
    for m in pattern.finditer(text):
        start = m.start()
        if not start or not text[start - 1].isalnum():
            yield m
