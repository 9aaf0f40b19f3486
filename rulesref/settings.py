"""Settings for rulesref.

Everything that differs between a laptop and a server comes from the environment:
``DATABASE_URL`` (PostgreSQL; SQLite in ``var/`` by default), ``SECRET_KEY``, ``ALLOWED_HOSTS`` (comma separated),
``DEBUG`` (off unless set to 1/true), ``RULESREF_VAR_DIR`` (where the SQLite file and the generated secret live).
"""
from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from csp.constants import NONE, SELF

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("RULESREF_VAR_DIR", BASE_DIR / "var"))
FIXTURES_DIR = Path(os.environ.get("RULESREF_FIXTURES_DIR", BASE_DIR / "fixtures"))


def _env_flag(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}


def _local_secret_key() -> str:
    """A per-checkout secret for local use, made once; production sets SECRET_KEY."""
    path = VAR_DIR / "secret.key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(50)
        path.write_text(key)
        return key


VAR_DIR.mkdir(parents=True, exist_ok=True)
DEBUG = _env_flag("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY") or _local_secret_key()
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.sitemaps",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "rulesref.reference",
    "rulesref.translation",
    "rulesref.checker",
    "rulesref.offline",
    "rulesref.rulings",
    "rulesref.printing",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "rulesref.reference.pagecache.PageCacheMiddleware",
    # Every other response (pages, fragments, JSON) is gzipped for a client that accepts it. Django's middleware
    # pads each compressed response with random bytes (Heal the BREACH) and the CSRF token is masked afresh on every
    # response, so a page with a token does not leak it through its compressed length.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # What commits while a request is served hands its offline copy to a builder process (rulesref/offline/copies.py).
    "rulesref.offline.copies.ServingRequests",
]

ROOT_URLCONF = "rulesref.urls"
WSGI_APPLICATION = "rulesref.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "rulesref" / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "rulesref.reference.context.site",
            ],
        },
    }
]

_sqlite_path = VAR_DIR / "rulesref.sqlite3"
DATABASES = {
    "default": dj_database_url.config(default=f"sqlite:///{_sqlite_path}", conn_max_age=60,
                                      conn_health_checks=True),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 600  # keep the connection: opening one runs the PRAGMAs below
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            # WAL lets readers go on while a translator saves; IMMEDIATE makes a writer take the lock up front,
            # so two concurrent saves queue instead of failing with "database is locked" mid-transaction.
            # Reads of a big book's full-text index go through a memory map of the file (the operating system's
            # page cache, shared by every worker) instead of a read call per page into a 2 MB private cache.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000; "
                            "PRAGMA mmap_size=1073741824; PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # One file per test process, so concurrent test runs (and their live servers) never share a database.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    # Likewise one test database per test process on PostgreSQL: two checkouts testing at once on one server
    # would otherwise drop each other's "test_<name>" database.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default'].get('NAME') or 'rulesref'}_{os.getpid()}"}
    if _env_flag("RULESREF_DB_POOL"):
        # For threaded app servers (gunicorn --threads): psycopg's pool, which Django opens from OPTIONS, lends each
        # request a checked connection and bounds them per process. Sync workers (the default, docs/deploy.md) serve
        # one request at a time and keep their one connection open instead (CONN_MAX_AGE), which costs nothing per
        # request; see docs/deploy.md for the figures.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1, "max_size": int(os.environ.get("RULESREF_DB_POOL_SIZE", "4")), "timeout": 10}
    else:
        DATABASES["default"]["CONN_MAX_AGE"] = 600
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ru", "Русский")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns about a missing root before collectstatic
STATICFILES_DIRS = [BASE_DIR / "rulesref" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Production serves the files collectstatic wrote (quickstart runs it), each with its .gz and .br beside it, in the
# encoding the client accepts; looking files up in the apps' folders instead (finders) would serve them uncompressed,
# so that is for DEBUG only.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_MAX_AGE = 3600

DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie; the form tag carries it.
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG and _env_flag("RULESREF_HTTPS"):
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# One app server: per-process memory. Several (REDIS_URL set): Redis, shared by all of them, for the cache and for
# the reference pages (pagecache.py), which every server then renders once between them.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
if os.environ.get("REDIS_URL"):
    _redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": os.environ["REDIS_URL"],
              "KEY_PREFIX": os.environ.get("RULESREF_CACHE_PREFIX", "rulesref")}
    CACHES = {"default": _redis, "pages": {**_redis, "KEY_PREFIX": _redis["KEY_PREFIX"] + ":pages"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}

# ---------------------------------------------------------------------------------------------------------------
# Translator's workspace (rulesref.translation): sign-in, roles, QA checks. See docs/translation.md.
LOGIN_REDIRECT_URL = "translation:index"
LOGOUT_REDIRECT_URL = "reference:home"
TRANSLATION_TRANSLATORS_GROUP = "translators"  # may edit, save drafts, submit for review, import PO/XLIFF
TRANSLATION_REVIEWERS_GROUP = "reviewers"  # may also approve (publish to the corpus)
TRANSLATION_QA_CHECKS = [
    "rulesref.translation.checks.glossary.GlossaryTermCheck",
    "rulesref.translation.checks.glossary.ForbiddenTermCheck",
    "rulesref.translation.checks.glossary.TermConsistencyCheck",
    "rulesref.translation.checks.numbers.NumbersCheck",
    "rulesref.translation.checks.references.ReferencesCheck",
    "rulesref.translation.checks.untranslated.UntranslatedCheck",
    "rulesref.translation.checks.typography.ChangeMarkerCheck",
    "rulesref.translation.checks.typography.QuotesCheck",
    "rulesref.translation.checks.structure.MarkupCheck",
    "rulesref.translation.checks.structure.ParagraphsCheck",
]
TRANSLATION_UPLOAD_MAX_BYTES = 2 * 1024 * 1024  # a PO or XLIFF file uploaded in the workspace

# ---------------------------------------------------------------------------------------------------------------
# Hardened public surface (rulesref.security): storable text, rate limits, throttled sign-in, HTTPS and proxies,
# Content-Security-Policy. On by default wherever the site runs, quickstart included; the environment tunes it
# (docs/deploy.md, "Security"). The tests turn the limits off except where they check them (tests/conftest.py).
def _env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


INSTALLED_APPS += ["rulesref.security", "axes"]
# What may be believed (proxy headers, cookies) is decided first, before SecurityMiddleware and the sessions read
# them; the edge (storable text, rate limits) after LocaleMiddleware, so that its refusals speak the reader's
# language; axes last, as it asks.
MIDDLEWARE.insert(0, "rulesref.security.middleware.TrustMiddleware")
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                  "rulesref.security.middleware.PolicyMiddleware")
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.locale.LocaleMiddleware") + 1,
                  "rulesref.security.middleware.EdgeMiddleware")
MIDDLEWARE.append("axes.middleware.AxesMiddleware")
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

# Argon2id with OWASP's parameters first (rulesref/security/passwords.py says why: PBKDF2's million rounds cost
# 0.4-0.65 s of CPU here, over the 0.5 s any one request may take); the others stay to check, and upgrade, older hashes.
PASSWORD_HASHERS = [
    "rulesref.security.passwords.Argon2idHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# HTTPS: with RULESREF_HTTPS=1 (above: redirect and secure cookies) browsers are also told to come back over HTTPS
# only (HSTS), for a year, subdomains included, and the site may be submitted to the browsers' preload lists.
HTTPS = not DEBUG and _env_flag("RULESREF_HTTPS")
if HTTPS:
    SECURE_HSTS_SECONDS = int(os.environ.get("RULESREF_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_flag("RULESREF_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = _env_flag("RULESREF_HSTS_PRELOAD", default=True)

# A proxy that terminates TLS says so in a header (RULESREF_PROXY_SSL_HEADER=X-Forwarded-Proto, or "Name: value"
# when the value meaning HTTPS is not "https"). It is believed only from RULESREF_TRUSTED_PROXIES when that is set
# (addresses or networks); the same proxies may name the client, for rate limits and sign-in throttling, in
# RULESREF_CLIENT_IP_HEADER (X-Forwarded-For by default).
_ssl_header = os.environ.get("RULESREF_PROXY_SSL_HEADER", "").strip()
if _ssl_header:
    _name, _sep, _value = _ssl_header.partition(":")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _name.strip().upper().replace("-", "_"), _value.strip() or "https")
RULESREF_TRUSTED_PROXIES = _env_list("RULESREF_TRUSTED_PROXIES")
RULESREF_CLIENT_IP_HEADER = os.environ.get("RULESREF_CLIENT_IP_HEADER", "X-Forwarded-For")

# The rows a rulebook's contents page lists at most: a larger book shows its chapters and as many levels as fit,
# each closed section opening on request (reference/views.py).
RULESREF_TOC_ROWS = int(os.environ.get("RULESREF_TOC_ROWS", "2000"))

# Background work (rulesref/background.py): Django's Tasks API on a queue kept in the site's own database, run by
# `manage.py db_worker` processes (quickstart runs one; production runs them beside the app servers: docs/deploy.md).
# RULESREF_TASKS=immediate runs each task in the writer's process as its transaction commits (tests, scripts).
INSTALLED_APPS += ["django_tasks", "django_tasks_db"]
RULESREF_TASKS = os.environ.get("RULESREF_TASKS", "queue").strip().lower()
if RULESREF_TASKS not in ("queue", "immediate"):
    raise ImproperlyConfigured(f"RULESREF_TASKS is {RULESREF_TASKS!r}: it must be queue or immediate")
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend" if RULESREF_TASKS == "queue"
                     else "django_tasks.backends.immediate.ImmediateBackend"}}

# Who renders a rulebook's offline copy when a change of it commits (rulesref/offline/copies.py): "background", a
# task on the queue for a web request's change and the command itself for a command's; "inline", the writer's
# process always; "off", only `manage.py buildoffline` and `migrate` (a site that builds them in a job of its own).
RULESREF_OFFLINE_COPIES = os.environ.get("RULESREF_OFFLINE_COPIES", "background").strip().lower()
# A book of more sections (with a text) than this is not offered as a whole offline copy, one download of every page
# that the browser unpacks in memory: a section is about 11 KB to download, 125 KB unpacked and 35 ms to render, so
# 1,000 sections are 11 MB, 125 MB and half a minute (docs/offline.md). Readers' opened pages are still kept.
try:
    RULESREF_OFFLINE_MAX_SECTIONS = int(os.environ.get("RULESREF_OFFLINE_MAX_SECTIONS", "1000"))
except ValueError:
    raise ImproperlyConfigured("RULESREF_OFFLINE_MAX_SECTIONS must be a whole number of sections") from None
if RULESREF_OFFLINE_COPIES not in ("background", "inline", "off"):
    raise ImproperlyConfigured(f"RULESREF_OFFLINE_COPIES is {RULESREF_OFFLINE_COPIES!r}: it must be background, "
                               "inline or off")

# Rate limits per client address (rulesref/security/limits.py; docs/deploy.md gives the reason for each figure).
# A request still running after this many seconds is stopped, answered 503 and charged to its client
# (security/deadline.py): below gunicorn's timeout (gunicorn.conf.py, 30 s), which kills the worker instead.
RULESREF_REQUEST_SECONDS = float(os.environ.get("RULESREF_REQUEST_SECONDS", "25"))
RULESREF_RATE_LIMITS_ENABLED = _env_flag("RULESREF_RATE_LIMITS", default=True)
RULESREF_RATE_LIMITS = {
    "api": os.environ.get("RULESREF_RATE_API", "120/m, 3000/h"),  # engine questions over the JSON API
    "read-api": os.environ.get("RULESREF_RATE_READ_API", "300/m, 10000/h"),  # the read API (rulesref/api/)
    "checker": os.environ.get("RULESREF_RATE_CHECKER", "120/m, 3000/h"),  # edits, uploads and shares
    "upload": os.environ.get("RULESREF_RATE_UPLOAD", "10/m, 60/h"),  # uploaded scenario files
    "storage": os.environ.get("RULESREF_RATE_STORAGE", "32MB/h, 128MB/d"),  # bytes of new drafts and shares
    "sign-in": os.environ.get("RULESREF_RATE_SIGN_IN", "20/15m"),  # sign-in attempts, any account
    "cpu": os.environ.get("RULESREF_RATE_CPU", "20s/m, 300s/h"),  # CPU time of the requests the edge passes
    "report": os.environ.get("RULESREF_RATE_REPORT", "5/h, 20/d"),  # readers' problem reports, not signed in
}
RULESREF_RATE_LIMIT_CACHE = "default"

# The most sections one printed sheet renders (rulesref/printing): what does not fit is named, to print on its own.
RULESREF_PRINT_MAX_SECTIONS = int(os.environ.get("RULESREF_PRINT_MAX_SECTIONS", "600"))

# Anonymous storage: a scenario is kept up to this size; a draft nobody opened goes after a week, an opened one a
# month after it was last opened (pruned as new drafts are written). Shared links are kept for ever.
RULESREF_SCENARIO_MAX_BYTES = int(os.environ.get("RULESREF_SCENARIO_MAX_BYTES", str(512 * 1024)))
RULESREF_DRAFT_UNOPENED_DAYS = int(os.environ.get("RULESREF_DRAFT_UNOPENED_DAYS", "7"))
RULESREF_DRAFT_DAYS = int(os.environ.get("RULESREF_DRAFT_DAYS", "30"))

# Sign-in throttling (django-axes): after RULESREF_SIGNIN_FAILURES wrong passwords for one account from one address,
# that account is locked out from that address for RULESREF_SIGNIN_LOCKOUT_MINUTES, or until
# `manage.py axes_reset_username NAME` (or axes_reset for everyone).
AXES_ENABLED = True
AXES_FAILURE_LIMIT = int(os.environ.get("RULESREF_SIGNIN_FAILURES", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("RULESREF_SIGNIN_LOCKOUT_MINUTES", "30")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "rulesref.security.clients.client_ip"
AXES_LOCKOUT_CALLABLE = "rulesref.security.signin.locked_out"

# Content-Security-Policy (django-csp): scripts, styles and everything else from this site only; no inline script
# or style, no plugins, no framing, forms post only here. RULESREF_CSP_REPORT_ONLY=1 sends it as report-only.
# Not on the static files: they are this site's own stylesheets, scripts, fonts and images, and a browser applies a
# policy only to the document or worker it came with (the offline worker is /sw.js, a view, which carries it); on
# each of them it was 275 bytes of headers for nothing, seven times per checker page.
_csp = {
    "EXCLUDE_URL_PREFIXES": (STATIC_URL,),
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        **({"upgrade-insecure-requests": True} if HTTPS else {}),
    },
}
if _env_flag("RULESREF_CSP_REPORT_ONLY"):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _csp
else:
    CONTENT_SECURITY_POLICY = _csp
# Scenario checker (rulesref.checker): one editor per board kind, chosen by a rulebook's `kind` in its book.toml
# (a kind listed here by its class's id; a book of another kind, or without an engine, has no checker).
CHECKER_BOARD_KINDS = [
    "rulesref.checker.hex.HexBoard",
    "rulesref.checker.tabletop.TabletopBoard",
]
# Links other apps add to the reference's section pages: provider(book, section id, language) -> [{"label", "url",
# "kind"}]. The reference reads this list and imports none of them itself.
REFERENCE_SECTION_LINKS = ["rulesref.checker.links.section_links"]
# What other apps add after each paragraph of a section page: provider(book, index, section id, text language,
# body, paragraphs) -> one piece of HTML per paragraph. The rulings on a clause are shown under it.
REFERENCE_PARAGRAPH_EXTRAS = ["rulesref.rulings.render.paragraph_rulings"]
# Other APIs under /api/v1/ that the OpenAPI document describes beside the rules engine's (rulesref/checker/openapi.py).
OPENAPI_EXTENSIONS = ["rulesref.api.openapi.extend"]
# What other apps find for a query of the search page, shown after the sections found (the rulings).
REFERENCE_SEARCH_EXTRAS = ["rulesref.rulings.search.search_results"]
# Other apps' pages of a rulebook that its offline copy holds besides the reference's own (its FAQ and rulings).
OFFLINE_EXTRA_PAGES = ["rulesref.rulings.offline.page_urls"]
OFFLINE_EXTRA_DIGESTS = ["rulesref.rulings.offline.digest"]
# Rules editors answer readers' rules questions with rulings (reviewers may too): rulesref/rulings/permissions.py.
RULINGS_EDITORS_GROUP = "rules-editors"
