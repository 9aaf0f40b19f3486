"""The importer's numbering decisions at their boundaries (issue 29): a line is immutable once read; which labels
continue a text's numbering (a successor, a first child), and which merely begin a line with a number."""
import io
from dataclasses import FrozenInstanceError

import pytest

from rulesref.reference.importing import ImportConfig, import_text, parse_head, slugify
from rulesref.reference.importing.lines import mark, prepare
from rulesref.reference.numbering import follows


def test_a_line_is_immutable_and_a_step_marks_a_copy():
    config = ImportConfig(errata=[{"wrong": "тир", "right": "тип"}], headings=[{"match": "Особый случай", "id": "x"}])
    lines = prepare("1.1 Первый тир\nОсобый случай\n", config, "ru")
    line = lines[0]
    with pytest.raises(FrozenInstanceError):
        line.junk = "page number"
    with pytest.raises(FrozenInstanceError):
        line.text = "other"
    with pytest.raises(AttributeError):
        line.fixed.append({"wrong": "a", "right": "b"})
    with pytest.raises(TypeError):
        line.fixed[0]["right"] = "тыр"
    with pytest.raises(TypeError):
        lines[1].configured["id"] = "y"
    assert line.text == "1.1 Первый тип" and line.fixed[0]["right"] == "тип" and lines[1].configured["id"] == "x"
    mark(lines, 0, junk="page number")
    assert lines[0].junk == "page number" and line.junk == "" and lines[0].text == line.text


def ids(text: str, lang: str = "en") -> list[str]:
    return [s.id for s in import_text(text, lang, ImportConfig()).sections]


def test_a_number_after_one_that_counts_past_nine_is_no_successor():
    """3.2 after 3.10 goes backwards (3.10 is no decimal: it would be printed 3.1); kept as text, with the reason."""
    assert follows("3.10", "3.2") is None and follows("3.9", "3.10") == "next"
    text = ("3.9 Rivers\nText.\n3.10 Bridges\nA bridge is crossed in one turn by a unit in column, which pays for it a cost of"
            "\n3.2 Points Of Movement.\n")
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.9", "3.10"]
    assert [(r.line, r.label) for r in result.rejected] == [(5, "3.2")]
    assert "does not continue 3.10" in result.rejected[0].reason


def test_a_text_that_counted_past_nine_numbers_no_cases_as_decimals():
    """SPI's decimal cases (5.1, 5.11, 5.2) read on; once a text has counted 3.9 -> 3.10, 3.11 -> 3.2 is
    backwards."""
    assert ids("5.1 A\nText.\n5.11 B\nText.\n5.2 C\nText.\n") == ["5.1", "5.11", "5.2"]
    counted = "3.9 A\nText.\n3.10 B\nText.\n3.11 C\nA unit that is disordered rolls one die at the end of the turn, and it is routed on a roll of\n3.2 Or Less.\n"
    assert ids(counted) == ["3.9", "3.10", "3.11"]


def test_a_text_that_restarts_its_numbering_keeps_the_new_sequence():
    """3.2 after 3.10 is kept where the text goes on from it (3.3): a new sequence, reported."""
    text = "3.9 A\nText.\n3.10 B\nText.\n3.2 C\nText.\n3.3 D\nText.\n"
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.9", "3.10", "3.2", "3.3"]
    assert "3.2 does not continue 3.10: a new sequence, continued by 3.3" in [g.message for g in result.guesses]


def test_a_number_followed_by_small_letters_is_an_item_when_it_continues_the_numbering():
    """3.2 after 3.1, after a sentence that ends: an item printed without a title, its sentence its text."""
    text = "3.1 Movement\nUnits move in the movement phase.\n3.2 the unit may move two hexes along a road.\n"
    result = import_text(text, "en", ImportConfig())
    assert [(s.id, s.title, s.body) for s in result.sections][1] == (
        "3.2", "", "the unit may move two hexes along a road.")
    assert result.rejected == []
    russian = "1. Общие положения\n1.1. участник обязан знать правила;\n1.1.1. судья вправе снять участника.\n"
    assert ids(russian, "ru") == ["1", "1.1", "1.1.1"]


def test_a_wrapped_line_that_begins_with_the_next_number_is_no_item():
    """The same 3.2, but the line before it stops mid-sentence: it continues that sentence."""
    text = ("3.1 Movement\nUnits move in the movement phase; a unit in column that moves on a road pays a cost of\n"
            "3.2 points for each river hex it enters.\n")
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1"]
    assert result.sections[0].blocks == ["Units move in the movement phase; a unit in column that moves on a road pays "
                                         "a cost of 3.2 points for each river hex it enters."]
    assert [(r.line, r.label) for r in result.rejected] == [(3, "3.2")]
    assert "does not end its sentence (a wrapped line)" in result.rejected[0].reason


def test_a_number_followed_by_small_letters_that_continues_nothing_is_no_item():
    """After a sentence that ends, 2.5 (a quantity) and 3.4 (a skip from 3.1) continue nothing: text."""
    text = "3.1 Movement\nText.\n2.5 inches is the reach of a lance.\n3.4 hexes is the most a unit moves.\n"
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1"]
    assert [(r.line, r.label) for r in result.rejected] == [(3, "2.5"), (4, "3.4")]
    assert all("does not continue 3.1" in r.reason for r in result.rejected)


def test_a_page_number_glued_to_a_label_is_dropped_and_reported():
    """176.2 after 6.1, then 6.3: page 17's 6.2; the page number is dropped, and said."""
    text = "6.1 Attack\nText.\n176.2 Resolving Combat\nText.\n6.3 Retreats\nText.\n"
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["6.1", "6.2", "6.3"]
    assert [(g.line, g.printed, g.number, g.page) for g in result.glued] == [(3, "176.2", "6.2", "17")]
    assert (3, "page number glued to a label", "17") in [(d.line, d.reason, d.text) for d in result.dropped]
    assert result.sections[1].title == "Resolving Combat"


def test_a_number_whose_own_reading_goes_on_is_not_read_as_glued():
    """13.2 after 3.1 is not page 1's 3.2 when 13.3 follows it (a new sequence), nor 3.12 after 3.11."""
    result = import_text("3.1 A\nText.\n13.2 B\nText.\n13.3 C\nText.\n", "en", ImportConfig())
    assert [s.id for s in result.sections] == ["3.1", "13.2", "13.3"] and result.glued == []
    assert ids("3.11 A\nText.\n3.12 B\nText.\n") == ["3.11", "3.12"]


def test_sections_introduced_by_a_word_are_the_outer_level_of_plain_numbers():
    """Section 1 / 1. / 2. / Section 2 / 1.: two numberings, the worded one outer; no id repeated."""
    text = ("Section 1 General\n1. Scope\nThese rules govern every league game.\n2. Players\nEach team fields five "
            "players.\nSection 2 Play\n1. Kick-off\nThe visiting team kicks off.\n")
    result = import_text(text, "en", ImportConfig())
    assert result.errors == []
    assert [(s.id, s.title) for s in result.sections] == [
        ("1", "General"), ("1.1", "Scope"), ("1.2", "Players"), ("2", "Play"), ("2.1", "Kick-off")]
    assert "item 1 under 2 read as 2.1" in [g.message for g in result.guesses]
    assert any("the plain numbers under each" in line for line in result.scheme)


def test_a_list_inside_an_article_stays_text():
    """Article 3's words come first and its list after them: the plain numbers stay an item list of text."""
    text = ("Article 1 Teams\nEach team has five players.\nArticle 2 Scoring\nA team scores:\n1. Two points for a goal."
            "\n2. One point for a corner.\n")
    result = import_text(text, "en", ImportConfig())
    assert [s.id for s in result.sections] == ["1", "2"]
    assert result.sections[1].blocks == ["A team scores:", "1. Two points for a goal.", "2. One point for a corner."]


def test_a_capital_that_begins_the_text_takes_no_clause_letter_with_it():
    """«2. На партию…»: Н begins the text, and its а is the word's, not clause 2a."""
    head = parse_head("2. На партию даётся не более часа.")
    assert (head.number, head.letter, head.rest) == ("2", "", "На партию даётся не более часа.")
    assert (parse_head("3.1а Первый").number, parse_head("3.1а Первый").letter) == ("3.1", "a")


# ---------------------------------------------------------------- re-import: a renamed heading keeps its row

RULES_V1 = "1. Общие положения\nЛига проводит турниры.\nПорядок игры\nИгроки ходят по очереди.\n2. Участники\nВсе.\n"
RULES_EN = "1. General\nThe league holds tournaments.\nOrder of play\nPlayers move in turn.\n2. Players\nAll.\n"


def test_a_heading_renamed_in_place_keeps_its_id_and_a_heading_moved_in_does_not():
    old = {s.id: s for s in import_text(RULES_V1, "ru", ImportConfig()).sections}
    slug = next(sid for sid in old if sid not in ("1", "2"))
    renamed = import_text(RULES_V1.replace("Порядок игры", "Порядок партии"), "ru", ImportConfig(), existing=old)
    assert [(s.id, s.title) for s in renamed.sections][1] == (slug, "Порядок партии")
    assert f"renamed, it keeps the id {slug!r}" in " ".join(g.message for g in renamed.guesses)
    inserted = RULES_V1.replace("Порядок игры", "Время партии\nЧас на партию.\nПорядок игры")
    result = import_text(inserted, "ru", ImportConfig(), existing=old)  # the old heading is still there: its own id
    assert [s.id for s in result.sections][1:3] == [slugify("Время партии"), slug]


@pytest.mark.django_db
def test_reimport_through_the_service_keeps_the_renamed_sections_row(corpus_copy, tmp_path):
    from django.core.management import call_command

    from rulesref.reference.importing.service import Request, import_file
    from rulesref.reference.loading import load_corpus
    from rulesref.reference.models import Section, TextVersion

    call_command("addbook", "league", "--source", "ru", "--title", "Лига", stdout=io.StringIO())
    book_dir = corpus_copy / "league"
    paste = tmp_path / "rules.txt"
    english = tmp_path / "rules.en.txt"
    paste.write_text(RULES_V1, encoding="utf-8")
    english.write_text(RULES_EN, encoding="utf-8")
    import_file(Request(book_dir, "ru", paste))
    import_file(Request(book_dir, "en", english))
    load_corpus(force=True)
    section = Section.objects.get(book__slug="league", sid__in=[s for s in Section.objects.filter(
        book__slug="league").values_list("sid", flat=True) if s not in ("1", "2")])
    before = (section.pk, section.sid)

    paste.write_text(RULES_V1.replace("Порядок игры", "Порядок партии"), encoding="utf-8")
    outcome = import_file(Request(book_dir, "ru", paste))
    assert not any("is not in this text" in w for w in outcome.warnings)
    load_corpus(force=True)
    after = Section.objects.get(book__slug="league", sid=before[1])
    assert after.pk == before[0]
    assert {t.language: t.title for t in after.texts.all()} == {"ru": "Порядок партии", "en": "Order of play"}
    assert list(TextVersion.objects.filter(book__slug="league", sid=before[1], language="ru")
                .order_by("since").values_list("title", flat=True)) == ["Порядок игры", "Порядок партии"]
    assert sorted(Section.objects.filter(book__slug="league").values_list("sid", flat=True)) == sorted(
        ["1", "2", before[1]])
