"""One ranking definition (issue 31): the limits, weights, tiers and order of search are defined in
rulesref/reference/search_ranking.py alone — the offline script included, which receives them as data in every
book's index — and both searches read them from there."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulesref.reference import search_ranking
from rulesref.reference.search_ranking import (
    FACTS, ORDER, ORDER_VALUES, TIER_RULES, Tier, browser_ranking, order_key, tier_of,
)

ROOT = Path(__file__).resolve().parent.parent / "rulesref"
RANKING = ROOT / "reference" / "search_ranking.py"
OFFLINE_SEARCH = ROOT / "static" / "offline" / "search.js"

# The ranking's constants and tiers, by name: upper case in Python, and as a script would spell them (the same, or in
# camel case; and the old script's names of bm25's k1 and b). Of the tiers' names, those no other module could mean
# otherwise (a module of the QA checks numbers its paragraphs from its TITLE); a script that numbers the tiers binds
# upper-case names to numbers, which the offline search may not do at all.
NAMES = {name for name, value in vars(search_ranking).items()
         if name.isupper() and isinstance(value, (int, float))} | {"EXACT_TITLE", "DEFINING_EXACT", "DEFINING"}


def _camel(name: str) -> str:
    first, *rest = name.lower().split("_")
    return first + "".join(part.capitalize() for part in rest)


SCRIPT_NAMES = NAMES | {_camel(name) for name in NAMES if name not in Tier.__members__} | {"K1", "B"}
# A script binding one of those names to a number ("PAGE_SIZE = 30", "var K1 = 1.2, B = 0.75").
SCRIPT_CONSTANT_RE = re.compile(r"(?<![\w.$])(%s)\s*=\s*[-+]?\.?\d" % "|".join(sorted(SCRIPT_NAMES, key=len,
                                                                                      reverse=True)))
# The offline search binds no upper-case name to a number at all: its numbers of that kind come with the index.
UPPER_CONSTANT_RE = re.compile(r"(?<![\w.$])([A-Z][A-Z0-9_]*)\s*=\s*[-+]?\.?\d")
# A weight or normalisation of the database's rank written as a number in SQL: bm25(table, 10.0, 1.0),
# ts_rank(vector, query, 2).
SQL_WEIGHT_RE = re.compile(r"bm25\(\s*[\w.]+\s*,\s*[-+]?\d|ts_rank\((?:[^()]|\([^()]*\))*,\s*\d+\s*\)")
# A weight of bm25 written as a number in a script: "10 * freqs[0]", "freq * (1.2 + 1.0)".
SCRIPT_WEIGHT_RE = re.compile(r"\b\d+(?:\.\d+)?\s*\*\s*freq|freq\w*\s*\*\s*\(?\s*\d")


def python_sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "migrations" not in p.parts and p != RANKING)


def scripts() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.js") if "vendor" not in p.parts)


def assigned_names(source: str) -> set[str]:
    """The names a Python module binds by assignment, anywhere (module, class or function level)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


def code_of(script: str) -> str:
    """A script without its comments (a comment may name a constant: "at most maxQueryChars")."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", "", script, flags=re.S)


def test_the_detectors_see_what_they_look_for():
    """Each detector finds the definitions it is for: in the ranking module itself, and in the forms the old
    script and the old search module wrote them in."""
    assert {"PAGE_SIZE", "COUNT_CAP", "PREFIX_MIN", "TITLE_WEIGHT", "BM25_K1", "EXACT_TITLE"} <= NAMES
    assert NAMES <= assigned_names(RANKING.read_text(encoding="utf-8")) | set(Tier.__members__)
    assert "COUNT_CAP" in assigned_names("COUNT_CAP = 500") and "EXACT_TITLE" in assigned_names(
        "EXACT_TITLE, DEFINING_EXACT, TITLE, DEFINING, TEXT = range(5)")
    assert "PAGE_SIZE" in assigned_names("class SearchIndex:\n    PAGE_SIZE: int = 30")
    old_script = ("  var MAX_QUERY_CHARS = 200, MAX_WORDS = 12, PAGE_SIZE = 30, TITLE_POOL = 150, COUNT_CAP = 500, "
                  "K1 = 1.2, B = 0.75;\n  var EXACT_TITLE = 0, DEFINING_EXACT = 1, TITLE = 2, DEFINING = 3, TEXT = 4;")
    assert {"MAX_QUERY_CHARS", "PAGE_SIZE", "K1", "B", "EXACT_TITLE"} <= set(SCRIPT_CONSTANT_RE.findall(old_script))
    assert {"TITLE", "TEXT"} <= set(UPPER_CONSTANT_RE.findall(old_script))
    assert SCRIPT_CONSTANT_RE.findall("var pageSize = 30;") == ["pageSize"]
    assert UPPER_CONSTANT_RE.findall("var MAX_HABIT = 400;") == ["MAX_HABIT"]
    assert not SCRIPT_CONSTANT_RE.search("var pageSize = LIMITS.pageSize;")
    assert SQL_WEIGHT_RE.search("bm25(reference_search_fts, 10.0, 1.0)")
    assert SQL_WEIGHT_RE.search("-ts_rank(t.search_title, to_tsquery('rulesref_russian', %s), 2) AS rank")
    assert not SQL_WEIGHT_RE.search("ts_rank(t.{column}, {query}, {normalisation})")
    assert SCRIPT_WEIGHT_RE.search("var freq = 10 * freqs[0] + freqs[1];")
    assert not SCRIPT_WEIGHT_RE.search("var freq = bm25.titleWeight * freqs[0] + bm25.bodyWeight * freqs[1];")


@pytest.mark.parametrize("path", python_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_ranking_constant_is_defined_outside_the_ranking_module(path):
    source = path.read_text(encoding="utf-8")
    assert assigned_names(source) & NAMES == set(), \
        f"{path.relative_to(ROOT)} defines ranking constants: read them from search_ranking.py"
    assert SQL_WEIGHT_RE.findall(source) == [], f"{path.relative_to(ROOT)} writes the rank's weights as numbers"


@pytest.mark.parametrize("path", scripts(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_script_defines_a_ranking_constant(path):
    code = code_of(path.read_text(encoding="utf-8"))
    assert SCRIPT_CONSTANT_RE.findall(code) == [], \
        f"{path.relative_to(ROOT)} defines ranking constants: the offline index ships them (search_ranking.py)"
    assert SCRIPT_WEIGHT_RE.findall(code) == [], f"{path.relative_to(ROOT)} writes bm25's weights as numbers"


def test_the_offline_search_binds_no_constant_of_its_own():
    assert UPPER_CONSTANT_RE.findall(code_of(OFFLINE_SEARCH.read_text(encoding="utf-8"))) == []


# ---------------------------------------------------------------------------------------------- the definition


def test_a_candidate_takes_the_first_tier_whose_facts_hold():
    """The tiers as search has always reasoned them (tests/test_search_ranking.py): the title naming the query as
    typed first, whatever else holds; a defining section that uses the words as typed before other title hits;
    the rest last."""
    facts = ("exact_title", "defining", "uses_typed", "title_hit")
    for bits in range(16):
        f = {name: bool(bits >> i & 1) for i, name in enumerate(facts)}
        assert tier_of(*(f[name] for name in FACTS)) == tier_of(**f)
        want = (Tier.EXACT_TITLE if f["exact_title"] else Tier.DEFINING_EXACT if f["defining"] and f["uses_typed"]
                else Tier.TITLE if f["title_hit"] else Tier.DEFINING if f["defining"] else Tier.TEXT)
        assert tier_of(**f) == want, f


def test_the_order_within_a_tier():
    """Fuller titles first; among title hits the more general section, among the rest the better rank; then book
    order, and the reader's language before the other. A key that does not apply to a tier does not decide it."""
    base = {"coverage": 0.5, "depth": 2, "rank": -3.0, "book_position": 0, "position": 10, "other_language": False}

    def key(tier, **changes):
        values = {**base, **changes}
        return order_key(tier, tuple(values[name] for name in ORDER_VALUES))

    assert key(Tier.TITLE, coverage=1.0) < key(Tier.TITLE)
    assert key(Tier.TITLE, depth=1) < key(Tier.TITLE) and key(Tier.TEXT, depth=1) == key(Tier.TEXT)
    assert key(Tier.TEXT, rank=-5.0) < key(Tier.TEXT) and key(Tier.TITLE, rank=-5.0) == key(Tier.TITLE)
    assert key(Tier.DEFINING, position=3) < key(Tier.DEFINING)
    assert key(Tier.TEXT) < key(Tier.TEXT, other_language=True)
    assert key(Tier.EXACT_TITLE, coverage=0.0, depth=9) < key(Tier.DEFINING_EXACT, coverage=1.0)
    assert [name for name, _, _ in ORDER][0] == "tier" and [tier for tier, _ in TIER_RULES] == sorted(Tier)


def test_search_gives_the_order_its_values_and_facts_in_the_order_defined():
    """search._order hands order_key its values and TIER_OF its facts by position: in ranking's own order."""
    import inspect

    from rulesref.reference import search

    assert search.PLACE_VALUES == ORDER_VALUES
    assert "TIER_OF[(exact_title, is_defining, uses_typed, title_hit)]" in inspect.getsource(search._order)
    assert FACTS == ("exact_title", "defining", "uses_typed", "title_hit")


def test_the_offline_index_ships_the_definition(db):
    """Every book's offline index carries the ranking as data, as browser_ranking gives it."""
    import json

    from rulesref.offline.index import stored
    from rulesref.reference.models import Book

    ranking = browser_ranking()
    assert ranking["limits"]["pageSize"] == search_ranking.PAGE_SIZE
    assert [t["needs"] for t in ranking["tiers"]] == [[_camel(f) for f in needs] for _, needs in TIER_RULES]
    for book in Book.objects.all():
        assert json.loads(stored(book))["ranking"] == ranking
