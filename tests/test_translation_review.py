"""Safe review: an edit never publishes by default, and approving a text with QA errors needs a visible confirmation
that names the errors (issue #13, "a translator's edit published by accident").

The oracle is the issue's story: a reviewer opens the editor of a published section, changes a number and a section
reference ("five hexes", "9.1.4" where the source says 2 and 11.4.5), and presses Save without touching the status
menu. The public page must not change.
"""
from __future__ import annotations

import re

import pytest
from test_translation_support import editor_data, editor_url, item

from rulesref.reference.models import SectionText
from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
SID = "11.4.5"


def form_defaults(html: str) -> dict:
    """What a browser would post for the editor form as loaded: every field's value and the selected status."""
    data = {}
    for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', html):
        data[name] = value
    for name, text in re.findall(r'<textarea name="(p\d+)"[^>]*>\n?(.*?)</textarea>', html, re.S):
        data[name] = text.replace("&quot;", '"').replace("&#x27;", "'").replace("&lt;", "<").replace(
            "&gt;", ">").replace("&amp;", "&")
    title = re.search(r'<input type="text" name="title" value="([^"]*)"', html)
    data["title"] = title.group(1).replace("&#x27;", "'").replace("&amp;", "&") if title else ""
    select = re.search(r'<select name="status"[^>]*>(.*?)</select>', html, re.S).group(1)
    chosen = re.search(r'<option value="(\w+)"[^>]*selected', select)
    data["status"] = chosen.group(1) if chosen else re.search(r'<option value="(\w+)"', select).group(1)
    return data


def published_body() -> str:
    return SectionText.objects.get(section__book__slug="mpbs", section__sid=SID, language="en").body


def break_numbers(text: str) -> str:
    """The issue's accident: a changed number and a wrong section reference."""
    assert "2 hexes" in text and "11.4.5" not in text
    return text.replace("2 hexes", "five hexes", 1).replace("only 1", "only 9.1.4", 1)


def test_a_reviewers_plain_save_of_a_published_text_does_not_publish_it(rita):
    before = published_body()
    html = rita.get(editor_url(SID)).content.decode()
    data = form_defaults(html)
    assert data["status"] != Status.APPROVED  # the menu never defaults to "approved"
    data["p1"] = break_numbers(data["p1"])
    response = rita.post(editor_url(SID), data)
    assert response.status_code == 302
    assert published_body() == before  # the public page still says what it said
    t = item(SID).translation
    assert t.status == Status.REVIEW and "five hexes" in t.body


def test_the_default_status_follows_the_role_and_the_state(tina, rita, translator):
    assert form_defaults(tina.get(editor_url(SID)).content.decode())["status"] == Status.DRAFT  # approved text
    assert form_defaults(rita.get(editor_url(SID)).content.decode())["status"] == Status.REVIEW
    tina.post(editor_url(SID), editor_data(SID, status=Status.REVIEW))  # submitted for review
    assert form_defaults(tina.get(editor_url(SID)).content.decode())["status"] == Status.REVIEW
    assert form_defaults(rita.get(editor_url(SID)).content.decode())["status"] == Status.REVIEW
    tina.post(editor_url(SID), editor_data(SID, status=Status.DRAFT))
    assert form_defaults(rita.get(editor_url(SID)).content.decode())["status"] == Status.DRAFT


def test_approving_with_qa_errors_asks_for_a_confirmation_naming_them(rita):
    before = published_body()
    data = form_defaults(rita.get(editor_url(SID)).content.decode())
    data["p1"] = break_numbers(data["p1"])
    data["status"] = Status.APPROVED
    response = rita.post(editor_url(SID), data)
    html = response.content.decode()
    assert response.status_code == 409
    assert published_body() == before and item(SID).translation.revisions.count() == 1
    box = html.split('id="approve-errors"', 1)[1].split("</section>", 1)[0]
    assert "“2” in the source, not in the translation" in box  # the numbers check, by name
    assert "Reference “9.1.4” in the translation, not in the source" in box  # the references check
    assert "five hexes" in html  # the reviewer's text is kept in the form
    token = re.search(r'name="confirm_errors" value="([0-9a-f]+)"', box).group(1)

    # a confirmation given for other errors (the text changed since) does not count
    other = dict(data, p1=data["p1"].replace("five hexes", "six hexes"), confirm_errors=token)
    assert rita.post(editor_url(SID), other).status_code == 409 and published_body() == before

    confirmed = dict(data, confirm_errors=token)
    response = rita.post(editor_url(SID), confirmed)
    assert response.status_code == 302
    assert "five hexes" in published_body()
    revision = item(SID).translation.revisions.first()
    assert revision.status == Status.APPROVED and len(revision.confirmed_errors) == 3
    history = rita.get(f"/en/translate/mpbs/{SID}/revisions/").content.decode()
    assert "3 QA errors confirmed" in history and "Reference “9.1.4” in the translation, not in the source" in history
    russian = rita.get(f"/ru/translate/mpbs/{SID}/revisions/").content.decode()
    assert "Reference “9.1.4”" not in russian  # shown in the reader's language


def test_approving_a_clean_text_needs_no_confirmation(rita):
    data = editor_data(SID, status=Status.APPROVED, title="Units that cannot retreat")
    assert rita.post(editor_url(SID), data).status_code == 302
    assert SectionText.objects.get(section__book__slug="mpbs", section__sid=SID, language="en").title == \
        "Units that cannot retreat"


def test_restoring_as_approved_with_errors_asks_for_the_same_confirmation(rita, reviewer):
    data = form_defaults(rita.get(editor_url(SID)).content.decode())
    data["p1"] = break_numbers(data["p1"])
    rita.post(editor_url(SID), data)  # saved for review: revision 2, with errors
    rita.post(editor_url(SID), editor_data(SID, status=Status.DRAFT, blocks=["A clean draft."]))  # revision 3
    before = published_body()
    t = item(SID).translation
    response = rita.post(f"/en/translate/mpbs/{SID}/revisions/2/restore/", {"version": t.version, "status": "approved"})
    assert response.status_code == 409 and published_body() == before
    token = re.search(r'name="confirm_errors" value="([0-9a-f]+)"', response.content.decode()).group(1)
    response = rita.post(f"/en/translate/mpbs/{SID}/revisions/2/restore/",
                         {"version": t.version, "status": "approved", "confirm_errors": token})
    assert response.status_code == 302 and "five hexes" in published_body()
