"""The importer on each seed: what it finds, what it drops, what it corrects; that the committed corpus is exactly
what importing the sources gives; and on the texts of new rulebooks in tests/texts/: the numbering scheme, tables,
clauses, joins and reports it infers, and the texts it refuses."""
import filecmp
import re
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from rulesref.reference.corpus import is_table, parse_table
from rulesref.reference.importing import (
    ImportConfig,
    decode_text,
    import_text,
    normalise_number,
    parse_head,
    sentence_case,
    slugify,
)

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "fixtures" / "sources"


def seed(book, prefix, lang="ru"):
    suffix = ".en.txt" if lang == "en" else ".txt"
    path = next(p for p in (SOURCES / book).glob(f"{prefix}_*{suffix}") if (lang == "en") == p.name.endswith(".en.txt"))
    config = ImportConfig.load(SOURCES / book / "import.toml")
    return import_text(path.read_text(encoding="utf-8"), lang, config, path.name)


def test_seed_000_reaction_and_interception():
    result = seed("mpbs", "000")
    ids = [s.id for s in result.sections]
    assert ids == ["9.2", "9.2.1", "9.2.2", "9.2.3", "9.2.4", "9.3", "9.3.1", "9.3.2", "9.3.3", "9.3.4", "9.3.5",
                   "9.3.6", "9.3.7"]
    by_id = {s.id: s for s in result.sections}
    assert by_id["9.2.3"].changed and by_id["9.3.3"].changed and not by_id["9.3.1"].changed
    assert by_id["9.2.1"].title == "Общее описание"
    assert by_id["9.2.4"].title == "Отход (Withdraw)"
    assert by_id["9.3.4"].title == ""  # printed without a title
    assert [b[:2] for b in by_id["9.3.1"].blocks[1:8]] == ["a)", "b)", "c)", "d)", "e)", "f)", "g)"]
    assert by_id["9.2.4"].blocks[1].count("\n- ") == 2  # the three bullets are one list
    assert by_id["9.3.7"].blocks[-1].startswith("ПРИМЕР ПЕРЕХВАТА")
    assert [(c.section, c.wrong, c.right) for c in result.corrections] == [
        ("9.2.1", "тир", "тип"),
        ("9.2.2", "в которые движущееся половина", "в которые входит движущаяся половина"),
        ("9.3.5", "также может перехватывать", "также могут перехватывать")]
    assert "тип ответного движения" in by_id["9.2.1"].body


def test_seed_001_close_combat_results():
    result = seed("mpbs", "001")
    assert [s.id for s in result.sections][:3] == ["11.4", "11.4.1", "11.4.2"]
    assert [s.id for s in result.sections][-1] == "11.4.10"
    by_id = {s.id: s for s in result.sections}
    assert by_id["11.4.3"].changed  # "> > 11. 4. 3."
    assert by_id["11.4.2"].title == "Приоритеты отступления"
    assert "ПРИМЕЧАНИЕ: Во время преследования" in by_id["11.4.1"].body
    assert {(c.section, c.wrong) for c in result.corrections} == {
        ("11.4.1", "ПРМЕЧАНИЕ"), ("11.4.3", "к ней применяется"), ("11.4.5", "оно должна"),
        ("11.4.5", "мораль подразделение"), ("11.4.5", "она неспособна"), ("11.4.6", "дольше одного")}
    assert result.dropped == []


def test_seed_002_orders_and_facing_drops_furniture():
    result = seed("mpbs", "002")
    ids = [s.id for s in result.sections]
    assert ids == ["5.7", "5.7.1", "5.7.2", "5.7.3", "5.8", "6", "6.1", "6.2", "6.2.1", "6.2.2", "6.2.3", "6.2.4"]
    by_id = {s.id: s for s in result.sections}
    assert by_id["5.7.3"].changed and by_id["6.1"].changed  # a marker before the first paragraph flags 6.1
    assert not by_id["6.1"].body.startswith(">")
    assert by_id["6.2.4"].title == "Ориентация и вражеские подразделения"
    assert "провоцируют ответный огонь" in by_id["6.2.4"].body
    reasons = [d.reason for d in result.dropped]
    assert reasons.count("line of '|' (page furniture)") == 14
    assert reasons.count("page title listing several headings") == 1


def test_seed_003_pursuit_drops_footer():
    result = seed("t9a", "003")
    ids = [s.id for s in result.sections]
    assert ids == ["XIII.7.C", "pursuit-pivot", "pursuit-straight-forward", "pursuit-board-edge", "pursuit-enemy-unit"]
    assert result.sections[0].title == "Дальность преследования и преследующие подразделения"
    assert [d.reason for d in result.dropped].count("site footer") == 2
    assert not any("Мы поможем" in s.body for s in result.sections)


def test_seed_004_charges_page_and_headings():
    result = seed("t9a", "004")
    assert [s.id for s in result.sections] == ["declaring-charges", "charge-reactions", "hold", "stand-and-shoot", "flee"]
    assert [s.page for s in result.sections] == [25, 26, 26, 26, 26]  # «Страница 25» closes page 25
    assert [d.reason for d in result.dropped] == ["page number"]


@pytest.mark.parametrize("book, prefix", [("mpbs", "000"), ("mpbs", "001"), ("mpbs", "002"), ("t9a", "003"), ("t9a", "004")])
def test_english_mirrors_the_source_block_by_block(book, prefix):
    ru = {s.id: s for s in seed(book, prefix, "ru").sections}
    en = {s.id: s for s in seed(book, prefix, "en").sections}
    assert list(ru) == list(en)
    for sid in ru:
        assert len(ru[sid].blocks) == len(en[sid].blocks), sid
        assert ru[sid].flags == en[sid].flags, sid


def test_number_normalisation_and_titles():
    assert normalise_number("11. 4. 5") == "11.4.5"
    assert normalise_number("XIII .7. C") == "XIII.7.C"
    assert sentence_case("РАЗВОРОТ (Counter March)") == "Разворот (Counter March)"
    assert sentence_case("Стоимость движения") == "Стоимость движения"
    assert slugify("Преследование за край стола") == "presledovanie-za-kray-stola"  # rulesref.text: й as y


def test_importing_the_sources_reproduces_the_committed_corpus(tmp_path, settings):
    """The corpus under fixtures/corpus is exactly what `importtext` makes of fixtures/sources."""
    corpus = tmp_path / "fixtures" / "corpus"
    for book in ("mpbs", "t9a"):
        (corpus / book).mkdir(parents=True)
        shutil.copy(ROOT / "fixtures" / "corpus" / book / "book.toml", corpus / book / "book.toml")
    settings.FIXTURES_DIR = tmp_path / "fixtures"
    for book in ("mpbs", "t9a"):
        for lang, pattern in (("ru", "0*[0-9a-f].txt"), ("en", "0*.en.txt")):
            for path in sorted((SOURCES / book).glob(pattern)):
                call_command("importtext", book, lang, str(path), stdout=open("/dev/null", "w"))
    for book in ("mpbs", "t9a"):
        comparison = filecmp.dircmp(ROOT / "fixtures" / "corpus" / book, corpus / book)
        for lang in ("ru", "en"):
            for name in sorted(p.name for p in (ROOT / "fixtures" / "corpus" / book / lang).glob("*.md")):
                expected = (ROOT / "fixtures" / "corpus" / book / lang / name).read_text(encoding="utf-8")
                assert (corpus / book / lang / name).read_text(encoding="utf-8") == expected, f"{book}/{lang}/{name}"
        assert not comparison.left_only and not comparison.right_only


# ---------------------------------------------------------------- texts of new rulebooks (tests/texts/)

TEXTS = Path(__file__).resolve().parent / "texts"


def imported(name, lang, config=None, **kwargs):
    text = (TEXTS / name).read_text(encoding="utf-8")
    return import_text(text, lang, config or ImportConfig(), name, **kwargs)


def test_russian_text_numbering_is_inferred_without_a_configuration():
    result = imported("rubezh.ru.txt", "ru")
    assert [s.id for s in result.sections] == [
        "1", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "3", "3.1", "3.2", "3.2.1", "3.2.2", "marsh-po-doroge", "3.3",
        "3.4", "4", "4.1", "4.2", "O22", "O22.1", "O22.2", "O22.3"]
    by_id = {s.id: s for s in result.sections}
    assert by_id["1"].title == "Введение" and by_id["2"].title == "Игровое поле"  # "1. ВВЕДЕНИЕ", "2.0 ИГРОВОЕ ПОЛЕ"
    assert by_id["2.1"].title == "Гексы и стороны"  # printed "2. 1"
    assert by_id["O22.2"].title == "Процедура восстановления"  # printed with a Cyrillic О
    assert by_id["O22.3"].title == "Модификаторы ближнего боя"  # printed with a Latin O
    assert by_id["marsh-po-doroge"].parent == "3.2.2" and by_id["marsh-po-doroge"].title == "Марш по дороге"
    assert result.errors == [] and result.warnings == []
    assert "prefix O (printed in Cyrillic too; the ids use the Latin O)" in result.scheme


def test_clauses_with_a_letter_suffix_become_lettered_clauses_of_their_section():
    section = {s.id: s for s in imported("rubezh.ru.txt", "ru").sections}["3.1"]
    assert [b[:3] for b in section.blocks[1:]] == ["a) ", "b) ", "c) ", "d) ", "e) "]
    assert section.blocks[1] == ("a) Игрок может перемещать свои подразделения в любом порядке, но каждое "
                                 "подразделение завершает движение до того, как начнёт двигаться следующее.")


def test_a_table_pasted_one_cell_per_line_stays_a_table():
    section = {s.id: s for s in imported("rubezh.ru.txt", "ru").sections}["2.2"]
    tables = [parse_table(b) for b in section.blocks if is_table(b)]
    assert tables == [(["Ландшафт", "Стоимость (ПД)", "Эффект"], [
        ["Открытая местность", "1", "Нет"], ["Лес", "2", "Dx2"], ["Холмы", "2", "+1 к обороне"],
        ["Болото", "3", "Dx2"], ["Река", "—", "Только через брод (3.4)"]])]
    assert section.blocks[1] == "Таблица стоимости движения"  # the caption is a paragraph, not a heading
    assert section.blocks[-1].startswith("ПРИМЕЧАНИЕ: «Dx2»")


def test_numbered_list_inside_a_section_stays_text():
    section = {s.id: s for s in imported("rubezh.ru.txt", "ru").sections}["3.2.1"]
    assert section.blocks[1:4] == ["1. Выберите подразделение.", "2. Назовите гекс назначения.",
                                   "3. Проложите путь и подсчитайте его стоимость по таблице (2.2)."]


def test_lines_the_paste_broke_are_joined_and_each_join_is_reported():
    result = imported("rubezh.ru.txt", "ru")
    by_id = {s.id: s for s in result.sections}
    assert by_id["3.4"].title == "Движение через реки и броды" and by_id["3.4"].changed  # heading on two lines, >>
    assert by_id["3.2.2"].blocks[1].startswith("ПРИМЕР: Отряд стрелков")  # "ПРИМЕР:" on a line of its own
    assert "Группа движется со скоростью" in by_id["3.3"].body  # a hard wrap
    # a sentence broken by a page break (page number, running header) and a word broken by a hyphen
    assert "6-9 — попадание. Цель в лесу" in by_id["4.2"].body
    assert "Огонь по подразделению, которое" in by_id["4.2"].body
    guesses = {g.line: g.message for g in result.guesses}
    assert guesses[70] == "the label 'ПРИМЕР:' and line 71 read as one paragraph"
    assert guesses[97] == "line 97 continues line 92"
    assert guesses[98] == "line 98 continues line 92 (a word broken by a hyphen joined)"
    assert "unnumbered heading 'Марш по дороге': id 'marsh-po-doroge' under 3.2.2" in guesses[73]
    assert guesses[29].startswith("lines 29–46 read as a table of 3 columns and 5 rows")


def test_every_dropped_and_unplaced_line_is_reported_by_number():
    result = imported("rubezh.ru.txt", "ru")
    assert [(d.line, d.reason) for d in result.dropped] == [
        (2, "line of '|' (page furniture)"), (3, "line of '|' (page furniture)"),
        (4, "header repeated on each page"), (19, "page number"), (20, "header repeated on each page"),
        (76, "page number"), (77, "header repeated on each page"), (94, "page number"),
        (95, "header repeated on each page"), (112, "site footer")]
    assert [(d.line, d.text) for d in result.unplaced] == [(1, "Главная / Правила / Рубеж")]
    kept = "\n".join(s.title + "\n" + s.body for s in result.sections)
    lines = (TEXTS / "rubezh.ru.txt").read_text(encoding="utf-8").splitlines()
    reported = {d.line for d in result.dropped + result.unplaced}
    for number, line in enumerate(lines, start=1):  # every other line's words are in the corpus
        words = [w for w in line.replace("-", " ").split() if len(w) > 3 and w.isalpha()]
        if number not in reported and words:
            assert all(w.lower() in kept.lower() or w[:-1].lower() in kept.lower() for w in words), (number, line)


def test_english_text_with_letter_prefixes_and_roman_chapters():
    result = imported("ashfield.en.txt", "en")
    assert [s.id for s in result.sections] == [
        "A", "A.1", "A.2", "A.3", "A.3.1", "B", "B.1", "B.2", "B.3", "B.4", "C", "C.1", "C.2", "XII", "XII.1",
        "XII.1.A", "XII.1.B"]
    by_id = {s.id: s for s in result.sections}
    assert by_id["B.3"].title == "Withdrawal"  # the number on a line of its own
    assert by_id["B.4"].title == "Moving through woods and rough ground"  # split over two lines, in capitals
    assert [b[:3] for b in by_id["A.3.1"].blocks[:5]] == ["a) ", "b) ", "c) ", "d) ", "e) "]
    assert by_id["B.2"].blocks[1:3] == ["a) Friendly teams may pass through each other freely.",
                                        "b) A team may not enter a hex that holds an enemy team."]
    assert [parse_table(b) for b in by_id["B.1"].blocks if is_table(b)] == [(["Terrain", "Move Cost", "Cover"], [
        ["Clear", "1", "None"], ["Woods", "2", "-1"], ["Rough", "2", "None"], ["Building", "3", "-2"]])]
    assert [parse_table(b) for b in by_id["C.1"].blocks if is_table(b)] == [(["Range", "Hit on"], [
        ["Short (1–2 hexes)", "7+"], ["Medium (3–5 hexes)", "9+"], ["Long (6–8 hexes)", "11+"]])]
    assert "FIRE TABLE" in by_id["C.1"].blocks  # a caption, not a heading
    assert "every movement point spent in woods" in by_id["XII.1"].body
    assert {d.reason for d in result.dropped} == {"header repeated on each page", "table of contents line",
                                                  "table of contents title", "page number"}
    assert result.unplaced == [] and result.errors == []


@pytest.mark.parametrize("line, number, kind", [
    ("9.2.1. ОБЩЕЕ ОПИСАНИЕ: Ответное", "9.2.1", "dotted"),
    ("11. 4. 5. ПОДРАЗДЕЛЕНИЯ", "11.4.5", "dotted"),
    ("XIII .7. C Дальность преследования", "XIII.7.C", "dotted"),
    ("ХIII.7.С Дальность", "XIII.7.C", "dotted"),  # Cyrillic Х and С
    ("О22.2 Процедура восстановления", "O22.2", "dotted"),
    ("O22.2 Процедура восстановления", "O22.2", "dotted"),
    ("A.3.1 Command Phase", "A.3.1", "dotted"),
    ("А.3.1 Фаза командования", "A.3.1", "dotted"),
    ("3.0 ДВИЖЕНИЕ", "3", "bare"),
    ("6. Ориентация и построение", "6", "bare"),
    ("О22 ДОПОЛНИТЕЛЬНЫЕ ПРАВИЛА", "O22", "prefixed"),
    ("XII. OPTIONAL RULES", "XII", "roman"),
    ("B. MOVEMENT", "B", "letter"),
    ("Глава 3. Движение", "3", "chapter"),
    ("9.3.4. A cavalry unit", "9.3.4", "dotted"),  # the capital A begins the text
])
def test_numbers_at_the_start_of_a_line(line, number, kind):
    head = parse_head(line)
    assert (head.number, head.kind) == (number, kind)


def test_a_clause_number_gives_its_section_and_letter():
    head = parse_head("3.1е Подразделение всегда может")  # a Cyrillic е
    assert (head.number, head.letter, head.rest) == ("3.1", "e", "Подразделение всегда может")


@pytest.mark.parametrize("line", ["2 гекса стоят 3 ПД.", "1.5 дюйма между подставками", "D6 бросается", "2D6 roll"])
def test_lines_that_start_with_a_number_but_are_text(line):
    result = import_text(f"1.1 Раздел\n{line}\n", "ru", ImportConfig())
    assert [s.id for s in result.sections] == ["1.1"] and result.sections[0].body == line


def test_a_run_of_short_lines_that_is_no_table_stays_text():
    text = "3.1 Ландшафт\nТипы местности:\nОткрытая\nЛес\nХолмы\nБолото\nКаждый тип описан ниже.\n"
    result = import_text(text, "ru", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1"]
    assert result.sections[0].blocks == ["Типы местности:", "Открытая", "Лес", "Холмы", "Болото",
                                         "Каждый тип описан ниже."]
    assert sum("kept as text, not as a heading" in g.message for g in result.guesses) == 4


def test_a_heading_repeated_at_the_top_of_each_page_is_dropped_once_kept():
    text = ("3.1 Движение\nПервый абзац раздела.\n— 4 —\n3.1 Движение\nВторой абзац раздела.\n— 5 —\n"
            "3.1 Движение\nТретий абзац.\n")
    result = import_text(text, "ru", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1"] and len(result.sections[0].blocks) == 3
    assert [(d.line, d.reason) for d in result.dropped] == [
        (3, "page number"), (4, "heading repeated at the top of a page"), (6, "page number"),
        (7, "heading repeated at the top of a page")]


def test_a_text_cut_short_is_reported():
    text = (TEXTS / "rubezh.ru.txt").read_text(encoding="utf-8")
    cut = text[:text.index("попадание. Цель")] + "попадание. Цель в лесу получает вдвое"
    result = import_text(cut, "ru", ImportConfig())
    [warning] = result.warnings
    assert warning.startswith("line 97: the text ends mid-sentence (") and "получает вдвое'); was the paste" in warning
    headed = import_text("3.1 Движение\nТекст.\n3.2 Огонь\n", "ru", ImportConfig())
    assert headed.warnings == ["line 3: the text ends with a heading and no text after it; was the paste cut short?"]


@pytest.mark.parametrize("text, message", [
    ("Просто текст без номеров.\nИ ещё строка.\n", "no line starts with a rule number"),
    ("3.1 Движение\nТекст.\n3.1 Снова движение\nТекст.\n", "number 3.1 repeated: its heading is on line 1 too"),
    ("3.1 Движение\n3.1a Текст.\n3.1a Ещё текст.\n", "number 3.1a repeated: it is on line 2 too"),
])
def test_a_broken_text_gets_errors(text, message):
    result = import_text(text, "ru", ImportConfig())
    assert any(message in e.message for e in result.errors), result.errors


@pytest.mark.parametrize("raw, message", [
    (b"", "the file is empty"),
    (b"\n \n\t\n", "the file is empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a binary file (a NUL byte at offset"),
    ("3.1 Движение".encode("cp1251"), "not UTF-8 text (it looks like Windows-1251"),
    ("3.1 Движение\x07".encode(), "a control character U+0007"),
])
def test_undecodable_texts_are_refused_with_the_reason(raw, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        decode_text(raw, "paste.txt")


def test_utf16_and_a_byte_order_mark_are_read():
    assert decode_text("3.1 Движение\n".encode("utf-16"), "x") == "3.1 Движение\n"
    assert decode_text("\ufeff3.1 Движение\n".encode("utf-8"), "x") == "3.1 Движение\n"


def test_a_word_broken_by_a_hyphen_is_rejoined_and_a_hyphenated_word_keeps_its_hyphen():
    result = import_text("1.1 Т\nЕсли кто-\nто войдёт в подраз-\nделение, то ничего.\n", "ru", ImportConfig())
    assert result.sections[0].body == "Если кто-то войдёт в подразделение, то ничего."
