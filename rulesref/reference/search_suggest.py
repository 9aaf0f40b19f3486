""""Did you mean": a word the books lack replaced by its nearest word of their vocabulary (SearchWord), in either
script ("хеджхог" → "hedgehog")."""
from __future__ import annotations

import difflib

from django.db import connection
from rapidfuzz import fuzz, process

from rulesref.text import script_of, stem_word, to_cyrillic, to_latin

from .models import Book, SearchWord
from .search_backend import backend
from .search_ranking import SUGGESTION_CUTOFF


def near_words(word: str, books: list[Book]) -> list[str]:
    """Words of the books' vocabulary that could be ``word`` misspelt: the same first letter, about as long (a big
    book has a thousand such; plain SQL, as building a model query and its rows cost more than the statement). Their
    order does not matter: closest decides by its measure, and a tie by the word itself. (suggest asks only when
    some book is loaded.)"""
    if not word:
        return []
    in_books, params = backend().one_of("book_id", [b.pk for b in books], "bigint")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT word FROM {SearchWord._meta.db_table} WHERE initial = %s AND length BETWEEN %s AND %s "
                       f"AND {in_books}", [word[0], len(word) - 2, len(word) + 2, *params])
        return list(dict.fromkeys(near for (near,) in cursor.fetchall()))


def closest(word: str, choices: list[str], cutoff: float = SUGGESTION_CUTOFF) -> list[str]:
    """``difflib.get_close_matches(word, choices, n=1, cutoff=cutoff)``, with rapidfuzz choosing the candidates
    first: its ratio (twice the longest common subsequence over the lengths) is never below difflib's (twice the
    letters its matching blocks cover, a common subsequence too), so no word difflib would take is left out, and
    difflib's own measure decides among the few left. Over a big book's vocabulary difflib alone took 10-20 ms."""
    candidates = [choice for choice, _, _ in process.extract(word, choices, scorer=fuzz.ratio, limit=None,
                                                              score_cutoff=cutoff * 100 - 0.01)]
    return difflib.get_close_matches(word, candidates, n=1, cutoff=cutoff)


def _known_stems(stems: set[str], books: list[Book]) -> set[str]:
    """Which of these stems the books' vocabulary has."""
    one_of = backend().one_of
    in_stems, params = one_of("stem", sorted(stems), "text")
    in_books, more = one_of("book_id", [b.pk for b in books], "bigint")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT DISTINCT stem FROM {SearchWord._meta.db_table} WHERE {in_stems} AND {in_books}",
                       params + more)
        return {stem for (stem,) in cursor.fetchall()}


def _nearest(word: str, books: list[Book]) -> str:
    """The known word nearest ``word`` as typed or spelled in the other script ("" if none is near enough)."""
    script = script_of(word)
    spelled = to_latin(word) if script == "ru" else to_cyrillic(word)
    options = closest(word, near_words(word, books)) + closest(spelled, near_words(spelled, books))
    if not options:
        return ""
    return max(options, key=lambda o: difflib.SequenceMatcher(
        None, word if script_of(o) == script else spelled, o).ratio())


def suggest(words: list[str], books: list[Book], found: bool) -> str:
    """The query with each word that the books lack replaced by its nearest known word (either script); "" if none
    is. The last word may be a prefix still being typed: when the query found something, that word is left alone."""
    if not books:
        return ""
    known = _known_stems({stem_word(w) for w in words}, books)
    changed, out = False, []
    for i, word in enumerate(words):
        keep = stem_word(word) in known or word.isdigit() or len(word) < 3 or (found and i == len(words) - 1)
        better = "" if keep else _nearest(word, books)
        out.append(better or word)
        changed = changed or bool(better)
    return " ".join(out) if changed else ""
