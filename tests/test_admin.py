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
