"""Property tests: arbitrary Unicode (lone surrogates, NUL and every other category included) fed to each place a
visitor can put text (the API, the checker's upload and forms, search, the translator's editor) never gets a 5xx,
and never leaves text that cannot be stored in the database. They run on SQLite and on PostgreSQL like the rest."""
from __future__ import annotations

import io
import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from test_translation_support import client_for, editor_data, editor_url, make_user

from rulesref.checker import books
from rulesref.checker.models import Draft, SavedScenario
from rulesref.security import text
from rulesref.translation.models import Revision, Translation

pytestmark = pytest.mark.django_db

ANY_CHARACTER = st.one_of(st.characters(exclude_categories=()), st.sampled_from("\x00\ud800\udbff\udc00\udfff\ufeff"))
ANY_TEXT = st.text(alphabet=ANY_CHARACTER, max_size=24)
PROPERTY = settings(max_examples=30, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
BASE = {k: v for k, v in books.example("mpbs", "interception-example-9.3").data.items() if k != "questions"}


def as_json(value) -> str:
    """JSON text as a client may send it: any string, lone surrogates as \\uXXXX escapes."""
    return json.dumps(value, ensure_ascii=True)


def form_body(fields: dict[str, str]) -> bytes:
    """A form body as raw bytes: any text, surrogates as their (invalid) UTF-8 bytes."""
    return "&".join(f"{quote(k.encode('utf-8', 'surrogatepass'))}={quote(v.encode('utf-8', 'surrogatepass'))}"
                    for k, v in fields.items()).encode("ascii")


def spoiled(where: str, value: str) -> dict:
    """The example scenario with ``value`` put in one place: a title, a unit's id, a key, a side."""
    data = json.loads(json.dumps(BASE))
    if where == "title":
        data["title"] = value
    elif where == "unit":
        data["units"][1]["id"] = value
    elif where == "key":
        data["map"][value] = 1
    else:
        data["units"][0]["side"] = value
    return data


def nothing_unstorable_stored() -> None:
    for model, fields in ((Draft, ("data", "origin")), (SavedScenario, ("data",))):
        for row in model.objects.values_list(*fields):
            assert text.problems(list(row)) == [], row
    for row in Translation.objects.values_list("title", "body"):
        assert text.problems(list(row)) == [], row
    for row in Revision.objects.values_list("title", "body", "comment"):
        assert text.problems(list(row)) == [], row


@PROPERTY
@given(value=ANY_TEXT, where=st.sampled_from(["title", "unit", "key", "side"]), param=ANY_TEXT)
def test_the_api_answers_any_text_in_json_never_a_5xx(client, value, where, param):
    body = as_json({"scenario": spoiled(where, value), "params": {"unit": param}})
    r = client.post("/api/v1/mpbs/rulings/can-intercept?lang=ru", body, content_type="application/json")
    assert r.status_code < 500 and r["Content-Type"] == "application/json"
    if text.first_unstorable(value + param) is not None:
        assert r.status_code == 422 and all(p["path"] for p in r.json()["problems"])


@PROPERTY
@given(value=ANY_TEXT, where=st.sampled_from(["title", "unit", "key", "side"]))
def test_an_upload_of_any_text_is_stored_only_when_it_can_be_and_its_pages_answer(client, value, where):
    f = io.BytesIO(as_json(spoiled(where, value)).encode("ascii"))
    f.name = "scenario.json"
    r = client.post("/en/checker/mpbs/", {"action": "upload", "up-file": f})
    assert r.status_code < 500
    nothing_unstorable_stored()
    if r.status_code == 303:
        for page in (r["Location"], r["Location"] + "&download=json"):
            assert client.get(page).status_code < 500


@PROPERTY
@given(fields=st.dictionaries(st.sampled_from(["place_side", "place_kind", "at", "paint", "d", "sel", "u-id", "x"]),
                              ANY_TEXT, max_size=4),
       action=st.sampled_from(["place", "click", "paint", "unit", "upload", "share", "nope", "wing-add"]))
def test_the_checkers_forms_take_any_text_without_a_5xx(client, fields, action):
    body = form_body({"action": action, **fields})
    for book in ("mpbs", "t9a"):
        r = client.post(f"/ru/checker/{book}/", body, content_type="application/x-www-form-urlencoded")
        assert r.status_code < 500
    assert client.get("/en/checker/mpbs/?" + form_body(fields).decode()).status_code < 500
    nothing_unstorable_stored()


@PROPERTY
@given(query=ANY_TEXT, book=st.sampled_from(["", "mpbs", "t9a", "x"]), lang=st.sampled_from(["", "ru", "en", "zz"]))
def test_search_answers_any_query_without_a_5xx(client, query, book, lang):
    qs = form_body({"q": query, "book": book, "in": lang}).decode()
    assert client.get(f"/en/search/?{qs}").status_code < 500
    assert client.get(f"/ru/search/?{qs}", HTTP_HX_REQUEST="true").status_code < 500
    assert client.get(f"/ru/glossary/mpbs/?{qs}").status_code < 500


@pytest.fixture
def tina_client(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return client_for(make_user("tina", "translators"))


@PROPERTY
@given(title=ANY_TEXT, paragraph=ANY_TEXT, comment=ANY_TEXT)
def test_the_translators_editor_takes_any_text_and_stores_only_what_can_be(tina_client, title, paragraph, comment):
    sid = "9.2.4"
    data = {k: str(v) for k, v in editor_data(sid, title=title, blocks=[paragraph], comment=comment).items()}
    for url in (editor_url(sid), f"/en/translate/mpbs/{sid}/qa/"):
        r = tina_client.post(url, form_body(data), content_type="application/x-www-form-urlencoded")
        assert r.status_code < 500
    nothing_unstorable_stored()


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | ANY_TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
                    max_leaves=20))
def test_the_json_reader_returns_only_storable_data_or_says_where_it_is_not(value):
    try:
        loaded = text.loads(as_json(value))
    except text.UnstorableText as exc:
        assert exc.problems and all(text.first_unstorable(p) is None for p, _m in exc.problems)
        return
    assert text.problems(loaded) == [] and loaded == value
