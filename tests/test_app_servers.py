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
import threading
import time
import uuid
from typing import NamedTuple
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode
from urllib.error import HTTPError
from urllib.request import HTTPCookieProcessor, Request, build_opener, urlopen

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402

pytestmark = pytest.mark.own_databases  # a database of their own on the PostgreSQL server, whatever the suite's

REDIS_URL = os.environ.get("RULESREF_TEST_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "a-long-test-password"
SECTION = "/en/rules/mpbs/11.4.10/"
USERS = {"rita": "reviewer", "vera": "reviewer", "tina": "translator", "ivan": "translator"}


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


class TaskWorker:
    """The site's task worker (``manage.py db_worker``), run beside the servers as production runs one, and started
    again when it has ended (a process manager's job: a worker ends when the database cuts its connection)."""

    def __init__(self, env: dict[str, str]):
        self.env, self.process = env, None
        self.ensure()

    def ensure(self) -> None:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([sys.executable, "manage.py", "db_worker", "--no-reload", "--queue-name",
                                             "*", "--interval", "0.2", "--verbosity", "0"], cwd=ROOT, env=self.env)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


@pytest.fixture(scope="module")
def servers(require):
    """Two gunicorn servers (2 sync workers each) and a task worker on one new PostgreSQL database with the corpus
    loaded, sharing Redis under a key prefix of their own."""
    require(harness.postgres_available(), f"PostgreSQL at {harness.postgres_server_url()}")
    redis = redis_client()
    require(redis is not None, f"Redis at {REDIS_URL}")
    prefix = f"rulesref-test-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    with harness.postgres_database() as url:
        # Every client of these tests comes from one address: its processor budget is a whole team's here.
        env = harness.site_env(Path(tempfile.mkdtemp(prefix="rulesref-servers-")), url, REDIS_URL=REDIS_URL,
                               RULESREF_CACHE_PREFIX=prefix, TEST_PASSWORD=PASSWORD,
                               RULESREF_RATE_CPU="600s/m, 6000s/h")
        users = [["addtranslator", name, *(["--reviewer"] if role == "reviewer" else []), "--password-env",
                  "TEST_PASSWORD"] for name, role in USERS.items()]
        for command in (["quickstart", "--no-serve"], *users):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True,
                           capture_output=True, timeout=300)
        worker = TaskWorker(env)
        try:
            with harness.gunicorn(env, workers=2, ready_path=SECTION) as a, \
                    harness.gunicorn(env, workers=2, ready_path=SECTION) as b:
                yield Servers(a, b, redis, prefix, url, worker, env)
        finally:
            worker.stop()
            keys = list(redis.scan_iter(f"{prefix}*"))
            if keys:
                redis.delete(*keys)


class Servers(NamedTuple):
    a: str
    b: str
    redis: object
    prefix: str
    url: str
    worker: TaskWorker
    env: dict


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


def sign_in(base: str, username: str = "rita"):
    opener = build_opener(HTTPCookieProcessor(CookieJar()))
    page = opener.open(base + "/en/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    opener.open(base + "/en/accounts/login/", urlencode(
        {"csrfmiddlewaretoken": token, "username": username, "password": PASSWORD, "next": "/en/translate/"}).encode())
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
    # The approval's request rendered no copy: the task worker did, and B serves it.
    deadline = time.monotonic() + 240
    while json.loads(get(b + "/offline/mpbs/info.json")[1]).get("preparing") and time.monotonic() < deadline:
        time.sleep(0.5)
    info = json.loads(get(b + "/offline/mpbs/info.json")[1])
    assert "preparing" not in info, "no task made the copy of the approved change"
    copy = json.loads(get(b + info["url"], "gzip")[1])
    assert "Formation hits and quokkas" in next(e["body"] for e in copy["entries"] if e["url"] == SECTION)


WRITE_SECTIONS = ["5.7.1", "5.7.2", "6.1", "6.2.1", "9.2.1", "9.2.2", "9.2.4", "9.3.1", "9.3.5", "11.4.1", "11.4.6",
                  "11.4.10"]  # sections with a first paragraph in English, for the note each save adds


def letters(n: int) -> str:
    """A number written in letters (a QA check would ask about digits a source lacks)."""
    out = ""
    while True:
        n, digit = divmod(n, 26)
        out = chr(ord("a") + digit) + out
        if not n:
            return "q" + out


def write(opener, base: str, sid: str, status: str, marker: str) -> tuple[int, str]:
    """One save through the editor, as a browser posts it: the first paragraph with ``marker`` added, confirmed as
    a reviewer confirms when QA names errors. (status, where it ended: the editor or a conflict page)."""
    editor = f"{base}/en/translate/mpbs/{sid}/"
    parser = FormFields()
    parser.feed(opener.open(editor).read().decode())
    fields = dict(parser.fields, status=status, save="1")
    fields["p1"] = f"{fields.get('p1', '')} Note {marker}."
    fields.pop("next", None)
    for _attempt in range(2):
        try:
            with opener.open(Request(editor, data=urlencode(fields).encode(), headers={"Referer": editor})) as done:
                return done.status, done.url
        except HTTPError as exc:
            if "/conflict/" in exc.url:  # kept as a conflict: the page showing both texts answers 409
                return exc.code, exc.url
            page = exc.read().decode(errors="replace")
            token = re.search(r'name="confirm_errors" value="([^"]+)"', page)
            if exc.code != 409 or token is None:
                return exc.code, page[:300]
            fields["confirm_errors"] = token.group(1)
    return 0, "not confirmed"


def stored(url: str, sql: str) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute(sql).fetchall()


def descendants_in_state(state: str) -> list[str]:
    """The processes under this one (servers, their workers, the task worker) in ``state`` (Z: zombies)."""
    parents: dict[int, list[tuple[int, str]]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append((int(stat.parent.name), fields[0]))
    found, todo = [], [os.getpid()]
    while todo:
        for pid, st in parents.get(todo.pop(), []):
            todo.append(pid)
            if st == state:
                found.append(str(pid))
    return found


@pytest.mark.postgres
def test_two_hundred_concurrent_saves_and_approvals_on_two_servers_lose_nothing(servers):
    """Two reviewers and two translators save and approve on two servers at once, over twelve sections of one
    book, while a reader reads: no answer is a 5xx; every text typed is kept (applied, or as a conflict shown to
    its writer); every section shows its last approved text; the task worker brings the offline copy up to date;
    no process is left a zombie."""
    a, b, *_rest = servers
    url = servers.url
    outcomes: list[tuple[str, str, str, int, str]] = []  # (marker, sid, status, code, where)
    reads: list[int] = []
    done = threading.Event()

    def writer(number: int, user: str) -> None:
        base = (a, b)[number % 2]
        opener = sign_in(base, user)
        status = ("approved", "draft") if USERS[user] == "reviewer" else ("draft", "review")
        for i in range(50):
            sid = WRITE_SECTIONS[(i * 5 + number * 3) % len(WRITE_SECTIONS)]
            marker = letters(number * 1000 + i)
            code, where = write(opener, base, sid, status[i % 2], marker)
            outcomes.append((marker, sid, status[i % 2], code, where))

    def reader() -> None:
        while not done.is_set():
            for base in (a, b):
                try:
                    with urlopen(base + "/en/rules/mpbs/9.3.1/", timeout=30) as response:
                        reads.append(response.status)
                except HTTPError as exc:
                    reads.append(exc.code)

    threads = [threading.Thread(target=writer, args=(n, user)) for n, user in enumerate(USERS)]
    watcher = threading.Thread(target=reader)
    for thread in (*threads, watcher):
        thread.start()
    for thread in threads:
        thread.join(timeout=900)
    done.set()
    watcher.join(timeout=60)

    assert len(outcomes) == 200
    failed = [o for o in outcomes if (o[3], "/conflict/" in o[4]) not in ((200, False), (409, True))]
    assert not failed, failed[:5]
    assert reads and set(reads) == {200}
    revisions = stored(url, "SELECT s.sid, r.number, r.status, r.applied, r.origin, r.body "
                            "FROM translation_revision r JOIN translation_translation t ON t.id = r.translation_id "
                            "JOIN reference_section s ON s.id = t.section_id WHERE t.language = 'en'")
    for marker, sid, status, _code, where in outcomes:  # nothing typed was lost
        kept = [r for r in revisions if r[0] == sid and f"Note {marker}." in r[5]]
        assert kept, f"the text {marker} of {sid} was lost"
        if "/conflict/" in where:
            assert any(r[4] == "conflict" and not r[3] for r in kept), marker
        else:
            assert any(r[3] and r[2] == status for r in kept), marker
    assert any("/conflict/" in o[4] for o in outcomes), "the writers never met: the test proves little"
    published = dict(stored(url, "SELECT s.sid, st.body FROM reference_sectiontext st JOIN reference_section s "
                                 "ON s.id = st.section_id WHERE st.language = 'en'"))
    for sid in WRITE_SECTIONS:  # each section shows the text of its last approval
        approved = [r for r in revisions if r[0] == sid and r[3] and r[2] == "approved"]
        if approved:
            assert published[sid] == max(approved, key=lambda r: r[1])[5], sid

    servers.worker.ensure()
    deadline = time.monotonic() + 300
    while stored(url, "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status IN ('READY', 'RUNNING')")[0][0]:
        assert time.monotonic() < deadline, "the task worker did not finish the queue"
        time.sleep(0.5)
    assert not stored(url, "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = 'FAILED'")[0][0]
    (revision,), = stored(url, "SELECT revision FROM reference_book WHERE slug = 'mpbs'")
    for base in (a, b):
        info = json.loads(get(base + "/offline/mpbs/info.json")[1])
        assert info.get("revision") == revision and "preparing" not in info, info
    copy = json.loads(get(a + info["url"], "gzip")[1])
    last = max((r for r in revisions if r[0] == "9.3.1" and r[3] and r[2] == "approved"), key=lambda r: r[1])
    page = next(e["body"] for e in copy["entries"] if e["url"] == "/en/rules/mpbs/9.3.1/")
    assert f"Note {re.findall(r'Note (q[a-z]+)[.]', last[5])[-1]}." in page  # the copy holds the last approval
    assert descendants_in_state("Z") == []


@pytest.mark.postgres
def test_a_page_rendered_on_one_server_is_served_by_the_other_from_redis(servers):
    a, b, redis, prefix, *_ = servers
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

    a, b, _, _, url, *_ = servers
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
