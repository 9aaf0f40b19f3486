"""Compression on the wire: every HTML page, JSON answer and static file is gzip- or brotli-compressed for a client
that accepts it and plain for one that does not; a cached page is compressed once, not per request; a page with a
CSRF token gets Django's BREACH padding. (Over HTTP, through gunicorn, in test_app_servers.py.)"""
import gzip
import json

import brotli
import pytest

from rulesref.checker import books
from rulesref.reference.pagecache import accepted_encoding

pytestmark = pytest.mark.django_db

SECTION = "/en/rules/mpbs/9.3.1/"


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def decoded(response) -> bytes:
    data = body(response)
    coding = response.get("Content-Encoding", "")
    return gzip.decompress(data) if coding == "gzip" else brotli.decompress(data) if coding == "br" else data


@pytest.mark.parametrize("path", [SECTION, "/ru/rules/t9a/", "/en/glossary/mpbs/", "/en/search/?q=hedgehog", "/ru/",
                                  "/en/checker/mpbs/", "/en/accounts/login/"])
def test_html_is_gzipped_for_a_client_that_asks_and_plain_otherwise(client, path):
    plain = client.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    assert plain.content.lstrip().startswith(b"<!DOCTYPE html") or b"<html" in plain.content[:500]
    for _ in range(2):  # rendered, then (reference pages) from the page cache
        packed = client.get(path, HTTP_ACCEPT_ENCODING="gzip, deflate")
        assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
        assert len(body(packed)) < len(plain.content) * 0.6  # padding adds up to 100 bytes (BREACH, below)
        assert b"<html" in decoded(packed)[:500]


def test_a_cached_page_is_the_same_page_in_every_encoding(client):
    client.get(SECTION)
    plain = client.get(SECTION).content
    for accept, coding in [("gzip", "gzip"), ("br, gzip", "br"), ("gzip;q=0, identity", None), ("*", "br"),
                           ("br;q=0, *", "gzip"), ("", None)]:
        response = client.get(SECTION, HTTP_ACCEPT_ENCODING=accept)
        assert response.get("Content-Encoding") == coding, accept
        assert decoded(response) == plain
        assert int(response["Content-Length"]) == len(response.content)


def test_json_answers_are_compressed_for_a_client_that_asks():
    from django.test import Client

    example = books.example("mpbs", "interception-example-9.3")
    scenario = {k: v for k, v in example.data.items() if k != "questions"}
    data = json.dumps({"scenario": scenario, "params": {"unit": "CAV-1"}})
    url = "/api/v1/mpbs/rulings/can-intercept"
    plain = Client().post(url, data, content_type="application/json")
    packed = Client().post(url, data, content_type="application/json", HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert json.loads(decoded(packed)) == json.loads(plain.content)
    openapi = Client().get("/api/v1/openapi.json", HTTP_ACCEPT_ENCODING="gzip")
    assert openapi["Content-Encoding"] == "gzip"


@pytest.mark.parametrize("path", ["/static/rulesref/site.css", "/static/rulesref/site.js"])
def test_static_files_are_served_precompressed(client, path):
    plain = client.get(path)
    assert plain.status_code == 200 and "Content-Encoding" not in plain
    original = body(plain)
    for accept, coding in [("gzip", "gzip"), ("gzip, deflate, br", "br")]:
        packed = client.get(path, HTTP_ACCEPT_ENCODING=accept)
        assert packed["Content-Encoding"] == coding and "Accept-Encoding" in packed["Vary"]
        data = body(packed)
        assert (gzip.decompress(data) if coding == "gzip" else brotli.decompress(data)) == original
        assert len(data) < len(original)


def test_a_page_with_a_csrf_token_gets_breach_padding(client):
    """Django's GZipMiddleware writes a random-length file name into each gzip header (Heal the BREACH), so a
    token's compressed length says nothing; the token itself is masked afresh on every response too."""
    responses = [client.get("/en/accounts/login/", HTTP_ACCEPT_ENCODING="gzip") for _ in range(8)]
    assert all(body(r)[3] & 0x08 for r in responses)  # FNAME flag: the padding is there
    assert len({len(body(r)) for r in responses}) > 1


@pytest.mark.parametrize("header, expected", [
    ("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"), ("GZIP", "gzip"), ("deflate", ""), ("br;q=0.5, gzip", "br"),
    ("br;q=0, gzip;q=0", ""), ("identity", ""), ("*;q=0", ""), ("gzip;q=bogus", ""), (";;, ,", ""), ("\x00", ""),
])
def test_accept_encoding_is_read_as_http_says(header, expected):
    assert accepted_encoding(header) == expected


def test_a_cached_page_names_the_host_it_was_asked_on_never_the_offline_copys(client):
    """A page names its own absolute addresses (canonical, the other language's), so the cache keeps one per scheme
    and host; the offline copy, which renders every page for a host that is nobody's, puts none of them in it (they
    had been served to readers with offline-copy.invalid as their canonical address, and, with Redis, had filled the
    shared cache with a whole book's pages at every load)."""
    from rulesref.offline import bundle
    from rulesref.reference import pagecache
    from rulesref.reference.models import Book

    bundle.render(Book.objects.get(slug="mpbs"), "token")
    assert not any(key[1] == bundle.ORIGIN_HOST for key in pagecache._pages)
    for host in ("testserver", "localhost", "testserver", "localhost"):  # each host rendered, then from the cache
        page = client.get(SECTION, HTTP_HOST=host).content.decode()
        assert f'<link rel="canonical" href="http://{host}{SECTION}">' in page
        assert f'hreflang="ru" href="http://{host}/ru/rules/mpbs/9.3.1/"' in page
        assert bundle.ORIGIN_HOST not in page
    assert {key[1] for key in pagecache._pages if key[2] == SECTION} == {"testserver", "localhost"}
