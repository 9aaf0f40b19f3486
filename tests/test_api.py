"""The read API under /api/v1/ (#32 point 2): the rulebooks, their contents, sections as text and HTML with their
references resolved, revisions and word diffs, glossaries, search and rulings; cached and conditional (ETag,
Last-Modified, Cache-Control: a conditional GET answers 304), CORS for reading, rate-limited like the rest, in the
OpenAPI document."""
from __future__ import annotations

import pytest
from rulings_support import ANSWER_EN, QUESTION_EN, change_source, make

from django.db.models import F

from rulesref.api import http as api_http
from rulesref.reference.models import Reference

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
BASE = "/api/v1"


@pytest.fixture(autouse=True)
def fresh_api_cache():
    api_http.clear()
    yield
    api_http.clear()


def get(client, path, **headers):
    return client.get(f"{BASE}{path}", **headers)


def test_books_and_a_books_contents(client):
    books = get(client, "/books").json()["books"]
    assert [b["slug"] for b in books] == ["mpbs", "t9a"]
    mpbs = books[0]
    assert mpbs["title"]["ru"] and mpbs["source_language"] == "ru" and mpbs["revision"] >= 1
    assert mpbs["api"]["contents"] == "http://testserver/api/v1/books/mpbs/contents"
    contents = get(client, "/books/mpbs/contents?limit=5&offset=2").json()
    assert contents["offset"] == 2 and len(contents["sections"]) == 5 and contents["total"] > 30
    first = get(client, "/books/mpbs/contents?limit=1").json()["sections"][0]
    assert first["parent"] is None and first["pages"]["en"].startswith("http://testserver/en/rules/mpbs/")


def test_a_section_in_either_language_as_text_and_html(client):
    ru = get(client, "/books/mpbs/sections/9.3.1").json()
    assert ru["language"] == "ru" and ru["text"].startswith("Неактивное кавалерийское")
    missing = {r["target"]: r for r in ru["references"]}["10.9.3b"]  # a rule the corpus lacks: said so, not linked
    assert missing["section"] is None and 'class="ref ref-missing"' in ru["html"]
    ref = Reference.objects.filter(source__book__slug="mpbs", language="ru", target__isnull=False).exclude(
        source=F("target")).select_related("source", "target").first()
    linked = get(client, f"/books/mpbs/sections/{ref.source.sid}").json()
    assert f'href="http://testserver/ru/rules/mpbs/{ref.target.sid}/' in linked["html"]  # resolved, absolute
    assert any(r["section"] == ref.target.sid and r["url"] for r in linked["references"])
    en = get(client, "/books/mpbs/sections/9. 3. 1?lang=en").json()  # any printed form of the number
    assert en["id"] == "9.3.1" and en["language"] == "en" and en["translated"]
    assert en["previous"] and en["next"] and en["parent"] == "9.3"


def test_revisions_and_word_diffs(client):
    revision = change_source("9.3.1", "еще не пыталось", "еще ни разу не пыталось")
    listed = get(client, "/books/mpbs/sections/9.3.1/revisions").json()
    assert listed["revisions"][0]["number"] == revision and listed["revisions"][0]["languages"] == ["ru"]
    diff = get(client, "/books/mpbs/sections/9.3.1/diff").json()
    assert (diff["to"], diff["same"]) == (revision, False)
    assert any(op["op"] == "insert" and "ни разу" in op["text"] for op in diff["text"]["ops"])
    assert "<ins>" in diff["text"]["html"]
    then = get(client, f"/books/mpbs/sections/9.3.1/revisions/{revision - 1}").json()
    assert "еще не пыталось" in then["text"]


def test_glossary_search_and_rulings(client, reviewer):
    terms = get(client, "/books/mpbs/glossary").json()["terms"]
    assert any(t["id"] == "cavalry" for t in terms)
    jump = get(client, "/search?q=9.3.1").json()
    assert jump["jump"]["url"] == "http://testserver/en/rules/mpbs/9.3.1/"
    words = get(client, "/search?q=перехватить&lang=ru").json()
    assert words["groups"][0]["hits"][0]["id"] == "9.3.1"  # the site's ranking: the clause on who may intercept
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    listed = get(client, "/books/mpbs/rulings?lang=en&section=9.3.1").json()
    assert listed["total"] == 1 and listed["rulings"][0]["question"] == QUESTION_EN
    one = get(client, "/books/mpbs/rulings/1").json()
    assert one["language"] == "ru" and one["citations"][0]["clause"] == "9.3.1f" and not one["outdated"]
    assert get(client, "/books/mpbs/sections/9.3.1").json()["rulings"][0]["number"] == 1


def test_a_conditional_get_answers_304_until_the_content_changes(client, reviewer):
    first = get(client, "/books/mpbs/sections/9.3.1")
    etag, modified = first["ETag"], first["Last-Modified"]
    assert first["Cache-Control"] == "public, max-age=60"
    again = get(client, "/books/mpbs/sections/9.3.1", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert get(client, "/books/mpbs/sections/9.3.1", HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    make(reviewer)  # a ruling on it is published: the answer changes
    changed = get(client, "/books/mpbs/sections/9.3.1", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag and changed.json()["rulings"]


def test_an_answer_is_computed_once_per_content_version(client, django_assert_max_num_queries):
    get(client, "/books/mpbs/sections/9.3.1?lang=en")
    with django_assert_max_num_queries(1):  # the books' versions: the body comes from the cache
        assert get(client, "/books/mpbs/sections/9.3.1?lang=en").status_code == 200


def test_cors_for_reading(client):
    response = get(client, "/books/mpbs", HTTP_ORIGIN="https://army-builder.example")
    assert response["Access-Control-Allow-Origin"] == "*" and "ETag" in response["Access-Control-Expose-Headers"]
    preflight = client.options(f"{BASE}/books/mpbs", HTTP_ORIGIN="https://army-builder.example",
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match")
    assert preflight.status_code == 204 and "If-None-Match" in preflight["Access-Control-Allow-Headers"]
    refused = client.post(f"{BASE}/books/mpbs", {})
    assert refused.status_code == 405 and refused["Allow"] == "GET, HEAD, OPTIONS"


@pytest.mark.parametrize("path, where", [
    ("/books/mpbs/sections/9.3.1?lang=de", "query.lang"),
    ("/books/mpbs/contents?limit=0", "query.limit"),
    ("/books/mpbs/contents?offset=x", "query.offset"),
    ("/search", "query.q"),
    ("/search?q=a&page=9", "query.page"),
    ("/books/mpbs/sections/9.3.1/diff?from=999", "query.from"),
])
def test_bad_parameters_are_refused_at_their_path(client, path, where):
    response = get(client, path)
    assert response.status_code == 422 and response.json()["problems"][0]["path"] == where


@pytest.mark.parametrize("path", ["/books/nope", "/books/mpbs/sections/99.9", "/books/mpbs/rulings/7",
                                  "/books/mpbs/sections/9.3.1/revisions/99999", "/books/mpbs/rulings/99999999999999"])
def test_unknown_things_are_404_in_json(client, path):
    response = get(client, path)
    assert response.status_code == 404 and "error" in response.json()


@pytest.mark.rate_limits
def test_the_read_api_is_rate_limited_per_address(client, settings):
    settings.RULESREF_RATE_LIMITS = {**settings.RULESREF_RATE_LIMITS, "read-api": "3/m"}
    statuses = [get(client, "/books").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = get(client, "/books")
    assert refused["Retry-After"] and refused["Access-Control-Allow-Origin"] == "*"


def test_the_openapi_document_validates_and_describes_the_read_api(client):
    """Against the OpenAPI 3.1 meta-schema (the one Schemathesis ships), and each schema in it against JSON Schema
    2020-12."""
    import jsonschema
    from schemathesis.specs.openapi.definitions import OPENAPI_31_VALIDATOR

    document = client.get(f"{BASE}/openapi.json").json()
    assert [str(e) for e in OPENAPI_31_VALIDATOR.iter_errors(document)] == []
    for schema in document["components"]["schemas"].values():
        jsonschema.Draft202012Validator.check_schema(schema)
    assert "/api/v1/books/{book}/sections/{section}" in document["paths"]
    assert "Ruling" in document["components"]["schemas"]  # the engine's, beside the published rulings'
