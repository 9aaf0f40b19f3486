"""Database work per reference page, counted (#11's uncached page in 5 ms; the brief's "pagecache._key doing a double
query"): a page the page cache holds costs one small query (the books' content versions, which make a cached page
never stale), and a page it lacks, once the book's index is built, costs that same one query and nothing more: the
page-cache key and the view share it. Counted with django_assert_num_queries, so the test does not depend on time."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rulesref.reference import pagecache

pytestmark = pytest.mark.django_db
URLS = ["/en/rules/mpbs/9.3.1/", "/ru/rules/mpbs/9.3.1/", "/ru/rules/mpbs/9.3.1/?view=parallel",
        "/en/rules/t9a/XIII.7.C/", "/ru/rules/mpbs/", "/en/glossary/mpbs/", "/ru/glossary/mpbs/hedgehog/"]


@pytest.mark.parametrize("url", URLS)
def test_a_page_the_cache_lacks_costs_one_query_once_the_index_is_built(client, url, django_assert_num_queries):
    assert client.get(url).status_code == 200  # builds the book's index and renders the texts
    pagecache.clear()
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 200


@pytest.mark.parametrize("url", URLS)
def test_a_cached_page_costs_one_query(client, url, django_assert_num_queries):
    assert client.get(url).status_code == 200
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 200


def test_the_one_query_reads_the_books_versions_and_a_change_is_seen_at_once(client):
    from rulesref.reference.models import Book

    url = "/en/rules/mpbs/9.3.1/"
    client.get(url)
    pagecache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    [query] = queries.captured_queries
    assert "version" in query["sql"].lower()
    Book.objects.get(slug="mpbs").bump_version()  # an edit approved elsewhere: the next page is built afresh
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    assert len(queries.captured_queries) > 1


@pytest.mark.django_db(transaction=True)
def test_that_query_is_the_connections_health_check_too(monkeypatch):
    """As production serves it (the WSGI handler, which ends and starts each request's connection checks): no
    request of a reference page sends Django's ``SELECT 1`` before the versions query (test_app_servers checks that
    a connection the database has cut is replaced all the same)."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    from rulesref.reference.loading import load_corpus

    load_corpus(force=True)
    handler, checks = WSGIHandler(), []
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or True)

    def get(path):
        status = []
        response = handler(RequestFactory().get(path).environ, lambda s, headers: status.append(s))
        response.close()  # ends the request: Django closes or keeps the connection, and checks it again next time
        return status[0]

    for url in ["/en/rules/mpbs/9.3.1/"] * 3 + URLS:
        assert get(url).startswith("200"), url
    assert checks == []
    assert get("/en/checker/mpbs/").startswith("200") and checks  # elsewhere Django's own check stays


# ---------------------------------------------------------------- the checker's links on a section page


@pytest.fixture
def scenarios(tmp_path, settings):
    """A writable copy of the example scenarios (and glossaries, which the pages read), settings pointing at it."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "fixtures"
    target = tmp_path / "fixtures"
    for part in ("scenarios", "glossary", "tables"):
        if (root / part).exists():
            shutil.copytree(root / part, target / part)
    settings.FIXTURES_DIR = target
    return target / "scenarios"


def test_checker_links_are_built_once_per_section_until_an_example_changes(scenarios, monkeypatch,
                                                                           django_assert_num_queries):
    import json

    from rulesref.checker import links
    from rulesref.reference.models import Book

    built = []
    monkeypatch.setattr(links, "_links", {})  # as a fresh process starts (the session's offline copies filled it)
    original = links._section_links
    monkeypatch.setattr(links, "_section_links", lambda *a: built.append(a[:3]) or original(*a))
    mpbs = Book.objects.get(slug="mpbs")
    first = links.section_links(mpbs, "9.3.7", "en")
    assert [link["kind"] for link in first] == ["example", "check", "coverage"]
    with django_assert_num_queries(0):  # the row passed in says the book's kind: no query
        for _ in range(5):
            assert links.section_links(mpbs, "9.3.7", "en") == first
    assert built == [("mpbs", "9.3.7", "en")]
    links.section_links(mpbs, "9.3.7", "ru")
    assert built[-1] == ("mpbs", "9.3.7", "ru")  # per language
    kinds = [link["kind"] for link in links.section_links(mpbs, "9.3.5", "en")]
    assert kinds == ["coverage"]  # no example of 9.3.5, no clause of it cited: only its row on the coverage map

    # A new example file reproducing 9.3.5's example: the next page shows it, without a restart.
    data = json.loads((scenarios / "mpbs" / "facing-cost.json").read_text(encoding="utf-8"))
    data["example_of"] = "9.3.5"
    (scenarios / "mpbs" / "drift-example.json").write_text(json.dumps(data), encoding="utf-8")
    found = links.section_links(mpbs, "9.3.5", "en")
    assert [link["kind"] for link in found] == ["example", "coverage"]
    assert "/en/checker/mpbs/examples/drift-example/" in found[0]["url"]
    # ... and a removed one disappears again
    (scenarios / "mpbs" / "drift-example.json").unlink()
    assert [link["kind"] for link in links.section_links(mpbs, "9.3.5", "en")] == ["coverage"]
    assert links.section_links(mpbs, "9.3.7", "en") == first


def test_a_book_of_kind_none_gets_no_checker_links_and_no_work(client, monkeypatch):
    from rulesref.checker import links
    from rulesref.reference.models import Book

    monkeypatch.setattr(links, "_section_links", lambda *a: pytest.fail("built links for a book without a checker"))
    book = Book.objects.get(slug="mpbs")
    book.kind = "none"
    assert links.section_links(book, "9.3.7", "en") == []


# ---------------------------------------------------------------- compression of a cached page, once per encoding


def test_a_page_is_compressed_once_per_encoding_and_never_twice_for_one_response(client, monkeypatch):
    import gzip

    import brotli

    calls = []
    original = pagecache._compress
    monkeypatch.setattr(pagecache, "_compress", lambda coding, body: calls.append(coding) or original(coding, body))
    url = "/en/rules/mpbs/9.3.1/"
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")  # rendered now, as a browser asks
    assert first["Content-Encoding"] == "br" and calls == ["br"]
    plain = client.get(url).content
    assert b"Eligibility" in plain and brotli.decompress(first.content) == plain and calls == ["br"]
    for _ in range(3):
        packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert packed["Content-Encoding"] == "gzip" and gzip.decompress(packed.content) == plain
    assert calls == ["br", "gzip"]  # the other encoding made when first asked for, then kept
    assert brotli.decompress(client.get(url, HTTP_ACCEPT_ENCODING="br").content) == plain
    assert calls == ["br", "gzip"]

    pagecache.clear()  # a page the cache lacks, asked for with gzip: compressed once, not again by GZipMiddleware
    fresh = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert fresh["Content-Encoding"] == "gzip" and gzip.decompress(fresh.content) == plain
    assert calls == ["br", "gzip", "gzip"] and fresh["Content-Length"] == str(len(fresh.content))
    assert "Accept-Encoding" in fresh["Vary"]
