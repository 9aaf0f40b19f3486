"""Loading the corpus: validation with file:line errors, all-or-nothing loading, idempotence, and a lossless
round trip (load then dump gives byte-identical files)."""
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rulesref.reference.corpus import CorpusError, parse_file, read_book
from rulesref.reference.loading import dump_corpus, load_corpus
from rulesref.reference.models import Book, Reference, Section, SectionText

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db


def snapshot():
    return (list(Section.objects.values_list("book__slug", "sid", "position", "changed")),
            list(SectionText.objects.order_by("pk").values_list("section__sid", "language", "title", "body")),
            Reference.objects.count(), list(Book.objects.values_list("slug", "fixture_digest")))


def test_the_loaded_corpus_is_whole():
    assert Section.objects.filter(book__slug="mpbs").count() == 39
    assert Section.objects.filter(book__slug="t9a").count() == 14
    nine = Section.objects.get(book__slug="mpbs", sid="9")
    assert nine.absent and nine.parent is None
    assert Section.objects.get(book__slug="mpbs", sid="9.3.1").parent.sid == "9.3"
    assert Section.objects.get(book__slug="t9a", sid="hold").parent.sid == "charge-reactions"
    # every section with text in the source has its English translation
    assert not Section.objects.filter(absent=False).exclude(texts__language="en").exists()


def test_references_are_stored_with_their_targets():
    refs = Reference.objects.filter(source__sid="9.2.1", language="ru")
    assert [(r.anchor, r.target.sid) for r in refs] == [("9.2.2", "9.2.2"), ("9.2.4", "9.2.4")]
    dead_zone = Reference.objects.get(source__sid="9.3.1", language="en", target_sid="10.9.3b")
    assert dead_zone.target is None  # not in the corpus: kept, shown as such
    page = Reference.objects.filter(source__sid="pursuit-pivot", language="ru", kind="page").first()
    assert page.target.sid == "pursuing-off-the-board"


def test_load_is_idempotent(corpus_copy):
    before = snapshot()
    report = load_corpus()
    assert sorted(report.unchanged) == ["mpbs", "t9a"]
    load_corpus(force=True)
    after = snapshot()
    assert before[0] == after[0] and before[2] == after[2] and before[3] == after[3]
    assert [t[1:] for t in before[1]] == [t[1:] for t in after[1]]


def test_load_then_dump_gives_byte_identical_files(corpus_copy):
    originals = {p.relative_to(corpus_copy): p.read_bytes() for p in corpus_copy.rglob("*") if p.is_file()}
    for p in corpus_copy.rglob("*.md"):
        p.unlink()
    (corpus_copy / "mpbs" / "errata.toml").unlink()
    dump_corpus(corpus_copy)
    dumped = {p.relative_to(corpus_copy): p.read_bytes() for p in corpus_copy.rglob("*") if p.is_file()}
    assert dumped.keys() == originals.keys()
    for name in originals:
        assert dumped[name] == originals[name], name


def break_file(corpus, relative, old, new):
    path = corpus / relative
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize("relative, old, new, message", [
    ("mpbs/ru/9.md", "### Способность {#9.3.1}", "### Способность {#9.3.2}", "duplicate id '9.3.2'"),
    ("mpbs/ru/9.md", "### Способность {#9.3.1}", "### Способность {#9.4.1}", "unknown parent"),
    ("mpbs/ru/9.md", "### Способность {#9.3.1}", "#### Способность {#9.3.1}", "unknown parent"),
    ("mpbs/ru/9.md", "### Способность {#9.3.1}", "### Способность #9.3.1", "malformed heading"),
    ("mpbs/ru/9.md", "### Способность {#9.3.1}", "### Способность {#9..3}", "malformed id"),
    ("mpbs/ru/9.md", "### Способность {#9.3.1}", "### Способность {#9.3.1 .bold}", "unknown flag .bold"),
    ("mpbs/en/9.md", "### Eligibility {#9.3.1", "### Extra {#9.3.99}\n\nText.\n\n### Eligibility {#9.3.1",
     "section '9.3.99' is not in the source (ru) text"),
    ("mpbs/ru/9.md", "# Ответные действия {#9 .absent}\n", "# Ответные действия {#9 .absent}\n\nТекст.\n",
     "marked .absent but has text"),
    ("t9a/book.toml", 'chapters = ["charge-phase", "XIII"]', 'chapters = ["charge-phase"]', "file not listed"),
    ("t9a/book.toml", 'slug = "t9a"', 'slug = "t9a', "invalid TOML"),
])
def test_bad_files_are_rejected_with_file_and_line_and_nothing_changes(corpus_copy, relative, old, new, message):
    before = snapshot()
    path = break_file(corpus_copy, relative, old, new)
    with pytest.raises(CommandError) as excinfo:
        call_command("loadrules", "--force")
    text = str(excinfo.value)
    assert message in text
    assert text.startswith(str(path.parent if relative.endswith("book.toml") and "listed" in message else path)) or \
        str(path.parent) in text
    assert "Nothing was loaded" in text
    assert snapshot() == before


def test_error_names_the_line(tmp_path):
    path = tmp_path / "x.md"
    path.write_text("# Глава {#5}\n\nТекст.\n\n## Без id\n", encoding="utf-8")
    with pytest.raises(CorpusError) as excinfo:
        parse_file(path)
    assert str(excinfo.value) == f"{path}:5: malformed heading '## Без id': expected '## Title {{#id}}'"


def test_a_failure_in_the_second_book_loads_neither(corpus_copy):
    """All books are validated before any is written: a broken t9a leaves a changed mpbs unloaded too."""
    break_file(corpus_copy, "mpbs/en/9.md", "### Eligibility", "### Eligibility (edited)")
    break_file(corpus_copy, "t9a/ru/XIII.md", "#### Поворот {#pursuit-pivot}", "#### Поворот {#pursuit-pivot")
    before = snapshot()
    with pytest.raises(CorpusError):
        load_corpus()
    assert snapshot() == before


def test_read_book_reports_non_utf8(corpus_copy):
    (corpus_copy / "mpbs" / "ru" / "5.md").write_bytes("# Глава {#5 .absent}\n".encode("cp1251"))
    with pytest.raises(CorpusError, match="not UTF-8"):
        read_book(corpus_copy / "mpbs")
