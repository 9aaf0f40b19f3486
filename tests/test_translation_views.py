"""The workspace's pages: who may see and change what (every write URL), CSRF, the editor, dashboard, revisions,
diff, restore, conflict page, QA dismissal and live QA, and bad input that gets a clear answer, never a 500."""
from __future__ import annotations

import re
from html import escape

import pytest
from django.test import Client
from test_translation_support import (
    PASSWORD,
    client_for,
    editor_data,
    editor_url,
    item,
    save,
    without_translation,
)

from rulesref.reference.models import SectionText
from rulesref.translation.models import QAResult, Revision, Status, Translation

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
SID = "11.4.10"


def write_requests(revision_number: int = 1, qa_pk: int = 1) -> list[tuple[str, str, dict]]:
    """Every URL that changes something, with a plausible body."""
    data = editor_data(SID, title="Changed", status="draft")
    return [
        ("post", editor_url(SID), data),
        ("post", f"/en/translate/mpbs/{SID}/qa/", data),
        ("post", f"/en/translate/mpbs/{SID}/qa/{qa_pk}/dismiss/", {}),
        ("post", f"/en/translate/mpbs/{SID}/revisions/{revision_number}/restore/", {"version": 1, "status": "draft"}),
        ("post", "/en/translate/mpbs/+import/", {"status": "draft"}),
        ("post", "/ru/translate/mpbs/9.3.1/", editor_data("9.3.1", status="draft")),
    ]


READ_URLS = ["/en/translate/", "/en/translate/mpbs/", editor_url(SID), f"/en/translate/mpbs/{SID}/revisions/",
             f"/en/translate/mpbs/{SID}/revisions/1/", f"/en/translate/mpbs/{SID}/diff/",
             "/en/translate/mpbs/+export/po/", "/en/translate/mpbs/+export/xliff/", "/en/translate/mpbs/+import/"]


def snapshot():
    return (Revision.objects.count(), list(Translation.objects.values_list("version", "title", "body")),
            list(SectionText.objects.order_by("pk").values_list("title", "body")),
            list(QAResult.objects.values_list("dismissed", flat=True)))


def prepare():
    item(SID, qa=True)  # translations and QA results exist
    return Revision.objects.get(translation__section__sid=SID, number=1).number, QAResult.objects.first().pk


def test_anonymous_users_can_change_nothing_and_are_sent_to_sign_in(client):
    number, qa_pk = prepare()
    before = snapshot()
    for method, url, data in write_requests(number, qa_pk):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302 and "/accounts/login/?next=" in response["Location"], url
    for url in READ_URLS:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    assert snapshot() == before


def test_a_signed_in_user_who_is_not_a_translator_is_refused(outsider):
    number, qa_pk = prepare()
    client = client_for(outsider)
    before = snapshot()
    for method, url, data in write_requests(number, qa_pk):
        assert getattr(client, method)(url, data).status_code == 403, url
    for url in READ_URLS:
        assert client.get(url).status_code == 403, url
    assert snapshot() == before


def test_every_write_url_needs_the_csrf_token(translator):
    number, qa_pk = prepare()
    client = client_for(translator, enforce_csrf_checks=True)
    before = snapshot()
    for method, url, data in write_requests(number, qa_pk):
        assert getattr(client, method)(url, data).status_code == 403, url
    assert client.post("/en/accounts/logout/").status_code == 403
    assert snapshot() == before
    # and every form of the workspace carries it
    for url in (editor_url(SID), "/en/translate/mpbs/+import/", f"/en/translate/mpbs/{SID}/revisions/1/"):
        html = client.get(url).content.decode()
        assert html.count('method="post"') <= html.count('name="csrfmiddlewaretoken"'), url


def test_write_urls_refuse_get(tina):
    prepare()
    for url in (f"/en/translate/mpbs/{SID}/qa/", f"/en/translate/mpbs/{SID}/qa/1/dismiss/",
                f"/en/translate/mpbs/{SID}/revisions/1/restore/"):
        assert tina.get(url).status_code == 405, url


def test_readers_header_has_no_user_data_and_signed_in_header_has_a_sign_out_form(client, tina):
    html = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert 'href="/en/accounts/login/"' in html and "Sign in" in html
    assert "csrfmiddlewaretoken" not in html and "tina" not in html
    html = tina.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert 'href="/en/translate/"' in html and "tina" in html
    assert re.search(r'<form method="post" action="/en/accounts/logout/"><input type="hidden" name="csrfmiddlewaretoken"', html)


def test_sign_in_and_out(translator):
    client = Client()
    page = client.get("/en/accounts/login/?next=/en/translate/mpbs/")
    assert page.status_code == 200 and b'name="password"' in page.content
    wrong = client.post("/en/accounts/login/", {"username": "tina", "password": "nope"})
    assert wrong.status_code == 200 and b"do not match" in wrong.content
    response = client.post("/en/accounts/login/?next=/en/translate/mpbs/",
                           {"username": "tina", "password": PASSWORD, "next": "/en/translate/mpbs/"})
    assert response.status_code == 302 and response["Location"] == "/en/translate/mpbs/"
    assert client.get("/en/translate/mpbs/").status_code == 200
    assert client.post("/en/accounts/logout/").status_code == 302
    assert client.get("/en/translate/mpbs/").status_code == 302


def test_dashboard_shows_progress_and_filters(tina):
    without_translation("9.3.2")
    html = tina.get("/en/translate/mpbs/").content.decode()
    assert 'class="stacked-bar"' in html and "Progress by words" in html
    assert 'aria-label="Progress by sections"><rect class="seg st-missing" y="0" height="1" x="0.000" width="2.778">' \
           "<title>missing: 1 (3%)</title></rect>" in html and "<title>approved: 35 (97%)</title>" in html
    assert re.search(r'<a href="\?status=approved">approved</a></th>\s*<td>35 <span class="muted">\(97%\)</span></td>',
                     html)  # approved sections: 35 of 36
    assert f'href="{editor_url("9.3.2")}"' in html and f'href="{editor_url(SID)}"' in html
    missing = tina.get("/en/translate/mpbs/?status=missing").content.decode()
    assert f'href="{editor_url("9.3.2")}"' in missing and f'href="{editor_url(SID)}"' not in missing
    consistency = tina.get("/en/translate/mpbs/?check=glossary-consistency").content.decode()
    assert f'href="{editor_url(SID)}"' in consistency and f'href="{editor_url("9.3.4")}"' not in consistency
    assert '<span lang="ru">Хиты формирования</span>' in consistency  # 11.4.10's title, as the source writes it
    odd = tina.get("/en/translate/mpbs/?status=nonsense&check=%3Cscript%3E")
    assert odd.status_code == 200 and "Unknown status" in odd.content.decode()
    assert "<script>" not in odd.content.decode().split("<main", 1)[1]


def test_editor_shows_source_and_translation_side_by_side_with_glossary_and_qa(tina):
    html = tina.get(editor_url(SID)).content.decode()
    assert 'lang="ru"' in html and "Хиты формирования" in html and 'name="title"' in html and 'name="p1"' in html
    assert 'value="Formation hits"' in html
    assert re.search(r'<mark class="term" title="formation hits: [^"]+">хиту формирования</mark>', html)
    assert "Required translation" in html and "formation hits" in html
    assert "Term spelt two ways" in html  # the seeds' "хиты формирования" / "хиты построения", by the check's name
    assert ">glossary-consistency<" not in html  # never the raw id
    assert '<option value="approved"' not in html  # a translator cannot approve


def test_saving_in_the_editor_makes_a_revision(tina, translator):
    data = editor_data(SID, title="Formation Hits", status="review", comment="capitalised")
    response = tina.post(editor_url(SID), data)
    assert response.status_code == 302 and response["Location"] == editor_url(SID)
    t = item(SID).translation
    assert (t.title, t.status, t.updated_by) == ("Formation Hits", Status.REVIEW, translator)
    rev = t.revisions.first()
    assert (rev.number, rev.comment, rev.author, rev.origin) == (2, "capitalised", translator, "editor")
    page = tina.get(editor_url(SID)).content.decode()
    assert "Saved as revision 2" in page


def test_a_translator_cannot_approve_but_a_reviewer_can(tina, rita):
    response = tina.post(editor_url(SID), editor_data(SID, status="approved"))
    assert response.status_code == 400 and b"Select a valid choice" in response.content
    assert item(SID).translation.revisions.count() == 1
    response = rita.post(editor_url(SID), editor_data(SID, title="Formation Hits", status="approved"))
    assert response.status_code == 302
    assert SectionText.objects.get(section__book__slug="mpbs", section__sid=SID, language="en").title == "Formation Hits"


@pytest.mark.parametrize("change, message", [
    ({"p1": "# Not a heading"}, "read it as a heading"),
    ({"p1": "One paragraph.\n\nAnother."}, "would split it in two"),
    ({"title": "Hits {#x}"}, "braces"),
    ({"version": "many"}, "Enter a whole number"),
    ({"paragraphs": "100000"}, "less than or equal to 400"),
    ({"status": "published"}, "Select a valid choice"),
])
def test_bad_editor_input_is_refused_with_a_clear_message_and_saves_nothing(tina, change, message):
    data = editor_data(SID)
    data.update(change)
    response = tina.post(editor_url(SID), data)
    assert response.status_code == 400 and message in response.content.decode()
    assert item(SID).translation.revisions.count() == 1
    if "p1" in change:  # the translator's text is still there to fix
        field = re.search(r'<textarea name="p1"[^>]*>\n?(.*?)</textarea>', response.content.decode(), re.S)
        assert field and field.group(1) == escape(change["p1"])  # exactly as typed, in its field


def test_a_gap_in_the_paragraphs_is_refused(tina):
    data = editor_data("9.2.4", blocks=["First.", "", "Third."])
    response = tina.post(editor_url("9.2.4"), data)
    assert response.status_code == 400 and "Paragraph 2 is empty but a later one is translated" in response.content.decode()


def test_a_stale_editor_save_leads_to_the_conflict_page(tina, rita, translator):
    stale = editor_data(SID, blocks=["Tina's version of the paragraph."], status="draft")
    assert rita.post(editor_url(SID), editor_data(SID, blocks=["Rita's version."], status="review")).status_code == 302
    response = tina.post(editor_url(SID), stale)
    kept = Revision.objects.get(translation__section__sid=SID, origin="conflict")
    assert response.status_code == 302 and response["Location"] == f"/en/translate/mpbs/{SID}/conflict/{kept.number}/"
    assert (kept.author, kept.applied, kept.body) == (translator, False, "Tina's version of the paragraph.")
    assert item(SID).translation.body == "Rita's version."
    page = tina.get(response["Location"])
    html = page.content.decode()
    assert page.status_code == 409
    unmarked = re.sub(r"</?(del|ins)>", "", html)  # each text is shown whole, what differs marked in it (#30)
    assert "Rita&#x27;s version." in unmarked and "Tina&#x27;s version of the paragraph." in unmarked
    assert "<del>" in html and "<ins>" in html
    # the merge form starts from Tina's text and the current version, so saving it now goes through
    current = item(SID).translation.version
    assert f'name="version" value="{current}"' in html
    merged = editor_data(SID, blocks=["Merged text."], status="review")
    assert tina.post(editor_url(SID), merged).status_code == 302
    assert item(SID).translation.body == "Merged text."


def test_history_diff_and_restore_pages(tina, translator):
    save(SID, translator, body="Second text, quite different.")
    save(SID, translator, body="Third text.")
    history = tina.get(f"/en/translate/mpbs/{SID}/revisions/").content.decode()
    assert all(f"r{n}</a>" in history for n in (1, 2, 3))
    diff = tina.get(f"/en/translate/mpbs/{SID}/diff/?a=2&b=3").content.decode()
    assert "<del>Second</del>" in diff and "<ins>Third</ins>" in diff
    default = tina.get(f"/en/translate/mpbs/{SID}/diff/")
    assert default.status_code == 200
    page = tina.get(f"/en/translate/mpbs/{SID}/revisions/1/").content.decode()
    assert "Restore this revision" in page
    version = item(SID).translation.version
    response = tina.post(f"/en/translate/mpbs/{SID}/revisions/1/restore/", {"version": version, "status": "review"})
    assert response.status_code == 302
    t = item(SID).translation
    assert t.revisions.first().number == 4 and t.body.startswith("If moving into a hex") and t.status == Status.REVIEW


@pytest.mark.parametrize("url", [
    "/en/translate/nobook/", f"/en/translate/mpbs/{SID}/revisions/99/", f"/en/translate/mpbs/{SID}/diff/?a=1&b=99",
    f"/en/translate/mpbs/{SID}/diff/?a=x&b=%3Cb%3E", "/en/translate/mpbs/99.99/", "/en/translate/mpbs/9/",
    "/en/translate/mpbs/+export/docx/", f"/en/translate/mpbs/{SID}/conflict/99/",
])
def test_odd_urls_get_a_clear_404(tina, url):
    response = tina.get(url)
    assert response.status_code == 404, url
    assert b"<b>" not in response.content


def test_unknown_section_says_what_is_missing(tina):
    html = tina.get("/en/translate/mpbs/99.99/").content.decode()
    assert "There is no 99.99 in the translation workspace of Musket &amp; Pike Battle Series: series rules" in html


def test_dismissing_a_qa_problem_and_showing_it_again(tina):
    result = next(r for r in item(SID, qa=True).qa if r.paragraph == 0)
    response = tina.post(f"/en/translate/mpbs/{SID}/qa/{result.pk}/dismiss/")
    assert response.status_code == 302
    assert QAResult.objects.get(pk=result.pk).dismissed
    html = tina.get(editor_url(SID)).content.decode()
    assert "1 dismissed problem" in html
    tina.post(f"/en/translate/mpbs/{SID}/qa/{result.pk}/dismiss/", {"undo": "1"})
    assert not QAResult.objects.get(pk=result.pk).dismissed
    assert tina.post(f"/en/translate/mpbs/9.3.1/qa/{result.pk}/dismiss/").status_code == 404  # not that section's


def test_live_qa_checks_the_text_being_typed_without_saving(tina):
    data = editor_data("9.2.3", blocks=["An enemy unit within three hexes (12.0) may react. Ещё текст."])
    response = tina.post("/en/translate/mpbs/9.2.3/qa/", data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section id="qa-panel"')
    assert "Cyrillic text left" in html and ">Numbers<" in html and "as typed, not saved" in html
    assert item("9.2.3").translation.revisions.count() == 1


def test_the_workspace_in_russian(tina):
    html = tina.get("/ru/translate/mpbs/").content.decode()
    assert '<html lang="ru">' in html and 'href="/ru/translate/mpbs/11.4.10/"' in html


def test_untrusted_translation_text_is_escaped_everywhere(tina, reviewer):
    payload = '<script>alert(1)</script><img src=x onerror=alert(2)> javascript:alert(3)'
    save(SID, reviewer, title=f"Hits {payload}"[:300].replace("{", "(").replace("}", ")"), body=f"Text {payload}",
         status=Status.APPROVED)
    save(SID, reviewer, body="Clean again.", status=Status.DRAFT)
    for url in (editor_url(SID), f"/en/translate/mpbs/{SID}/revisions/", f"/en/translate/mpbs/{SID}/revisions/2/",
                f"/en/translate/mpbs/{SID}/diff/?a=2&b=3", "/en/translate/mpbs/", "/en/rules/mpbs/11.4.10/"):
        html = tina.get(url).content.decode()
        assert "<script>alert" not in html and "<img src=x" not in html, url
