"""An English-source rulebook translated into Russian, end to end in the workspace (issue #14 point 4): the
dashboard, the editor, each QA check in that direction (numbers and number words, references, glossary terms with
Russian inflection in the target), PO, XLIFF 2.0 and 1.2 and TMX exchange, the translation memory, the parallel
view, and Russian plural rules in the target.

The book is a small original one in the corpus format (tests/translation_data/enbook): four sections, two of them
translated into Russian. The oracles are its own texts and Russian grammar."""
from __future__ import annotations

import gettext
import io
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from test_translation_support import client_for

from rulesref.reference.corpus import read_book
from rulesref.reference.loading import load_book
from rulesref.reference.models import Book
from rulesref.translation import memory, qa, workflow
from rulesref.translation.checks.base import TextUnits
from rulesref.translation.checks.runner import SectionPair, check_section
from rulesref.translation.exchange import export_units
from rulesref.translation.exchange.po import write_catalog
from rulesref.translation.exchange.tmx import read_tmx, write_tmx
from rulesref.translation.exchange.xliff import read_xliff, write_xliff
from rulesref.translation.models import Status
from rulesref.translation.exchange.formats import run_import

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parent / "translation_data" / "enbook"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def outpost(tmp_path, settings) -> Book:
    """The book loaded, with its glossary where the workspace looks for glossaries (beside the real ones)."""
    fixtures = tmp_path / "fixtures"
    shutil.copytree(ROOT / "fixtures" / "glossary", fixtures / "glossary")
    shutil.copy(DATA / "glossary" / "outpost.toml", fixtures / "glossary" / "outpost.toml")
    settings.FIXTURES_DIR = fixtures
    load_book(read_book(DATA / "corpus" / "outpost"))
    book = Book.objects.get(slug="outpost")
    assert book.source_language == "en" and workflow.target_languages(book) == ["ru"]
    return book


def problems(book: Book, sid: str, title: str, blocks: list[str]) -> list[tuple[str, str]]:
    item = workflow.book_item(book, "ru", sid, with_qa=False)
    pair = SectionPair(sid, item.source_units, TextUnits(title, tuple(blocks)))
    return [(p.check_id, p.text()) for p in check_section(pair, qa.check_context(book, "ru"))]


def test_the_dashboard_in_both_languages(outpost, translator):
    tina = client_for(translator)
    html = tina.get("/ru/translate/outpost/").content.decode()
    assert "английский → русский" in html and "«Застава»: правила стычек" in html
    assert 'href="/ru/translate/outpost/1.2/"' in html and 'href="/ru/translate/outpost/2.2/"' in html
    assert "6 из 6 разделов" in html  # the noun agrees with the number after «из»: Russian plural forms
    assert "2 из 6 разделов" in tina.get("/ru/translate/outpost/?status=missing").content.decode()
    assert "Activation" not in html.split("By chapter", 1)[-1].split("</section>", 1)[0]
    english = tina.get("/en/translate/outpost/").content.decode()
    assert "English → Russian" in english and "1 Activation" in english  # chapters in the reader's language
    missing = tina.get("/en/translate/outpost/?status=missing").content.decode()
    assert 'href="/en/translate/outpost/1.2/"' in missing and 'href="/en/translate/outpost/1.1/"' not in missing


def test_the_editor_shows_english_source_and_a_russian_field(outpost, translator):
    html = client_for(translator).get("/en/translate/outpost/1.2/").content.decode()
    assert re.search(r'<div class="ed-source" lang="en">', html) and re.search(r'<div class="ed-target" lang="ru">', html)
    assert "Source (English)" in html and "Translation (Russian)" in html
    assert '<span lang="en">difficult ground</span> → <span lang="ru">труднопроходимая местность</span>' in html


def test_numbers_in_that_direction_digits_and_russian_number_words(outpost):
    title = "Кто может действовать"
    good = ("Активный игрок выбирает одно подразделение, которое ещё не действовало в этот ход, и даёт ему два "
            "действия. Подразделение в пределах трёх дюймов от вражеского подразделения должно потратить первое "
            "действие на бой (см. 2.1).")
    assert [p for p in problems(outpost, "1.1", title, [good]) if p[0] == "numbers"] == []
    wrong = good.replace("трёх дюймов", "четырёх дюймов")
    assert ("numbers", "“3” in the source, not in the translation") in problems(outpost, "1.1", title, [wrong])
    assert ("numbers", "“4” in the translation, not in the source") in problems(outpost, "1.1", title, [wrong])


def test_references_in_that_direction(outpost):
    text = ("Активный игрок выбирает одно подразделение и даёт ему два действия. Подразделение в пределах трёх "
            "дюймов от вражеского подразделения должно потратить первое действие на бой (см. 2.2).")
    found = problems(outpost, "1.1", "Кто может действовать", [text])
    assert ("references", "Reference “2.1” in the source, not in the translation") in found
    assert ("references", "Reference “2.2” in the translation, not in the source") in found


def test_glossary_terms_match_through_russian_inflection_in_the_target(outpost):
    base = ("Подразделение перемещается не более чем на 6 дюймов за действие. Движение по труднопроходимой "
            "местности стоит 2 дюйма за каждый пройденный дюйм.")
    clauses = ["a) Подразделение не может подойти ближе чем на 1 дюйм к вражескому подразделению, если не атакует.",
               "b) Подразделение, которое двигалось дважды, не может стрелять в этот ход."]
    found = problems(outpost, "1.2", "Движение", [base, *clauses])
    assert [p for p in found if p[0].startswith("glossary")] == []  # «дюймов», «дюйма», «местности» are the terms
    other = base.replace("труднопроходимой местности", "пересечённой земле").replace("Подразделение", "Отряд")
    found = problems(outpost, "1.2", "Движение", [other, *clauses])
    assert ("glossary", "The source term “difficult ground” needs “труднопроходимая местность” in the translation") \
        in found
    assert ("glossary-forbidden", "“Отряд” is a forbidden variant of “подразделение”: write “подразделение”") in found
    assert any(p[0] == "quotes" for p in problems(outpost, "1.2", "Движение", ['Подразделение "ходит".', *clauses]))


def test_save_approve_and_publish_into_russian(outpost, reviewer, client):
    rita = client_for(reviewer)
    item = workflow.book_item(outpost, "ru", "2.2")
    text = ("Подразделение, потерявшее за один ход 3 модели или больше, проходит проверку морали: бросьте два "
            "кубика, и если сумма больше его храбрости, подразделение отступает на 6 дюймов.")
    workflow.save_translation(item.translation, user=reviewer, title="Мораль", body=text, status=Status.APPROVED,
                              base_version=item.translation.version, source_revision=item.current_revision)
    page = client.get("/ru/rules/outpost/2.2/").content.decode()
    assert "потерявшее за один ход" in page and "<h1><span class=\"num\">2.2</span> Мораль</h1>" in page
    parallel = client.get("/ru/rules/outpost/2.2/?view=parallel").content.decode()
    assert 'lang="en">' in parallel and "loses 3 or more models" in parallel and "потерявшее за один ход" in parallel
    assert rita.get("/ru/translate/outpost/2.2/").status_code == 200


def test_po_export_has_russian_plural_rules_and_imports_back(outpost, translator):
    data = write_catalog(outpost, "ru", export_units(outpost, "ru"))
    header = data.decode().split("\n\n", 1)[0]
    assert '"Language: ru\\n"' in header
    catalog = read_po(io.BytesIO(data))
    assert catalog.num_plurals == 3
    forms = gettext.c2py(catalog.plural_expr)  # the file's own rule: 1 раздел, 2 раздела, 5 разделов, 21 раздел…
    assert [forms(n) for n in (1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 111)] == [0, 1, 1, 2, 2, 2, 2, 0, 1, 2, 2]
    assert '"Project-Id-Version: rulesref outpost\\n"' in header and "rulesref Russian translation team" in header
    message = next(m for m in catalog if m.context == "1.2:title")
    assert message.id == "Moving" and message.string == ""
    message.string = "Движение"
    out = io.BytesIO()
    write_po(out, catalog, width=76)
    plan = run_import(outpost, "ru", out.getvalue(), "outpost-ru.po", fmt="po", user=translator,
                      status=Status.REVIEW, partial=True)
    assert plan.written and workflow.book_item(outpost, "ru", "1.2").translation.title == "Движение"


@pytest.mark.parametrize("version", ["2.0", "1.2"])
def test_xliff_in_that_direction(outpost, version):
    data = write_xliff(outpost, "ru", export_units(outpost, "ru"), version=version).decode()
    if version == "2.0":
        assert 'srcLang="en" trgLang="ru"' in data
    else:
        assert 'source-language="en" target-language="ru"' in data
    entries, _ = read_xliff(data.encode(), outpost, "ru")
    by_context = {e.context: e for e in entries}
    assert by_context["1.1:1"].source.startswith("The active player picks")
    assert by_context["1.1:1"].target.startswith("Активный игрок выбирает")


def test_the_memory_and_tmx_in_that_direction(outpost):
    workflow.ensure_translations(outpost, "ru")
    found = memory.matches("The active player picks one unit that has not acted this turn and gives it three "
                           "actions. A unit within 3 inches of an enemy unit must spend its first action to fight "
                           "(see 2.1).", "en", "ru")
    assert found and found[0].target.startswith("Активный игрок выбирает") and 90 <= found[0].percent < 100
    tmx = write_tmx(outpost)
    assert b'srclang="en"' in tmx and b'<tuv xml:lang="ru">' in tmx
    assert len(read_tmx(tmx, outpost, "ru").pairs) == tmx.count(b"<tu ")
