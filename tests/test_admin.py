"""The admin edits rulebooks, sections and texts; an edit shows on the site at once."""
import pytest
from django.contrib.auth.models import User

from rulesref.reference.models import Book, BookRevision, SectionText

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    user = User.objects.create_superuser("admin", "admin@example.org", "pw-admin-123")
    client.force_login(user)
    return client


@pytest.mark.parametrize("url", ["/admin/reference/book/", "/admin/reference/section/", "/admin/reference/sectiontext/",
                                 "/admin/reference/reference/", "/admin/reference/erratum/"])
def test_admin_lists(admin_client, url):
    assert admin_client.get(url).status_code == 200


def test_editing_a_text_in_the_admin_shows_on_the_page(admin_client, client):
    text = SectionText.objects.get(section__book__slug="mpbs", section__sid="9.3.5", language="en")
    before = client.get("/en/rules/mpbs/9.3.5/").content.decode()  # now cached
    assert "see 9.3.2 for the roll" not in before
    response = admin_client.post(f"/admin/reference/sectiontext/{text.pk}/change/", {
        "section": text.section_id, "language": "en", "title": text.title,
        "body": text.body + "\n\nAn added paragraph: see 9.3.2 for the roll.", "source_revision": text.source_revision,
    })
    assert response.status_code == 302
    admin_client.logout()
    after = client.get("/en/rules/mpbs/9.3.5/").content.decode()
    assert 'see <a class="ref" href="/en/rules/mpbs/9.3.2/"' in after
    referrers = client.get("/en/rules/mpbs/9.3.2/").content.decode()
    assert 'href="/en/rules/mpbs/9.3.5/"' in referrers.split("Referenced by")[1]
    # The edit is a revision of the book, shown in the section's history.
    book = Book.objects.get(slug="mpbs")
    revision = BookRevision.objects.get(book=book, number=book.revision)
    assert (revision.number, revision.origin, revision.languages, revision.changed) == (2, "admin", "en", 1)
    assert "changed in revision 2" in after
    assert "<ins>An added paragraph" in client.get("/en/rules/mpbs/9.3.5/history/").content.decode().replace(
        "<ins>¶<br><br>", "<ins>")


def test_readers_cannot_reach_the_admin(client):
    response = client.get("/admin/reference/sectiontext/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def _admin_section_form(section, **changes) -> dict:
    """The admin's change form of a section as a browser posts it: its fields and its inline texts, unchanged
    except for ``changes``."""
    texts = list(section.texts.order_by("pk"))
    data = {"book": section.book_id, "sid": section.sid, "parent": section.parent_id or "",
            "position": section.position, "depth": section.depth, "page": section.page or "",
            "texts-TOTAL_FORMS": len(texts), "texts-INITIAL_FORMS": len(texts),
            "texts-MIN_NUM_FORMS": 0, "texts-MAX_NUM_FORMS": 1000}
    for n, text in enumerate(texts):
        data.update({f"texts-{n}-id": text.pk, f"texts-{n}-section": section.pk, f"texts-{n}-language": text.language,
                     f"texts-{n}-title": text.title, f"texts-{n}-body": text.body,
                     f"texts-{n}-source_revision": text.source_revision})
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def test_renumbering_a_section_in_the_admin_resolves_the_references_to_both_numbers(admin_client):
    """The references that named the old number now name nothing the corpus has; those that named the new one (a
    section the corpus lacked) now reach it. Nothing else of the book's references is rewritten."""
    from rulesref.reference.models import Reference, Section

    book = Book.objects.get(slug="mpbs")
    section = Section.objects.get(book=book, sid="9.2.4")
    named_old = list(Reference.objects.filter(source__book=book, target_sid="9.2.4"))
    assert named_old and all(r.target_id == section.pk for r in named_old)
    newly = Reference.objects.filter(source__book=book, target_sid="10.9.3b")  # a clause of a section it lacks
    assert newly.exists() and not newly.filter(target__isnull=False).exists()
    untouched = {r.pk: (r.target_id, r.anchor) for r in Reference.objects.filter(source__book=book)
                 .exclude(target_sid__in=["9.2.4", "10.9.3b"]).exclude(source=section)}
    response = admin_client.post(f"/admin/reference/section/{section.pk}/change/",
                                 _admin_section_form(section, sid="10.9.3"))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert all(r.target_id is None for r in Reference.objects.filter(pk__in=[r.pk for r in named_old]))
    assert all(r.target_id == section.pk for r in newly)
    after = {r.pk: (r.target_id, r.anchor) for r in Reference.objects.filter(pk__in=untouched)}
    assert after == untouched, "an edit of one section rewrote other sections' references"


def test_deleting_a_section_in_the_admin_ends_its_history_and_its_subsections(admin_client):
    from rulesref.reference import history
    from rulesref.reference.models import Section

    book = Book.objects.get(slug="mpbs")
    section = Section.objects.get(book=book, sid="9.3")
    under = set(Section.objects.filter(book=book, sid__startswith="9.3.").values_list("sid", flat=True))
    assert under
    response = admin_client.post(f"/admin/reference/section/{section.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    book.refresh_from_db()
    for sid in {"9.3"} | under:
        assert history.text_at(book, sid, "ru", book.revision) is None, sid
        assert history.text_at(book, sid, "ru", book.revision - 1) is not None or sid == "9.3", sid
