"""The translator's workspace as a new reviewer meets it (#30 point 7), without a browser: the conflict page marks
what differs in each text, a section's history does not say "not changed" above the revision that changed it, and
the dashboard's "last saved" of a text taken from the corpus files is when it was loaded, not when the dashboard
was first opened. (The approval's confirmation in view is in test_first_minutes_browser.py.)"""
from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from test_translation_support import client_for, item, save

from rulesref.reference.models import BookRevision
from rulesref.translation.models import Status, Translation

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def test_the_conflict_page_marks_what_differs_in_each_text(translator, reviewer):
    start = item("11.4.10").translation.version
    save("11.4.10", reviewer, body="The unit retreats two hexes.", base_version=start)
    kept = save("11.4.10", translator, body="The unit retreats three hexes.", base_version=start).revision
    html = client_for(translator).get(f"/en/translate/mpbs/11.4.10/conflict/{kept.number}/").content.decode()
    theirs, mine = re.findall(r'<div class="pre-box diff" lang="en">(.*?)</div>', html, re.S)
    assert "<del>two</del>" in theirs and "<ins>" not in theirs
    assert "<ins>three</ins>" in mine and "<del>" not in mine
    assert "Struck out: in their text only. Underlined: in yours only." in html


def test_the_history_does_not_say_unchanged_above_a_revision_that_changed_the_other_language(reviewer):
    """«Текст не менялся с тех пор, как был опубликован» stood right above the revision that changed it."""
    it = item("11.4.10")
    result = save("11.4.10", reviewer, body=it.translation.body + " Approved again.", status=Status.APPROVED)
    assert not result.conflict
    html = client_for(reviewer).get("/ru/rules/mpbs/11.4.10/history/").content.decode()
    assert "Текст не менялся с тех пор, как был опубликован" not in html
    assert "Русский текст не менялся с тех пор, как был опубликован. " \
           "Остальные редакции ниже меняли текст на другом языке." in html
    assert len(re.findall(r'<li id="revision-\d+">', html)) == 2


def test_a_text_from_the_corpus_files_was_last_saved_when_it_was_loaded(translator):
    """Every dashboard row claimed it was last saved when the dashboard was first opened, "from the corpus
    files"."""
    Translation.objects.filter(section__book__slug="mpbs", language="en").delete()
    BookRevision.objects.filter(book__slug="mpbs").update(created=datetime(2024, 1, 2, 9, 30, tzinfo=timezone.utc))
    html = client_for(translator).get("/en/translate/mpbs/").content.decode()
    cells = re.findall(r"<td>([^<]*) · <span class=\"muted\">corpus files</span></td>", html)
    assert cells and all("2024" in c for c in cells), cells[:3]
    t = Translation.objects.filter(section__book__slug="mpbs", language="en", status=Status.APPROVED).first()
    assert t.updated_at.year == 2024 and t.revisions.get(number=1).created.year == 2024
