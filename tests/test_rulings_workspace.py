"""Rulings in the translator's workspace (#32 point 1): a reader's rules question answered by a reviewer or a rules
editor, a ruling written directly, its translation with the workspace's statuses, QA and memory, its citations
confirmed after a change, and its permissions."""
from __future__ import annotations

import re

import pytest
from rulings_support import ANSWER_EN, ANSWER_RU, QUESTION_EN, QUESTION_RU, change_source, make
from test_translation_support import client_for, make_user

from rulesref.rulings.models import Ruling, RulingRevision
from rulesref.translation.models import MemoryEntry, Report, Status

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]
URL = "/en/translate/mpbs/+rulings/"


@pytest.fixture
def editor_user(db, fast_passwords):
    return make_user("ed", "rules-editors")


def new_data(**changes) -> dict:
    data = {"language": "ru", "citations": "9.3.1f", "question": QUESTION_RU, "answer": ANSWER_RU,
            "status": Status.APPROVED, "other_question": "", "other_answer": "", "other_status": Status.DRAFT,
            "checker": "", "comment": ""}
    return {**data, **changes}


def test_a_readers_rules_question_is_answered_with_a_ruling(client, rita):
    reader = client.post("/ru/report/mpbs/9.3.1/7/", {"kind": "rules", "message": QUESTION_RU})
    report = Report.objects.get()
    assert reader.status_code == 302 and report.kind == "rules"
    queue = rita.get(URL).content.decode()
    assert f"+rulings/new/?report={report.pk}" in queue  # the open question, with a way to answer it
    form = rita.get(f"{URL}new/?report={report.pk}").content.decode()
    assert 'value="9.3.1f"' in form and "второй раз за одну активацию" in form  # its clause, language and words
    answered = rita.post(f"{URL}new/", new_data(report=report.pk))
    ruling = Ruling.objects.get()
    assert answered.status_code == 302 and ruling.report == report and ruling.state == Ruling.State.PUBLISHED
    report.refresh_from_db()
    assert report.status == Report.State.FIXED and report.response == "Ответ дан в разъяснении 1."
    follow = client.get(reader["Location"]).content.decode()
    assert 'href="/ru/rules/mpbs/rulings/1/"' in follow  # the reader finds the answer from the follow page


def test_a_ruling_written_directly_with_its_translation(rita):
    response = rita.post(f"{URL}new/", new_data(other_question=QUESTION_EN, other_answer=ANSWER_EN,
                                                other_status=Status.APPROVED))
    ruling = Ruling.objects.get()
    assert response.status_code == 302 and response["Location"] == f"{URL}1/"
    english = ruling.texts.get(language="en")
    assert english.published_answer == ANSWER_EN and english.status == Status.APPROVED
    assert MemoryEntry.objects.filter(context="ruling:1:question", target=QUESTION_EN).exists()  # in the memory


def test_bad_citations_and_checker_links_are_refused_with_their_reason(rita):
    response = rita.post(f"{URL}new/", new_data(citations="9.3.1z"))
    assert response.status_code == 400 and "has no clause z)" in response.content.decode()
    response = rita.post(f"{URL}new/", new_data(checker="https://evil.example/en/checker/mpbs/s/nope/"))
    assert response.status_code == 400 and "No shared position nope" in response.content.decode()
    response = rita.post(f"{URL}new/", new_data(checker="javascript:alert(1)"))
    assert response.status_code == 400 and not Ruling.objects.exists()


def test_a_translator_translates_but_does_not_publish(tina, reviewer):
    make(reviewer)
    page = tina.get(f"{URL}1/").content.decode()
    assert 'name="which" value="source"' not in page  # the source is the rules editors'
    assert '<option value="approved"' not in page
    data = {"which": "target", "en-version": 0, "en-source_revision": "", "en-question": QUESTION_EN,
            "en-answer": ANSWER_EN, "en-status": Status.REVIEW, "en-comment": ""}
    assert tina.post(f"{URL}1/", data).status_code == 302
    target = Ruling.objects.get().texts.get(language="en")
    assert target.status == Status.REVIEW and not target.published_answer
    refused = tina.post(f"{URL}1/", {**data, "en-version": target.version, "en-status": Status.APPROVED})
    assert refused.status_code == 400
    assert tina.post(f"{URL}new/", new_data()).status_code == 403


def test_a_rules_editor_writes_rulings(editor_user):
    ed = client_for(editor_user)
    assert ed.post(f"{URL}new/", new_data()).status_code == 302
    assert Ruling.objects.get().state == Ruling.State.PUBLISHED


def test_the_editor_shows_qa_and_memory_for_the_translation(rita, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    make(reviewer, cite="9.3.1f", question=QUESTION_RU + " Даже кавалерия?", answer=ANSWER_RU)
    page = rita.get(f"{URL}2/").content.decode()
    assert f'class="tm-target" lang="en">{QUESTION_EN}<' in page  # the first ruling's translation is suggested
    live = rita.post(f"{URL}2/qa/", {"en-question": "May cavalry?", "en-answer": "No. Under 9.3.2 it may not."})
    assert live.status_code == 200 and "9.3.1" in live.content.decode()  # the numbers check notices 9.3.1f


def test_an_outdated_ruling_is_confirmed_in_the_workspace(rita, reviewer, client):
    make(reviewer)
    change_source("9.3.1", "еще не пыталось", "еще ни разу не пыталось")
    page = rita.get(f"{URL}1/").content.decode()
    assert "Confirm: it still holds" in page
    assert "may be outdated" in rita.get(f"{URL}?state=outdated").content.decode()
    assert rita.post(f"{URL}1/confirm/", {"comment": "still true"}).status_code == 302
    assert "may be outdated" not in client.get("/en/rules/mpbs/rulings/1/").content.decode()
    confirmation = RulingRevision.objects.get(origin=RulingRevision.Origin.CONFIRM)
    assert confirmation.comment == "still true"
    history = client.get("/en/rules/mpbs/rulings/1/history/").content.decode()
    assert re.search(r"confirmed against revision \d+ of the rules", history)


def test_withdrawn_rulings_keep_their_address_and_leave_the_clause(rita, reviewer, client):
    make(reviewer)
    assert rita.post(f"{URL}1/withdraw/").status_code == 302
    page = client.get("/en/rules/mpbs/rulings/1/")
    assert page.status_code == 200 and "has been withdrawn" in page.content.decode()
    assert "rulings-here" not in client.get("/en/rules/mpbs/9.3.1/").content.decode()


def test_outsiders_and_readers_are_kept_out(client, outsider):
    assert client.get(URL).status_code == 302  # to sign in
    assert client_for(outsider).get(URL).status_code == 403


def test_addtranslator_makes_a_rules_editor(monkeypatch):
    from django.contrib.auth.models import User
    from django.core.management import call_command

    monkeypatch.setenv("EDITOR_PASSWORD", "a-long-test-password-7")
    call_command("addtranslator", "eddie", "--rules-editor", "--password-env", "EDITOR_PASSWORD")
    from rulesref.rulings.permissions import can_rule

    assert can_rule(User.objects.get(username="eddie"))


def test_only_those_who_rule_are_offered_to_answer_a_question_with_a_ruling(client, tina, rita):
    client.post("/en/report/mpbs/9.3.1/7/", {"kind": "rules", "message": QUESTION_EN})
    assert "+rulings/new/?report=" in rita.get("/en/translate/mpbs/+reports/").content.decode()
    assert "+rulings/new/?report=" not in tina.get("/en/translate/mpbs/+reports/").content.decode()
    assert 'href="/en/translate/mpbs/+rulings/"' in tina.get("/en/translate/mpbs/").content.decode()


def test_a_ruling_points_to_a_checker_position_that_the_engine_asks_again(rita, client):
    import json
    from pathlib import Path

    from rulesref.checker.models import SavedScenario

    path = Path(__file__).resolve().parent.parent / "fixtures/scenarios/mpbs/interception-example-9.3.json"
    data = {k: v for k, v in json.loads(path.read_text(encoding="utf-8")).items() if k != "questions"}
    saved = SavedScenario.share("mpbs", data)
    link = f"https://rules.example/en/checker/mpbs/s/{saved.code}/?q=can-intercept&p-unit=CAV-1&evil=1"
    assert rita.post(f"{URL}new/", new_data(checker=link)).status_code == 302
    ruling = Ruling.objects.get()
    assert (ruling.checker_code, ruling.checker_query) == (saved.code, "q=can-intercept&p-unit=CAV-1")
    page = client.get("/ru/rules/mpbs/rulings/1/").content.decode()
    url = f"/ru/checker/mpbs/s/{saved.code}/?q=can-intercept&amp;p-unit=CAV-1"
    assert f'href="{url}"' in page
    shared = client.get(url.replace("&amp;", "&"))
    assert shared.status_code == 200 and "9.3.1" in shared.content.decode()  # the engine answers it again
