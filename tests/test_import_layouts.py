"""Importing numbered rules texts of many layouts (issue 29): tests/texts/layouts/ holds our own short texts, each
written in the layout of a real public rulebook or regulation (an article and its numbered paragraphs, numbers alone
on their line or glued to the title, Russian статьи and регламенты, Rule/Art./LAW headings, lettered sections,
hundreds with lettered subrules, Markdown headings without numbers, a PDF extraction with running headers and a
page number, SPI's bracketed decimal cases, Roman chapters). Every section a text numbers is imported, typing each
printed number into the book's search reaches its section, a line that merely begins with a number is never made a
section, --dry-run prints the tree and writes nothing, and a hint corrects a wrong guess and is kept."""
import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rulesref.reference.corpus import read_book
from rulesref.reference.importing import ImportConfig, import_text

LAYOUTS = Path(__file__).resolve().parent / "texts" / "layouts"

# text -> the ids of its sections, and the numbers as printed that must reach each (typed into search)
EXPECTED = {
    "articles-colon.en.txt": (["1", "1.1", "1.2", "1.2.1", "2", "2.1", "2.2"],
                              {"Article 1": "1", "1.2.1": "1.2.1", "Article 2": "2", "2.2": "2.2"}),
    "number-alone.en.txt": (["1", "1.1", "1.2", "2", "2.1"], {"Article 1": "1", "1.2": "1.2", "2.1": "2.1"}),
    "glued-labels.en.txt": (["1", "1.1", "1.2", "1.3"], {"1.1.": "1.1", "1.3": "1.3"}),
    "statya.ru.txt": (["1", "1.1", "1.2", "1.2.1", "2", "2.1"],
                      {"Статья 1": "1", "1.2.1.": "1.2.1", "Статья 2": "2", "2.1.": "2.1"}),
    "reglament.ru.txt": (["1", "1.1", "1.2", "2", "2.1", "2.2"], {"1.": "1", "1.2.": "1.2", "2.2.": "2.2"}),
    "rule-dash.en.txt": (["1", "1.1", "1.2", "2", "2.1"],
                         {"Rule 1": "1", "1.1": "1.1", "1.2a": "1.2", "1.2b": "1.2", "Rule 2": "2", "2.1": "2.1"}),
    "art-abbrev.en.txt": (["1", "1.1", "1.2", "2", "2.1"], {"Art. 1": "1", "1.2.": "1.2", "Art. 2": "2"}),
    "law-letters.en.txt": (["1", "1.A", "1.B", "2", "3"], {"LAW 1": "1", "Law 1.A": "1.A", "1.B": "1.B", "LAW 3": "3"}),
    "law-alone.en.txt": (["1", "2"], {"LAW 1": "1", "Law 2": "2"}),
    "deep-numbers.en.txt": (["1", "1.1", "1.2", "1.2.1", "1.2.2", "2", "2.1"],
                            {"1.": "1", "1.2.1.": "1.2.1", "1.2.2": "1.2.2", "2.1.": "2.1"}),
    "hundreds.en.txt": (["100", "100.1", "100.2", "101", "101.1"],
                        {"100.": "100", "100.1a": "100.1", "100.1b": "100.1", "101.1.": "101.1"}),
    "markdown-headings.en.txt": (["skirmish-rules", "setting-up", "the-turn", "actions"], {}),
    "pdf-furniture.en.txt": (["3", "3.1", "3.2", "3.3", "3.4"], {"3.0": "3", "3.2": "3.2", "3.4": "3.4"}),
    "bracket-cases.en.txt": (["5", "5.1", "5.11", "5.2"], {"[5.0]": "5", "[5.11]": "5.11", "5.2": "5.2"}),
    "roman-chapters.en.txt": (["I", "I.1", "I.2", "II", "II.1"], {"I.1": "I.1", "II": "II", "II.1": "II.1"}),
    "razdel-punkty.ru.txt": (["I", "I.1", "I.2", "II", "II.1"], {"Раздел II": "II", "I.2": "I.2", "II.1": "II.1"}),
    "polozhenie-podpunkty.ru.txt": (["1", "1.1", "1.2", "2", "2.1", "2.2"],
                                    {"1.1а": "1.1", "1.1a": "1.1", "1.1c": "1.1", "2.1b": "2.1", "2.2.": "2.2"}),
    "lowercase-items.en.txt": (["4", "4.1", "4.2", "4.2.1", "4.3", "5", "5.1", "5.2"],
                               {"4.2": "4.2", "4.2.1": "4.2.1", "5.": "5", "5.1": "5.1", "5.2": "5.2"}),
    "pdf-glued-pages.en.txt": (["6", "6.1", "6.2", "6.3", "6.4", "6.5"], {"6.0": "6", "6.2": "6.2", "6.4": "6.4"}),
    "razdel-plain.ru.txt": (["1", "1.1", "1.2", "2", "2.1", "2.2", "2.3", "3", "3.1"],
                            {"Раздел 1": "1", "Раздел 2": "2", "1.2": "1.2", "2.3": "2.3", "Раздел 3": "3"}),
}
# a printed number that names a lettered clause -> the clause's anchor on its section's page
CLAUSES = {"1.1а": "1.1a", "1.1a": "1.1a", "1.1c": "1.1c", "2.1b": "2.1b", "1.2a": "1.2a", "1.2b": "1.2b",
           "100.1a": "100.1a", "100.1b": "100.1b"}


def language(name: str) -> str:
    return "ru" if ".ru." in name else "en"


def imported(name: str, config: ImportConfig | None = None):
    return import_text((LAYOUTS / name).read_text(encoding="utf-8"), language(name), config or ImportConfig(), name)


def test_every_layout_text_is_listed():
    assert sorted(p.name for p in LAYOUTS.glob("*.txt")) == sorted(EXPECTED)
    assert len(EXPECTED) >= 15


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_section_a_text_numbers_is_imported(name):
    result = imported(name)
    assert result.errors == []
    assert [s.id for s in result.sections] == EXPECTED[name][0]


def test_a_line_that_begins_with_a_number_but_continues_no_sequence_is_never_a_section():
    result = imported("pdf-furniture.en.txt")
    assert [(r.line, r.label) for r in result.rejected] == [(13, "2.5")]
    assert "does not continue 3.3" in result.rejected[0].reason
    assert "2.5 Miles Of Road Count As One Hex" in {s.id: s for s in result.sections}["3.3"].body
    text = "3.1 Movement\nText.\n1944 Was A Year.\n2.5 Inches Away From The Edge.\n3.2 Fire\nText.\n"
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1", "3.2"]
    assert [r.label for r in result.rejected] == ["2.5"]


def test_a_new_sequence_the_next_heading_continues_is_kept_and_a_skip_is_reported():
    result = import_text("3.1 A\nText.\nO22 EXTRA RULES\nO22.1 B\nText.\nO22.4 C\nText.\n", "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1", "O22", "O22.1", "O22.4"]
    guesses = [g.message for g in result.guesses]
    assert "O22 does not continue 3.1: a new sequence, continued by O22.1" in guesses
    assert "O22.4 follows O22.1: the numbers between are not in the text" in guesses


def test_the_page_furniture_of_a_pdf_and_a_web_page_is_dropped():
    reasons = {(d.line, d.reason) for d in imported("pdf-furniture.en.txt").dropped}
    assert reasons == {(1, "header repeated on each page"), (8, "page number"), (9, "header repeated on each page")}
    assert "at least 1 hex per turn." in {s.id: s for s in imported("pdf-furniture.en.txt").sections}["3.2"].body
    web = {(d.line, d.reason) for d in imported("razdel-punkty.ru.txt").dropped}
    assert web == {(1, "web page chrome"), (10, "web page chrome")}


def test_cyrillic_clause_labels_under_a_numbered_item_are_its_lettered_clauses():
    """«а)», «б)», «в)» (and «(а)») under 1.1 are its clauses a), b), c), as 3.1a is; a wrapped clause is one."""
    sections = {s.id: s for s in imported("polozhenie-podpunkty.ru.txt").sections}
    assert [b[:3] for b in sections["1.1"].blocks[1:]] == ["a) ", "b) ", "c) "]
    assert sections["1.1"].blocks[2] == "b) выявления сильнейших спортсменов для включения в сборную команду;"
    assert [b[:3] for b in sections["2.1"].blocks[1:]] == ["a) ", "b) "]
    result = import_text("1.1 Порядок\nТекст.\nв) не с начала списка;\nа) первый;\nв) не по порядку.\n", "ru",
                         ImportConfig())
    assert result.sections[0].blocks == ["Текст.", "в) не с начала списка;", "a) первый;", "в) не по порядку."]
    latin = import_text("1.1 Порядок\nТекст:\na) первый, который\nпродолжен;\nb) второй.\n", "ru", ImportConfig())
    assert latin.sections[0].blocks == ["Текст:", "a) первый, который продолжен;", "b) второй."]


def test_a_text_without_numbers_imports_by_its_markdown_headings():
    sections = {s.id: s for s in imported("markdown-headings.en.txt").sections}
    assert sections["actions"].parent == "the-turn" and sections["setting-up"].parent == "skirmish-rules"
    assert sections["the-turn"].blocks[1:] == ["1. Move: up to six inches.", "2. Shoot: at one visible enemy."]


def test_a_text_without_numbers_or_headings_says_why_and_a_hint_corrects_a_wrong_guess():
    text = "Параграф 1 Общие положения\nТекст первый.\nПараграф 2 Участники\nТекст второй.\n"
    refused = import_text(text, "ru", ImportConfig())
    assert refused.sections == [] and "give an example of a heading with --hint" in refused.errors[0].message
    assert [s.id for s in import_text(text, "ru", ImportConfig(hint="Параграф")).sections] == ["1", "2"]
    listed = "1.1 Раздел\nТекст.\n1. Цели\nТекст.\n2. Задачи\nТекст.\n"
    assert [s.id for s in import_text(listed, "ru", ImportConfig()).sections] == ["1.1"]


# ---------------------------------------------------------------- the command, the book, its search


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def slug(name: str) -> str:
    return "l-" + name.split(".")[0]


@pytest.fixture
def layout_books(corpus_copy):
    for name in EXPECTED:
        run("addbook", slug(name), "--source", language(name), "--title", name)
    return corpus_copy


@pytest.mark.django_db
def test_dry_run_prints_the_tree_and_the_rejected_labels_and_writes_nothing(layout_books):
    before = tree(layout_books.parent)
    for name in EXPECTED:
        out, _ = run("importtext", slug(name), language(name), str(LAYOUTS / name), "--dry-run")
        assert "outline:" in out and out.rstrip().endswith("dry run: nothing was written"), name
    assert tree(layout_books.parent) == before
    out, _ = run("importtext", slug("pdf-furniture.en.txt"), "en", str(LAYOUTS / "pdf-furniture.en.txt"), "--dry-run")
    assert "  3  Movement  [new chapter]\n    3.1  Movement Allowance  [1 paragraph]" in out
    assert "sections per level: level 1: 1, level 2: 4" in out
    assert "rejected labels (1):\n  " in out and "pdf-furniture.en.txt:13: 2.5: does not continue 3.3" in out
    assert "page numbers glued" not in out
    out, _ = run("importtext", slug("pdf-glued-pages.en.txt"), "en", str(LAYOUTS / "pdf-glued-pages.en.txt"),
                 "--dry-run")
    assert "\n    6.2  Resolving Combat  [1 paragraph]\n" in out
    assert "page numbers glued to labels (2):\n  " in out
    assert "pdf-glued-pages.en.txt:6: 176.2 read as 6.2 (page number 17 dropped)" in out
    assert "pdf-glued-pages.en.txt:10: 186.4 read as 6.4 (page number 18 dropped)" in out


@pytest.mark.django_db
def test_a_hint_is_kept_for_reimports(layout_books, tmp_path):
    paste = tmp_path / "paragraphs.txt"
    paste.write_text("Параграф 1 Общие положения\nТекст первый.\nПараграф 2 Участники\nТекст второй.\n",
                     encoding="utf-8")
    run("addbook", "paragraphs", "--source", "ru", "--title", "Параграфы")
    with pytest.raises(CommandError, match="give an example of a heading with --hint"):
        run("importtext", "paragraphs", "ru", str(paste))
    out, _ = run("importtext", "paragraphs", "ru", str(paste), "--hint", "Параграф")
    config = layout_books.parent / "sources" / "paragraphs" / "import.toml"
    assert 'hint = "Параграф"' in config.read_text(encoding="utf-8")
    first = tree(layout_books / "paragraphs")
    run("importtext", "paragraphs", "ru", str(paste))  # the kept hint reads the text the same way
    assert tree(layout_books / "paragraphs") == first
    assert [s.id for s in read_book(layout_books / "paragraphs").sections()] == ["1", "2"]


@pytest.mark.django_db
def test_typing_each_printed_number_into_the_search_reaches_its_section(client, layout_books):
    for name in EXPECTED:
        run("importtext", slug(name), language(name), str(LAYOUTS / name))
    run("loadrules")
    for name, (_, printed) in EXPECTED.items():
        for query, sid in printed.items():
            response = client.get("/en/search/", {"q": query, "book": slug(name)})
            assert response.status_code == 302, (name, query)
            assert response["Location"].startswith(f"/en/rules/{slug(name)}/{sid}/"), (name, query, response["Location"])
            if query in CLAUSES:  # a lettered clause: its anchor, on the section's page in either language
                assert response["Location"].endswith(f"#{CLAUSES[query]}"), (name, query, response["Location"])
                page = client.get(response["Location"].split("#")[0].replace("/en/", f"/{language(name)}/"))
                assert f'id="{CLAUSES[query]}"' in page.content.decode(), (name, query)
