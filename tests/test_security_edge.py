"""The edge (rulesref.security): client addresses through proxies, rate limits, text that cannot be stored, bounded
drafts, sign-in throttling settings, the Content-Security-Policy header."""
from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client, RequestFactory
from django.utils import timezone, translation

from bulky import grown
from rulesref.checker import books
from rulesref.checker.models import Draft, SavedScenario
from rulesref.security import clients, limits, storage, text

pytestmark = pytest.mark.django_db
EDITOR = "/en/checker/mpbs/"


def scenario(slug: str = "interception-example-9.3", book: str = "mpbs") -> dict:
    return {k: v for k, v in books.example(book, slug).data.items() if k != "questions"}


def request(remote: str, forwarded: str | None = None):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **extra)


# --- who is asking ------------------------------------------------------------------------------------------------


def test_without_trusted_proxies_a_forwarded_header_is_ignored(settings):
    settings.RULESREF_TRUSTED_PROXIES = []
    assert clients.client_ip(request("198.51.100.1", "203.0.113.9")) == "198.51.100.1"


def test_through_trusted_proxies_the_client_is_the_right_most_untrusted_hop(settings):
    settings.RULESREF_TRUSTED_PROXIES = ["10.0.0.0/8", "2001:db8::1"]
    # What the client wrote itself (left) is not believed; each proxy appends the address it received from.
    assert clients.client_ip(request("10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.7")) == "203.0.113.9"
    assert clients.client_ip(request("2001:db8::1", "203.0.113.9")) == "203.0.113.9"
    assert clients.client_ip(request("10.0.0.2", "garbage, 203.0.113.9")) == "203.0.113.9"
    assert clients.client_ip(request("10.0.0.2", "203.0.113.9, garbage")) == "10.0.0.2"  # a broken hop: stop there
    assert clients.client_ip(request("10.0.0.2", "10.0.0.3")) == "10.0.0.3"  # all trusted: the furthest one
    assert clients.client_ip(request("10.0.0.2")) == "10.0.0.2"
    assert clients.client_ip(request("198.51.100.1", "203.0.113.9")) == "198.51.100.1"  # not from a proxy


def test_an_ipv6_client_counts_per_64_network():
    assert clients.client_key(request("2001:db8:1:2:aaaa::1")) == clients.client_key(request("2001:db8:1:2::ffff"))
    assert clients.client_key(request("2001:db8:1:3::1")) != clients.client_key(request("2001:db8:1:2::1"))
    assert clients.client_key(request("::ffff:198.51.100.4")) == "198.51.100.4"
    assert clients.client_key(request("198.51.100.4")) != clients.client_key(request("198.51.100.5"))
    assert clients.client_key(request("")) == "unknown"


# --- rate limits --------------------------------------------------------------------------------------------------


def test_rates_are_read_as_written():
    assert [(w.amount, w.seconds) for w in limits.parse("120/m, 2000/h")] == [(120, 60), (2000, 3600)]
    assert [(w.amount, w.seconds) for w in limits.parse("32MB/h")] == [(32 * 1024 * 1024, 3600)]
    assert [(w.amount, w.seconds) for w in limits.parse("30/15m, 20s/d")] == [(30, 900), (20_000, 86400)]
    for bad in ("120", "x/m", "5/0m", "5/w"):
        with pytest.raises(ValueError, match="is not a rate|at least one"):
            limits.parse(bad)


@pytest.mark.parametrize("spec,lang,words", [
    ("5/m", "en", "5 per minute"), ("30/15m", "en", "30 per 15 minutes"), ("32MB/h", "en", "32 MB per hour"),
    ("5/m", "ru", "5 в минуту"), ("30/15m", "ru", "30 за 15 минут"), ("1/2m", "ru", "1 за 2 минуты"),
    ("20s/m", "ru", "20 с в минуту"),
])
def test_rates_are_described_in_the_readers_language(spec, lang, words):
    with translation.override(lang):
        assert limits.parse(spec)[0].describe() == words


@pytest.mark.rate_limits
def test_a_refusal_says_when_to_come_back_and_that_window_ends_on_time(client, settings, monkeypatch):
    settings.RULESREF_RATE_LIMITS = {"api": "2/m"}
    now = [1_000_000 * 60 + 15.2]  # 15.2 s into a minute
    monkeypatch.setattr(limits, "clock", lambda: now[0])
    body = json.dumps({"scenario": scenario(), "params": {"unit": "CAV-1"}})
    ask = lambda: client.post("/api/v1/mpbs/rulings/can-intercept", body, content_type="application/json")  # noqa: E731
    assert [ask().status_code for _ in range(3)][-1] == 429
    refused = ask()
    assert refused["Retry-After"] == "45"  # 60 - 15.2, rounded up
    assert "45 seconds" in refused.json()["error"]
    now[0] += 45
    assert ask().status_code == 200


@pytest.mark.rate_limits
def test_a_cache_that_fails_lets_requests_through(client, settings, monkeypatch, caplog):
    settings.RULESREF_RATE_LIMITS = {"api": "1/m"}

    class Broken:
        def add(self, *a, **k):
            raise ConnectionError("the cache is down")

    monkeypatch.setattr(limits, "_cache", lambda: Broken())
    body = json.dumps({"scenario": scenario(), "params": {"unit": "CAV-1"}})
    for _ in range(3):
        assert client.post("/api/v1/mpbs/rulings/can-intercept", body, content_type="application/json").status_code == 200
    assert "the cache failed" in caplog.text


@pytest.mark.rate_limits
def test_checker_edits_and_sign_in_attempts_are_limited_htmx_gets_a_notice(client, settings):
    settings.RULESREF_RATE_LIMITS = {"checker": "2/m", "sign-in": "1/h"}
    edit = {"action": "place", "at": "0303", "place_side": "blue", "place_kind": "cavalry"}
    assert client.post(EDITOR, edit).status_code == 303
    assert client.post(EDITOR, edit).status_code == 303
    refused = client.post(EDITOR, edit, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429 and refused["HX-Retarget"] == "#edge-notice" and refused["HX-Reswap"] == "innerHTML"
    assert b'role="alert"' in refused.content and b"at most 2 per minute" in refused.content
    assert client.get(EDITOR).status_code == 200  # reading is not an edit
    ru = client.post("/ru/checker/mpbs/", edit)
    assert ru.status_code == 429 and "не больше 2 в минуту" in ru.content.decode()
    client.post("/en/accounts/login/", {"username": "x", "password": "y"})
    assert client.post("/en/accounts/login/", {"username": "z", "password": "y"}).status_code == 429


@pytest.mark.rate_limits
def test_processor_time_is_charged_to_its_client(client, settings, monkeypatch):
    settings.RULESREF_RATE_LIMITS = {"cpu": "1s/m"}
    clock = iter([0.0, 1.5] + [10.0] * 50)  # the first request costs 1.5 s of CPU
    monkeypatch.setattr("rulesref.security.middleware.time.thread_time", lambda: next(clock))
    assert client.get("/api/v1/openapi.json", REMOTE_ADDR="192.0.2.1").status_code == 200
    assert client.get("/api/v1/openapi.json", REMOTE_ADDR="192.0.2.1").status_code == 429
    assert client.get("/api/v1/openapi.json", REMOTE_ADDR="192.0.2.2").status_code == 200


@pytest.mark.rate_limits
def test_the_storage_limit_counts_bytes_of_new_drafts(client, settings):
    base = scenario()
    sent = [json.dumps(grown(base, f"upload {i}")) for i in range(4)]
    one = max(len(t.encode()) for t in sent)
    settings.RULESREF_RATE_LIMITS = {"storage": f"{one * 5 // 2 // 1024}KB/h"}  # room for two uploads, not three
    answers = []
    for text_ in sent:
        f = io.BytesIO(text_.encode())
        f.name = "s.json"
        answers.append(client.post(EDITOR, {"action": "upload", "up-file": f}).status_code)
    assert answers == [303, 303, 429, 429]
    assert Draft.objects.count() == 2  # a refused write stores nothing, and its bytes are not counted
    assert "Retry-After" in client.post(EDITOR, {"action": "upload", "up-file": io.BytesIO(sent[3].encode())})


def test_limits_are_on_by_default_wherever_the_site_runs():
    from rulesref import settings as site_settings

    assert site_settings.RULESREF_RATE_LIMITS_ENABLED and site_settings.AXES_ENABLED is not False
    for group, spec in site_settings.RULESREF_RATE_LIMITS.items():
        assert limits.parse(spec), group


# --- text that cannot be stored -----------------------------------------------------------------------------------


def test_the_json_reader_names_each_bad_string_by_its_path():
    with pytest.raises(text.UnstorableText) as caught:
        text.loads('{"units": [{"id": "a\\u0000b"}, {"\\ud800": 1}], "ok": "\\ud83d\\ude00"}')
    assert [p for p, _m in caught.value.problems] == ["units[0].id", "units[1].\\ud800"]
    assert "U+0000" in caught.value.problems[0][1] and "character 2" in caught.value.problems[0][1]
    assert "its name" in caught.value.problems[1][1]
    assert text.loads('"\\ud83d\\ude00"') == "😀"  # a surrogate pair is a real character
    assert text.dumps({"text": "\\u0000 is how JSON writes a NUL"})  # the words are text; only the character is not
    with pytest.raises(text.NotJSON, match="NaN"):
        text.loads('{"x": NaN}')
    with pytest.raises(text.NotJSON, match="nested too deeply"):
        text.loads("[" * 100_000 + "]" * 100_000)
    many = text.problems(["\x00"] * 10_000)
    assert len(many) == text.MAX_PROBLEMS


@pytest.mark.parametrize("lang,words", [("en", "a NUL character (U+0000)"), ("ru", "символ NUL (U+0000)")])
def test_a_nul_in_a_query_or_form_field_is_refused_naming_the_field(client, lang, words):
    r = client.get(f"/{lang}/search/?q=ok&book=mpbs%00")
    assert r.status_code == 400 and "<code>book</code>" in r.content.decode() and words in r.content.decode()
    r = client.post(f"/{lang}/checker/mpbs/", {"action": "place", "at": "0303", "place_side": "blue\x00"})
    assert r.status_code == 400 and "<code>place_side</code>" in r.content.decode()
    assert Draft.objects.count() == 0


def test_a_nul_in_a_header_or_the_address_is_refused_in_a_cookie_ignored_in_a_file_name_dropped(client):
    f = io.BytesIO(json.dumps(scenario()).encode())
    f.name = "a\x00.json"  # Django drops unprintable characters from file names
    assert client.post(EDITOR, {"action": "upload", "up-file": f}).status_code == 303
    assert client.get(EDITOR, HTTP_USER_AGENT="x\x00y").status_code == 400
    assert client.get("/en/rules/mpbs/9.3%00/").status_code == 404
    client.cookies["sessionid"] = "abcdefgh\x00"
    client.cookies["django_language"] = "ru\x00"
    assert client.get(EDITOR).status_code == 200


def test_the_api_answers_unstorable_text_in_json(client):
    r = client.get("/api/v1/mpbs/questions?lang=e%00n")
    assert r.status_code == 422 and r.json()["problems"][0]["path"] == "query.lang"
    r = client.get("/api/v1/mpbs/questions%00")
    assert r.status_code == 422 and r["Content-Type"] == "application/json"
    r = client.post("/api/v1/mpbs/rulings/can-intercept?lang=ru",
                    '{"scenario": {"title": "\\u0000"}, "params": {"unit": "\\udfff"}}', content_type="application/json")
    assert r.status_code == 422
    assert [p["path"] for p in r.json()["problems"]] == ["scenario.title", "params.unit"]
    assert "нельзя сохранить" in r.json()["problems"][0]["message"]


def test_models_refuse_unstorable_or_oversized_scenarios_whoever_saves_them(settings):
    with pytest.raises(text.UnstorableText):
        Draft.make("mpbs", {"title": "\ud800"}, None)
    with pytest.raises(text.UnstorableText):
        SavedScenario.objects.create(code="abcdefg", book="mpbs", data={"t\x00": 1}, digest="x")
    settings.RULESREF_SCENARIO_MAX_BYTES = 1000
    with pytest.raises(storage.TooLarge, match="of up to 0 KB|up to 0 KB"):
        SavedScenario.share("mpbs", {"title": "x" * 2000})
    assert not Draft.objects.exists() and not SavedScenario.objects.exists()


def test_an_oversized_edit_is_answered_never_a_500(client, settings):
    settings.RULESREF_SCENARIO_MAX_BYTES = 2000
    f = io.BytesIO(json.dumps(scenario()).encode())
    f.name = "s.json"
    r = client.post(EDITOR, {"action": "upload", "up-file": f})
    assert r.status_code == 413 and b"the checker keeps scenarios of up to 1 KB" in r.content


# --- bounded drafts -----------------------------------------------------------------------------------------------


def test_opening_a_draft_writes_at_most_once_a_day(django_assert_num_queries):
    draft = Draft.make("mpbs", scenario(), None)
    with django_assert_num_queries(2):  # read, and note the opening
        assert Draft.open("mpbs", draft.key).pk == draft.pk
    with django_assert_num_queries(1):  # read only: opened today already
        Draft.open("mpbs", draft.key)
    Draft.objects.filter(pk=draft.pk).update(opened=timezone.now() - timedelta(days=2))
    with django_assert_num_queries(2):
        Draft.open("mpbs", draft.key)
    assert Draft.open("mpbs", "nope") is None and Draft.open("t9a", draft.key) is None


def test_the_same_state_from_the_same_draft_is_one_draft_and_sharing_twice_one_link():
    first = Draft.make("mpbs", scenario(), None)
    assert Draft.make("mpbs", scenario(), None).pk == first.pk
    child = Draft.make("mpbs", {**scenario(), "title": "b"}, first)
    assert Draft.make("mpbs", {**scenario(), "title": "b"}, first).pk == child.pk
    assert Draft.make("mpbs", {**scenario(), "title": "b"}, None).pk != child.pk  # another history
    assert SavedScenario.share("mpbs", scenario()).code == SavedScenario.share("mpbs", scenario()).code


def test_each_new_draft_queues_the_pruning_of_the_expired_ones_and_deletes_nothing_itself(
        django_assert_max_num_queries, django_capture_on_commit_callbacks):
    old = timezone.now() - timedelta(days=400)
    for i in range(45):
        Draft.make("mpbs", {**scenario(), "title": f"old {i}"}, None)
    Draft.objects.update(created=old)
    opened = Draft.objects.order_by("pk")[:5].values_list("pk", flat=True)
    Draft.objects.filter(pk__in=list(opened)).update(opened=old)
    with django_capture_on_commit_callbacks() as committed, django_assert_max_num_queries(12):
        Draft.make("mpbs", {**scenario(), "title": "new"}, None)
    assert Draft.objects.count() == 46  # the request deleted nothing
    assert len(committed) == 1  # it queues the task when it commits (here the task runs at once)
    committed[0]()
    assert list(Draft.objects.values_list("data__title", flat=True)) == ["new"]


def test_prunedrafts_deletes_the_expired_and_with_days_the_unopened(settings):
    from django.core.management import call_command

    keep = Draft.make("mpbs", {**scenario(), "title": "kept"}, None)
    stale = Draft.make("mpbs", {**scenario(), "title": "stale"}, None)
    Draft.objects.filter(pk=stale.pk).update(opened=timezone.now() - timedelta(days=3))
    Draft.objects.filter(pk=keep.pk).update(opened=timezone.now())
    out = io.StringIO()
    call_command("prunedrafts", stdout=out)
    assert "deleted 0" in out.getvalue()
    call_command("prunedrafts", "--days", "2", stdout=out)
    assert list(Draft.objects.values_list("pk", flat=True)) == [keep.pk]


# --- sign-in and headers ------------------------------------------------------------------------------------------


def test_djangos_password_validators_are_on():
    for weak in ("short1", "password123", "1234567890123"):
        with pytest.raises(ValidationError):
            validate_password(weak)
    validate_password("a-long-enough-password")


def test_every_page_carries_a_strict_content_security_policy():
    client = Client()
    for url in ("/en/", "/ru/rules/mpbs/9.3.1/", EDITOR, "/en/accounts/login/", "/api/v1/openapi.json"):
        policy = client.get(url)["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if " " in d.strip())
        assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'", url
        assert "unsafe" not in policy and directives["frame-ancestors"] == "'none'", url


def test_the_policy_built_once_is_django_csps_own_and_a_view_may_still_vary_it(rf):
    from csp.decorators import csp_update
    from csp.utils import build_policy
    from django.http import HttpResponse

    from rulesref.security.middleware import PolicyMiddleware

    def directives(header):
        return {d.strip() for d in header.split(";")}

    for url in ("/ru/rules/mpbs/9.3.1/", "/api/v1/openapi.json", "/en/no-such-page/"):
        assert directives(Client().get(url)["Content-Security-Policy"]) == directives(build_policy()), url
    varied = csp_update({"img-src": ["https://maps.example"]})(lambda request: HttpResponse("x"))
    response = PolicyMiddleware(varied)(rf.get("/en/"))
    assert "img-src 'self' https://maps.example" in response["Content-Security-Policy"]
    assert directives(PolicyMiddleware(lambda request: HttpResponse("x"))(rf.get("/en/"))["Content-Security-Policy"]) \
        == directives(build_policy())


def test_the_policy_comes_with_documents_and_the_worker_not_with_static_files():
    client = Client()
    assert "script-src 'self'" in client.get("/sw.js")["Content-Security-Policy"]
    for path in ("/static/rulesref/site.css", "/static/rulesref/site.js", "/static/checker/checker.js"):
        response = client.get(path)
        assert response.status_code == 200 and "Content-Security-Policy" not in response, path
        assert response["X-Content-Type-Options"] == "nosniff", path


def test_report_only_mode_sends_the_policy_as_report_only(settings):
    policy = settings.CONTENT_SECURITY_POLICY
    del settings.CONTENT_SECURITY_POLICY
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = policy  # what RULESREF_CSP_REPORT_ONLY=1 sets
    response = Client().get("/ru/rules/mpbs/9.3.1/")
    assert "Content-Security-Policy" not in response
    assert "script-src 'self'" in response["Content-Security-Policy-Report-Only"]


def test_the_progress_bar_is_drawn_without_style_attributes(settings):
    import re

    from test_translation_support import client_for, make_user, without_translation

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    for sid in ("9.3.2", "9.3.3"):
        without_translation(sid)
    html = client_for(make_user("tina", "translators")).get("/en/translate/mpbs/").content.decode()
    bar = html[html.index('<svg class="stacked-bar"'):]
    bar = bar[:bar.index("</svg>")]
    rects = re.findall(r'<rect class="seg [^"]+"[^>]*>', bar)
    segments = [(float(re.search(r' x="([\d.]+)"', r).group(1)), float(re.search(r' width="([\d.]+)"', r).group(1)))
                for r in rects]
    assert len(segments) == 2 and "style=" not in bar
    (x0, w0), (x1, w1) = segments
    assert x0 == 0 and abs(x1 - w0) < 0.01 and abs(w0 + w1 - 100) < 0.01


def test_a_draft_an_editor_makes_is_opened_with_script_or_without(client):
    plain = client.post(EDITOR, {"action": "place", "at": "0303", "place_side": "blue", "place_kind": "cavalry"})
    assert client.get(plain["Location"]).status_code == 200  # the browser follows the redirect
    live = client.post(EDITOR, {"action": "place", "at": "0505", "place_side": "red", "place_kind": "cavalry"},
                       HTTP_HX_REQUEST="true")
    assert live.status_code == 200 and "HX-Push-Url" in live
    assert Draft.objects.count() == 2 and not Draft.objects.filter(opened__isnull=True).exists()
    script = Client()
    script.post(EDITOR, {"action": "place", "at": "0707", "place_side": "red", "place_kind": "cavalry"})
    assert Draft.objects.filter(opened__isnull=True).count() == 1  # made and never looked at: a script's


def test_mistyped_proxies_or_rates_are_system_check_errors(settings):
    from rulesref.security.checks import edge_settings

    assert edge_settings(None) == []
    settings.RULESREF_TRUSTED_PROXIES = ["10.0.0.0/8", "10.0.0.300"]
    settings.RULESREF_RATE_LIMITS = {"api": "120/m", "checker": "lots"}
    assert [e.id for e in edge_settings(None)] == ["rulesref.security.E001", "rulesref.security.E002"]


@pytest.mark.django_db(transaction=True)
def test_the_migration_mends_what_sqlite_stored_before_text_was_checked():
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("only SQLite ever stored such text (PostgreSQL refused it)")
    call_command("migrate", "checker", "0001", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO checker_draft (key, book, data, origin, created) VALUES "
                       "('bad1', 'mpbs', '{\"title\": \"a\\ud800b\"}', '', '2026-01-01 00:00:00'), "
                       "('good1', 'mpbs', '{\"title\": \"\\ud83d\\ude00\"}', '', '2026-01-01 00:00:00')")
        cursor.execute("INSERT INTO checker_savedscenario (code, book, data, digest, created) VALUES "
                       "('nulnull', 'mpbs', '{\"title\": \"a\\u0000b\"}', 'x', '2026-01-01 00:00:00')")
    call_command("migrate", "checker", verbosity=0)
    assert list(Draft.objects.values_list("key", "data__title")) == [("good1", "😀")]
    assert Draft.objects.get(key="good1").opened is not None  # existing drafts count as opened when made
    assert SavedScenario.objects.get(code="nulnull").data == {"title": "a\ufffdb"}  # the link keeps working


def test_every_address_under_api_answers_errors_in_json():
    client = Client(enforce_csrf_checks=True)
    for url in ("/api/", "/api", "/api/v2/rulings", "/api/v1/mpbs/rulings/can-intercept/"):
        for method in ("get", "post", "delete"):
            r = getattr(client, method)(url)
            assert r.status_code == 404 and r["Content-Type"] == "application/json", (method, url)
            assert "openapi.json" in r.json()["error"]
    r = client.get("/api/v1/openapi.json", HTTP_HOST="evil.example")  # not an allowed host: 400, in JSON
    assert r.status_code == 400 and r["Content-Type"] == "application/json"


def test_an_expired_draft_says_so_on_the_404_page(client):
    for lang, said, unsaid in [("en", "This draft no longer exists", "Этого черновика больше нет"),
                               ("ru", "Этого черновика больше нет", "This draft no longer exists")]:
        r = client.get(f"/{lang}/checker/mpbs/?d=nosuchdraft")
        page = r.content.decode()
        assert r.status_code == 404 and said in page and unsaid not in page
    # A 404 whose message is for developers keeps it to itself.
    assert "no such term" not in client.get("/en/glossary/mpbs/no-such-term/").content.decode()


def test_passwords_are_hashed_with_argon2_and_older_pbkdf2_hashes_still_sign_in(db):
    from django.contrib.auth import authenticate, get_user_model
    from django.contrib.auth.hashers import make_password

    user = get_user_model().objects.create_user("reader", password="a long right password 7")
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")  # OWASP's minimum for Argon2id
    user.password = make_password("an older password 8", hasher="pbkdf2_sha256")
    user.save()
    assert authenticate(username="reader", password="an older password 8") is not None
    user.refresh_from_db()
    assert user.password.startswith("argon2$")  # upgraded at sign-in
