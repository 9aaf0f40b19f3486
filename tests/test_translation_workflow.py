"""Statuses and their transitions, revisions, diff and restore, publishing to the corpus, and the workspace kept in
step with the corpus files (loadrules, dumprules)."""
from __future__ import annotations

import pytest
from test_translation_support import book, item, save, without_translation

from rulesref.reference.corpus import split_blocks
from rulesref.reference.index import invalidate
from rulesref.reference.loading import dump_corpus, load_corpus
from rulesref.reference.models import Book, Reference, SectionText
from rulesref.textdiff import html_diff, word_diff
from rulesref.translation import qa, workflow
from rulesref.translation.models import (
    OUTDATED,
    QAResult,
    Revision,
    SourceText,
    Status,
    Translation,
)

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def set_source(sid: str, body: str, slug: str = "mpbs") -> None:
    """Change a source text as a reload of edited corpus files would."""
    SectionText.objects.filter(section__book__slug=slug, section__sid=sid, language="ru").update(body=body)


def test_corpus_translations_start_approved_and_absent_sections_are_left_out():
    items = workflow.book_items(book("mpbs"), "en")
    assert len(items) == 36 and len(workflow.book_items(book("t9a"), "en")) == 10
    assert {i.state for i in items} == {Status.APPROVED}
    assert "9" not in {i.section.sid for i in items}  # "Reaction" is an absent parent: no text to translate
    rev = item("9.3.1").translation.revisions.get()
    assert (rev.number, rev.origin, rev.status, rev.author) == (1, "corpus", "approved", None)
    assert rev.source_revision == item("9.3.1").current_revision
    workflow.book_items(book("mpbs"), "en")  # idempotent: nothing new on a second look
    assert Revision.objects.filter(translation__section__book__slug="mpbs").count() == 36


def test_a_section_without_translation_is_missing():
    without_translation("9.3.2")
    it = item("9.3.2")
    assert it.state == Status.MISSING and it.translation.body == "" and it.translation.revisions.count() == 0


def test_missing_to_draft_to_review_to_approved(translator, reviewer):
    without_translation("9.3.2")
    version_before = book().version
    r1 = save("9.3.2", translator, title="Procedure", body="First draft.", status=Status.DRAFT, comment="start")
    assert not r1.conflict and item("9.3.2").state == Status.DRAFT
    assert (r1.revision.number, r1.revision.author, r1.revision.comment) == (1, translator, "start")
    assert not SectionText.objects.filter(section__sid="9.3.2", language="en").exists()  # drafts are not published
    r2 = save("9.3.2", translator, body="Second draft (9.3.1).", status=Status.REVIEW)
    assert item("9.3.2").state == Status.REVIEW and r2.revision.number == 2
    r3 = save("9.3.2", reviewer, status=Status.APPROVED)
    assert item("9.3.2").state == Status.APPROVED and r3.revision.number == 3
    published = SectionText.objects.get(section__book__slug="mpbs", section__sid="9.3.2", language="en")
    assert (published.title, published.body) == ("Procedure", "Second draft (9.3.1).")
    assert published.source_revision == item("9.3.2").current_revision
    assert book().version > version_before  # every page cache of the book is rebuilt
    assert Reference.objects.filter(source__sid="9.3.2", language="en", target_sid="9.3.1").exists()


def test_an_approved_text_stays_published_while_a_new_draft_is_worked_on(translator):
    published = SectionText.objects.get(section__book__slug="mpbs", section__sid="11.4.10", language="en")
    save("11.4.10", translator, body="A new draft.", status=Status.DRAFT)
    assert item("11.4.10").state == Status.DRAFT
    assert SectionText.objects.get(pk=published.pk).body == published.body


def test_outdated_when_the_source_changes_and_up_to_date_after_saving(translator):
    it = item("11.4.10")  # the workspace has seen (and kept) the current source
    old_body = it.source.body
    set_source("11.4.10", old_body.replace("хиту построения", "хиту построения и хиту морали", 1))
    it = item("11.4.10")
    assert it.state == OUTDATED and it.translation.status == Status.APPROVED
    units = workflow.section_units(it, book())
    [paragraph] = [u for u in units.units if u.paragraph == 1]
    assert paragraph.outdated and paragraph.previous == old_body
    html = str(html_diff(paragraph.previous, paragraph.source))
    assert "морали</ins>" in html and "<del>" not in html
    save("11.4.10", translator, status=Status.REVIEW)  # saved from the current source
    assert item("11.4.10").state == Status.REVIEW


def test_a_translation_made_from_an_unknown_source_is_outdated_without_a_diff(translator):
    Translation.objects.filter(section__sid="11.4.9").delete()
    SectionText.objects.filter(section__book__slug="mpbs", section__sid="11.4.9", language="en").update(
        source_revision="000000000000")
    it = item("11.4.9")
    assert it.state == OUTDATED
    units = workflow.section_units(it, book())
    assert all(u.outdated and u.previous is None for u in units.units if u.paragraph > 0)


def test_an_inserted_source_paragraph_does_not_shift_the_translation():
    it = item("11.4.2")
    blocks = split_blocks(it.source.body)
    set_source("11.4.2", "\n\n".join([blocks[0], "Новый абзац.", *blocks[1:]]))
    units = workflow.section_units(item("11.4.2"), book())
    body_units = [u for u in units.units if u.paragraph > 0]
    translated = split_blocks(it.translation.body)
    assert [u.target for u in body_units] == [translated[0], "", *translated[1:]]
    assert [u.outdated for u in body_units] == [False, True, False, False, False]


def test_every_save_is_a_revision_and_any_two_can_be_compared(translator, reviewer):
    save("11.4.10", translator, body="One two three.", comment="first")
    save("11.4.10", reviewer, body="One 2 three four.", status=Status.APPROVED, comment="second")
    revisions = list(item("11.4.10").translation.revisions.order_by("number"))
    assert [(r.number, r.author, r.status, r.comment) for r in revisions] == [
        (1, None, "approved", ""), (2, translator, "draft", "first"), (3, reviewer, "approved", "second")]
    ops = [(op.kind, op.text) for op in word_diff(revisions[1].body, revisions[2].body)]
    assert ("delete", "two") in ops and ("insert", "2") in ops and ("insert", " four") in ops


def test_restore_an_old_revision_as_a_new_one(reviewer):
    original = item("11.4.10").translation
    save("11.4.10", reviewer, body="Replaced.", status=Status.APPROVED)
    first = original.revisions.get(number=1)
    result = workflow.restore_revision(first, user=reviewer, status=Status.APPROVED,
                                       base_version=item("11.4.10").translation.version)
    assert not result.conflict and result.revision.number == 3 and result.revision.origin == "restore"
    assert result.revision.comment == "restored revision 1"
    t = item("11.4.10").translation
    assert (t.title, t.body) == (original.title, original.body)
    assert SectionText.objects.get(section__sid="11.4.10", language="en", section__book__slug="mpbs").body == original.body


def test_a_stale_save_is_kept_as_a_conflict_and_applies_nothing(translator, reviewer):
    start = item("11.4.10").translation.version
    first = save("11.4.10", reviewer, body="Reviewer's text.", base_version=start)
    second = save("11.4.10", translator, body="Translator's text.", base_version=start)
    assert not first.conflict and second.conflict
    assert item("11.4.10").translation.body == "Reviewer's text."
    kept = second.revision
    assert (kept.applied, kept.origin, kept.body, kept.author, kept.base_version) == (
        False, "conflict", "Translator's text.", translator, start)


def test_reloading_edited_corpus_files_is_adopted_and_a_draft_is_kept(corpus_copy, translator):
    """The files are the source of truth: an approved translation follows them; a draft in progress is kept."""
    workflow.book_items(book(), "en")
    save("11.4.9", translator, body="Work in progress.", status=Status.DRAFT)
    path = corpus_copy / "mpbs" / "en" / "11.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace("If moving into a hex causes a formation hit", "If entering a hex causes a formation hit")
    text = text.replace("An advance or pursuit after Close Combat", "An advance or pursuit after a Close Combat")
    path.write_text(text, encoding="utf-8")
    load_corpus()
    invalidate()
    adopted = item("11.4.10").translation
    assert adopted.body.startswith("If entering a hex") and adopted.status == Status.APPROVED
    assert adopted.revisions.first().origin == "corpus"
    kept = item("11.4.9").translation
    assert kept.body == "Work in progress." and kept.status == Status.DRAFT
    note = kept.revisions.first()
    assert (note.origin, note.applied) == ("corpus", False) and "a Close Combat" in note.body


def test_loadrules_keeps_the_replaced_source_for_the_diff(corpus_copy):
    """A source text replaced by loadrules is kept (once per revision), so the outdated translation can show it."""
    path = corpus_copy / "mpbs" / "ru" / "11.md"
    text = path.read_text(encoding="utf-8")
    old = item("11.4.9").source.body  # noqa: F841  (the workspace need not have seen it for this)
    SourceText.objects.all().delete()
    path.write_text(text.replace("инициируют ответное действие", "инициируют ответное действие противника"),
                    encoding="utf-8")
    load_corpus()
    invalidate()
    it = item("11.4.9")
    assert it.state == OUTDATED
    [unit] = [u for u in workflow.section_units(it, book()).units if u.paragraph == 1]
    assert unit.previous is not None and "противника" not in unit.previous and "противника" in unit.source


def test_a_source_edited_in_place_keeps_its_old_text_for_the_diff():
    """An edit saved in place (as the admin saves it), not a reload, also keeps the text it replaces."""
    SourceText.objects.all().delete()  # as if the workspace had never seen the old text
    stored = SectionText.objects.get(section__book__slug="mpbs", section__sid="11.4.9", language="ru")
    stored.body = stored.body.replace("инициируют ответное действие", "инициируют ответное действие противника")
    stored.save()
    invalidate()
    it = item("11.4.9")
    assert it.state == OUTDATED
    [unit] = [u for u in workflow.section_units(it, book()).units if u.paragraph == 1]
    assert unit.previous is not None and "противника" not in unit.previous and "противника" in unit.source
    # a translation's own edit, or a save that changes nothing, keeps nothing
    kept = SourceText.objects.count()
    SectionText.objects.get(section__book__slug="mpbs", section__sid="11.4.9", language="en").save()
    stored.save()
    assert SourceText.objects.count() == kept


def test_reloading_the_corpus_keeps_the_sources_in_one_insert_not_a_query_per_text():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    load_corpus(force=True)
    with CaptureQueriesContext(connection) as nothing_to_keep:
        load_corpus(force=True)
    SourceText.objects.all().delete()
    with CaptureQueriesContext(connection) as all_to_keep:
        load_corpus(force=True)
    texts = SectionText.objects.filter(section__book__slug="mpbs", language="ru", section__absent=False) \
        .exclude(title="", body="").count()  # an absent section has no text to keep
    assert SourceText.objects.filter(book="mpbs").count() == texts
    assert len(all_to_keep) - len(nothing_to_keep) <= 2 * Book.objects.count()  # an insert per book, at most


def test_dumprules_writes_approved_translations_to_the_corpus_files(corpus_copy, reviewer, translator):
    save("11.4.10", reviewer, title="Formation Hits", body="Approved text (11.4.9).", status=Status.APPROVED)
    save("11.4.9", translator, body="A draft nobody approved.", status=Status.DRAFT)
    dump_corpus(corpus_copy)
    written = (corpus_copy / "mpbs" / "en" / "11.md").read_text(encoding="utf-8")
    revision = item("11.4.10").current_revision
    assert f"### Formation Hits {{#11.4.10 src={revision}}}\n\nApproved text (11.4.9).\n" in written
    assert "A draft nobody approved." not in written
    # and the files load back as they are
    load_corpus(force=True)
    assert SectionText.objects.get(section__sid="11.4.10", language="en", section__book__slug="mpbs").body == \
        "Approved text (11.4.9)."


def test_qa_results_are_stored_for_failures_only_and_dismissals_survive(translator):
    qa.bring_up_to_date(book(), "en")  # what the task does after a load or a save
    stored = QAResult.objects.filter(translation__section__book__slug="mpbs", translation__language="en")
    results = {(r.translation.section.sid, r.check_id, r.paragraph) for r in stored}
    assert ("11.4.10", "glossary-consistency", 0) in results and ("11.4.10", "glossary-consistency", 1) in results
    assert not stored.filter(translation__section__sid="9.3.4").exists()  # a clean section stores nothing
    result = stored.get(translation__section__sid="11.4.10", paragraph=0)
    result.dismissed = True
    result.save()
    save("9.3.4", translator, body=item("9.3.4").translation.body + " Extra 7.", status=Status.DRAFT)
    qa.bring_up_to_date(book(), "en")
    after = [r for r in item("11.4.10", qa=True).qa if r.paragraph == 0 and r.check_id == "glossary-consistency"]
    assert [r.dismissed for r in after] == [True]
    assert [r.check_id for r in item("9.3.4", qa=True).qa] == ["numbers"]


@pytest.mark.parametrize("status", [Status.DRAFT, Status.REVIEW, Status.APPROVED])
def test_status_labels(status):
    assert str(Status(status).label)
    assert Book.objects.exists()
