"""The generated corpus for benchmarks (bench/corpus_gen.py) is a valid rulebook the real loader accepts, numbered
like the real books, with a realistic vocabulary: tens of thousands of real word forms, Zipf-distributed, with
their inflections, and an English text that mirrors the Russian's references."""
import math
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import corpus_gen  # noqa: E402

from rulesref.reference.refs import find_references  # noqa: E402

NUMBER_RE = re.compile(r"^[1-9]\d?(?:\.[1-9]\d?){0,3}$")


@pytest.fixture(scope="module")
def book():
    return corpus_gen.generate(2000)


def words(book, lang):
    return Counter(w for s in book.sections for w in re.findall(r"[^\W\d_]+", f"{s.title[lang]} {s.body[lang]}".lower()))


def test_exactly_the_sections_asked_for_numbered_like_a_rulebook(book):
    sids = [s.sid for s in book.sections]
    assert len(sids) == len(set(sids)) == 2000
    assert all(NUMBER_RE.match(sid) for sid in sids)
    by_id = {s.sid: s for s in book.sections}
    for s in book.sections:
        assert s.level == s.sid.count(".") + 1
        assert s.parent == (s.sid.rsplit(".", 1)[0] if "." in s.sid else None)
        assert [c.rsplit(".", 1)[1] for c in s.children] == [str(i) for i in range(1, len(s.children) + 1)]
        assert all(by_id[c].parent == s.sid for c in s.children)
    levels = Counter(s.level for s in book.sections)
    assert set(levels) == {1, 2, 3, 4} and 5 <= levels[1] <= 30
    untitled = sum(1 for s in book.sections if not s.title["ru"])
    empty_parents = sum(1 for s in book.sections if s.children and not s.body["ru"])
    assert untitled and empty_parents  # as in the real books (9.3.4-9.3.7 untitled; 9.3 has no text of its own)


def test_the_vocabulary_is_large_zipf_like_and_inflected(book):
    for lang in ("ru", "en"):
        counts = words(book, lang)
        assert len(counts) >= 10_000, len(counts)  # already in 2,000 sections; tens of thousands in 20,000
        ranked = [c for _, c in counts.most_common()]
        # Zipf: frequency about proportional to 1/rank, so the log-log slope between ranks 10 and 1,000 is near -1.
        slope = (math.log(ranked[999]) - math.log(ranked[9])) / (math.log(1000) - math.log(10))
        assert -1.4 < slope < -0.6, slope
    forms = {w for w in words(book, "ru") if w.startswith("подразделени")}
    assert len(forms) >= 5, forms  # подразделение, подразделения, подразделений, подразделением, …
    assert {"unit", "units"} <= set(words(book, "en"))


def test_english_mirrors_the_russian_blocks_and_references(book):
    checked = 0
    for s in book.sections:
        ru_blocks, en_blocks = s.body["ru"].split("\n\n"), s.body["en"].split("\n\n")
        assert len(ru_blocks) == len(en_blocks)
        for ru, en in zip(ru_blocks, en_blocks):
            assert ru[:3] == en[:3] if re.match(r"^[a-g]\) ", ru) else True
            assert [r.target for r in find_references(ru)] == [r.target for r in find_references(en)]
            checked += bool(find_references(ru))
    assert checked > 500


def test_the_same_arguments_give_the_same_book():
    a, b = corpus_gen.generate(120, seed=3), corpus_gen.generate(120, seed=3)
    assert [(s.sid, s.title, s.body) for s in a.sections] == [(s.sid, s.title, s.body) for s in b.sections]
    assert [s.body for s in corpus_gen.generate(120, seed=4).sections] != [s.body for s in a.sections]


@pytest.mark.django_db
def test_it_loads_through_loadrules_own_code(tmp_path):
    from rulesref.reference.models import Book, Reference, Section, SectionText

    report = corpus_gen.load(300, root=tmp_path, slug="gen-test")
    assert report.loaded == ["gen-test"] and report.counts["gen-test"] == 300
    book = Book.objects.get(slug="gen-test")
    assert Section.objects.filter(book=book).count() == 300
    assert SectionText.objects.filter(section__book=book, language="en").count() == 300
    refs = Reference.objects.filter(source__book=book)
    assert refs.filter(target__isnull=False).exists() and refs.filter(target__isnull=True).exists()
