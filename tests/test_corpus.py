"""Loading the corpus: validation with file:line errors, all-or-nothing loading, idempotence, and a lossless
round trip (load then dump gives byte-identical files); table blocks; book.toml of a new book."""
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rulesref.reference.corpus import (
    CorpusError,
    is_numbered,
    is_table,
    numeric_parent,
    parse_file,
    parse_table,
    read_book,
    render_table,
    valid_id,
)
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


# ---------------------------------------------------------------- tables, new books


def test_a_table_block_reads_back_what_was_written_escapes_included():
    header = ["Ландшафт", "Стоимость | ПД", "Эффект"]
    rows = [["Лес", "2", r"Dx2 \ половина"], ["Река", "", "<script>alert(1)</script>"]]
    block = render_table(header, rows)
    assert block.split("\n")[:2] == [r"| Ландшафт | Стоимость \| ПД | Эффект |", "| --- | --- | --- |"]
    assert is_table(block) and parse_table(block) == (header, rows)
    assert not is_table("| a paragraph that starts with a bar |")


@pytest.mark.parametrize("table, line, message", [
    ("| a | b |\n| --- | --- |\n| 1 |", 3, "a table row has 1 cells, the header 2"),
    ("| a | b |\n| --- |\n| 1 | 2 |", 2, "the delimiter row has 1 columns, the header 2"),
    ("| a | b |\n| --- | --- |\n| 1 | 2", 3, "a table row starts and ends with '|'"),
    ("| a | b \\|\n| --- | --- |\n| 1 | 2 |", 1, "a table row starts and ends with '|'"),
])
def test_a_malformed_table_names_its_line(tmp_path, table, line, message):
    path = tmp_path / "3.md"
    path.write_text(f"# Движение {{#3}}\n\nТекст.\n\n{table}\n", encoding="utf-8")
    with pytest.raises(CorpusError) as excinfo:
        parse_file(path)
    assert str(excinfo.value) == f"{path}:{4 + line}: malformed table: {message}"


@pytest.mark.parametrize("section_id", ["O22.3", "A.3.1", "A", "XIII.7.C", "11.2.F", "9.3.1", "O22"])
def test_prefixed_rule_numbers_are_ids_with_numbered_parents(section_id):
    assert valid_id(section_id) and is_numbered(section_id)
    assert numeric_parent("O22.3") == "O22" and numeric_parent("A.3.1") == "A.3" and numeric_parent("A.3") == "A"


def new_book(corpus, folder="nova", **meta):
    values = dict(slug=f'"{folder}"', source_language='"en"', chapters="[]", kind='"none"')
    values.update(meta)
    (corpus / folder).mkdir()
    text = "".join(f"{k} = {v}\n" for k, v in values.items()) + '\n[title]\nen = "Nova"\n'
    (corpus / folder / "book.toml").write_text(text, encoding="utf-8")
    return corpus / folder / "book.toml"


@pytest.mark.parametrize("meta, message", [
    (dict(slug='"other"'), "slug 'other' is not the folder's name 'nova'"),
    (dict(source_language='"de"'), "source_language 'de': one of ru, en"),
    (dict(kind='"hexagon"'), "kind 'hexagon': one of none, hex, tabletop"),
    (dict(chapters='["1", "1"]'), "chapters: an id is listed twice"),
    (dict(chapters='["bad id"]'), "chapters: a list of section ids"),
    (dict(numbering='{patterns = ["("]}'), "numbering.patterns: '(': not a regular expression"),
    (dict(numbering='{patterns = ["§"]}'), "has no group (?P<num>"),
])
def test_a_bad_book_toml_says_what_is_wrong(corpus_copy, meta, message):
    path = new_book(corpus_copy, **meta)
    with pytest.raises(CorpusError) as excinfo:
        read_book(path.parent)
    assert str(excinfo.value).startswith(f"{path}:0: ") and message in str(excinfo.value)


def test_a_new_book_without_text_loads_empty_and_keeps_its_settings(corpus_copy):
    new_book(corpus_copy, numbering='{patterns = ["§\\\\s?(?P<num>\\\\d+)"]}')
    load_corpus()
    book = Book.objects.get(slug="nova")
    assert book.kind == "none" and book.sections.count() == 0
    assert book.title_en == "Nova" and book.title_ru == "Nova"  # the source title stands for the other
    assert book.number_patterns == ["§\\s?(?P<num>\\d+)"]


def test_invalid_toml_names_its_line(corpus_copy):
    path = new_book(corpus_copy)
    path.write_text(path.read_text(encoding="utf-8") + 'kind = "hex\n', encoding="utf-8")
    with pytest.raises(CorpusError, match=rf"^{path}:8: invalid TOML"):  # the line it adds
        read_book(path.parent)


def test_book_kind_defaults_to_none():
    assert Book._meta.get_field("kind").default == "none"
