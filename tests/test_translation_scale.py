"""The translator's workspace at scale (#27), bounded by counting, never by timing:

- a save, an approval, a section's editor and the dashboard ask the database the same number of questions for a
  book of 39 sections and for one of 600 — what they cost does not grow with the book;
- the QA results kept per section and refreshed by the task equal, after edits, what running every check over the
  whole book finds (``check_book``);
- the progress counted by SQL equals each translation's own state (``Translation.state``) and words.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.db import connection
from django.db.models import Model
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from generated_books import load, remove
from test_translation_support import editor_data, editor_url

from rulesref.reference.corpus import split_blocks
from rulesref.reference.glossary import stems
from rulesref.reference.models import Book, SectionText
from rulesref.translation import progress, qa, workflow
from rulesref.translation.views import dashboard as dashboard_views
from rulesref.translation.checks.base import TextUnits
from rulesref.translation.checks.glossary import same_wording
from rulesref.translation.checks.runner import SectionPair, check_book
from rulesref.translation.models import QAResult, Status, Translation

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]
BIG = "scale600"
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def big(django_db_setup, django_db_blocker, tmp_path_factory):
    """A generated book of 600 sections with mpbs's glossary (its words are drawn from mpbs's text), its workspace
    synced as the task after a load syncs it."""
    fixtures = tmp_path_factory.mktemp("fixtures")
    for entry in ROOT.joinpath("fixtures").iterdir():
        if entry.name != "glossary":
            (fixtures / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "fixtures" / "glossary", fixtures / "glossary")
    shutil.copy(ROOT / "fixtures" / "glossary" / "mpbs.toml", fixtures / "glossary" / f"{BIG}.toml")
    with override_settings(FIXTURES_DIR=fixtures), django_db_blocker.unblock():
        yield load(BIG, 600, tmp_path_factory.mktemp(BIG), sync=True)
        remove(BIG)


def odd_variant(book: Book) -> tuple[str, str]:
    """An English variant of a glossary term that does not say the same as the term: (the term, the variant)."""
    for term in qa.check_context(book, "en").glossary.terms:
        for form in term.forms("en")[1:]:
            if not same_wording(tuple(stems(form, "en")), tuple(stems(term.term("en"), "en"))):
                return term.term("en"), form
    raise AssertionError("the glossary has no such variant")


def sid_of(book: Book, n: int = 7) -> str:
    return SectionText.objects.filter(section__book=book, language="ru", blank=False, section__depth=3).order_by(
        "section__position").values_list("section__sid", flat=True)[n]


class Work:
    """What a call asks of the database: its queries, and the rows it reads as model objects (``Model.from_db``),
    which grow with whatever part of the book it reads."""

    def __init__(self, call):
        rows = []
        original = Model.from_db.__func__

        def counted(cls, db, field_names, values):
            rows.append(cls)
            return original(cls, db, field_names, values)

        Model.from_db = classmethod(counted)
        try:
            with CaptureQueriesContext(connection) as captured:
                call()
        finally:
            Model.from_db = classmethod(original)
        self.queries, self.rows = len(captured), len(rows)
        self.models = sorted({m.__name__: rows.count(m) for m in rows}.items())

    def __repr__(self) -> str:
        return f"{self.queries} queries, {self.rows} rows ({self.models})"


def queries(call) -> Work:
    return Work(call)


def bounded(work: dict[str, Work], queries: int, rows: int) -> bool:
    """At most ``queries`` queries in the big book (what one section holds decides how many: two for each of its
    glossary terms that the book writes in two ways), and fewer rows read than ``rows`` — far below the 1,200 texts
    of the big book, which any whole-book read would bring."""
    big = work[BIG]
    return big.queries <= queries and big.rows <= rows


def approve_once(client, book: Book, sid: str, words: str) -> Work:
    """Queries of one approval through the editor (the form as the page gives it, ``words`` added to the first
    paragraph: no number or term that QA would ask to confirm)."""
    data = editor_data(sid, book.slug, blocks=None, status="approved")
    data["p1"] = f"{data['p1']} {words}"
    url = editor_url(sid, book.slug)
    response = client.post(url, data)
    if response.status_code == 409:  # QA errors (of the generated text) to confirm, as a reviewer does
        data["confirm_errors"] = re.search(r'name="confirm_errors" value="([^"]+)"', response.content.decode())[1]
    count = queries(lambda: client.post(url, data))
    published = SectionText.objects.get(section__book=book, section__sid=sid, language="en").body
    assert published.split("\n\n")[0].endswith(words), "the approval was not published"
    return count


def test_an_approval_asks_the_database_as_much_in_a_big_book_as_in_a_small_one(big, rita, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}  # tasks queued, as in production
    small = Book.objects.get(slug="mpbs")
    for book in (small, big):  # the first approval of each makes what a first one makes (memory terms, rows)
        approve_once(rita, book, sid_of(book, 3), "Indeed so.")
    counts = {book.slug: approve_once(rita, book, sid_of(book), "And so it is.")
              for book in (small, big)}
    assert bounded(counts, queries=100, rows=60), counts


@pytest.mark.parametrize("page", ["editor", "dashboard", "dashboard-missing", "dashboard-check"])
def test_pages_ask_the_database_as_much_in_a_big_book_as_in_a_small_one(big, tina, page, monkeypatch):
    monkeypatch.setattr(dashboard_views, "ROWS_PER_PAGE", 10)
    def url(book: Book) -> str:
        return {"editor": editor_url(sid_of(book), book.slug),
                "dashboard": f"/en/translate/{book.slug}/",
                "dashboard-missing": f"/en/translate/{book.slug}/?status=missing",
                "dashboard-check": f"/en/translate/{book.slug}/?check=any"}[page]

    counts = {}
    for book in (Book.objects.get(slug="mpbs"), big):
        assert tina.get(url(book)).status_code == 200
        counts[book.slug] = queries(lambda: tina.get(url(book)))
    assert bounded(counts, queries=counts["mpbs"].queries + 20, rows=100), counts


def test_the_dashboard_lists_a_big_book_a_page_at_a_time(big, tina):
    html = tina.get(f"/en/translate/{BIG}/").content.decode()
    assert html.count('href="/en/translate/scale600/') - html.count("+") <= 120  # 100 rows, a few other links
    assert "Page 1 of " in html and 'rel="next"' in html
    second = tina.get(f"/en/translate/{BIG}/?page=2").content.decode()
    assert "Page 2 of " in second and 'rel="prev"' in second
    first_rows = {line for line in html.split("\n") if "/en/translate/scale600/" in line and "<td>" in line}
    second_rows = {line for line in second.split("\n") if "/en/translate/scale600/" in line and "<td>" in line}
    assert first_rows and second_rows and not first_rows & second_rows


def canonical(params: dict) -> str:
    """A problem's parameters in one form (PostgreSQL's jsonb keeps a dict's keys in an order of its own)."""
    return json.dumps(params, sort_keys=True, ensure_ascii=False)


def stored_problems(book: Book) -> set[tuple]:
    return {(r.translation.section.sid, r.check_id, r.paragraph, r.message, canonical(r.params))
            for r in QAResult.objects.filter(translation__section__book=book, translation__language="en")
            .select_related("translation__section")}


def whole_book_problems(book: Book) -> set[tuple]:
    items = workflow.book_items(book, "en")
    pairs = [SectionPair(i.section.sid, i.source_units, i.target_units) for i in items]
    return {(p.section, p.check_id, p.paragraph, p.message, canonical(p.params))
            for p in check_book(pairs, qa.check_context(book, "en"))}


def test_qa_kept_section_by_section_equals_checking_the_whole_book(big, tina, django_capture_on_commit_callbacks):
    """Edits that make and unmake book-wide problems ("term spelt two ways"): after each, the task's results are
    what a check of the whole book finds."""
    assert stored_problems(big) == whole_book_problems(big)
    term, variant = odd_variant(big)
    for n, status, words in ((11, Status.DRAFT, variant), (12, Status.APPROVED, f"{variant}, {variant}"),
                             (13, Status.REVIEW, term), (11, Status.REVIEW, term)):
        sid = sid_of(big, n)
        t = workflow.book_item(big, "en", sid).translation
        body = f"{t.body}\n\nWe write {words} here (see 1.2)."
        with django_capture_on_commit_callbacks(execute=True):
            workflow.save_translation(t, user=None, title=t.title, body=body, status=status, base_version=t.version,
                                      source_revision=t.source_revision)
        assert stored_problems(big) == whole_book_problems(big), sid
    assert any(check == "glossary-consistency" for _, check, *_ in stored_problems(big))


def test_an_approvals_confirmation_names_the_book_wide_errors_the_new_text_would_have(big):
    term, variant = odd_variant(big)
    elsewhere = workflow.book_item(big, "en", sid_of(big, 21)).translation
    workflow.save_translation(elsewhere, user=None, title=elsewhere.title, body=f"{elsewhere.body} The {term}.",
                              status=Status.DRAFT, base_version=elsewhere.version,
                              source_revision=elsewhere.source_revision)
    sid = sid_of(big, 20)
    item = workflow.book_item(big, "en", sid)
    body = f"{item.translation.body}\n\nIt says {variant} here, {variant} there."
    errors = qa.approval_errors(big, "en", item, item.translation.title, body)
    pairs = [SectionPair(i.section.sid, i.source_units,
                         TextUnits(item.translation.title, tuple(split_blocks(body))) if i.section.sid == sid
                         else i.target_units) for i in workflow.book_items(big, "en")]
    expected = {(p.check_id, p.paragraph, p.message) for p in check_book(pairs, qa.check_context(big, "en"))
                if p.section == sid and p.severity == "error"}
    assert {(p.check_id, p.paragraph, p.message) for p in errors} == expected
    assert any(p.check_id == "glossary-consistency" for p in errors)
    assert not any(variant in str(r.params) for r in QAResult.objects.filter(translation=item.translation))
    assert workflow.book_item(big, "en", sid).translation.body == item.translation.body  # nothing was stored


def test_progress_counted_by_sql_equals_each_translations_state(big, tina):
    # every kind of state: a draft, one for review, an outdated one, a missing one, one not synced yet
    items = workflow.book_items(big, "en")
    workflow.save_translation(items[3].translation, user=None, title="T", body="Draft.", status=Status.DRAFT,
                              base_version=items[3].translation.version, source_revision=items[3].current_revision)
    workflow.save_translation(items[4].translation, user=None, title="T", body="Review.", status=Status.REVIEW,
                              base_version=items[4].translation.version, source_revision=items[4].current_revision)
    SectionText.objects.get(section=items[5].section, language="ru").save()  # unchanged: still current
    source = SectionText.objects.get(section=items[6].section, language="ru")
    source.body += " Изменено."
    source.save()  # the English text is now outdated
    Translation.objects.filter(pk=items[7].translation.pk).update(status=Status.MISSING, title="", body="")
    Translation.objects.filter(pk=items[8].translation.pk).delete()  # the sync has not made it yet
    expected = progress.Counts()
    for item in workflow.book_items(big, "en"):
        expected.add(item.state, 1, item.words)
    counted = progress.summary(big, "en")
    assert counted.total == expected
    assert {"draft", "review", "outdated", "missing", "approved"} <= set(counted.total.sections)
    assert sum(sum(c.sections.values()) for _, c in counted.chapters) == sum(expected.sections.values())
    listed = progress.Listed(big, "en", "outdated")
    assert listed.count() == expected.sections["outdated"] and listed[0:10] == [items[6].section.sid]
