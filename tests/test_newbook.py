"""A new rulebook without code (issue 14): addbook, importtext of a text as pasted, loadrules, and then the book
serves, links and searches like the seeds' books — for a Russian-source book (tests/texts/rubezh.*) and an
English-source one (tests/texts/ashfield.*). Every command that refuses writes nothing."""
import io
import re
import shlex
import shutil
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from rulesref.checker.links import section_links
from rulesref.reference.corpus import parse_table, read_book
from rulesref.reference.importing import ImportConfig, import_text
from rulesref.reference.index import invalidate
from rulesref.reference.loading import dump_corpus, load_corpus
from rulesref.reference.models import Book, Reference, Section

ROOT = Path(__file__).resolve().parent.parent
TEXTS = ROOT / "tests" / "texts"
pytestmark = pytest.mark.django_db


def run(*args, **options):
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def fixtures(corpus_copy):
    """A fresh copy of fixtures/ (as on a clean clone), with settings pointing at it."""
    return corpus_copy.parent


def add_rubezh(fixtures, config=None):
    run("addbook", "rubezh", "--source", "ru", "--title", "Рубеж: правила игры", "--title-other",
        "Frontier: Rules of Play")
    extra = ["--config", str(config)] if config else []
    return run("importtext", "rubezh", "ru", str(TEXTS / "rubezh.ru.txt"), *extra)


def add_ashfield(fixtures):
    run("addbook", "ashfield", "--source", "en", "--title", "Ashfield: Skirmish Rules")
    return run("importtext", "ashfield", "en", str(TEXTS / "ashfield.en.txt"))


# ---------------------------------------------------------------- addbook


def test_addbook_creates_what_importing_needs(fixtures):
    out, _ = run("addbook", "rubezh", "--source", "ru", "--title", "Рубеж: правила игры")
    meta = (fixtures / "corpus" / "rubezh" / "book.toml").read_text(encoding="utf-8")
    assert 'slug = "rubezh"\nsource_language = "ru"\nposition = 3\nchapters = []\nkind = "none"\n' in meta
    assert '[title]\nru = "Рубеж: правила игры"\n' in meta and "\nen = " not in meta
    doc = read_book(fixtures / "corpus" / "rubezh")
    assert doc.chapters == [] and doc.languages == {}
    assert (fixtures / "sources" / "rubezh" / "import.toml").exists()
    assert "importtext rubezh ru" in out


@pytest.mark.parametrize("args, message", [
    (["Bad_Slug", "--source", "ru", "--title", "X"], "'Bad_Slug': not a usable slug"),
    (["../evil", "--source", "ru", "--title", "X"], "not a usable slug"),
    (["errata", "--source", "ru", "--title", "X"], "not a usable slug"),
    (["mpbs", "--source", "ru", "--title", "X"], "the slug 'mpbs' is taken"),
    (["nova", "--source", "de", "--title", "X"], "--source 'de': the language of the original is one of ru, en"),
    (["nova", "--source", "en", "--title", "X", "--kind", "wargame"], "--kind 'wargame': one of none, hex, tabletop"),
    (["nova", "--source", "en", "--title", "   "], "--title: the title is empty"),
    (["nova", "--source", "en", "--title", "A\x00B"], "the title holds the character U+0000"),
    (["nova", "--source", "en", "--title", "\ud800"], "the title holds the character U+D800"),
    (["nova", "--source", "en", "--title", "x" * 201], "a title is at most 200"),
])
def test_addbook_refuses_with_a_clear_message_and_writes_nothing(fixtures, args, message):
    before = tree(fixtures)
    with pytest.raises(CommandError) as excinfo:
        run("addbook", *args)
    assert message in str(excinfo.value) and "nothing was written" in str(excinfo.value)
    assert tree(fixtures) == before


def test_a_title_is_written_as_toml_whatever_it_holds(fixtures):
    title = 'Rules "Quoted" \\ and # not a comment'
    run("addbook", "nova", "--source", "en", "--title", title, "--kind", "tabletop")
    doc = read_book(fixtures / "corpus" / "nova")
    assert doc.title == {"en": title} and doc.meta["kind"] == "tabletop"


# ---------------------------------------------------------------- importtext


def test_importtext_adds_the_chapters_it_finds_to_book_toml(fixtures):
    out, err = add_rubezh(fixtures)
    doc = read_book(fixtures / "corpus" / "rubezh")
    assert doc.chapters == ["1", "2", "3", "4", "O22"]
    assert "new chapters 1, 2, 3, 4, O22 (added to book.toml)" in out
    assert sorted(p.name for p in (fixtures / "corpus" / "rubezh" / "ru").iterdir()) == [
        "1.md", "2.md", "3.md", "4.md", "O22.md"]
    assert "rubezh.ru.txt:19: dropped (page number): — 1 —" in out
    assert "rubezh.ru.txt:1: not placed (text before the first heading" in out
    assert "rubezh.ru.txt:73: guess: unnumbered heading 'Марш по дороге'" in out
    table = next(b for s in doc.sections() if s.id == "2.2" for b in s.blocks if b.startswith("| "))
    assert parse_table(table)[0] == ["Ландшафт", "Стоимость (ПД)", "Эффект"]


def test_dry_run_prints_the_outline_and_writes_nothing(fixtures):
    run("addbook", "rubezh", "--source", "ru", "--title", "Рубеж")
    before = tree(fixtures)
    out, _ = run("importtext", "rubezh", "ru", str(TEXTS / "rubezh.ru.txt"), "--dry-run")
    assert tree(fixtures) == before
    outline = out[out.index("outline:"):].splitlines()
    assert outline[1:4] == ["  1  Введение  [new chapter; 1 paragraph]", "    1.1  Состав игры  [1 paragraph]",
                            "    1.2  Термины  [1 paragraph]"]
    assert "    2.2  Ландшафт  [3 paragraphs; 1 table]" in outline
    assert "        marsh-po-doroge  Марш по дороге  [1 paragraph]" in outline
    assert "    3.4  Движение через реки и броды  [changed; 1 paragraph]" in outline
    assert "  O22  Дополнительные правила  [new chapter]" in outline
    assert out.rstrip().endswith("dry run: nothing was written")


@pytest.mark.parametrize("content, message", [
    (b"", "the file is empty"),
    (b"\x00\x01\x02binary\x00", "a binary file"),
    ("3.1 Движение".encode("cp1251"), "not UTF-8 text"),
    ("Текст без единого номера.\nИ ещё абзац.\n".encode(), "no line starts with a rule number"),
    ("3.1 Движение\nТекст.\n3.1 Огонь\nТекст.\n".encode(), "paste.txt:3: number 3.1 repeated: its heading is on "
                                                           "line 1 too"),
])
def test_a_broken_text_gets_a_clear_report_and_writes_nothing(fixtures, tmp_path, content, message):
    run("addbook", "rubezh", "--source", "ru", "--title", "Рубеж")
    paste = tmp_path / "paste.txt"
    paste.write_bytes(content)
    before = tree(fixtures)
    with pytest.raises(CommandError) as excinfo:
        run("importtext", "rubezh", "ru", str(paste))
    assert message in str(excinfo.value)
    assert tree(fixtures) == before


def test_importtext_refuses_an_unknown_book_or_a_missing_file(fixtures, tmp_path):
    with pytest.raises(CommandError, match="unknown rulebook 'nova' \\(create it with `manage.py addbook nova"):
        run("importtext", "nova", "ru", str(TEXTS / "rubezh.ru.txt"))
    with pytest.raises(CommandError, match="not a rulebook slug"):
        run("importtext", "../mpbs", "ru", str(TEXTS / "rubezh.ru.txt"))
    with pytest.raises(CommandError, match="no such file"):
        run("importtext", "mpbs", "ru", str(tmp_path / "missing.txt"))


OVERRIDES = """
[[heading]]
match = ["Марш по дороге", "Road March"]
id = "road-march"
parent = "3.2"
title = { ru = "Марш по дорогам" }

[[junk]]
match = ["Главная / Правила / Рубеж"]

[outline."4"]
en = "Combat"

[[erratum]]
wrong = "противнка"
right = "противника"
note = "пропущена буква"
"""


def test_the_configuration_overrides_guesses_and_a_reimport_keeps_them(fixtures, tmp_path):
    config = tmp_path / "import.toml"
    config.write_text(OVERRIDES, encoding="utf-8")
    out, _ = add_rubezh(fixtures, config)
    assert "guess: unnumbered heading" not in out
    assert "rubezh.ru.txt:1: dropped (named as junk in the import configuration)" in out
    doc = read_book(fixtures / "corpus" / "rubezh")
    road = doc.by_id("ru")["road-march"]
    assert road.parent == "3.2" and road.title == "Марш по дорогам"
    assert "rubezh.ru.txt: corrected in 3.1: противнка -> противника" in out
    assert "занятый подразделением противника." in doc.by_id("ru")["3.1"].body
    assert doc.errata == [dict(section="3.1", lang="ru", wrong="противнка", right="противника",
                               note="пропущена буква")]
    first = tree(fixtures)
    run("importtext", "rubezh", "ru", str(TEXTS / "rubezh.ru.txt"), "--config", str(config))
    assert tree(fixtures) == first  # the same text and configuration give the same bytes, book.toml included
    _, err = run("importtext", "rubezh", "en", str(TEXTS / "rubezh.en.txt"), "--config", str(config))
    assert read_book(fixtures / "corpus" / "rubezh").by_id("en")["road-march"].title == "Road March"


@pytest.mark.parametrize("config, message", [
    ('[[heading]]\nmatch = ["Марш по дороге"]\nid = "Road March"\n', "[[heading]] entry 1: id must be a section id"),
    ('[[heading]]\nmatch = ["Марш"]\nparnet = "3.2"\n', "[[heading]] entry 1: unknown key 'parnet'"),
    ('[[heading]]\nid = "road"\n', "[[heading]] entry 1: match is required"),
    ('[[table]]\nmatch = "Ландшафт"\ncolumns = "three"\n', "[[table]] entry 1: columns must be a whole number"),
    ('[outline."3"]\nru = 3\n', "[outline.'3']: ru must be text in quotes"),
    ('[[heading]\n', "invalid TOML"),
    ('[headings]\nx = 1\n', "unknown table 'headings'"),
])
def test_a_bad_import_configuration_is_refused_with_the_entry_and_writes_nothing(fixtures, tmp_path, config,
                                                                                  message):
    run("addbook", "rubezh", "--source", "ru", "--title", "Рубеж")
    path = tmp_path / "import.toml"
    path.write_text(config, encoding="utf-8")
    before = tree(fixtures)
    with pytest.raises(CommandError) as excinfo:
        run("importtext", "rubezh", "ru", str(TEXTS / "rubezh.ru.txt"), "--config", str(path))
    assert str(excinfo.value).startswith(f"{path}: ") and message in str(excinfo.value)
    assert tree(fixtures) == before


def test_more_overrides_text_junk_and_tables():
    text = "3.1 Ландшафт\nЛандшафт\nСтоимость\nЛес\n2\nБолото\n3\nРека\n4\nКОЛОНТИТУЛ\nКонец раздела.\n"
    guessed = import_text(text, "ru", ImportConfig())
    assert guessed.sections[0].blocks[0].startswith("| Ландшафт | Стоимость |")
    config = ImportConfig(tables=[{"match": "Ландшафт", "columns": 0}], junk_lines=["КОЛОНТИТУЛ"],
                          text_lines=["Конец раздела."])
    overridden = import_text(text, "ru", config)
    assert overridden.sections[0].blocks[:3] == ["Ландшафт", "Стоимость", "Лес"]
    assert "КОЛОНТИТУЛ" not in overridden.sections[0].body
    forced = import_text("7.1 Таблица\nA\nB\nC\nD\nE\nF\nИтог.\n", "ru",
                         ImportConfig(tables=[{"match": "A", "columns": 2}]))
    assert parse_table(forced.sections[0].blocks[0]) == (["A", "B"], [["C", "D"], ["E", "F"]])


def test_a_section_the_text_no_longer_has_is_kept_and_reported(fixtures, tmp_path):
    add_rubezh(fixtures)
    shorter = tmp_path / "rubezh.txt"
    text = (TEXTS / "rubezh.ru.txt").read_text(encoding="utf-8")
    shorter.write_text(text.replace("3.3 Групповое движение\n", "").replace("Два или три подразделения", "Два"),
                       encoding="utf-8")
    _, err = run("importtext", "rubezh", "ru", str(shorter))
    assert "warning: section 3.3 (3.md:" in err and "is not in this text; it is kept" in err
    assert "3.3" in read_book(fixtures / "corpus" / "rubezh").by_id("ru")


# ---------------------------------------------------------------- translations


def test_a_translation_takes_the_source_ids_even_for_unnumbered_headings(fixtures):
    add_rubezh(fixtures)
    out, err = run("importtext", "rubezh", "en", str(TEXTS / "rubezh.en.txt"))
    assert "unnumbered heading 'Road March' takes the id 'marsh-po-doroge' of the source's heading" in out
    doc = read_book(fixtures / "corpus" / "rubezh")
    assert [s.id for s in doc.sections("en")] == ["1", "1.1", "1.2", "1.3", "3", "3.1", "3.2", "3.2.1", "3.2.2",
                                                  "marsh-po-doroge"]
    for section in doc.sections("en"):  # block by block with the source
        assert len(section.blocks) == len(doc.by_id("ru")[section.id].blocks), section.id
    assert "paragraphs here and" not in err


def test_a_translation_typed_with_cyrillic_prefixes_lands_on_the_latin_ids(fixtures):
    add_ashfield(fixtures)
    run("importtext", "ashfield", "ru", str(TEXTS / "ashfield.ru.txt"))
    ru = read_book(fixtures / "corpus" / "ashfield").by_id("ru")
    assert list(ru) == ["A", "A.1", "A.2", "A.3", "A.3.1", "B", "B.1", "B.2"]
    assert ru["A.3.1"].blocks[0].startswith("a) Оба игрока") and ru["A.3.1"].blocks[4].startswith("e) Огневая")
    assert ru["A"].title == "Общие правила" and ru["A.1"].attrs["src"]


def test_a_translation_that_does_not_pair_with_the_source_is_warned_or_refused(fixtures, tmp_path):
    add_rubezh(fixtures)
    text = (TEXTS / "rubezh.en.txt").read_text(encoding="utf-8")
    short = tmp_path / "short.txt"
    short.write_text(text.replace("• Active player — the player whose turn it is.\n", "").replace(
        "1.1 Game components\n", "1.1 Game components\nAn extra paragraph.\n"), encoding="utf-8")
    _, err = run("importtext", "rubezh", "en", str(short))
    assert "warning: section 1.1 has 2 paragraphs here and 1 in the source" in err
    stray = tmp_path / "stray.txt"
    stray.write_text("3.1 General movement rules\nText.\nAn Unknown Heading\nText.\n9.9 Nowhere\nText.\n",
                     encoding="utf-8")
    before = tree(fixtures)
    with pytest.raises(CommandError) as excinfo:
        run("importtext", "rubezh", "en", str(stray))
    assert "unnumbered heading 'An Unknown Heading' has no counterpart in the source text under 3.1" in \
        str(excinfo.value)
    assert tree(fixtures) == before
    stray.write_text("9.9 Nowhere\nText.\n", encoding="utf-8")
    with pytest.raises(CommandError, match=r"sections \['9', '9.9'\] are not in the source text"):
        run("importtext", "rubezh", "en", str(stray))
    assert tree(fixtures) == before


def test_a_translation_needs_its_source_first(fixtures):
    run("addbook", "ashfield", "--source", "en", "--title", "Ashfield")
    with pytest.raises(CommandError, match="ashfield is translated from en; import the en text first"):
        run("importtext", "ashfield", "ru", str(TEXTS / "ashfield.ru.txt"))


# ---------------------------------------------------------------- the whole way: import, load, serve, link, search


@pytest.fixture
def loaded(fixtures):
    add_rubezh(fixtures)
    run("importtext", "rubezh", "en", str(TEXTS / "rubezh.en.txt"))
    add_ashfield(fixtures)
    run("importtext", "ashfield", "ru", str(TEXTS / "ashfield.ru.txt"))
    out, _ = run("loadrules")
    assert "rubezh: loaded 22 sections" in out and "ashfield: loaded 17 sections" in out
    return fixtures


def test_the_new_books_load_whole(loaded):
    rubezh, ashfield = Book.objects.get(slug="rubezh"), Book.objects.get(slug="ashfield")
    assert (rubezh.source_language, rubezh.kind, rubezh.title_en) == ("ru", "none", "Frontier: Rules of Play")
    assert (ashfield.source_language, ashfield.title_ru) == ("en", "Ashfield: Skirmish Rules")
    assert Section.objects.get(book=rubezh, sid="O22.2").parent.sid == "O22"
    assert Section.objects.get(book=ashfield, sid="XII.1.A").parent.sid == "XII.1"


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("book, sections", [
    ("rubezh", ["1", "2.1", "3.1", "3.2.1", "marsh-po-doroge", "3.4", "O22", "O22.2", "O22.3"]),
    ("ashfield", ["A", "A.3.1", "B.3", "B.4", "C.2", "XII", "XII.1.A", "XII.1.B"]),
])
def test_the_table_of_contents_lists_the_sections(client, loaded, lang, book, sections):
    html = client.get(f"/{lang}/rules/{book}/").content.decode()
    for sid in sections:
        assert f'href="/{lang}/rules/{book}/{sid}/"' in html, sid


@pytest.mark.parametrize("book, query, location", [
    ("rubezh", "1", "/ru/rules/rubezh/1/"),
    ("rubezh", "2.0", "/ru/rules/rubezh/2/"),
    ("rubezh", "2. 1", "/ru/rules/rubezh/2.1/"),
    ("rubezh", "3.2.1", "/ru/rules/rubezh/3.2.1/"),
    ("rubezh", "3.1a", "/ru/rules/rubezh/3.1/#3.1a"),
    ("rubezh", "3.1е", "/ru/rules/rubezh/3.1/#3.1e"),  # a Cyrillic е
    ("rubezh", "п. 3.1e", "/ru/rules/rubezh/3.1/#3.1e"),
    ("rubezh", "[3]", "/ru/rules/rubezh/3/"),
    ("rubezh", "О22", "/ru/rules/rubezh/O22/"),
    ("rubezh", "О22.2", "/ru/rules/rubezh/O22.2/"),  # Cyrillic О, as the text prints it
    ("rubezh", "O22.2", "/ru/rules/rubezh/O22.2/"),
    ("rubezh", "O22.3", "/ru/rules/rubezh/O22.3/"),  # typed with a Latin O
    ("rubezh", "О22.3", "/ru/rules/rubezh/O22.3/"),
    ("rubezh", "о22.1", "/ru/rules/rubezh/O22.1/"),
    ("ashfield", "A.3.1", "/ru/rules/ashfield/A.3.1/"),
    ("ashfield", "A3.1", "/ru/rules/ashfield/A.3.1/"),
    ("ashfield", "А.3.1", "/ru/rules/ashfield/A.3.1/"),  # Cyrillic А, as the translation prints it
    ("ashfield", "A.3.1e", "/ru/rules/ashfield/A.3.1/#A.3.1e"),
    ("ashfield", "B.4", "/ru/rules/ashfield/B.4/"),
    ("ashfield", "XII.1.B", "/ru/rules/ashfield/XII.1.B/"),
    ("ashfield", "xii.1.b", "/ru/rules/ashfield/XII.1.B/"),
    ("ashfield", "XII", "/ru/rules/ashfield/XII/"),
])
def test_search_goes_straight_to_the_section_for_every_number_form(client, loaded, book, query, location):
    response = client.get("/ru/search/", {"q": query, "book": book})
    assert response.status_code == 302 and response["Location"] == location


def test_search_finds_words_of_the_new_books(client, loaded):
    html = client.get("/ru/search/", {"q": "брод", "book": "rubezh"}).content.decode()
    assert 'href="/ru/rules/rubezh/3.4/"' in html
    html = client.get("/en/search/", {"q": "illumination", "book": "ashfield"}).content.decode()
    assert 'href="/en/rules/ashfield/XII.1.B/"' in html


def links(html):
    return re.findall(r'<(a|span) class="ref( ref-missing)?"(?: href="([^"]*)")?[^>]*>([^<]*)</', html)


def test_references_link_or_show_as_missing(client, loaded):
    html = client.get("/ru/rules/rubezh/1.3/").content.decode()
    assert links(html) == [("a", "", "/ru/rules/rubezh/3.2.1/", "3.2.1"), ("a", "", "/ru/rules/rubezh/3/", "3"),
                           ("span", " ref-missing", "", "13")]
    html = client.get("/ru/rules/rubezh/3.2/").content.decode()
    assert links(html) == [("a", "", "/ru/rules/rubezh/3.1/#3.1a", "3.1a"), ("a", "", "/ru/rules/rubezh/3.1/#3.1c", "3.1c")]
    html = client.get("/ru/rules/rubezh/O22.2/").content.decode()
    assert ("a", "", "/ru/rules/rubezh/O22.3/", "O22.3") in links(html)  # Latin O
    html = client.get("/ru/rules/rubezh/4.1/").content.decode()
    assert ("a", "", "/ru/rules/rubezh/O22.3/", "О22.3") in links(html)  # Cyrillic О
    html = client.get("/ru/rules/rubezh/1.2/").content.decode()
    assert ("span", " ref-missing", "", "5") in links(html)  # "см. главу 5": the book has no chapter 5
    html = client.get("/en/rules/ashfield/A.3.1/").content.decode()
    assert ("a", "", "/en/rules/ashfield/A.3.1/#A.3.1a", "A.3.1a") in links(html)
    assert ("a", "", "/en/rules/ashfield/A.3.1/#A.3.1c", "c") in links(html)  # "A.3.1a–c"
    html = client.get("/en/rules/ashfield/C.2/").content.decode()
    assert ("span", " ref-missing", "", "D.4") in links(html)
    html = client.get("/ru/rules/ashfield/A.3/").content.decode()  # the Russian text's Cyrillic В.1 and С.1
    assert ("a", "", "/ru/rules/ashfield/B.1/", "В.1") in links(html) and \
        ("a", "", "/ru/rules/ashfield/C.1/", "С.1") in links(html)
    stored = Reference.objects.filter(source__book__slug="rubezh", source__sid="3.2.1", language="ru")
    assert [(r.anchor, r.target.sid) for r in stored] == [("2.2", "2.2"), ("3.1e", "3.1")]


def test_load_then_dump_gives_the_new_books_files_back_byte_for_byte(loaded):
    corpus = loaded / "corpus"
    before = {book: tree(corpus / book) for book in ("rubezh", "ashfield")}
    for book in before:
        for path in (corpus / book).rglob("*.md"):
            path.unlink()
    dump_corpus(corpus)
    assert {book: tree(corpus / book) for book in before} == before


def test_a_section_url_with_cyrillic_letters_redirects_to_the_canonical_one(client, loaded):
    response = client.get("/ru/rules/rubezh/О22.2/")
    assert response.status_code == 301 and response["Location"] == "/ru/rules/rubezh/O22.2/"


def test_a_book_without_an_engine_shows_no_checker_links(client, loaded):
    for folder in ("scenarios", "tables"):  # the examples the checker links to, for the book that has an engine
        shutil.copytree(ROOT / "fixtures" / folder, loaded / folder)
    assert section_links("rubezh", "3.1", "ru") == [] and section_links("ashfield", "B.1", "en") == []
    for url in ("/ru/rules/rubezh/3.1/", "/en/rules/ashfield/B.1/"):
        assert "checker-link" not in client.get(url).content.decode()
    assert "checker-link" in client.get("/en/rules/mpbs/9.3.1/").content.decode()  # where there is an engine


def test_the_book_pattern_setting_links_and_searches_a_form_nobody_foresaw(client, fixtures, tmp_path):
    run("addbook", "nova", "--source", "en", "--title", "Nova")
    meta = fixtures / "corpus" / "nova" / "book.toml"
    meta.write_text(meta.read_text(encoding="utf-8").replace(
        "patterns = []", "patterns = ['§\\s?(?P<num>\\d+(?:-\\d+)*)']"), encoding="utf-8")
    text = tmp_path / "nova.txt"
    text.write_text("§ 4 MOVEMENT\n§ 4-1 Moving\nA unit moves as § 4-2 says.\n§ 4-2 Terrain\nSee § 4-1.\n",
                    encoding="utf-8")
    run("importtext", "nova", "en", str(text))
    assert [s.id for s in read_book(fixtures / "corpus" / "nova").sections()] == ["4", "4.1", "4.2"]
    run("loadrules")
    html = client.get("/en/rules/nova/4.2/").content.decode()
    stored = Reference.objects.filter(source__book__slug="nova", language="en")
    assert [(r.anchor, r.target.sid) for r in stored] == [("§ 4-2", "4.2"), ("§ 4-1", "4.1")]
    response = client.get("/en/search/", {"q": "§4-2", "book": "nova"})
    assert response.status_code == 302 and response["Location"] == "/en/rules/nova/4.2/"
    # The book's own form is linked in its pages as in its stored references: "See § 4-1." in 4.2 leads to 4.1.
    assert re.search(r'<a class="ref" href="/en/rules/nova/4\.1/" title="[^"]*">§ 4-1</a>', html), html
    moving = client.get("/en/rules/nova/4.1/").content.decode()
    assert re.search(r'<a class="ref" href="/en/rules/nova/4\.2/" title="[^"]*">§ 4-2</a>', moving)


def test_loadrules_after_addbook_alone_loads_an_empty_book(client, fixtures):
    run("addbook", "nova", "--source", "en", "--title", "Nova")
    out, _ = run("loadrules")
    assert "nova: loaded 0 sections" in out
    assert client.get("/en/rules/nova/").status_code == 200


def test_the_sources_import_unchanged_next_to_new_books(fixtures):
    """Adding books touches no file of the seeds' books."""
    seeds = {book: tree(fixtures / "corpus" / book) for book in ("mpbs", "t9a")}
    add_rubezh(fixtures)
    add_ashfield(fixtures)
    assert {book: tree(fixtures / "corpus" / book) for book in ("mpbs", "t9a")} == seeds


def test_the_readme_commands_add_a_rulebook(client, fixtures):
    """The "Add a rulebook" commands of the README, run as written (with a slug and a text of ours)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Add a rulebook"):]
    block = section[section.index("```sh\n") + 6:section.index("\n```", section.index("```sh"))]
    commands = [shlex.split(line) for line in block.splitlines()]
    assert [c[:3] for c in commands] == [["python", "manage.py", "addbook"], ["python", "manage.py", "importtext"],
                                         ["python", "manage.py", "importtext"], ["python", "manage.py", "loadrules"]]
    for command in commands:
        args = [{"SLUG": "ashfield", "pasted-rules.txt": str(TEXTS / "ashfield.en.txt")}.get(a, a) for a in command[2:]]
        run(*args)
    html = client.get("/ru/rules/ashfield/").content.decode()
    assert 'href="/ru/rules/ashfield/XII.1.B/"' in html


# ---------------------------------------------------------------- untrusted text in Chromium

PAYLOAD = ('<script>alert("script")</script> <img src=x onerror=alert("img")> '
           '<a href="javascript:alert(\'js\')">x</a> "><svg onload=alert("svg")>')


@pytest.mark.browser
def test_untrusted_pasted_text_and_titles_never_run(corpus_copy, site, page_factory, tmp_path):
    run("addbook", "evil", "--source", "en", "--title", f"Evil {PAYLOAD}", "--title-other", f"Злой {PAYLOAD}")
    paste = tmp_path / "evil.txt"
    paste.write_text("\n".join([
        "1. CHAPTER",
        f"1.1 Title {PAYLOAD}",
        f"Text {PAYLOAD} javascript:alert('t') see 1.2 and [9].",
        "Terrain", "Cost", "Effect", "Woods", "2", "<script>alert(1)</script>", "<img src=x onerror=alert(2)>",
        "3", "javascript:alert(3)", "Swamp", "4", '"><svg onload=alert(4)>',
        f"1.1a Clause {PAYLOAD}",
        f"1.2 Second | with a bar {PAYLOAD}",
        "Text.",
    ]) + "\n", encoding="utf-8")
    run("importtext", "evil", "en", str(paste))
    table = next(b for b in read_book(corpus_copy / "evil").by_id("en")["1.1"].blocks if b.startswith("| "))
    assert parse_table(table)[1] == [["Woods", "2", "<script>alert(1)</script>"],  # every cell kept as text
                                     ["<img src=x onerror=alert(2)>", "3", "javascript:alert(3)"],
                                     ["Swamp", "4", '"><svg onload=alert(4)>']]
    load_corpus()
    invalidate()
    page = page_factory(width=1366, height=900)
    for url in ("/en/", "/ru/", "/en/rules/evil/", "/ru/rules/evil/", "/en/rules/evil/1.1/",
                "/en/rules/evil/1.1/?view=parallel", "/ru/rules/evil/1.2/", "/en/search/?q=woods&book=evil"):
        page.goto(f"{site.url}{url}")
        assert page.locator("script:not([src])").count() == 0, url
    page.goto(f"{site.url}/en/rules/evil/1.1/")
    assert PAYLOAD in page.locator("main").inner_text()  # shown as text
    page.wait_for_timeout(200)
    assert page.dialogs == [] and page.errors == []
