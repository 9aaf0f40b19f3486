"""The seven failures of issue #12, one test each, as an attacker found them (each failed on the code before the fix).

1. one small engine request could be replayed without limit from one address;
2. a draft link was permanent, so anyone could replay its page for ever;
3. a lone surrogate in a JSON string gave a 500 (API) or was stored and broke every page of its draft (upload);
4. anonymous uploads filled the database;
5. sign-in was not throttled;
6. ``check --deploy`` warned of no HSTS, and a proxy on another host could not say the request came over HTTPS;
7. GET-only API URLs answered other methods with Django's HTML 403 page, and ``params`` were not typed.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from bulky import grown
from rulesref.checker import books
from rulesref.checker.models import Draft, SavedScenario

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.django_db


def scenario(book: str, slug: str) -> dict:
    return {k: v for k, v in books.example(book, slug).data.items() if k != "questions"}


def post_json(client, url: str, body, **extra):
    text = body if isinstance(body, str) else json.dumps(body)
    return client.post(url, text, content_type="application/json", **extra)


def upload(client, text: str, address: str = "192.0.2.10", name: str = "scenario.json"):
    f = io.BytesIO(text.encode("utf-8", "surrogatepass"))
    f.name = name
    return client.post("/en/checker/mpbs/", {"action": "upload", "up-file": f}, REMOTE_ADDR=address)


# --- 1. one small request, replayed ------------------------------------------------------------------------------


@pytest.mark.rate_limits
def test_1_one_address_cannot_keep_the_engine_busy(client, settings):
    settings.RULESREF_RATE_LIMITS = {**settings.RULESREF_RATE_LIMITS, "api": "5/m"}
    body = {"scenario": scenario("mpbs", "interception-example-9.3"), "params": {"unit": "CAV-1"}}
    url = "/api/v1/mpbs/rulings/can-intercept"
    answers = [post_json(client, url, body, REMOTE_ADDR="198.51.100.7") for _ in range(6)]
    assert [r.status_code for r in answers] == [200] * 5 + [429]
    refused = answers[-1]
    assert refused["Content-Type"] == "application/json"
    assert 0 < int(refused["Retry-After"]) <= 60
    assert "5 per minute" in refused.json()["error"]
    # Another reader is not held up by the first one's flood.
    assert post_json(client, url, body, REMOTE_ADDR="198.51.100.8").status_code == 200


# --- 2. a draft link anyone can replay for ever -------------------------------------------------------------------


def test_2_a_draft_nobody_opens_expires_as_new_drafts_are_written(client, settings, django_capture_on_commit_callbacks):
    data = scenario("mpbs", "interception-example-9.3")
    forgotten = Draft.make("mpbs", {**data, "title": "forgotten"}, None)
    kept = Draft.make("mpbs", {**data, "title": "kept"}, None)
    long_ago = timezone.now() - timedelta(days=settings.RULESREF_DRAFT_UNOPENED_DAYS + 1)
    Draft.objects.filter(pk__in=[forgotten.pk, kept.pk]).update(created=long_ago)
    Draft.objects.filter(pk=kept.pk).update(opened=timezone.now() - timedelta(days=1))
    with django_capture_on_commit_callbacks(execute=True):  # no cron: a write queues the pruning as it commits
        Draft.make("mpbs", {**data, "title": "new"}, None)
    assert not Draft.objects.filter(pk=forgotten.pk).exists()
    assert Draft.objects.filter(pk=kept.pk).exists()
    page = client.get(f"/en/checker/mpbs/?d={forgotten.key}")
    assert page.status_code == 404


# --- 3. a lone surrogate ------------------------------------------------------------------------------------------


def test_3_a_lone_surrogate_is_refused_with_its_path_in_the_api_and_the_upload(client):
    text = json.dumps(scenario("mpbs", "interception-example-9.3")).replace("CAV-1", "CAV\\ud800")
    client.raise_request_exception = False
    r = post_json(client, "/api/v1/mpbs/rulings/can-intercept", '{"scenario": %s, "params": {"unit": "CAV-1"}}' % text)
    assert r.status_code == 422 and r["Content-Type"] == "application/json"
    problems = r.json()["problems"]
    assert {"scenario.units[1].id"} <= {p["path"] for p in problems}
    assert "U+D800" in problems[0]["message"]
    before = Draft.objects.count()
    page = upload(client, text)
    assert page.status_code == 422
    assert b"units[1].id" in page.content and b"U+D800" in page.content
    assert Draft.objects.count() == before


# --- 4. anyone can fill the database ------------------------------------------------------------------------------


@pytest.mark.rate_limits
def test_4_anonymous_uploads_cannot_fill_the_database(client, settings):
    base = scenario("mpbs", "interception-example-9.3")
    same = json.dumps(grown(base, "the same"))
    for _ in range(3):
        assert upload(client, same).status_code == 303
    assert Draft.objects.count() == 1  # the same file is stored once
    statuses = [upload(client, json.dumps(grown(base, f"upload {i}"))).status_code for i in range(40)]
    refused = statuses.index(429)
    assert 0 < refused < 40 and set(statuses[refused:]) == {429}
    stored = sum(len(json.dumps(d.data)) for d in Draft.objects.all())
    assert stored < 20 * len(same)  # before the limit: every upload was stored
    assert upload(client, same, address="192.0.2.99").status_code == 303  # another address is not held up


# --- 5. sign-in not throttled -------------------------------------------------------------------------------------

RIGHT = "a right password 42"


def sign_in(client, password: str, lang: str = "en"):
    return client.post(f"/{lang}/accounts/login/", {"username": "tina", "password": password})



@pytest.mark.rate_limits
def test_5_thirty_wrong_passwords_then_the_right_one_does_not_sign_in(settings):
    get_user_model().objects.create_user("tina", password=RIGHT)
    client = Client(REMOTE_ADDR="203.0.113.5")
    answers = [sign_in(client, "wrong") for _ in range(30)]
    assert {r.status_code for r in answers[:settings.AXES_FAILURE_LIMIT - 1]} == {200}
    assert {r.status_code for r in answers[settings.AXES_FAILURE_LIMIT:]} == {429}
    r = sign_in(client, RIGHT)
    assert r.status_code == 429 and int(r["Retry-After"]) > 0
    assert "_auth_user_id" not in client.session


@pytest.mark.rate_limits
def test_5_the_lock_out_is_shown_in_both_languages_and_lifted_by_a_command_or_by_time(settings):
    from axes.models import AccessAttempt

    get_user_model().objects.create_user("tina", password=RIGHT)
    client = Client(REMOTE_ADDR="203.0.113.6")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "wrong")
    r = sign_in(client, RIGHT)
    assert r.status_code == 429 and "_auth_user_id" not in client.session
    assert "Too many failed sign-in attempts" in r.content.decode()
    assert "Слишком много неудачных попыток входа" in sign_in(client, RIGHT, lang="ru").content.decode()
    other = Client(REMOTE_ADDR="203.0.113.7")  # the account is locked from that address only
    sign_in(other, RIGHT)
    assert "_auth_user_id" in other.session
    call_command("axes_reset_username", "tina", stdout=io.StringIO())
    sign_in(client, RIGHT)
    assert "_auth_user_id" in client.session
    # By time: once the lock-out's wait has passed since the last attempt, the right password signs in.
    later = Client(REMOTE_ADDR="203.0.113.8")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(later, "wrong")
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    sign_in(later, RIGHT)
    assert "_auth_user_id" in later.session


# --- 6. deployment ------------------------------------------------------------------------------------------------


PRODUCTION = {
    "DEBUG": "0", "RULESREF_HTTPS": "1", "SECRET_KEY": "k" * 20 + "9f3Qz!x-" * 6, "ALLOWED_HOSTS": "rules.example.org",
    "RULESREF_PROXY_SSL_HEADER": "X-Forwarded-Proto", "RULESREF_TRUSTED_PROXIES": "10.0.0.0/8",
}


def run_with(env: dict, *args: str) -> subprocess.CompletedProcess:
    full = {**os.environ, **env, "DJANGO_SETTINGS_MODULE": "rulesref.settings"}
    full.pop("DATABASE_URL", None)
    full.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # the browser tests' own setting (Playwright's loop), not a deployment's
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120)


def test_6_check_deploy_is_clean_and_a_proxy_on_another_host_is_believed(tmp_path):
    env = {**PRODUCTION, "RULESREF_VAR_DIR": str(tmp_path)}
    # As docs/deploy.md sets it up, a shared cache included (the check connects to nothing).
    check = run_with({**env, "REDIS_URL": "redis://127.0.0.1:6379/0"}, "manage.py", "check", "--deploy",
                     "--fail-level", "WARNING")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "no issues" in check.stdout
    probe = run_with(env, "-c", (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "for addr in ('10.1.2.3', '198.51.100.20'):\n"
        "    r = Client(REMOTE_ADDR=addr, HTTP_HOST='rules.example.org', HTTP_X_FORWARDED_PROTO='https')"
        ".get('/api/v1/openapi.json')\n"
        "    print(addr, r.status_code, r.get('Strict-Transport-Security', ''))\n"))
    lines = dict(line.split(" ", 1) for line in probe.stdout.splitlines())
    # The load balancer at 10.1.2.3 says HTTPS: answered, with HSTS, no redirect loop.
    assert lines["10.1.2.3"].startswith("200 max-age="), probe.stdout + probe.stderr
    # A client talking to the app server directly cannot claim HTTPS: redirected.
    assert lines["198.51.100.20"].startswith("301"), probe.stdout + probe.stderr


# --- 7. the API contract ------------------------------------------------------------------------------------------


def test_7_every_api_url_answers_every_method_in_json_and_params_are_typed():
    client = Client(enforce_csrf_checks=True)  # as a real client meets the site: CSRF checks on
    for url, allow in [("/api/v1/openapi.json", "GET, HEAD"), ("/api/v1/mpbs/questions", "GET, HEAD"),
                       ("/api/v1/t9a/scenario.schema.json", "GET, HEAD"),
                       ("/api/v1/mpbs/rulings/can-intercept", "POST")]:
        for method in ("post", "put", "patch", "delete", "get"):
            r = getattr(client, method)(url)
            if method in allow.lower() or (method == "post" and allow == "POST"):
                continue
            assert r.status_code == 405, (method, url, r.status_code)
            assert r["Content-Type"] == "application/json" and r["Allow"] == allow
            assert "error" in r.json()
    pursuit = {"scenario": scenario("t9a", "pursuit-two-pursuers"), "params": None}
    r = post_json(client, "/api/v1/t9a/rulings/pursuit", pursuit)
    assert r.status_code == 422 and [p["path"] for p in r.json()["problems"]] == ["params"]
    # can-intercept requires its unit: null is "not given", so a problem there too (an optional one may be null).
    for wrong in (None, 5, ["RH"], {"id": "RH"}, True):
        body = {"scenario": scenario("mpbs", "reactions-cavalry"), "params": {"unit": wrong}}
        r = post_json(client, "/api/v1/mpbs/rulings/can-intercept", body)
        assert r.status_code == 422, wrong
        assert [p["path"] for p in r.json()["problems"]] == ["params.unit"], wrong
    body = {"scenario": scenario("mpbs", "reactions-cavalry"), "params": {"unit": None}}
    assert post_json(client, "/api/v1/mpbs/rulings/reactions", body).status_code == 200
    assert SavedScenario.objects.count() == 0
