"""The README's run command on a fresh clone (#30 point 1): the Russian pages are Russian on the very first request.

A fresh clone has no compiled catalogs (``*.mo`` are not kept in git), no database and no collected static files.
``quickstart`` makes all of them in the process that then serves, so a catalog that process read before it was
compiled would leave the Russian pages in English until a restart. The clone here is the checkout's tracked files
(and new files not yet committed), copied as ``git clone`` would give them; the command is the README's own.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import Request, urlopen

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The UI strings every page's header shows, in each language (locale/ru/LC_MESSAGES/django.po).
RUSSIAN = ("Справочник по правилам", "Поиск: 9.3.1 или слова", "Проверка ситуаций")
ENGLISH = ("Rules reference", "Search: 9.3.1 or words", "Checker")
pytestmark = pytest.mark.own_databases  # the clone's quickstart makes its own SQLite database, whatever the suite's


def readme_run_command() -> str:
    """The command the README gives for running the site (the block under "Run the site")."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"Run the site.*?```sh\n(.+?)\n```", readme, re.S)
    assert found, "README.md has no 'Run the site' command block"
    return found.group(1).strip()


def fresh_clone(target: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    assert not list(target.glob("locale/*/LC_MESSAGES/*.mo")), "a fresh clone has no compiled catalogs"
    return target


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str) -> bytes:
    with urlopen(Request(url, headers={"Accept-Encoding": "identity"}), timeout=30) as response:
        return response.read()


def wait_until_serving(url: str, server: subprocess.Popen, log: Path, seconds: float = 240) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"quickstart ended with code {server.returncode}:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1].strip("/"))), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"quickstart did not serve within {seconds} s:\n{log.read_text()}")


def header_text(page: str) -> str:
    """The page's title and header, where the UI strings above stand."""
    return page.split("</header>", 1)[0]


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    """A fresh clone, its dependencies already installed (the README's install step), served by quickstart on the
    embedded default database. Nothing is requested before the test's own first request."""
    clone = fresh_clone(tmp_path_factory.mktemp("fresh-clone"))
    command = readme_run_command()
    assert command.endswith("python manage.py quickstart"), command
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "RULESREF_VAR_DIR") and not k.startswith("PYTEST")}
    log = clone / "quickstart.log"
    with log.open("wb") as out:
        # The install half of the command is this environment's own; the clone's code is what runs (sys.path[0]).
        server = subprocess.Popen([sys.executable, "manage.py", "quickstart", "--port", str(port)], cwd=clone,
                                  env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base, server, log)
        yield base, clone
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    for _attempt in range(50):  # what quickstart started ends with it
        if not processes_of(clone):
            break
        time.sleep(0.2)
    assert not processes_of(clone), f"left running after quickstart ended: {processes_of(clone)}"


def processes_of(clone: Path) -> list[str]:
    """The command lines of the processes running the clone's manage.py."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if str(clone / "manage.py").encode() in args:
            found.append(b" ".join(args).decode(errors="replace"))
    return found


def test_the_first_request_of_a_fresh_clone_is_russian_on_russian_pages(first_run):
    base, clone = first_run
    page = fetch(f"{base}/ru/").decode()  # the server's very first request
    assert list(clone.glob("locale/*/LC_MESSAGES/*.mo")), "quickstart compiled the clone's own catalogs"
    head = header_text(page)
    for russian, english in zip(RUSSIAN, ENGLISH):
        assert russian in head, f"{russian!r} missing from the first Russian page"
        assert english not in head, f"{english!r} on the first Russian page"
    section = header_text(fetch(f"{base}/ru/rules/mpbs/9.3.1/").decode())
    for russian, english in zip(RUSSIAN[1:], ENGLISH[1:]):  # the search box and the menu
        assert russian in section and english not in section
    english_page = header_text(fetch(f"{base}/en/").decode())
    for russian, english in zip(RUSSIAN, ENGLISH):
        assert english in english_page and russian not in english_page


def test_the_offline_copy_made_on_the_first_run_speaks_each_language(first_run):
    """quickstart's load renders the offline copies before the server starts: their Russian pages must be Russian
    too (they were rendered before the catalogs were compiled, and counted as current for ever)."""
    base, _ = first_run
    for _attempt in range(120):
        info = json.loads(fetch(f"{base}/offline/mpbs/info.json"))
        if "url" in info:
            break
        time.sleep(0.5)
    else:
        pytest.fail(f"the offline copy of mpbs was not stored: {info}")
    raw = fetch(base + info["url"])
    copy = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    pages = {entry["url"]: entry["body"] for entry in copy["entries"] if "body" in entry}
    russian_home, english_home = header_text(pages["/ru/"]), header_text(pages["/en/"])
    assert RUSSIAN[0] in russian_home and ENGLISH[0] not in russian_home
    assert ENGLISH[0] in english_home and RUSSIAN[0] not in english_home


def test_quickstart_runs_a_task_worker_beside_the_site(first_run):
    _, clone = first_run
    assert any(" db_worker " in f" {line} " for line in processes_of(clone)), processes_of(clone)
