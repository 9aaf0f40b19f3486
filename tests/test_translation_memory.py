"""The translation memory (issue #15 point 1): filled from approved translations of any book, kept apart from them,
looked up by similarity with a threshold, offered in the editor with the percentage, the source differences, the
paragraph's glossary terms, and for a changed source the previous translation and sentence suggestions.

Oracles: the corpus itself (9.3.5's approved English is the translation of its Russian paragraph), texts made in the
test by changing a few words of a known paragraph, and arithmetic of the similarity measure on small strings."""
from __future__ import annotations

import re

import pytest
from test_translation_support import SOURCE_935, book, editor_url, english, item, save, source_text, untranslated

from rulesref.translation import memory, workflow
from rulesref.translation.models import MemoryEntry, MemoryTerm, MemoryToken, Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db

def test_the_approved_corpus_translations_fill_the_memory():
    workflow.ensure_translations(book(), "en")
    workflow.ensure_translations(book("t9a"), "en")
    entry = MemoryEntry.objects.get(book="mpbs", context="9.3.5:1")
    assert (entry.source_language, entry.target_language, entry.origin) == ("ru", "en", "translation")
    assert entry.source == SOURCE_935 and entry.target == english("9.3.5").body
    assert MemoryEntry.objects.filter(book="t9a", context="hold:title", target="Hold").exists()
    assert MemoryToken.objects.filter(entry=entry, token="ru:перехват").exists()
    count = MemoryEntry.objects.count()
    workflow.ensure_translations(book(), "en")
    assert MemoryEntry.objects.count() == count  # kept once


def test_an_approval_adds_to_the_memory_and_later_edits_leave_it(reviewer):
    workflow.ensure_translations(book(), "en")
    save("9.3.5", reviewer, body="Reworded: a cavalry unit that intercepted may still act when its wing activates. "
                                 "Cavalry units of a wing that finished activating may intercept too.",
         status=Status.APPROVED)
    workflow.ensure_translations(book(), "en")
    targets = set(MemoryEntry.objects.filter(context="9.3.5:1").values_list("target", flat=True))
    assert len(targets) == 2 and any(t.startswith("Reworded") for t in targets)  # the old one is kept too
    save("9.3.5", reviewer, body="A draft that is never approved.", status=Status.DRAFT)
    workflow.ensure_translations(book(), "en")
    assert not MemoryEntry.objects.filter(target__startswith="A draft").exists()


def test_similarity_is_the_normalised_indel_similarity():
    assert memory.similarity("abcd", "abcd") == 1.0
    assert memory.similarity("Abcd  Ef", "abcd ef") == 1.0  # case and spaces do not count
    assert memory.similarity("abcd", "abce") == pytest.approx(0.75)  # 2 edits (delete d, insert e) of 8 characters
    assert memory.similarity("ёж", "еж") == 1.0


def test_a_similar_paragraph_finds_the_approved_translation_with_its_percentage():
    workflow.ensure_translations(book(), "en")
    changed = SOURCE_935.replace("также могут перехватывать", "тоже могут перехватывать")
    found = memory.matches(changed, "ru", "en")
    assert found and found[0].entry.context == "9.3.5:1" and found[0].target == english("9.3.5").body
    assert 90 <= found[0].percent < 100
    assert "<del>также</del>" in found[0].diff and "<ins>тоже</ins>" in found[0].diff
    exact = memory.matches(SOURCE_935, "ru", "en")
    assert exact[0].percent == 100
    assert memory.matches("Совсем другой текст о правилах построения и морали.", "ru", "en") == []


def test_the_threshold_decides_what_is_offered(settings):
    workflow.ensure_translations(book(), "en")
    half = SOURCE_935.split(". ")[0] + "."  # the first of the two sentences: about half the characters
    assert memory.matches(half, "ru", "en") == []  # far below 75 %
    settings.TRANSLATION_MEMORY_THRESHOLD = 0.5
    assert any(m.entry.context == "9.3.5:1" for m in memory.matches(half, "ru", "en"))


def test_a_look_up_is_three_queries_however_large_the_memory(django_assert_max_num_queries):
    workflow.ensure_translations(book(), "en")
    memory.add_pairs([memory.Pair("ru", "en", f"{SOURCE_935} Дополнение номер {n}.", f"Extra {n}.", book="x")
                      for n in range(300)])
    with django_assert_max_num_queries(3):
        found = memory.matches(SOURCE_935, "ru", "en", limit=3)
    assert found[0].percent == 100


def test_entries_serve_their_own_direction():
    memory.add_pairs([memory.Pair("en", "ru", "The unit may intercept the moving enemy unit.",
                                  "Подразделение может перехватить движущееся подразделение противника.",
                                  origin=MemoryEntry.Origin.TMX, book="other", note="other.tmx")])
    assert memory.matches("The unit may intercept the moving enemy unit.", "en", "ru")[0].target.startswith(
        "Подразделение")
    assert memory.matches("The unit may intercept the moving enemy unit.", "ru", "en") == []


def test_forgetting_entries_keeps_the_document_frequencies_right():
    made = memory.add_pairs([memory.Pair("ru", "en", "Уникальноеслово встречается здесь.", "A unique word.", book="x")])
    assert MemoryTerm.objects.get(token="ru:уникальноеслов").entries == 1
    memory.forget(MemoryEntry.objects.filter(pk__in=[e.pk for e in made]))
    assert not MemoryTerm.objects.filter(token="ru:уникальноеслов").exists()


def test_sentences_split_where_a_reader_would():
    assert memory.sentences("Отметьте, т. е. снимите фишку. Удалите маркеры (см. 11. 4. 5). Кавалерия может? Да!") == [
        "Отметьте, т. е. снимите фишку.", "Удалите маркеры (см. 11. 4. 5).", "Кавалерия может?", "Да!"]
    assert memory.sentences("See rule 9.3.1. A) is not a clause here, i.e. Not one.") == [
        "See rule 9.3.1.", "A) is not a clause here, i.e. Not one."]


def test_the_editor_offers_the_match_with_percentage_diff_and_the_glossary_terms(tina):
    workflow.ensure_translations(book(), "en")
    untranslated("9.3.6", SOURCE_935.replace("также могут перехватывать", "тоже могут перехватывать"))
    html = tina.get(editor_url("9.3.6")).content.decode()
    box = html.split('data-field="id_p1"', 1)[1].split('<div class="ed-row', 1)[0]
    match = re.search(r'<span class="tm-percent" data-score="(\d+)">([^<]+)</span>', box)
    assert match and 90 <= int(match.group(1)) < 100 and match.group(2).strip().endswith("%")
    assert "mpbs 9.3.5 ¶1" in box and "approved translation" in box
    assert re.search(r'data-insert="A cavalry unit that has carried out an Interception[^"]*" data-mode="replace"', box)
    assert "<del>также</del>" in box and "<ins>тоже</ins>" in box
    assert '<span lang="ru">перехват</span> → <span lang="en">Interception</span>' in box  # the paragraph's terms
    assert 'data-insert="Interception" data-mode="cursor"' in box


def test_the_editor_shows_percentages_in_the_readers_language(tina):
    workflow.ensure_translations(book(), "en")
    untranslated("9.3.6", SOURCE_935.replace("также могут перехватывать", "тоже могут перехватывать"))
    html = tina.get("/ru" + editor_url("9.3.6")[3:]).content.decode()
    percent = re.search(r'<span class="tm-percent" data-score="\d+">([^<]+)</span>', html).group(1)
    assert re.fullmatch(r"\d+\s%", percent)  # «95 %»: Russian puts a space before the sign
    assert "утверждённый перевод" in html


def test_an_outdated_paragraph_shows_its_previous_translation_and_sentence_suggestions(tina):
    workflow.ensure_translations(book(), "en")
    text = source_text("9.3.5")
    text.body = SOURCE_935.replace("также могут перехватывать.", "также могут перехватывать, если не рассеяны.")
    text.save()
    assert item("9.3.5").outdated
    html = tina.get(editor_url("9.3.5")).content.decode()
    row = html.split('id="row-1"', 1)[1].split('id="row-2"', 1)[0] if 'id="row-2"' in html else \
        html.split('id="row-1"', 1)[1]
    assert "Previous translation (made from the old source)" in row
    assert english("9.3.5").body in row  # beside the source's word diff
    source_diff = re.search(r'<details class="src-diff" open><summary>Changed in the source</summary>'
                            r'<div class="diff">(.*?)</div>', row).group(1)
    assert source_diff == SOURCE_935.replace("также могут перехватывать.",
                                             "также могут перехватывать<ins>, если не рассеяны</ins>.")
    changed = row.split('class="sg changed-sentence"', 1)[1].split("</section>", 1)[0]
    assert "также могут перехватывать, если не рассеяны." in changed  # only the changed sentence
    assert "Cavalry units in a wing that has completed its activation may also intercept." in changed  # its match
    assert "по-прежнему может осуществлять действия" not in changed


def test_memory_text_is_escaped_in_the_editor(tina):
    workflow.ensure_translations(book(), "en")
    payload = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)'
    memory.add_pairs([memory.Pair("ru", "en", SOURCE_935 + " Ещё.", payload, origin=MemoryEntry.Origin.TMX,
                                  book="mpbs", note='evil.tmx"><script>')])
    untranslated("9.3.6", SOURCE_935 + " Ещё!")
    html = tina.get(editor_url("9.3.6")).content.decode()
    assert "tm-percent" in html and "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
