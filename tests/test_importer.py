"""The importer on each seed: what it finds, what it drops, what it corrects; and that the committed corpus is
exactly what importing the sources gives."""
import filecmp
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from rulesref.reference.importer import ImportConfig, import_text, normalise_number, sentence_case, slugify

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
    assert slugify("Преследование за край стола") == "presledovanie-za-krai-stola"


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
