"""One place for each fact (issues 29 and 31): no rule-number pattern is defined outside the grammar
(rulesref/reference/numbering.py) and no folding or transliteration table outside the text module (rulesref/text.py)
— the offline scripts included, which receive both as data in the search index."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "rulesref"
GRAMMAR = ROOT / "reference" / "numbering.py"
TEXT = ROOT / "text.py"

# The source of a regular expression in Python (re.compile, re.match… of a string literal) or JavaScript (a /…/
# literal or new RegExp("…")).
PY_PATTERN_RE = re.compile(r"re\.(?:compile|match|search|fullmatch|sub|subn|findall|finditer|split)\(\s*(?:rf|fr|r|f)?[\"'](.+?)[\"']")
JS_PATTERN_RE = re.compile(r"(?:new RegExp\(\s*[\"'](.+?)[\"']|(?<![\w)\]])/((?:\\.|[^/\n*])(?:\\.|[^/\n])*)/[gimsuy]*)")
# What a rule number looks like in a pattern: digits, a dot, digits again ("\d+\.\d", "\d\s*\.\s*\d", "[0-9]+(\.[0-9]"),
# a clause letter after a number ("\d+(\.\d+)*[a-z]"), or the Roman numerals' letters.
RULE_NUMBER_RE = re.compile(r"(?:\\d|\[0-9\])[^|]{0,24}?(?:\\\.|\[\.\])[^|]{0,24}?(?:\\d|\[0-9\]|\\p\{Nd\})|IVXLC|\[IVX")
# What folding looks like: ё folded to е, or the Russian alphabet laid out as a transliteration table.
FOLDING_RE = re.compile(r"[\"'/]ё[\"'/]\s*,?\s*(?:g,\s*)?[\"']е[\"']|replace\(/ё/|абвгдеёжз")


def patterns(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return PY_PATTERN_RE.findall(text)
    return [a or b for a, b in JS_PATTERN_RE.findall(text)]


def sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*") if p.suffix in (".py", ".js") and "migrations" not in p.parts
                  and p not in (GRAMMAR, TEXT))


def test_the_detectors_see_what_they_look_for():
    """Each detector finds the patterns it is for in the modules that may hold them."""
    grammar = patterns(GRAMMAR)
    assert sum(bool(RULE_NUMBER_RE.search(p)) for p in grammar) >= 5
    assert FOLDING_RE.search(TEXT.read_text(encoding="utf-8"))
    assert RULE_NUMBER_RE.search(r"^\d+(\.\d+)*[a-z]$") and RULE_NUMBER_RE.search(r"\d{1,3}(?:\s*\.\s*\d{1,3})")
    assert not RULE_NUMBER_RE.search(r"(?<![\w.,])\d+(?:[.,]\d+)?(?![\w])")  # a decimal quantity is no rule number
    assert FOLDING_RE.search('text.lower().replace("ё", "е")') and FOLDING_RE.search('s.replace(/ё/g, "е")')


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_rule_number_pattern_outside_the_grammar(path):
    found = [p for p in patterns(path) if RULE_NUMBER_RE.search(p)]
    assert found == [], f"{path.relative_to(ROOT)} defines rule-number patterns: read them from numbering.py"


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_folding_outside_the_text_module(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    found = [line for line in lines if FOLDING_RE.search(line) and "(Snowball: ё as е)" not in line]
    assert found == [], f"{path.relative_to(ROOT)} folds text itself: use rulesref/text.py"
