"""What every benchmark module shares: the figure contract, the scale of a run, timing helpers, production-like
servers and prepared sites.

The contract (bench/run.py collects it): a module ``bench/<area>.py`` exposes ``figures(scale: Scale)``, an iterable
of ``(name, value, unit, target)``. ``target`` is text such as ``"<= 15"`` or ``">= 0.5"``, or ``""`` for a figure
shown only to follow its growth. run.py sets Django up before it imports a module (a throw-away SQLite database
with the corpus loaded, DEBUG off); a module that needs another database or a server of its own starts it, as the
helpers below do.

The scale (``Scale``): ``FULL`` is what the targets are about; ``QUICK`` a small version of every figure that CI can
afford; ``SMOKE`` the least work that still runs every path of every module and yields every figure ``QUICK``
yields, for tests/test_bench.py to check the lines' form (its values measure nothing). A module takes each of its
sizes and counts from ``scale.pick(full, quick, smoke)``, and passes ``scale.argv`` on to a worker of its own.

Honest numbers on a shared machine: a rate is only ever given as a ratio to a baseline measured in the same run, in
rounds that alternate which of the two goes first (``alternating``), with the spread of the rounds beside it.
"""
from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import re
import shutil
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit
from urllib.request import Request, urlopen

ROOT = Path(__file__).resolve().parent.parent
TARGET_RE = re.compile(r"^(<=|>=|<|>|==) ?(-?\d+(?:\.\d+)?)$")
NAME_RE = re.compile(r"^[A-Za-z0-9_.\-]+$")
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres"


# ---------------------------------------------------------------------------------------------- the contract


@dataclass(frozen=True)
class Figure:
    name: str
    value: float
    unit: str
    target: str = ""

    def line(self) -> str:
        value = f"{self.value:.3f}" if isinstance(self.value, float) else str(self.value)
        return f"{self.name} {value} {self.unit} {self.target}".rstrip()

    def met(self) -> bool | None:
        """Whether the value meets the target; None for a figure without one."""
        if not self.target:
            return None
        op, number = TARGET_RE.match(self.target).groups()
        bound = float(number)
        return {"<=": self.value <= bound, ">=": self.value >= bound, "<": self.value < bound,
                ">": self.value > bound, "==": self.value == bound}[op]


def figure(item) -> Figure:
    """A module's ``(name, value, unit, target)`` checked against the contract."""
    name, value, unit, target = item
    if not NAME_RE.match(name):
        raise ValueError(f"figure name {name!r}: letters, digits, '.', '_' and '-' only")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name}: value {value!r} is not a number")
    if not unit or not NAME_RE.match(unit.replace("/", "")):
        raise ValueError(f"{name}: unit {unit!r} must be one word")
    if target and not TARGET_RE.match(target):
        raise ValueError(f"{name}: target {target!r} is not like '<= 15' or '>= 0.5'")
    return Figure(name, value, unit, target)


# ---------------------------------------------------------------------------------------------- the scale


@dataclass(frozen=True)
class Scale:
    """How much work a run does: ``full``, ``quick`` or ``smoke`` (see the module's docstring)."""
    name: str

    def pick(self, full, quick, smoke=1):
        """This scale's value of a size or a count; a count's least (smoke) is one by default."""
        return {"full": full, "quick": quick, "smoke": smoke}[self.name]

    @property
    def argv(self) -> list[str]:
        """The command-line flag that gives this scale to a module run as a script or as a worker."""
        return [] if self.name == "full" else [f"--{self.name}"]

    @staticmethod
    def add_arguments(parser) -> None:
        """``--quick`` and ``--smoke`` on a module's argparse parser (``Scale.parsed`` reads them back)."""
        group = parser.add_mutually_exclusive_group()
        group.add_argument("--quick", action="store_true", help="a small version of every figure (CI can afford it)")
        group.add_argument("--smoke", action="store_true",
                           help="the least work that runs every path and yields every figure: checks the form only")

    @staticmethod
    def parsed(args) -> Scale:
        return SMOKE if args.smoke else QUICK if args.quick else FULL

    @staticmethod
    def from_argv(argv: list[str]) -> Scale:
        """The scale named on a command line that has no parser of its own."""
        return SMOKE if "--smoke" in argv else QUICK if "--quick" in argv else FULL


FULL, QUICK, SMOKE = Scale("full"), Scale("quick"), Scale("smoke")


# ---------------------------------------------------------------------------------------------- timing


_addresses = itertools.count(1)


def client_address() -> str:
    """A new client address for each call (10.x.y.z): requests measured in bulk come from many readers, as on the
    site, so the per-address rate limits count them as they would count real readers, without refusing them."""
    n = next(_addresses)
    return f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def timings_ms(fn: Callable[[], object], n: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def alternating(a: Callable[[], float], b: Callable[[], float], rounds: int) -> tuple[list[float], list[float]]:
    """Measure ``a`` and ``b`` (each returns one measurement) in ``rounds`` rounds, a first in even rounds and b
    first in odd ones, so a slow spell of the machine or a warm-up falls on both alike."""
    first, second = [], []
    for i in range(rounds):
        if i % 2 == 0:
            first.append(a())
            second.append(b())
        else:
            second.append(b())
            first.append(a())
    return first, second


def ratio_and_spread(numerators: list[float], denominators: list[float]) -> tuple[float, float, float]:
    """Median of the per-round ratios, and the lowest and highest of them."""
    ratios = [n / d for n, d in zip(numerators, denominators) if d]
    return median(ratios), min(ratios), max(ratios)


# ---------------------------------------------------------------------------------------------- HTTP


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, accept_encoding: str = "gzip", timeout: float = 30,
        headers: dict[str, str] | None = None) -> tuple[int, bytes, dict]:
    """One GET: (status, the body as it came over the wire, headers). urllib does not decompress."""
    sent = dict(headers or {})
    if accept_encoding:
        sent["Accept-Encoding"] = accept_encoding
    request = Request(url, headers=sent)
    with urlopen(request, timeout=timeout) as response:
        return response.status, response.read(), {k.lower(): v for k, v in response.headers.items()}


def request_rate(url: str, seconds: float, threads: int = 4, accept_encoding: str = "gzip") -> float:
    """Requests per second that ``threads`` clients get, each sending its next request when the last is read (and
    at least one, however late a busy machine starts it)."""
    count = 0
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker():
        nonlocal count
        local = 0
        while local == 0 or time.perf_counter() < stop:
            get(url, accept_encoding)
            local += 1
        with lock:
            count += local

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    start = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return count / (time.perf_counter() - start)


def request_ms(url: str, n: int, accept_encoding: str = "gzip") -> list[float]:
    """Wall time of ``n`` requests one after another, in ms."""
    return timings_ms(lambda: get(url, accept_encoding), n, warmup=2)


# ---------------------------------------------------------------------------------------------- servers


def site_env(var_dir: Path, database_url: str = "", **extra: str) -> dict[str, str]:
    """The environment of a production-like process of the site: DEBUG off, its own var directory."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DEBUG", "REDIS_URL")}
    env.update(RULESREF_VAR_DIR=str(var_dir), DJANGO_SETTINGS_MODULE="rulesref.settings", PYTHONPATH=str(ROOT))
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(extra)
    return env


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int = 2, ready_path: str = "/en/", threads: int = 1) -> Iterator[str]:
    """A gunicorn server of the site (sync workers unless ``threads``, with gunicorn.conf.py, as docs/deploy.md runs
    it) on a free loopback port; yields its base URL once it answers ``ready_path``."""
    port = free_port()
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py"), "rulesref.wsgi:application",
         "--workers", str(workers), "--threads", str(threads), "--bind", f"127.0.0.1:{port}", "--log-level",
         "warning", "--access-logfile", os.devnull], cwd=ROOT, env=env, stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(base + ready_path, timeout=5)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"gunicorn did not start: {log.read().decode(errors='replace')[-2000:]}")
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def postgres_server_url() -> str:
    return os.environ.get("RULESREF_BENCH_POSTGRES", DEFAULT_POSTGRES)


def postgres_available(url: str | None = None) -> bool:
    try:
        import psycopg
    except ImportError:
        return False
    try:
        with psycopg.connect(url or postgres_server_url(), connect_timeout=3):
            return True
    except psycopg.Error:
        return False


@contextlib.contextmanager
def postgres_database(server_url: str | None = None, template: str = "") -> Iterator[str]:
    """A new PostgreSQL database on the server for one benchmark, empty or a copy of ``template`` (a database on the
    same server that nobody is connected to); dropped afterwards. Yields its URL."""
    server_url = server_url or postgres_server_url()
    name = f"rulesref_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    _create_database(server_url, name, template)
    try:
        yield database_url(server_url, name)
    finally:
        _drop_database(server_url, name)


def database_url(server_url: str, name: str) -> str:
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))


def _create_database(server_url: str, name: str, template: str = "") -> None:
    import psycopg

    sql = f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")
    for attempt in range(50):
        try:
            with psycopg.connect(server_url, autocommit=True) as conn:
                conn.execute(sql)
            return
        except psycopg.errors.ObjectInUse:  # the template's last session is still closing
            if attempt == 49:
                raise
            time.sleep(0.1)


def _drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# ---------------------------------------------------------------------------------------------- prepared sites
#
# Every worker runs on a site of its own (var directory, database) in the state quickstart leaves: migrated, the
# corpus loaded, its offline copies rendered, the static files collected and compressed. Making that state takes
# many seconds of processor time (collectstatic compresses every file anew each time), so it is made once per run
# and copied: the SQLite database with SQLite's backup, the static files as hard links, and on PostgreSQL a database
# made from a template (CREATE DATABASE … TEMPLATE copies its files). A copy is the same state, so no figure moves.

SITE_ENV = "RULESREF_BENCH_SITE"  # the var directory of the run's prepared site (bench/run.py sets it)
PREPARED = "bench-prepared"  # in a var directory copied from the prepared site: the site is ready
_templates: dict[str, str] = {}  # server URL: the template database made from the prepared site in this process


def copy_site(source: Path, target: Path, database: bool = True) -> Path:
    """The prepared site in ``source`` copied into the var directory ``target``: its secret and static files, and
    its SQLite database unless ``database`` is false (a PostgreSQL site has its database elsewhere)."""
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "secret.key", target / "secret.key")
    shutil.copytree(source / "static", target / "static", copy_function=_link_or_copy, dirs_exist_ok=True)
    if database:
        with contextlib.closing(sqlite3.connect(source / "rulesref.sqlite3")) as old, \
                contextlib.closing(sqlite3.connect(target / "rulesref.sqlite3")) as new:
            old.backup(new)  # consistent while another process has the source open
    (target / PREPARED).write_text(f"a copy of {source}\n", encoding="utf-8")
    return target


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copy2(source, target)


def prepared_site() -> Path:
    """The run's prepared site, kept as quickstart left it for workers to copy: bench/run.py's (``SITE_ENV``), or,
    for a module run alone, one made now by quickstart (once per process)."""
    if os.environ.get(SITE_ENV):
        return Path(os.environ[SITE_ENV])
    var_dir = Path(tempfile.mkdtemp(prefix="rulesref-bench-site-"))
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "quickstart", "--no-serve"], cwd=ROOT,
                   env=site_env(var_dir), stdout=subprocess.DEVNULL, check=True)
    os.environ[SITE_ENV] = str(var_dir)
    return var_dir


def postgres_template(server_url: str | None = None) -> str:
    """A database on the server in the prepared site's state (migrated, the corpus loaded and its offline copies
    rendered, as quickstart leaves it), made once per process and dropped when the process ends. Its name."""
    server_url = server_url or postgres_server_url()
    if server_url not in _templates:
        name = f"rulesref_bench_{os.getpid()}_template"
        _drop_database(server_url, name)
        _create_database(server_url, name)
        atexit.register(_drop_database, server_url, name)
        var_dir = copy_site(prepared_site(), Path(tempfile.mkdtemp(prefix="rulesref-bench-template-")), False)
        prepare = ("import django; django.setup(); from django.core.management import call_command; "
                   "call_command('migrate', verbosity=0); call_command('loadrules', verbosity=0)")
        subprocess.run([sys.executable, "-c", prepare], cwd=ROOT, env=site_env(var_dir, database_url(server_url, name)),
                       stdout=subprocess.DEVNULL, check=True)
        shutil.rmtree(var_dir, ignore_errors=True)
        _templates[server_url] = name
    return _templates[server_url]


def prepare_site() -> None:
    """In a worker, first: Django set up, on a site ready as quickstart makes it. A var directory that
    ``worker_figures`` copied from the prepared site (with a database made from its template) is ready already:
    migrate and the corpus load find nothing to do, and collectstatic is not run again. Elsewhere, quickstart."""
    import django
    from django.core.management import call_command

    django.setup()
    if not (Path(os.environ["RULESREF_VAR_DIR"]) / PREPARED).exists():
        with open(os.devnull, "w") as quiet:
            call_command("quickstart", no_serve=True, stdout=quiet)
        return
    from rulesref.reference.loading import load_corpus

    call_command("migrate", interactive=False, verbosity=0)
    load_corpus()


# ---------------------------------------------------------------------------------------------- workers


def backends(area: str) -> list[str]:
    """The databases to measure: SQLite, and PostgreSQL when its server answers (a note says when it does not)."""
    if postgres_available():
        return ["sqlite", "postgres"]
    print(f"# {area}: no PostgreSQL at {postgres_server_url()}: its figures are not measured", flush=True)
    return ["sqlite"]


def emit(name: str, value, unit: str, target: str = "") -> None:
    """In a worker: one figure, for ``worker_figures`` to pass on."""
    print("FIGURE " + json.dumps([name, value, unit, target]), flush=True)


def worker_figures(args: list[str], backend: str, **extra_env: str) -> Iterator[tuple]:
    """Run ``args`` (a module run as a worker for ``backend``, which calls ``prepare_site`` first) in a process of
    its own, on a copy of the prepared site: its own var directory and, on PostgreSQL, a database made for it from
    the template, dropped after; pass on the figures it ``emit``s and show its other lines as they come."""
    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_database(template=postgres_template())) if backend == "postgres" else ""
        var_dir = Path(tempfile.mkdtemp(prefix=f"rulesref-bench-{backend}-"))
        stack.callback(shutil.rmtree, var_dir, ignore_errors=True)
        copy_site(prepared_site(), var_dir, database=backend == "sqlite")
        process = subprocess.Popen(args, env=site_env(var_dir, url, **extra_env), stdout=subprocess.PIPE, text=True,
                                   cwd=ROOT)
        for line in process.stdout:
            if line.startswith("FIGURE "):
                yield tuple(json.loads(line[7:]))
            else:
                print(line, end="", flush=True)
        if process.wait():
            raise RuntimeError(f"the {backend} worker {args[1:2]} exited with {process.returncode}")


def sized_worker_main(description: str, figures: Callable, worker: Callable) -> None:
    """The command line of a module measured on a generated book of one size in a worker per database
    (``bench/writes.py``, ``bench/rulings.py``): ``[--quick|--smoke]`` prints its figures; ``--worker DB --root SITE
    --size N`` is the worker that measures one database."""
    import argparse

    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    Scale.add_arguments(parser)
    parser.add_argument("--worker", choices=["sqlite", "postgres"])
    parser.add_argument("--root", type=Path)
    parser.add_argument("--size", type=int)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, Scale.parsed(args), args.root, args.size)
        return
    import run

    run.setup_django()
    for item in figures(Scale.parsed(args)):
        print(figure(item).line(), flush=True)
