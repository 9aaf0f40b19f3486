"""The offline index ships Python regular expressions (the grammar of rule numbers, a book's own number forms) in
JavaScript's syntax (rulesref.offline.index.js_regex): data only, each Python pattern with what the browser gets."""
import pytest

from rulesref.offline.index import js_regex

PAIRS = [
    (r"\d+", r"\p{Nd}+"),
    (r"\D", r"\P{Nd}"),
    (r"\w+", r"[\p{L}\p{N}_]+"),
    (r"[\w-]", r"[\p{L}\p{N}_-]"),
    (r"\W", r"[^\p{L}\p{N}_]"),
    (r"[\W]", r"[\W]"),  # kept as written inside a class
    (r"\Aабв\Z", r"^абв$"),
    (r"(?P<num>\d+)", r"(?<num>\p{Nd}+)"),
    (r"(?P<x>a)(?P=x)", r"(?<x>a)\k<x>"),
    (r"\-\ \"", '- "'),  # escapes JavaScript's u mode refuses: the characters themselves
    (r"[\-a]", r"[\-a]"),
    (r"[]a]", r"[\]a]"),  # a "]" first in a class is a character in Python
    (r"[^]a]", r"[^\]a]"),
    (r"\.\(\)", r"\.\(\)"),
    (r"Правило\s+(?P<num>\d+(?:-\d+)+)", r"Правило\s+(?<num>\p{Nd}+(?:-\p{Nd}+)+)"),
    ("a\\", "a\\"),  # a backslash that ends the pattern stays
]


@pytest.mark.parametrize("python, javascript", PAIRS)
def test_a_python_pattern_in_javascripts_syntax(python, javascript):
    assert js_regex(python) == javascript


@pytest.mark.parametrize("pattern", [r"(?i)x", r"(?i:x)", r"a(?s:.)"])
def test_inline_flags_have_no_equivalent(pattern):
    with pytest.raises(ValueError):
        js_regex(pattern)
