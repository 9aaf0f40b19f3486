"""Inputs that gave a 500 or escaped a limit: JSON nested thousands of levels deep (every form field, upload and API
body that reads JSON refuses it before parsing, naming the field or path), TMX and XLIFF files nested thousands of
elements deep (refused while they are read, naming the file and line), and the admin's sign-in page (the same
per-address budget and lock-out as the translators')."""
from __future__ import annotations

import json
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils.html import escape
from test_translation_support import book

from rulesref.checker import books
from rulesref.checker.hex.forms import TablesForm
from rulesref.checker.models import Draft
from rulesref.security import fields, limits, text
from rulesref.translation.exchange.tmx import import_tmx, read_tmx
from rulesref.translation.exchange.units import ExchangeError
from rulesref.translation.exchange.xliff import MAX_XML_DEPTH, parse_xml, read_xliff

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
EDITOR = "/en/checker/mpbs/"
API = "/api/v1/mpbs/rulings/can-intercept"
BOUND = text.MAX_JSON_DEPTH
DEEP = (1_000, 100_000)


def arrays(depth: int) -> str:
    return "[" * depth + "]" * depth


def objects(depth: int) -> str:
    """``depth`` objects inside one another, each the member ``a`` of the last: {"a":{"a":…{}}}."""
    return '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)


def bare_objects(depth: int) -> str:
    return "{" * depth + "}" * depth  # not JSON past the second character, and still refused for its depth first


TOO_DEEP = [f(n) for n in DEEP for f in (arrays, objects, bare_objects)]


def scenario() -> dict:
    return {k: v for k, v in books.example("mpbs", "interception-example-9.3").data.items() if k != "questions"}


def with_expected_answer(total_depth: int, envelope: int = 0) -> dict:
    """A valid scenario nested ``total_depth`` levels deep (``envelope`` more levels will hold it): the free-form
    expected result of a question (scenario, questions, question, expect, result: 5 levels) holds the rest."""
    inner = json.loads(objects(total_depth - envelope - 4))
    return scenario() | {"questions": [{"question": "can-intercept", "params": {"unit": "CAV-1"},
                                        "expect": {"result": inner}}]}


def depth_of(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


# --- the one scan ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [arrays, objects])
def test_the_bound_is_exact_one_step_either_side(make):
    for depth in (BOUND - 1, BOUND):
        assert depth_of(text.loads(make(depth))) == depth
    with pytest.raises(text.TooDeep) as caught:
        text.loads(make(BOUND + 1))
    assert caught.value.limit == BOUND and caught.value.line == 1
    opened = make(BOUND + 1)
    assert opened[caught.value.column - 1] in "[{"  # the column points at the bracket one level too many
    assert opened[:caught.value.column - 1].count("{") + opened[:caught.value.column - 1].count("[") == BOUND


@pytest.mark.parametrize("deep", TOO_DEEP, ids=lambda s: f"{s[:6]}…{len(s)}")
def test_thousands_of_levels_are_refused_before_parsing_never_a_recursion_error(deep):
    started = time.perf_counter()
    with pytest.raises(text.TooDeep) as caught:
        text.loads(deep)
    assert time.perf_counter() - started < 5  # linear: a quadratic scan would take minutes
    assert isinstance(caught.value, text.NotJSON) and "nested too deeply" in caught.value.message


def test_the_scan_names_the_path_and_line_and_ignores_brackets_in_strings():
    deep = '{\n "units": [1, {"id": "x"}],\n "tables": {"rows": [0, ' + arrays(BOUND) + "]}}"
    with pytest.raises(text.TooDeep) as caught:
        text.loads(deep)
    assert caught.value.path == "tables.rows[1][0][0][0][0][0]…" and caught.value.line == 3
    with pytest.raises(text.TooDeep) as caught:
        text.check_depth(deep, root="scenario")
    assert caught.value.path.startswith("scenario.tables.rows[1]")
    brackets_in_strings = json.dumps({"a": ["[" * 1000, "{" * 1000, '\\"[[[' * 100], "b": "]" * 500})
    assert text.loads(brackets_in_strings)["a"][0] == "[" * 1000
    keyed = json.dumps({"k\"[": [{"\u00e9": json.loads(arrays(BOUND - 3))}]})  # 3 levels hold the arrays
    assert text.loads(keyed)
    with pytest.raises(text.TooDeep) as caught:
        text.loads(keyed.replace(arrays(BOUND - 3), arrays(BOUND - 2)))
    assert caught.value.path.startswith('k"[[0].é[0]')


def test_an_unterminated_string_full_of_escapes_is_scanned_in_linear_time():
    hostile = '["' + '\\"[' * 300_000 + "[" * 100
    started = time.perf_counter()
    with pytest.raises(text.NotJSON):
        text.loads(hostile)
    assert time.perf_counter() - started < 5


def test_the_refusal_is_in_the_readers_language():
    from django.utils import translation

    with translation.override("ru"), pytest.raises(text.TooDeep) as caught:
        text.loads(arrays(1000))
    assert "слишком глубокая вложенность (больше 64) в строке 1, столбце 65" == caught.value.message


# --- the checker's JSON fields -----------------------------------------------------------------------------------


@pytest.mark.parametrize("field", ["tables", "terrain_types"])
@pytest.mark.parametrize("lang,words,where", [
    ("en", "This JSON cannot be read: nested too deeply (more than 64 levels)", "at line 1, column "),
    ("ru", "Этот JSON нельзя прочитать: слишком глубокая вложенность (больше 64)", "в строке 1, столбце ")])
def test_a_deep_tables_field_is_the_fields_error_never_a_500(client, field, lang, words, where):
    before = Draft.objects.count()
    for deep in TOO_DEEP:
        r = client.post(f"/{lang}/checker/mpbs/", {"action": "tables", "tool": "select", f"tb-{field}": deep})
        html = r.content.decode()
        assert r.status_code == 422, (deep[:10], len(deep))
        error = re.search(rf'<ul class="errorlist" id="id_tb-{field}_error"><li>(.*?)</li>', html).group(1)
        assert error.startswith(words) and where in error  # next to the field, which keeps the text
    assert Draft.objects.count() == before


@pytest.mark.parametrize("field", ["tables", "terrain_types"])
def test_the_tables_form_takes_exactly_the_bound(field):
    for depth in (BOUND - 1, BOUND):
        form = TablesForm({f"tb-{field}": objects(depth)}, prefix="tb")
        assert form.is_valid(), (depth, form.errors)
        assert depth_of(form.cleaned_data[field]) == depth
    form = TablesForm({f"tb-{field}": objects(BOUND + 1)}, prefix="tb")
    assert not form.is_valid() and "nested too deeply" in form.errors[field][0]


def test_the_tables_form_refuses_text_that_cannot_be_stored_naming_where():
    form = TablesForm({"tb-tables": '{"interception": {"rows": [{"source": "\\u0000"}]}}'}, prefix="tb")
    assert not form.is_valid() and form.errors["tables"][0].startswith("interception.rows[0].source: ")
    form = TablesForm({"tb-tables": '{"x": NaN}'}, prefix="tb")
    assert not form.is_valid() and "NaN is not a JSON number" in form.errors["tables"][0]
    form = TablesForm({"tb-tables": '{"x": }'}, prefix="tb")
    assert not form.is_valid() and form.errors["tables"][0].startswith("Not JSON: Expecting value: line 1 column 7")


# --- uploaded scenario files ---------------------------------------------------------------------------------------


def upload(client, content: str, name: str = "deep.json"):
    return client.post(EDITOR, {"action": "upload", "up-file": SimpleUploadedFile(name, content.encode())})


@pytest.mark.parametrize("deep", TOO_DEEP, ids=lambda s: f"{s[:6]}…{len(s)}")
def test_a_deep_upload_is_the_uploads_report_never_a_500(client, deep):
    before = Draft.objects.count()
    r = upload(client, deep)
    html = r.content.decode()
    assert r.status_code == 422
    assert "Problems in deep.json" in html
    assert "The file cannot be read: nested too deeply (more than 64 levels)" in html
    assert "at line 1, column " in html
    assert Draft.objects.count() == before


def test_an_upload_exactly_at_the_bound_loads_and_one_level_more_is_refused_at_its_path(client):
    at_bound = with_expected_answer(BOUND)
    assert depth_of(at_bound) == BOUND
    r = upload(client, json.dumps(at_bound))
    assert r.status_code == 303
    assert client.get(r["Location"]).status_code == 200
    over = with_expected_answer(BOUND + 1)
    r = upload(client, json.dumps(over, indent=1))
    html = r.content.decode()
    assert r.status_code == 422 and "<code>questions[0].expect.result.a.a.a.a…</code>" in html
    assert "nested too deeply (more than 64 levels) at line" in html


# --- the JSON API ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("deep", TOO_DEEP, ids=lambda s: f"{s[:6]}…{len(s)}")
def test_a_deep_api_body_is_a_json_400_never_a_500(client, deep):
    for body in (deep, '{"scenario": ' + deep + ', "params": {}}'):
        r = client.post(API + "?lang=ru", body, content_type="application/json")
        assert r.status_code == 400 and r["Content-Type"] == "application/json"
        problem = r.json()["problems"][0]
        assert "слишком глубокая вложенность (больше 64)" in problem["message"]
        if body is not deep:
            assert problem["path"].startswith("scenario")


def test_an_api_body_exactly_at_the_bound_is_answered_and_one_level_more_is_refused_at_its_path(client):
    at_bound = {"scenario": with_expected_answer(BOUND, envelope=1), "params": {"unit": "CAV-1"}}
    assert depth_of(at_bound) == BOUND
    r = client.post(API, json.dumps(at_bound), content_type="application/json")
    assert r.status_code == 200, r.content[:500]
    over = {"scenario": with_expected_answer(BOUND + 1, envelope=1), "params": {"unit": "CAV-1"}}
    r = client.post(API, json.dumps(over), content_type="application/json")
    assert r.status_code == 400
    assert r.json()["problems"][0]["path"] == "scenario.questions[0].expect.result.a.a.a…"  # 8 parts shown
    assert r.json()["error"] == "the body is not JSON that can be read: nested more than 64 levels deep"


# --- a form field for a model's JSON (the admin's) ----------------------------------------------------------------


def test_the_bounded_json_form_field_refuses_deep_text_as_a_field_error():
    from django import forms

    class Form(forms.Form):
        data = fields.BoundedJSONField()

    assert Form({"data": objects(BOUND)}).is_valid()
    for deep in [objects(BOUND + 1)] + TOO_DEEP:
        form = Form({"data": deep})
        assert not form.is_valid() and "nested too deeply" in form.errors["data"][0]
        assert escape(deep[:50]) in str(form["data"])  # shown back as it was sent, not parsed again


# --- TMX and XLIFF files -------------------------------------------------------------------------------------------


def tmx(segment_ru: str, segment_en: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4">\n'
            '<header creationtool="t" datatype="plaintext" segtype="sentence" adminlang="en" srclang="ru" o-tmf="t"/>\n'
            '<body>\n<tu tuid="1">\n'
            f'<tuv xml:lang="ru"><seg>{segment_ru}</seg></tuv>\n<tuv xml:lang="en"><seg>{segment_en}</seg></tuv>\n'
            f"</tu>\n</body>\n</tmx>\n").encode()


def nested(tag: str, n: int, inside: str = "x") -> str:
    return f"<{tag}>" * n + inside + f"</{tag}>" * n


def xliff12(target: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">\n'
            '<file original="rulesref/mpbs" source-language="ru" target-language="en" datatype="plaintext">\n<body>\n'
            f'<trans-unit id="9.3.1:1">\n<source>Текст</source>\n<target state="translated">{target}</target>\n'
            "</trans-unit>\n</body>\n</file>\n</xliff>\n").encode()


def xliff20(target: str) -> bytes:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="ru" trgLang="en">\n'
            '<file id="mpbs">\n<unit id="9.3.1:1">\n<segment state="translated">\n'
            f"<source>Текст</source>\n<target>{target}</target>\n</segment>\n</unit>\n</file>\n</xliff>\n").encode()


def test_a_tmx_with_5000_nested_hi_is_an_import_error_naming_the_line():
    data = tmx("Текст", nested("hi", 5000))
    with pytest.raises(ExchangeError, match=r"elements nested more than 64 levels deep at line 7"):
        read_tmx(data, book(), "en", "deep.tmx")


def test_a_tmx_with_a_few_nested_hi_imports_their_text():
    plan = import_tmx(read_tmx(tmx("Пре <hi>а <hi>б <ph>{1}</ph></hi> в</hi> пост",
                                   "Pre <hi>a <hi>b <bpt i='1'>[</bpt>c<ept i='1'>]</ept></hi> d</hi> post"),
                               book(), "en", "few.tmx"))
    assert plan.written and plan.problems == [] and plan.with_codes == 1
    (pair,) = plan.pairs
    assert (pair.source, pair.target) == ("Пре а б  в пост", "Pre a b c d post")


def test_a_tmx_segment_nested_exactly_to_the_bound_imports_its_text():
    # tmx, body, tu, tuv and seg are 5 levels: the <hi> bring the deepest element to the bound exactly
    plan = read_tmx(tmx("Текст", nested("hi", MAX_XML_DEPTH - 5, "deep")), book(), "en", "bound.tmx")
    assert plan.problems == [] and plan.pairs[0].target == "deep"
    with pytest.raises(ExchangeError, match="at line 7"):
        read_tmx(tmx("Текст", nested("hi", MAX_XML_DEPTH - 4, "deep")), book(), "en", "over.tmx")


def test_xml_depth_is_bounded_exactly():
    for depth in (MAX_XML_DEPTH - 1, MAX_XML_DEPTH):
        root = parse_xml(nested("e", depth).encode())
        assert sum(1 for _ in root.iter()) == depth
    with pytest.raises(ExchangeError, match="nested more than 64 levels deep at line 1"):
        parse_xml(nested("e", MAX_XML_DEPTH + 1).encode())
    with pytest.raises(ExchangeError, match="at line 3"):
        parse_xml(b"<a>\n<b>\n" + nested("e", 100_000).encode() + b"</b></a>")


@pytest.mark.parametrize("make", [xliff12, xliff20])
def test_an_xliff_with_5000_nested_g_is_an_import_error_naming_the_line(make):
    with pytest.raises(ExchangeError, match="elements nested more than 64 levels deep at line 7"):
        read_xliff(make(nested("g", 5000)), book(), "en")


@pytest.mark.parametrize("lang,words", [("en", "elements nested more than 64 levels deep at line 7"),
                                        ("ru", "глубина вложенности элементов больше 64 в строке 7")])
def test_deep_files_uploaded_to_the_workspace_get_the_imports_error_page(tina, lang, words):
    for name, data in (("deep.tmx", tmx("Текст", nested("hi", 5000))), ("deep.xlf", xliff12(nested("g", 5000))),
                       ("deep2.xlf", xliff20(nested("g", 100_000)))):
        r = tina.post(f"/{lang}/translate/mpbs/+import/", {"file": SimpleUploadedFile(name, data), "status": "draft"})
        assert r.status_code == 400 and f"{name}: {words}" in r.content.decode()


# --- the admin's sign-in page ----------------------------------------------------------------------------------------


def sign_in_budget(settings) -> int:
    return min(w.amount for w in limits.parse(settings.RULESREF_RATE_LIMITS["sign-in"]))


@pytest.mark.rate_limits
def test_a_hundred_failed_admin_sign_ins_from_one_address_get_429_with_retry_after(settings):
    client = Client(REMOTE_ADDR="198.51.100.10")
    answers = [client.post("/admin/login/", {"username": f"admin{i}", "password": "wrong"}) for i in range(100)]
    codes = [r.status_code for r in answers]
    budget = sign_in_budget(settings)
    assert budget < 99 and codes[:budget] == [200] * budget
    assert set(codes[budget:]) == {429}
    assert int(answers[-1]["Retry-After"]) > 0
    assert Client(REMOTE_ADDR="198.51.100.11").post(
        "/admin/login/", {"username": "x", "password": "y"}).status_code == 200  # another address has its own


@pytest.mark.rate_limits
def test_the_translators_and_the_admins_sign_in_pages_share_one_budget_per_address(settings):
    budget = sign_in_budget(settings)
    client = Client(REMOTE_ADDR="198.51.100.20")
    first = budget // 2
    for i in range(first):
        assert client.post("/en/accounts/login/", {"username": f"t{i}", "password": "y"}).status_code == 200
    for i in range(budget - first):
        assert client.post("/admin/login/", {"username": f"a{i}", "password": "y"}).status_code == 200
    refused = client.post("/admin/login/", {"username": "last", "password": "y"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert client.post("/ru/accounts/login/", {"username": "last", "password": "y"}).status_code == 429


@pytest.mark.rate_limits
def test_an_account_locked_out_on_one_sign_in_page_is_locked_out_on_the_admins(settings, fast_passwords):
    get_user_model().objects.create_user("boss", password="a right password 42", is_staff=True, is_superuser=True)
    client = Client(REMOTE_ADDR="198.51.100.30")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/en/accounts/login/", {"username": "boss", "password": "wrong"})
    r = client.post("/admin/login/", {"username": "boss", "password": "a right password 42"})
    assert r.status_code == 429 and int(r["Retry-After"]) > 0 and "_auth_user_id" not in client.session
    other = Client(REMOTE_ADDR="198.51.100.31")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert other.post("/admin/login/", {"username": "boss", "password": "wrong"}).status_code == 200
    assert other.post("/admin/login/", {"username": "boss", "password": "wrong"}).status_code == 429  # locked now
    r = other.post("/en/accounts/login/", {"username": "boss", "password": "a right password 42"})
    assert r.status_code == 429 and "_auth_user_id" not in other.session
    fresh = Client(REMOTE_ADDR="198.51.100.32")
    r = fresh.post("/admin/login/", {"username": "boss", "password": "a right password 42"})
    assert r.status_code == 302 and "_auth_user_id" in fresh.session


def test_the_ruling_command_refuses_a_scenario_file_nested_too_deeply(tmp_path):
    from django.core.management import call_command
    from django.core.management.base import CommandError

    path = tmp_path / "deep.json"
    path.write_text('{"units": ' + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8")
    with pytest.raises(CommandError, match="nested too deeply"):
        call_command("ruling", "mpbs", "retreat", str(path))


@pytest.mark.django_db
def test_the_admin_book_form_refuses_json_nested_too_deeply(client):
    from django.contrib.auth.models import User

    from rulesref.reference.models import Book

    client.force_login(User.objects.create_superuser("admin", "admin@example.org", "pw-admin-123"))
    book = Book.objects.get(slug="mpbs")
    response = client.post(f"/admin/reference/book/{book.pk}/change/", {
        "slug": book.slug, "source_language": book.source_language, "kind": book.kind, "position": book.position,
        "title_ru": book.title_ru, "title_en": book.title_en, "revision": book.revision,
        "chapters": "[" * 5000 + "]" * 5000, "number_patterns": "[]"})
    assert response.status_code == 200 and "nested too deeply" in response.content.decode()
    assert Book.objects.get(pk=book.pk).chapters == book.chapters
