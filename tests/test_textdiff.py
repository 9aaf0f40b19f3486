"""The shared word diff (rulesref/textdiff.py): what it shows for ordinary edits, hostile text escaped, its work
bounded for texts of 200 KB (counted, never timed), the cache of rendered diffs, the history page of a 200 KB
section, and the reference and the checker not reaching into the translator's workspace for it."""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from django.core.cache import cache

from rulesref import textdiff
from rulesref.reference.models import Book, BookRevision, TextVersion
from rulesref.textdiff import DELETE, EQUAL, INSERT, Op, block_diffs, html_diff, tokens, word_diff

ROOT = Path(__file__).resolve().parent.parent
SIZE = 200_000
SYLLABLES = ["ка", "ва", "ле", "ри", "я", "по", "дра", "зде", "ни", "е", "hex", "unit", "mo", "ra", "le", "ff"]
MARK = "QUOKKA"

# --------------------------------------------------------------------------------------------------------------
# What the diff shows


@pytest.mark.parametrize("old, new, expected", [
    ("One two three.", "One two three four.", "One two three<ins> four</ins>."),
    ("Кавалерия может перехватить.", "Кавалерия не может перехватить.", "Кавалерия<ins> не</ins> может перехватить."),
    ("A quick brown fox", "A brown fox", "A<del> quick</del> brown fox"),
    ("The unit moves. The unit fires.", "The unit fires.", "<del>The unit moves. </del>The unit fires."),
    ("The unit may withdraw.", "The unit must withdraw.", "The unit <del>may</del><ins>must</ins> withdraw."),
    ("a b", "a x b", "a <ins>x </ins>b"),
    ("First.\n\nSecond.", "First.\n\nSecond.\n\nThird.", "First.¶<br><br>Second.<ins>¶<br><br>Third.</ins>"),
    ("Keep.\n\nDrop this.\n\nKeep too.", "Keep.\n\nKeep too.", "Keep<del>.¶<br><br>Drop this</del>.¶<br><br>Keep too."),
    ("Line one\nline two", "Line one\nline 2", "Line one<br>line <del>two</del><ins>2</ins>"),
    ("", "New text.", "<ins>New text.</ins>"),
    ("Old text.", "", "<del>Old text.</del>"),
    ("Same.", "Same.", "Same."),
    ("snake_case", "snake_cake", "snake_<del>case</del><ins>cake</ins>"),  # no character is lost
])
def test_the_diff_of_ordinary_edits(old, new, expected):
    assert str(html_diff(old, new)) == expected


def test_the_edit_as_runs():
    assert word_diff("One two three.", "One 2 three four.") == [
        Op(EQUAL, "One "), Op(DELETE, "two"), Op(INSERT, "2"), Op(EQUAL, " three"), Op(INSERT, " four"),
        Op(EQUAL, ".")]
    assert textdiff.changed(word_diff("a", "b")) and not textdiff.changed(word_diff("a", "a"))


HOSTILE = ['<script>alert("x")</script>', "<img src=x onerror=alert(1)>", '<a href="javascript:alert(1)">see</a>']
OWN_TAGS = {"<ins>", "</ins>", "<del>", "</del>", "<br>"}


@pytest.mark.parametrize("hostile", HOSTILE)
@pytest.mark.parametrize("where", ["old", "new", "both"])
def test_markup_in_either_text_comes_out_escaped(hostile, where):
    plain = "Hex edge."
    marked = f"Hex {hostile} edge."
    old, new = {"old": (marked, plain), "new": (plain, marked), "both": (marked, marked + " More.")}[where]
    html = str(html_diff(old, new))
    assert set(re.findall(r"<[^>]*>", html)) <= OWN_TAGS  # the only tags are the diff's own
    assert "&lt;" in html and "&gt;" in html
    shown = re.sub(r"</?(ins|del)>", "", html)
    assert hostile.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;") in shown


def test_paragraph_diffs_of_ordinary_edits():
    old = ["First paragraph.", "Second paragraph.", "Third paragraph."]
    new = ["First paragraph.", "Second paragraph, changed.", "A new one.", "Third paragraph."]
    assert [d and str(d) for d in block_diffs(old, new)] == [
        None, "Second paragraph<ins>, changed</ins>.", "<ins>A new one.</ins>", None]
    removed = block_diffs(old, ["First paragraph.", "Third paragraph."])
    assert [d and str(d) for d in removed] == [None, "<del>Second paragraph.¶<br><br></del>Third paragraph."]
    last = block_diffs(old, ["First paragraph.", "Second paragraph."])
    assert str(last[1]) == "Second paragraph.<del>¶<br><br>Third paragraph.</del>"
    hostile = block_diffs(["Text."], ['Text <script>alert(1)</script>.'])
    assert str(hostile[0]) == "Text<ins> &lt;script&gt;alert(1)&lt;/script&gt;</ins>."


def edited(text: str, seed: int) -> str:
    """A few random edits of words, spaces and paragraphs."""
    rnd = random.Random(seed)
    parts = re.split(r"( |\n\n)", text)
    for _ in range(rnd.randint(1, 4)):
        k = rnd.randrange(len(parts))
        parts[k:k + rnd.randint(0, 3)] = rnd.choice([[], ["new_word"], [" ", "и"], ["\n\n", "Абзац."], ["  "]])
    return "".join(parts)


@pytest.mark.parametrize("seed", range(40))
def test_the_runs_join_back_into_both_texts(seed):
    old = generated(600, seed)
    new = edited(old, seed)
    ops = word_diff(old, new)
    assert "".join(op.text for op in ops if op.kind != INSERT) == old
    assert "".join(op.text for op in ops if op.kind != DELETE) == new
    kinds = [op.kind for op in ops]
    assert all(op.text for op in ops)
    assert all(a != b for a, b in zip(kinds, kinds[1:])) and "insert,delete" not in ",".join(kinds)


# --------------------------------------------------------------------------------------------------------------
# The work is bounded: counted, not timed


def generated(size: int, seed: int, paragraph_words: tuple[int, int] = (20, 120)) -> str:
    """A text of ``size`` characters: words of made-up syllables in paragraphs."""
    rnd = random.Random(seed)
    vocabulary = ["".join(rnd.choice(SYLLABLES) for _ in range(rnd.randint(1, 4))) for _ in range(3000)]
    paragraphs, length = [], 0
    while length < size:
        paragraph = " ".join(rnd.choice(vocabulary) for _ in range(rnd.randint(*paragraph_words))) + "."
        paragraphs.append(paragraph)
        length += len(paragraph) + 2
    return "\n\n".join(paragraphs)[:size]


def scattered(text: str, every: int) -> str:
    """Every ``every``-th word (a plain one) replaced by a marked word; the text keeps its size at most."""
    parts = re.split(r"(\s+)", text)
    words = [k for k, part in enumerate(parts) if part.isalpha()]
    for n, k in enumerate(words[every // 2::every]):
        parts[k] = f"{MARK}{n}"
    return "".join(parts)[:len(text)]


def pairs() -> dict[str, tuple[str, str]]:
    one, other = generated(SIZE, 1), generated(SIZE, 2)
    return {
        "unrelated": (one, other),
        "unrelated, no paragraphs": (one.replace("\n\n", " "), other.replace("\n\n", " ")),
        "scattered words": (one, scattered(one, 50)),
        "scattered words, no paragraphs": (one.replace("\n\n", " "), scattered(one.replace("\n\n", " "), 50)),
        "one word repeated": (("слово " * SIZE)[:SIZE], ("слово " * SIZE)[:SIZE - 600]),
        "one word against another": (("a " * SIZE)[:SIZE], ("b " * SIZE)[:SIZE]),
        "punctuation only": ((".,!" * SIZE)[:SIZE], ("!.," * SIZE)[:SIZE]),
        "tiny paragraphs": ("".join(f"{n % 97}\n\n" for n in range(SIZE))[:SIZE],
                            "".join(f"{n % 89}\n\n" for n in range(SIZE))[:SIZE]),
        "against nothing": (one, ""),
        "from nothing": ("", one),
    }


PAIRS = pairs()


@pytest.fixture
def work(monkeypatch):
    """The work of the diff, counted where it is done: cells handed to the aligner, cells handed to difflib, texts
    (and their tokens) handed to the word diff."""
    counted = {"cells": 0, "alignments": 0, "region_cells": 0, "largest_region": 0, "texts": 0, "tokens": 0}
    lcs, token_ops, matcher = textdiff._lcs, textdiff._token_ops, textdiff.SequenceMatcher

    def counting_lcs(a, b):
        counted["cells"] += len(a) * len(b)
        counted["alignments"] += 1
        return lcs(a, b)

    def counting_token_ops(a, b, budget):
        counted["texts"] += 1
        counted["tokens"] += len(a) + len(b)
        return token_ops(a, b, budget)

    def counting_matcher(isjunk, a, b, autojunk):
        counted["region_cells"] += len(a) * len(b)
        counted["largest_region"] = max(counted["largest_region"], len(a) * len(b))
        return matcher(isjunk, a, b, autojunk=autojunk)

    monkeypatch.setattr(textdiff, "_lcs", counting_lcs)
    monkeypatch.setattr(textdiff, "_token_ops", counting_token_ops)
    monkeypatch.setattr(textdiff, "SequenceMatcher", counting_matcher)
    return counted


def assert_bounded(work: dict, size: int) -> None:
    assert work["cells"] <= textdiff.MAX_CELLS
    assert work["region_cells"] <= textdiff.MAX_REGION_CELLS
    assert work["largest_region"] <= textdiff.REGION_CELLS
    assert work["texts"] <= textdiff.MAX_PIECES // textdiff.CALL_PIECES + 1
    assert work["tokens"] <= 3 * size  # each token is handed over at most three times: whole, its change, its pair


@pytest.mark.parametrize("name", PAIRS)
def test_the_work_of_a_diff_of_200_kb_texts_is_bounded(work, name):
    old, new = PAIRS[name]
    assert len(old) <= SIZE and len(new) <= SIZE
    ops = word_diff(old, new)
    assert_bounded(work, len(tokens(old)) + len(tokens(new)))
    assert len(ops) <= 3 * textdiff.MAX_PIECES + 2
    assert "".join(op.text for op in ops if op.kind != INSERT) == old
    assert "".join(op.text for op in ops if op.kind != DELETE) == new


def test_scattered_changes_in_a_200_kb_text_are_still_shown_word_by_word(work):
    old, new = PAIRS["scattered words"]
    inserted = [op.text for op in word_diff(old, new) if op.kind == INSERT]
    assert sorted(inserted) == sorted(re.findall(rf"{MARK}\d+", new))  # each marked word, alone
    assert work["cells"] < textdiff.MAX_CELLS


@pytest.mark.parametrize("name", ["unrelated", "scattered words", "tiny paragraphs", "against nothing"])
def test_the_work_of_paragraph_diffs_of_200_kb_is_bounded(work, name):
    old_text, new_text = PAIRS[name]
    old, new = old_text.split("\n\n"), new_text.split("\n\n")
    result = block_diffs(old, new)
    assert len(result) == len(new)
    assert_bounded(work, len(tokens(old_text)) + len(tokens(new_text)))


# --------------------------------------------------------------------------------------------------------------
# The cache of rendered diffs


def test_a_long_pair_is_diffed_once_then_read_from_the_cache(monkeypatch):
    old, new = generated(6_000, 3), scattered(generated(6_000, 3), 40)
    cache.delete(textdiff._cache_key(old, new))
    calls = []
    diff = textdiff.word_diff
    monkeypatch.setattr(textdiff, "word_diff", lambda a, b: calls.append(1) or diff(a, b))
    first = html_diff(old, new)
    assert html_diff(old, new) == first and len(calls) == 1
    assert cache.get(textdiff._cache_key(old, new)) == str(first)


def test_short_pairs_and_huge_results_are_not_cached(monkeypatch):
    assert not cache.get(textdiff._cache_key("a b", "a c")) and html_diff("a b", "a c")
    assert cache.get(textdiff._cache_key("a b", "a c")) is None
    monkeypatch.setattr(textdiff, "CACHE_MAX_CHARS", 1_000)
    old, new = generated(6_000, 4), generated(6_000, 5)
    cache.delete(textdiff._cache_key(old, new))
    assert len(html_diff(old, new)) > 1_000
    assert cache.get(textdiff._cache_key(old, new)) is None


def test_the_cache_key_tells_where_one_text_ends():
    assert textdiff._cache_key("ab", "c") != textdiff._cache_key("a", "bc")
    assert textdiff._cache_key("a", "b") != textdiff._cache_key("b", "a")


# --------------------------------------------------------------------------------------------------------------
# The history page of a 200 KB section


@pytest.mark.django_db
def test_the_history_page_of_a_200_kb_section_answers(client, work):
    book = Book.objects.get(slug="mpbs")
    first = TextVersion.objects.get(book=book, sid="9.3.1", language="ru", since=1, until__isnull=True)
    old = generated(SIZE, 6)
    new = scattered(old, 200).replace(f"{MARK}0", f"{MARK}0 <script>alert(1)</script>", 1)[:SIZE]
    TextVersion.objects.filter(pk=first.pk).update(body=old, until=3)
    TextVersion.objects.create(book=book, sid="9.3.1", language="ru", title=first.title, body=new, since=3)
    for number in (2, 3):
        BookRevision.objects.create(book=book, number=number, origin=BookRevision.Origin.ADMIN, languages="ru",
                                    changed=1)
    Book.objects.filter(pk=book.pk).update(revision=3)
    cache.delete(textdiff._cache_key(old, new))
    url = "/ru/rules/mpbs/9.3.1/history/?from=1&to=3&in=ru"

    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<ins>{MARK}0 &lt;script&gt;alert(1)&lt;/script&gt;</ins>" in html and "<script>alert(1)" not in html
    assert f"<ins>{MARK}5</ins>" in html
    assert_bounded(work, len(tokens(old)) + len(tokens(new)))
    # The same pair again costs no diff: it comes from the cache.
    alignments = work["alignments"]
    assert client.get(url).status_code == 200
    assert work["alignments"] == alignments


# --------------------------------------------------------------------------------------------------------------
# Layers: the diff is shared, not the translator's workspace's

DIFF_NAMES = {"diff", "word_diff", "html_diff", "block_diffs", "render_diff"}


def imports(path: Path) -> list[tuple[str, set[str]]]:
    """Each import in the file: the absolute module and the names taken from it."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, set()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found.append((module, {alias.name for alias in node.names}))
    return found


def test_the_reference_and_the_checker_do_not_take_the_diff_from_the_translators_workspace():
    offending = []
    for app in ("reference", "checker"):
        for path in sorted((ROOT / "rulesref" / app).rglob("*.py")):
            for module, names in imports(path):
                from_translation = module == "rulesref.translation" or module.startswith("rulesref.translation.")
                if from_translation and (module.startswith("rulesref.translation.diff") or names & DIFF_NAMES):
                    offending.append(f"{path.relative_to(ROOT)}: {module} {sorted(names)}")
    assert offending == []
    assert not (ROOT / "rulesref" / "translation" / "diff.py").exists()


def test_the_shared_diff_imports_no_app():
    modules = [module for module, _names in imports(ROOT / "rulesref" / "textdiff.py")]
    assert not [m for m in modules if m.startswith("rulesref")]
