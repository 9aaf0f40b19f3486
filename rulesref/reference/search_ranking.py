"""How search ranks, defined once: the limits of a query and of a page, the tiers of the order and the order within
them, the weights of the database's rank. The server's search (search.py and its back-ends) reads them from here,
and the offline search (static/offline/search.js) receives them as data in every book's index
(``browser_ranking``), as it receives the text tables (rulesref/text.py) and the grammar of rule numbers
(numbering.py). tests/test_one_grammar.py fails if one of them is written anywhere else.

The order of what is shown (reasoned in tests/test_search_ranking.py): first the sections whose title names the
query in the very words typed (or names the glossary term typed, by any of its forms), then the term's defining
sections whose text uses the words as typed, then other title hits (by stem), then the other defining sections,
then the rest by the database's rank. Within a tier: the title the query names most fully (coverage), for title
hits the more general section (depth), for the rest the database's rank, then book order, and the reader's
language before the other.
"""
from __future__ import annotations

from enum import IntEnum

# ---------------------------------------------------------------------------------------------- limits

MAX_QUERY_CHARS = 200
MAX_WORDS = 12
PAGE_SIZE = 30
MAX_PAGE = 5  # results beyond the 150th are not paged to: a reader narrows the query instead
TITLE_POOL = PAGE_SIZE * MAX_PAGE  # the title hits every page is ordered from, so pages never overlap
COUNT_CAP = 500  # matching sections counted per book; beyond it, "more than 500" (150 can be paged to)
# The last word is a prefix (the reader may still be typing it) once its stem has this many letters: a prefix of one
# or two stands for thousands of words and finds nothing in particular, while the index pays for every one of them
# (at 100,000 sections, 0.4 s for «п» on SQLite).
PREFIX_MIN = 3
# Texts ranked by the database when the title hits and the defining sections do not fill the page: this many pages'
# worth, beside the candidates already found.
RANKED_PAGES = 2
# Ranking reads (PostgreSQL) or scores (SQLite's bm25) every match, so it ranks among the first this many found: title
# matches (on PostgreSQL: SQLite's titles' index is in the order shown, so none is ranked), and text matches. On
# PostgreSQL per language, on SQLite both languages together. (The offline search ranks every row of its small books.)
TITLE_SCAN_CAP, TEXT_SCAN_CAP = 2000, 5000
# "Did you mean": the least similarity (difflib's ratio) of a known word to the word typed.
SUGGESTION_CUTOFF = 0.75
SNIPPET_WIDTH = 200  # characters of a hit's snippet, about

# ---------------------------------------------------------------------------------------------- the database's rank

# bm25 (SQLite's FTS5, and the offline search, which computes it as FTS5 does): a word in the title counts this many
# times a word of the text; FTS5's own parameters k1 and b (fixed in SQLite's source, not set by this project: written
# here for the offline search to compute the same rank).
TITLE_WEIGHT, BODY_WEIGHT = 10.0, 1.0
BM25_K1, BM25_B = 1.2, 0.75
# PostgreSQL's ts_rank normalisation of the texts: their rank divided by 1 + log(length), as bm25 damps long texts.
# (Title hits are not ranked by the database: on either, the titles of fewest different words come first.)
TEXT_NORMALISATION = 1
# The order of the titles' index (searchindex.title_key: the title's size, then the section's depth): what a key
# tells apart. A title of more words ranks as 1,023 words, a section deeper than 15 as 15.
MAX_TITLE_SIZE, MAX_TITLE_DEPTH = 1023, 15

# ---------------------------------------------------------------------------------------------- the order


class Tier(IntEnum):
    """The tiers of the order, best first."""

    EXACT_TITLE = 0  # the title names the query as typed, or names the glossary term typed
    DEFINING_EXACT = 1  # a defining section of the term whose text uses the words as typed
    TITLE = 2  # the title names the query (by stem)
    DEFINING = 3  # another defining section
    TEXT = 4  # the rest, by the database's rank


# What puts a candidate in a tier: the first tier whose facts all hold. The facts of a candidate: ``exact_title``
# (its title names the query in the words typed, or names the term typed), ``title_hit`` (its title has the query's
# stems), ``defining`` (a defining section of a term the query names), ``uses_typed`` (its text has the words typed).
TIER_RULES: tuple[tuple[Tier, tuple[str, ...]], ...] = (
    (Tier.EXACT_TITLE, ("exact_title",)),
    (Tier.DEFINING_EXACT, ("defining", "uses_typed")),
    (Tier.TITLE, ("title_hit",)),
    (Tier.DEFINING, ("defining",)),
    (Tier.TEXT, ()),
)
# The order within the page: candidates compare on each key in turn, a key that names tiers only within those (0
# elsewhere), a descending one largest first. ``coverage``: the share of the title's words the query names (0 for a
# candidate that is no title hit); ``rank``: the database's, lower is better; ``other_language``: 1 for a text in the
# language other than the reader's. Each section is shown once, in the language of its best key.
ORDER: tuple[tuple[str, bool, tuple[Tier, ...]], ...] = (
    ("tier", False, ()),
    ("coverage", True, ()),
    ("depth", False, (Tier.EXACT_TITLE, Tier.TITLE)),
    ("rank", False, (Tier.TEXT,)),
    ("book_position", False, ()),
    ("position", False, ()),
    ("other_language", False, ()),
)


# The facts of a candidate, in the order tier_of takes them, and the values of the order (ORDER but the tier), in the
# order order_key takes them.
FACTS = ("exact_title", "defining", "uses_typed", "title_hit")
ORDER_VALUES = tuple(name for name, _, _ in ORDER[1:])


def _tiers_by_facts() -> dict[tuple[bool, ...], int]:
    """TIER_RULES for every combination of the facts, worked out once (a search asks it of every candidate). The
    tiers as plain numbers: an Enum member hashes in Python, which cost more than the rest of a candidate's key."""
    table = {}
    for bits in range(1 << len(FACTS)):
        facts = tuple(bool(bits >> i & 1) for i in range(len(FACTS)))
        holding = {name for name, holds in zip(FACTS, facts) if holds}
        table[facts] = int(next(tier for tier, needs in TIER_RULES if holding.issuperset(needs)))
    return table


TIER_OF = _tiers_by_facts()  # (the FACTS, as booleans) -> the tier's number


def tier_of(exact_title: bool, defining: bool, uses_typed: bool, title_hit: bool) -> Tier:
    """The tier of a candidate with these facts (TIER_RULES: the first tier whose facts all hold)."""
    return Tier(TIER_OF[(bool(exact_title), bool(defining), bool(uses_typed), bool(title_hit))])


# For each tier (by its number), what each value of the order is multiplied by in its key: 1, -1 for a descending
# one (so that a smaller key is the better one), 0 for one that does not apply to the tier.
_SIGNS = tuple(tuple(0 if tiers and tier not in tiers else -1 if descending else 1
                     for _, descending, tiers in ORDER[1:]) for tier in sorted(Tier))


def _key_function(tier: int):
    """order_key's work for one tier, made once from ORDER (through _SIGNS) as the plain tuple expression it comes
    to: a search asks it of every candidate, and the general loop (a product per value) cost four times as much.
    Its source is made of numbers alone, none from outside this module."""
    terms = ", ".join("0" if sign == 0 else f"{'-' if sign < 0 else ''}v[{i}]" for i, sign in enumerate(_SIGNS[tier]))
    return eval(f"lambda v: ({int(tier)}, {terms})")  # noqa: S307


_KEYS = tuple(_key_function(tier) for tier in range(len(_SIGNS)))


def order_key(tier: int, values: tuple) -> tuple:
    """A candidate's place in the order (ORDER): smaller first. ``values``: the ORDER_VALUES, in that order. (The
    key has the tier, then each value multiplied by its sign in _SIGNS.)"""
    return _KEYS[tier](values)


def browser_ranking() -> dict:
    """What the offline search needs of this module, as data (the JSON of every offline index's ``ranking``)."""
    return {
        "limits": {"maxQueryChars": MAX_QUERY_CHARS, "maxWords": MAX_WORDS, "pageSize": PAGE_SIZE,
                   "titlePool": TITLE_POOL, "countCap": COUNT_CAP, "prefixMin": PREFIX_MIN,
                   "rankedPages": RANKED_PAGES, "suggestionCutoff": SUGGESTION_CUTOFF,
                   "snippetWidth": SNIPPET_WIDTH},
        "bm25": {"titleWeight": TITLE_WEIGHT, "bodyWeight": BODY_WEIGHT, "k1": BM25_K1, "b": BM25_B},
        "titleOrder": {"maxSize": MAX_TITLE_SIZE, "maxDepth": MAX_TITLE_DEPTH},
        "tiers": [{"tier": int(tier), "name": tier.name, "needs": [_camel(f) for f in needs]}
                  for tier, needs in TIER_RULES],
        "order": [{"key": _camel(name), "descending": descending, "tiers": [int(t) for t in tiers]}
                  for name, descending, tiers in ORDER],
    }


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)
