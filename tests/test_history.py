"""Book revisions: which changes make one, what is stored (compactly), and the texts in force at each revision."""
from __future__ import annotations

import pytest
from test_translation_support import save

from rulesref.reference import history
from rulesref.reference.loading import load_corpus
from rulesref.reference.models import Book, BookRevision, SectionText, TextVersion
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db

OLD_EN = "A unit may Withdraw"


def mpbs() -> Book:
    return Book.objects.get(slug="mpbs")


def edit(corpus, relative: str, old: str, new: str) -> None:
    path = corpus / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def texts_of(book: Book) -> int:
    return sum(1 for t, b in SectionText.objects.filter(section__book=book).values_list("title", "body")
               if t.strip() or b.strip())


def test_the_first_load_is_revision_one_holding_every_text_once():
    book = mpbs()
    first = BookRevision.objects.get(book=book, number=1)
    assert book.revision == first.number == 1
    assert first.added == texts_of(book) and first.changed == first.removed == 0
    assert first.language_list == ["en", "ru"]
    assert TextVersion.objects.filter(book=book).count() == texts_of(book)
    assert not TextVersion.objects.filter(book=book, until__isnull=False).exists()


def test_a_reload_without_changes_makes_no_revision(corpus_copy):
    before = (mpbs().revision, BookRevision.objects.count(), TextVersion.objects.count())
    load_corpus(force=True)  # every text rewritten in the database, none changed
    assert (mpbs().revision, BookRevision.objects.count(), TextVersion.objects.count()) == before


def test_a_changed_text_makes_one_revision_and_one_version_row(corpus_copy):
    book = mpbs()
    rows, t9a_revision = TextVersion.objects.count(), Book.objects.get(slug="t9a").revision
    edit(corpus_copy, "mpbs/en/9.md", OLD_EN, "A unit may quokkafy")
    load_corpus()
    book.refresh_from_db()
    assert book.revision == 2
    revision = BookRevision.objects.get(book=book, number=2)
    assert (revision.origin, revision.languages, revision.added, revision.changed, revision.removed) == (
        "load", "en", 0, 1, 0)
    # Compact: one new row for the one changed text; the old one ends at revision 2; nothing else is copied.
    assert TextVersion.objects.count() == rows + 1
    old = TextVersion.objects.get(book=book, sid="9.2.4", language="en", since=1)
    new = TextVersion.objects.get(book=book, sid="9.2.4", language="en", since=2)
    assert old.until == 2 and new.until is None
    assert OLD_EN in old.body and "quokkafy" in new.body
    assert Book.objects.get(slug="t9a").revision == t9a_revision  # the other book did not change
    # The texts in force at each revision.
    assert OLD_EN in history.text_at(book, "9.2.4", "en", 1).body
    assert "quokkafy" in history.text_at(book, "9.2.4", "en", 2).body
    assert history.text_at(book, "9.2.4", "ru", 2).since == 1  # the Russian text is the one of revision 1
    assert [c.revision.number for c in history.section_history(book, "9.2.4")] == [2, 1]
    assert history.last_change(book, "9.2.4") == 2 and history.last_change(book, "9.2.4", "ru") == 1
    assert history.last_changes(book)["9.2.4"] == 2 and history.last_changes(book)["9.2.3"] == 1
    changed, total = history.changed_since(book, 1)
    assert total == 1 and (changed[0].sid, changed[0].languages) == ("9.2.4", ["en"])
    assert history.changed_since(book, 2) == ([], 0)


def test_a_removed_section_keeps_its_history(corpus_copy):
    book = mpbs()
    path = corpus_copy / "mpbs" / "en" / "9.md"
    text = path.read_text(encoding="utf-8")
    start = text.index("### {#9.3.7")
    path.write_text(text[:start].rstrip() + "\n", encoding="utf-8")
    load_corpus()
    book.refresh_from_db()
    revision = BookRevision.objects.get(book=book, number=book.revision)
    assert revision.removed == 1 and revision.languages == "en"
    assert history.text_at(book, "9.3.7", "en", book.revision) is None
    assert history.text_at(book, "9.3.7", "en", book.revision - 1) is not None
    change = history.section_history(book, "9.3.7")[0]
    assert change.revision.number == book.revision and change.removed == ["en"]


def test_an_approved_translation_makes_a_revision_of_that_text_only(reviewer):
    book = mpbs()
    rows = TextVersion.objects.count()
    save("9.3.2", reviewer, title="Procedure", body="An approved new text.", status=Status.APPROVED)
    book.refresh_from_db()
    revision = BookRevision.objects.get(book=book, number=book.revision)
    assert (revision.number, revision.origin, revision.languages, revision.changed) == (2, "approval", "en", 1)
    assert revision.note == reviewer.get_username()
    assert TextVersion.objects.count() == rows + 1
    assert history.text_at(book, "9.3.2", "en", 2).body == "An approved new text."
    # A draft publishes nothing, so it makes no revision; approving the same text again makes none either.
    save("9.3.2", reviewer, body="A draft.", status=Status.DRAFT)
    save("9.3.2", reviewer, body="An approved new text.", status=Status.APPROVED)
    book.refresh_from_db()
    assert book.revision == 2 and TextVersion.objects.count() == rows + 1


def test_many_revisions_store_one_row_per_change_not_per_text(corpus_copy):
    book = mpbs()
    rows, texts = TextVersion.objects.count(), texts_of(book)
    for n in range(3):
        edit(corpus_copy, "mpbs/en/9.md", OLD_EN if n == 0 else f"A unit may quokkafy{n - 1}",
             f"A unit may quokkafy{n}")
        load_corpus()
    book.refresh_from_db()
    assert book.revision == 4
    assert TextVersion.objects.count() == rows + 3  # not 3 × texts (= 3 × {texts})
    assert texts > 50


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_an_existing_database_its_first_revision(corpus_copy):
    from django.core.management import call_command

    load_corpus(force=True)
    call_command("migrate", "reference", "0006", verbosity=0)  # a database from before book revisions, with data
    call_command("migrate", verbosity=0)  # every app again: the others' migrations that need the newer ones too
    for book in Book.objects.all():
        assert book.revision == 1
        first = BookRevision.objects.get(book=book)
        assert (first.number, first.origin, first.added) == (1, "existing", texts_of(book))
        assert TextVersion.objects.filter(book=book, since=1, until__isnull=True).count() == texts_of(book)
    load_corpus()  # nothing changed since: still revision 1
    assert mpbs().revision == 1
    edit(corpus_copy, "mpbs/en/9.md", OLD_EN, "A unit may quokkafy")
    load_corpus()
    assert mpbs().revision == 2 and BookRevision.objects.get(book=mpbs(), number=2).changed == 1


def test_the_revision_lists_name_the_reviewer_who_approved(client, reviewer):
    """Who approved a translation is said wherever the revision is listed, in the reader's language."""
    save("9.3.2", reviewer, title="Procedure", body="An approved new text.", status=Status.APPROVED)
    for lang, words, other in (("en", "a translation approved by rita", "утвердил"),
                               ("ru", "перевод, утверждённый rita", "approved by")):
        for url in (f"/{lang}/rules/mpbs/changes/", f"/{lang}/rules/mpbs/9.3.2/history/"):
            page = client.get(url).content.decode()
            assert words in page and other not in page, url
    feed = client.get("/en/rules/mpbs/changes/feed/").content.decode()
    assert "a translation approved by rita" in feed
