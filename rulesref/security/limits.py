"""Rate limits per client address, counted in the cache (shared by every app server when ``REDIS_URL`` is set).

Each limit is a group of windows, written as in settings: ``"120/m, 2000/h"`` (requests), ``"32MB/h"`` (bytes),
``"20s/m"`` (seconds of CPU time), ``"30/15m"`` (a window of 15 minutes). A window counts from a fixed start (every
minute, hour, … since the epoch), so its end, and the ``Retry-After`` of a refusal, is exact; a client can at most
double a window's amount across a window boundary, which the limits allow for.

Requests are counted by :func:`hit`, called by the edge middleware for the requests of :data:`RULES`; amounts
that are only known inside a view (the bytes a new draft stores) by :func:`spend`, which charges the client of the
request being answered; processor time by :func:`used_cpu` after each request that took at least
:data:`CPU_FLOOR` (cheaper ones cost one cache read, to see whether the client is over). All are no-ops when
``RULESREF_RATE_LIMITS_ENABLED`` is off.

Why not django-ratelimit: it counts requests only (the storage limit counts bytes), fails closed when the cache is
down (every write would be refused), and its system checks call Django's own Redis cache unsupported and the
default local-memory cache an error, which would break a clean ``check --deploy`` and ``quickstart``. What it does
for us fits in this module.
"""
from __future__ import annotations

import contextvars
import logging
import math
import re
import time
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings
from django.core.cache import caches
from django.utils.translation import gettext as _, ngettext

from . import clients

log = logging.getLogger(__name__)

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
SIZES = {"": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3, "S": 1000}  # bytes; CPU time in milliseconds
WINDOW_RE = re.compile(r"^\s*(\d+)\s*(KB|MB|GB|S|)\s*/\s*(\d*)\s*([smhd])\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Window:
    amount: int  # requests; bytes when ``size`` is KB, MB or GB; milliseconds of CPU time when it is S
    seconds: int
    count: int  # the window's length in units: the 15 of "30/15m"
    unit: str
    size: str = ""  # how the amount was written: "", "KB", "MB", "GB" or "S"

    def describe(self) -> str:
        """``5 per minute``, ``32 MB per hour``, ``30 per 15 minutes``, in the reader's language."""
        written = {"": "%(n)s", "KB": _("%(n)s KB"), "MB": _("%(n)s MB"), "GB": _("%(n)s GB"), "S": _("%(n)s s")}
        amount = written[self.size] % {"n": self.amount // SIZES[self.size]}
        if self.count == 1:
            per = {"s": _("%(amount)s per second"), "m": _("%(amount)s per minute"), "h": _("%(amount)s per hour"),
                   "d": _("%(amount)s per day")}[self.unit]
            return per % {"amount": amount}
        per = {
            "s": ngettext("%(amount)s per %(n)s second", "%(amount)s per %(n)s seconds", self.count),
            "m": ngettext("%(amount)s per %(n)s minute", "%(amount)s per %(n)s minutes", self.count),
            "h": ngettext("%(amount)s per %(n)s hour", "%(amount)s per %(n)s hours", self.count),
            "d": ngettext("%(amount)s per %(n)s day", "%(amount)s per %(n)s days", self.count),
        }[self.unit]
        return per % {"amount": amount, "n": self.count}


@lru_cache(maxsize=64)
def parse(spec: str) -> tuple[Window, ...]:
    """The windows of a limit such as ``"120/m, 2000/h"``; ValueError names the part that is not one."""
    windows = []
    for part in (p for p in spec.split(",") if p.strip()):
        match = WINDOW_RE.match(part)
        if not match:
            raise ValueError(f"{part.strip()!r} is not a rate such as 120/m, 32MB/h or 30/15m")
        amount, size, count, unit = match.groups()
        size, unit, count = size.upper(), unit.lower(), int(count or 1)
        if count < 1:
            raise ValueError(f"{part.strip()!r}: the window must be at least one {unit}")
        windows.append(Window(int(amount) * SIZES[size], count * UNITS[unit], count, unit, size))
    return tuple(windows)


def wait_text(seconds: int) -> str:
    if seconds < 120:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    minutes = math.ceil(seconds / 60)
    if minutes < 120:
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}


class RateLimited(Exception):
    """A client over one of its limits: which group, which window, and how long until that window ends."""

    def __init__(self, group: str, window: Window, retry_after: int):
        super().__init__(f"{group}: over {window.amount} per {window.seconds} s; retry after {retry_after} s")
        self.group, self.window, self.retry_after = group, window, retry_after

    def message(self) -> str:
        """What happened and what to do, in the reader's language (a message's subject depends on the group)."""
        what = {
            "api": _("Questions to the rules engine from one address: at most %(rate)s."),
            "read-api": _("Requests to the read API from one address: at most %(rate)s."),
            "checker": _("Changes to checker scenarios from one address: at most %(rate)s."),
            "upload": _("Scenario files uploaded from one address: at most %(rate)s."),
            "storage": _("New scenarios stored from one address: at most %(rate)s."),
            "sign-in": _("Sign-in attempts from one address: at most %(rate)s."),
            "cpu": _("Processor time spent on the requests of one address: at most %(rate)s."),
            "report": _("Problem reports sent from one address without signing in: at most %(rate)s."),
        }.get(self.group, _("Such requests from one address: at most %(rate)s."))
        return " ".join([what % {"rate": self.window.describe()},
                         _("Try again in %(wait)s.") % {"wait": wait_text(self.retry_after)}])


@dataclass(frozen=True)
class Rule:
    """Which requests count against a group: by method, address and (optionally) the form's ``action``."""

    group: str
    methods: frozenset[str]
    path: re.Pattern
    actions: frozenset[str] = frozenset()

    def matches(self, request) -> bool:
        if request.method not in self.methods or not self.path.match(request.path_info):
            return False
        return not self.actions or request.POST.get("action", "") in self.actions


_LANG = r"(?:[a-z]{2}(?:-[a-z]+)?)"
RULES = (
    Rule("api", frozenset({"POST"}), re.compile(r"^/api/v1/[^/]+/rulings/")),
    # The read API (rulesref/api/): each request counts, a cached one too (its processor time is charged as well).
    Rule("read-api", frozenset({"GET", "HEAD"}), re.compile(r"^/api/v1/(?:books|search)(?:/|$)")),
    Rule("checker", frozenset({"POST"}), re.compile(rf"^/{_LANG}/checker/")),
    Rule("upload", frozenset({"POST"}), re.compile(rf"^/{_LANG}/checker/"), frozenset({"upload"})),
    # The translators' sign-in page and the admin's (rulesref/urls.py mounts the admin at /admin/) draw on one
    # budget per address; django-axes locks an account out from an address on either, as both call authenticate().
    Rule("sign-in", frozenset({"POST"}), re.compile(rf"^(?:/{_LANG}/accounts/login/|/admin/login/)")),
)

CPU = "cpu"  # every request the edge passes counts its processor time here
CPU_FLOOR = 0.01  # seconds: a request cheaper than this is not charged (a cache write would cost more than it)
_client: contextvars.ContextVar[str | None] = contextvars.ContextVar("rulesref_rate_limit_client", default=None)


def enabled() -> bool:
    return bool(getattr(settings, "RULESREF_RATE_LIMITS_ENABLED", True))


def windows(group: str) -> tuple[Window, ...]:
    spec = (getattr(settings, "RULESREF_RATE_LIMITS", {}) or {}).get(group) or ""
    return parse(spec) if spec.strip() else ()


def _cache():
    return caches[getattr(settings, "RULESREF_RATE_LIMIT_CACHE", "default")]


def clock() -> float:
    """Seconds since the epoch, as the windows count them (the tests start it just after a window's start)."""
    return time.time()


def _charge(group: str, client: str, amount: int, refund: bool) -> RateLimited | None:
    """Add ``amount`` to each of the group's windows for ``client``; the first window it overflows, if any.

    With ``refund`` the amount is taken back when refused (a write that did not happen stores nothing); requests
    refused keep counting, which changes nothing for a fixed window but the count shown in the logs."""
    now = clock()
    cache = _cache()
    charged: list[str] = []
    try:
        for window in windows(group):
            start = int(now // window.seconds)
            key = f"rl:{group}:{window.seconds}:{client}:{start}"
            cache.add(key, 0, timeout=window.seconds + 5)
            try:
                total = cache.incr(key, amount)
            except ValueError:  # the key expired between add and incr: this request opens the window
                cache.add(key, amount, timeout=window.seconds + 5)
                total = amount
            charged.append(key)
            if total > window.amount:
                if refund:
                    for done in charged:
                        cache.decr(done, amount)
                retry_after = max(1, math.ceil((start + 1) * window.seconds - now))
                return RateLimited(group, window, retry_after)
    except Exception:  # a cache outage must not refuse every write nor fail the request: let it through, loudly
        log.exception("rate limit %s not checked: the cache failed", group)
    return None


def _over(group: str, client: str) -> RateLimited | None:
    """The first of the group's windows that ``client`` has already overflowed, read in one cache round trip."""
    now = clock()
    keys = {f"rl:{group}:{w.seconds}:{client}:{int(now // w.seconds)}": w for w in windows(group)}
    try:
        totals = _cache().get_many(list(keys)) if keys else {}
    except Exception:  # as in _charge: a cache outage lets requests through
        log.exception("rate limit %s not checked: the cache failed", group)
        return None
    for key, window in keys.items():
        if totals.get(key, 0) > window.amount:
            start = int(now // window.seconds)
            return RateLimited(group, window, max(1, math.ceil((start + 1) * window.seconds - now)))
    return None


def hit(request) -> RateLimited | None:
    """Count ``request`` against every group whose rule it matches, and refuse it if its client has used up its
    processor time; the refusal, if any."""
    if not enabled():
        return None
    client = clients.client_key(request)
    for group in [rule.group for rule in RULES if rule.matches(request)]:
        refused = _charge(group, client, 1, refund=False)
        if refused is not None:
            log.warning("rate limited %s: %s", client, refused)
            return refused
    return _over(CPU, client)


def used_cpu(request, seconds: float) -> None:
    """Charge the processor time a request took to its client (after the fact: the next request is refused)."""
    charge_cpu(clients.client_key(request), seconds)


def charge_cpu(client: str, seconds: float) -> None:
    """Charge ``seconds`` of processor time to ``client`` (also for a request stopped at its deadline or killed)."""
    if enabled() and seconds >= CPU_FLOOR:
        _charge(CPU, client, round(seconds * 1000), refund=False)


def spend(group: str, amount: int) -> None:
    """Charge ``amount`` to the client of the request being answered; :class:`RateLimited` if it is over.

    Outside a request (a management command, a test without the middleware) nothing is charged."""
    client = _client.get()
    if client is None or not enabled():
        return
    refused = _charge(group, client, amount, refund=True)
    if refused is not None:
        log.warning("rate limited %s: %s", client, refused)
        raise refused


class answering:
    """``with answering(request):`` makes :func:`spend` charge that request's client."""

    def __init__(self, request):
        self.client = clients.client_key(request)

    def __enter__(self):
        self.token = _client.set(self.client)
        return self

    def __exit__(self, *exc):
        _client.reset(self.token)
        return False
