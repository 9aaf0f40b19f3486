"""Several app servers on one PostgreSQL and one Redis (#11 point 6): two gunicorn servers, as docs/deploy.md runs
them, see each other's edits at once — pages, contents and search — and share the page cache; over HTTP every
page and static file is compressed for a client that accepts it.

The servers get a database of their own on the PostgreSQL server (made and dropped here, whatever database the
rest of the suite uses) and a Redis key prefix with this process's id (the machine's Redis is shared)."""
from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, Request, build_opener, urlopen

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402

REDIS_URL = os.environ.get("RULESREF_TEST_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "a-long-test-password"
SECTION = "/en/rules/mpbs/11.4.10/"


def redis_client():
    try:
        import redis
    except ImportError:
        return None
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError:
        return None
    return client


@pytest.fixture(scope="module")
def servers(require):
    """Two gunicorn servers (2 sync workers each) on one new PostgreSQL database with the corpus loaded, sharing
    Redis under a key prefix of their own."""
    require(harness.postgres_available(), f"PostgreSQL at {harness.postgres_server_url()}")
    redis = redis_client()
    require(redis is not None, f"Redis at {REDIS_URL}")
    prefix = f"rulesref-test-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    with harness.postgres_database() as url:
        env = harness.site_env(Path(tempfile.mkdtemp(prefix="rulesref-servers-")), url, REDIS_URL=REDIS_URL,
                               RULESREF_CACHE_PREFIX=prefix, TEST_PASSWORD=PASSWORD)
        for command in (["quickstart", "--no-serve"], ["addtranslator", "rita", "--reviewer", "--password-env",
                                                          "TEST_PASSWORD"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                           capture_output=True, timeout=300)
        try:
            with harness.gunicorn(env, workers=2, ready_path=SECTION) as a, \
                    harness.gunicorn(env, workers=2, ready_path=SECTION) as b:
                yield a, b, redis, prefix, url
        finally:
            keys = list(redis.scan_iter(f"{prefix}*"))
            if keys:
                redis.delete(*keys)


def get(url: str, accept_encoding: str = "", host: str = "") -> tuple[dict, str]:
    """A GET; ``host``: the Host header to send, as a load balancer in front of several servers passes one on."""
    headers = {"Accept-Encoding": accept_encoding} if accept_encoding else {}
    if host:
        headers["Host"] = host
    request = Request(url, headers=headers)
    with urlopen(request, timeout=30) as response:
        data = response.read()
        headers = {k.lower(): v for k, v in response.headers.items()}
    if headers.get("content-encoding") == "gzip":
        data = gzip.decompress(data)
    return headers, data.decode()


class FormFields(HTMLParser):
    """The fields of the page's post forms, as a browser would submit them (the first value of each name)."""

    def __init__(self):
        super().__init__()
        self.fields: dict[str, str] = {}
        self._textarea = self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name") and a.get("type") not in ("submit", "checkbox", "radio"):
            self.fields.setdefault(a["name"], a.get("value") or "")
        elif tag == "textarea":
            self._textarea = a.get("name")
            self.fields.setdefault(self._textarea, "")
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self.fields.setdefault(self._select, a.get("value", ""))

    def handle_endtag(self, tag):
        if tag == "textarea":
            self._textarea = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data):
        if self._textarea:
            self.fields[self._textarea] += data


def sign_in(base: str):
    opener = build_opener(HTTPCookieProcessor(CookieJar()))
    page = opener.open(base + "/en/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    opener.open(base + "/en/accounts/login/", urlencode(
        {"csrfmiddlewaretoken": token, "username": "rita", "password": PASSWORD, "next": "/en/translate/"}).encode())
    return opener


def approve(base: str, sid: str, title: str) -> None:
    """Change a section's English title and approve it, in the editor of the server at ``base``, as a reviewer."""
    opener = sign_in(base)
    editor = f"{base}/en/translate/mpbs/{sid}/"
    parser = FormFields()
    parser.feed(opener.open(editor).read().decode())
    fields = dict(parser.fields, title=title, status="approved", save="1")
    fields.pop("next", None)
    with opener.open(Request(editor, data=urlencode(fields).encode(), headers={"Referer": editor})) as response:
        assert response.status == 200 and "/accounts/login/" not in response.url


@pytest.mark.postgres
def test_an_edit_approved_on_one_server_is_seen_on_the_other_at_once(servers):
    a, b, *_ = servers
    for base in (a, b):  # both have the old page in their caches, and the old contents and search
        assert "Formation hits" in get(base + SECTION, "gzip")[1]
        get(base + "/en/rules/mpbs/")
        assert "11.4.10" not in get(base + "/en/search/?q=quokkas")[1]
    approve(a, "11.4.10", "Formation hits and quokkas")
    _, page = get(b + SECTION, "gzip")
    assert "Formation hits and quokkas" in page
    assert "Formation hits and quokkas" in get(b + "/en/rules/mpbs/")[1]  # the contents, from B's section index
    assert '/en/rules/mpbs/11.4.10/' in get(b + "/en/search/?" + urlencode({"q": "quokkas"}))[1]
    assert "Formation hits and quokkas" in get(a + SECTION)[1]
    # The approval's request rendered no copy: a builder process did, and B serves it.
    deadline = time.monotonic() + 240
    while json.loads(get(b + "/offline/mpbs/info.json")[1]).get("preparing") and time.monotonic() < deadline:
        time.sleep(0.5)
    info = json.loads(get(b + "/offline/mpbs/info.json")[1])
    assert "preparing" not in info, "no builder made the copy of the approved change"
    copy = json.loads(get(b + info["url"], "gzip")[1])
    assert "Formation hits and quokkas" in next(e["body"] for e in copy["entries"] if e["url"] == SECTION)


@pytest.mark.postgres
def test_a_page_rendered_on_one_server_is_served_by_the_other_from_redis(servers):
    a, b, redis, prefix, _ = servers
    path = "/ru/rules/mpbs/9.2.3/"
    for stored in redis.scan_iter(f"{prefix}:pages:*"):  # what the test before left
        redis.delete(stored)
    before = set(redis.scan_iter(f"{prefix}:pages:*"))
    # Behind one site name, as readers reach the servers; a page names its absolute addresses, so its host counts.
    _, page = get(a + path, "gzip", host="localhost")
    assert 'href="http://localhost/ru/rules/mpbs/9.2.3/"' in page
    (key,) = set(redis.scan_iter(f"{prefix}:pages:*")) - before
    ttl = redis.pttl(key)
    time.sleep(0.05)
    assert get(b + path, "gzip", host="localhost")[1] == page
    assert redis.pttl(key) < ttl  # B did not store it again: it served A's copy


@pytest.mark.postgres
def test_over_http_pages_and_static_files_are_compressed_only_for_a_client_that_asks(servers):
    a, *_ = servers
    for path in (SECTION, "/en/search/?q=hedgehog", "/static/rulesref/site.css", "/static/rulesref/site.js"):
        with urlopen(Request(a + path, headers={"Accept-Encoding": "gzip, deflate"}), timeout=30) as response:
            assert response.headers["Content-Encoding"] == "gzip", path
            packed = response.read()
        with urlopen(a + path, timeout=30) as response:
            assert response.headers.get("Content-Encoding") is None, path
            plain = response.read()
        assert gzip.decompress(packed) == plain and len(packed) < len(plain)


@pytest.mark.postgres
def test_after_the_database_cuts_every_connection_the_next_requests_are_served(servers):
    """As after a restart of PostgreSQL: each worker's kept connection is dead. A reference page (whose versions
    query is the connection's health check, rulesref/reference/index.py) and any other page (Django's own check)
    are served on a new connection, not answered with an error."""
    import psycopg

    a, b, _, _, url = servers
    paths = [SECTION, "/ru/rules/mpbs/9.2.3/", "/en/checker/mpbs/", "/en/search/?q=hedgehog"]
    for base in (a, b):
        for path in paths * 2:  # each of the two workers has a connection
            get(base + path)
    with psycopg.connect(url, autocommit=True) as conn:
        cut = conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                           "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]
    assert cut >= 2
    for base in (a, b):
        for path in paths * 3:
            headers, page = get(base + path)
            assert "<html" in page, (base, path)
