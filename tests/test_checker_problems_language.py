"""A scenario's problems reach the reader in his language: on the checker's pages, from the API with ?lang=ru, and
from ``manage.py ruling --lang ru``."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rulesref.checker.models import Draft
from tests.test_checker_board import two_units as two_unit_scenario

pytestmark = pytest.mark.django_db


def two_units() -> dict:
    return two_unit_scenario()[0]


def test_a_refused_board_edit_says_why_in_russian(client):
    draft = Draft.make("t9a", two_units(), None)
    r = client.post("/ru/checker/t9a/", {"d": draft.key, "sel": "red-1", "action": "board-move",
                                         "x": 24, "y": 29, "facing": 0})
    page = r.content.decode()
    assert r.status_code == 422
    assert "перекрывает" in page and "overlaps" not in page
    r = client.post("/en/checker/t9a/", {"d": draft.key, "sel": "red-1", "action": "board-move",
                                         "x": 24, "y": 29, "facing": 0})
    assert "overlaps" in r.content.decode()


def test_an_uploaded_file_with_a_bad_field_is_explained_in_russian(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = two_units()
    data["board"]["width"] = -1
    upload = SimpleUploadedFile("bad.json", json.dumps(data).encode(), content_type="application/json")
    page = client.post("/ru/checker/t9a/", {"action": "upload", "up-file": upload}).content.decode()
    assert "значение должно быть больше 0" in page


def test_the_api_gives_problems_in_the_language_asked(client):
    data = two_units()
    data["units"][1]["centre"] = [25, 8]
    body = json.dumps({"scenario": data, "params": {"charger": "red-1", "target": "blue-1"}})
    url = "/api/v1/t9a/rulings/can-charge"
    english = client.post(url, body, content_type="application/json").json()
    russian = client.post(url + "?lang=ru", body, content_type="application/json").json()
    assert [p["path"] for p in english["problems"]] == [p["path"] for p in russian["problems"]]
    assert "overlaps" in english["problems"][0]["message"] and "перекрывает" in russian["problems"][0]["message"]


def test_the_ruling_command_lists_problems_in_russian(tmp_path):
    data = two_units()
    data["units"][1]["centre"] = [25, 8]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("ruling", "t9a", "can-charge", str(path), "--param", "charger=red-1", "--param",
                     "target=blue-1", "--lang", "ru", stdout=StringIO(), stderr=err)
    assert "перекрывает" in json.loads(err.getvalue())["problems"][0]["message"]
