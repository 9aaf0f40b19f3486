"""The offline copy's addresses, without a browser: the worker, the manifest, the version check, a copy's size and
bundle, the index built at load time and after an approval, and bad input."""
from __future__ import annotations

import gzip
import io
import json
import re

import pytest
from django.conf import settings

from rulesref.offline import index as offline_index
from rulesref.offline.models import OfflineIndex
from rulesref.offline.revision import revision
from rulesref.reference import history
from rulesref.reference.glossary import book_glossary
from rulesref.reference.index import book_index
from rulesref.reference.models import Book, SectionText

pytestmark = pytest.mark.django_db


def test_the_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    config = json.loads(body.split("self.RULESREF_OFFLINE = ", 1)[1].split(";\n", 1)[0])
    for never in ("/admin/", "/api/", "/en/translate/", "/ru/translate/", "/en/accounts/login/", "/offline/"):
        assert never in config["never"]
    assert config["languages"]["ru"]["checker"] == "/ru/checker/"
    assert "/static/offline/offline.js" in config["precache"] and "/ru/offline/not-kept/" in config["precache"]
    assert client.post("/sw.js").status_code == 405


@pytest.mark.parametrize("lang, name, short", [("en", "wargame rules", "Rules"), ("ru", "правила варгеймов", "Правила")])
def test_the_manifest_speaks_the_readers_language_and_starts_at_its_home(client, lang, name, short):
    response = client.get(f"/{lang}/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert name in data["name"] and data["short_name"] == short and data["lang"] == lang
    assert data["start_url"] == f"/{lang}/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["theme_color"] == "#7a2e1f"
    sizes = {icon["sizes"] for icon in data["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes and any(icon["purpose"] == "maskable" for icon in data["icons"])
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert f"/{lang}/rules/mpbs/" in [s["url"] for s in data["shortcuts"]]


def test_every_page_links_the_manifest_and_the_script_with_its_revision(client):
    html = client.get("/ru/rules/mpbs/9.3.1/").content.decode()
    assert '<link rel="manifest" href="/ru/manifest.webmanifest">' in html
    assert '<meta name="theme-color" content="#7a2e1f">' in html
    book = Book.objects.get(slug="mpbs")
    assert f'data-book="mpbs" data-revision="{revision(book)}"' in html
    assert "data-rulesref-private" not in html


def test_a_signed_in_users_page_says_it_must_not_be_kept(client, django_user_model):
    user = django_user_model.objects.create_user("kept", password="x" * 12)
    client.force_login(user)
    assert "data-rulesref-private" in client.get("/en/rules/mpbs/9.3.1/").content.decode()


def test_the_version_check_is_one_small_request_that_costs_nothing_when_unchanged(client, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        response = client.get("/offline/versions.json")
    assert len(response.content) < 1000 and response["Cache-Control"] == "no-cache"
    books = json.loads(response.content)["books"]
    assert set(books) == {"mpbs", "t9a"} and books["mpbs"]["revision"] == revision(Book.objects.get(slug="mpbs"))
    assert client.get("/offline/versions.json", HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_an_approved_translation_changes_the_token_and_the_index(client):
    before = json.loads(client.get("/offline/versions.json").content)["books"]["mpbs"]
    book = Book.objects.get(slug="mpbs")
    SectionText.objects.filter(section__book=book, section__sid="9.3.1", language="en").update(
        body="Quokkas may intercept.")
    history.record(book, "approval", only=[("9.3.1", "en")])  # what an approval does: a new book revision …
    book.bump_version()  # … and a new content version
    after = json.loads(client.get("/offline/versions.json").content)["books"]["mpbs"]
    assert after["revision"] == before["revision"] + 1 and after["token"] != before["token"]
    index = json.loads(client.get("/offline/mpbs/index.json").content)
    assert any(row["b"] == "Quokkas may intercept." for row in index["rows"])


def test_the_index_is_built_at_load_time(corpus_copy):
    from rulesref.reference.loading import load_corpus

    path = corpus_copy / "mpbs" / "en" / "9.md"
    path.write_text(path.read_text(encoding="utf-8").replace("A unit may Withdraw", "A unit may quokkafy", 1),
                    encoding="utf-8")
    load_corpus()
    row = OfflineIndex.objects.get(book__slug="mpbs")
    assert "quokkafy" in row.data and row.basis.startswith(f"{Book.objects.get(slug='mpbs').version}-")


def test_the_index_holds_the_servers_own_stems():
    from rulesref.reference.searchindex import word_stems

    book = Book.objects.get(slug="mpbs")
    data = json.loads(offline_index.stored(book))
    row = next(r for r in data["rows"] if data["sections"][r["s"]]["sid"] == "9.3.1" and r["l"] == "ru")
    assert [data["stems"][i] for i in row["bs"]] == word_stems(row["b"])
    assert [s["sid"] for s in data["sections"]] == book_index(book).order


def test_a_copy_is_measured_then_fetched_whole(client):
    info = json.loads(client.get("/offline/mpbs/info.json").content)
    book = Book.objects.get(slug="mpbs")
    assert info["revision"] == revision(book) and info["size"] < info["bytes"]
    response = client.get(info["url"], HTTP_ACCEPT_ENCODING="gzip, br")
    assert response["Content-Encoding"] == "gzip" and len(response.content) == info["size"]
    bundle = json.loads(gzip.decompress(response.content))
    urls = {entry["url"] for entry in bundle["entries"]}
    index = book_index(book)
    for lang in ("ru", "en"):
        assert {f"/{lang}/rules/mpbs/{sid}/" for sid in index.order} <= urls
        assert f"/{lang}/rules/mpbs/9.3.1/?view=parallel" in urls
        assert {f"/{lang}/rules/mpbs/", f"/{lang}/glossary/mpbs/", f"/{lang}/", f"/{lang}/search/",
                f"/{lang}/offline/not-kept/", f"/{lang}/offline/checker/", f"/{lang}/offline/strings.json"} <= urls
        terms = book_glossary(settings.FIXTURES_DIR, "mpbs").terms
        assert {f"/{lang}/glossary/mpbs/{t.id}/" for t in terms} <= urls
    assert {"/static/rulesref/site.css", "/static/rulesref/site.js", "/static/offline/offline.js",
            "/static/offline/offline.css", "/offline/mpbs/index.json"} <= urls
    pages = [e for e in bundle["entries"] if e["type"].startswith("text/html")]
    assert all("csrfmiddlewaretoken" not in e["body"] and "data-rulesref-private" not in e["body"] for e in pages)
    assert all(e.get("rev") == revision(book) for e in pages if "/rules/mpbs/" in e["url"])
    plain = client.get(info["url"])  # a client that does not take gzip
    assert "Content-Encoding" not in plain and len(plain.content) == info["bytes"]


def test_both_books_together_are_at_most_one_and_a_half_megabytes(client):
    sizes = [json.loads(client.get(f"/offline/{slug}/info.json").content)["size"] for slug in ("mpbs", "t9a")]
    assert sum(sizes) <= 1.5 * 1000 * 1000, sizes


def test_a_copy_asked_for_with_an_old_token_says_so(client):
    response = client.get("/offline/mpbs/1-0000/bundle.json")
    assert response.status_code == 409 and "changed" in json.loads(response.content)["error"]


@pytest.mark.parametrize("url", ["/offline/nosuchbook/info.json", "/offline/nosuchbook/index.json",
                                 "/offline/nosuchbook/1-2/bundle.json", "/offline/mp%00bs/info.json",
                                 "/offline/mpbs/%ED%A0%80/bundle.json", "/offline/%E2%98%83/info.json",
                                 "/en/offline/nothing/", "/offline/mpbs/" + "x" * 5000 + "/bundle.json"])
def test_odd_addresses_get_a_clear_4xx(client, url):
    assert client.get(url).status_code in (404, 409)


@pytest.mark.parametrize("url", ["/offline/versions.json", "/offline/mpbs/info.json", "/en/offline/strings.json"])
def test_the_offline_addresses_only_read(client, url):
    assert client.post(url).status_code == 405


@pytest.mark.parametrize("lang, text", [("en", "needs the network"), ("ru", "нужна сеть")])
def test_the_checker_page_shown_offline_says_it_needs_the_network(client, lang, text):
    assert text in client.get(f"/{lang}/offline/checker/").content.decode()


def test_the_strings_give_each_plural_category_its_catalog_form(client):
    ru = json.loads(client.get("/ru/offline/strings.json").content)
    assert ru["found"]["one"] == "Найден %(counter)s раздел"
    assert ru["found"]["few"] == "Найдено %(counter)s раздела" and ru["found"]["many"] == "Найдено %(counter)s разделов"
    en = json.loads(client.get("/en/offline/strings.json").content)
    assert en["found"] == {"one": "%(counter)s section found", "other": "%(counter)s sections found"}


class Counted:
    """Wraps a function and counts its calls."""

    def __init__(self, function):
        self.function, self.calls = function, 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.function(*args, **kwargs)


@pytest.fixture
def builds(monkeypatch):
    """Counts every rendering of a bundle and every build of an index, wherever it is called from."""
    from rulesref.offline import bundle

    counted = {"bundle": Counted(bundle.render), "index": Counted(offline_index.build_data)}
    monkeypatch.setattr(bundle, "render", counted["bundle"])
    monkeypatch.setattr(offline_index, "build_data", counted["index"])
    return counted


def approve_a_change(text: str) -> Book:
    """What approving a translation does: the text changes and the book's version is bumped."""
    book = Book.objects.get(slug="mpbs")
    SectionText.objects.filter(section__book=book, section__sid="9.3.1", language="en").update(body=text)
    book.bump_version()
    return book


READER_ADDRESSES = ["/en/rules/mpbs/", "/ru/rules/mpbs/", "/en/rules/mpbs/9.3.1/", "/en/manifest.webmanifest",
                    "/offline/versions.json", "/offline/mpbs/info.json", "/offline/mpbs/index.json", "/sw.js"]


@pytest.mark.offline_copies
def test_the_copy_is_built_when_the_change_commits_and_no_reader_request_builds(
        client, builds, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        book = approve_a_change("Quokkas may intercept.")
        book.bump_version()  # a second change in the same transaction: still one copy, of the final content
    assert builds["bundle"].calls == 1 and builds["index"].calls == 2  # each change re-indexes at once
    builds["bundle"].calls = builds["index"].calls = 0
    for url in READER_ADDRESSES:
        assert client.get(url).status_code == 200, url
    info = json.loads(client.get("/offline/mpbs/info.json").content)
    response = client.get(info["url"], HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    assert (builds["bundle"].calls, builds["index"].calls) == (0, 0)
    copy = json.loads(gzip.decompress(response.content))
    assert copy["token"] == info["token"] == offline_index.token(book) and copy["revision"] == revision(book)
    page = next(e for e in copy["entries"] if e["url"] == "/en/rules/mpbs/9.3.1/")
    assert "Quokkas may intercept." in page["body"]


def test_a_change_not_yet_built_is_answered_without_building(client, builds, settings):
    settings.RULESREF_OFFLINE_COPIES = "off"  # as if the copy were still being rendered elsewhere
    before = json.loads(client.get("/offline/mpbs/info.json").content)
    book = approve_a_change("Quokkas may intercept.")
    builds["bundle"].calls = builds["index"].calls = 0
    for url in ["/en/rules/mpbs/", "/ru/rules/mpbs/", "/offline/versions.json", "/offline/mpbs/index.json"]:
        assert client.get(url).status_code == 200, url
    info = client.get("/offline/mpbs/info.json")  # a state of the copy, not an error
    assert info.status_code == 200 and int(info["Retry-After"]) > 0
    assert json.loads(info.content) == {"book": "mpbs", "revision": revision(book), "preparing": True,
                                        "retry": int(info["Retry-After"])}
    response = client.get(f"/offline/{book.slug}/{offline_index.token(book)}/bundle.json")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert json.loads(response.content)["preparing"] is True
    assert client.get(before["url"]).status_code == 409  # the old copy is not passed off as current
    assert json.loads(client.get("/offline/versions.json").content)["books"]["mpbs"]["token"] == offline_index.token(book)
    assert (builds["bundle"].calls, builds["index"].calls) == (0, 0)
    assert "Quokkas" in client.get("/offline/mpbs/index.json").content.decode()  # the index is of the change


def test_buildoffline_builds_what_is_not_current(client, settings):
    from django.core.management import CommandError, call_command

    settings.RULESREF_OFFLINE_COPIES = "off"
    approve_a_change("Quokkas may intercept.")
    assert json.loads(client.get("/offline/mpbs/info.json").content)["preparing"]
    call_command("buildoffline", "mpbs")
    info = json.loads(client.get("/offline/mpbs/info.json").content)
    assert info["token"] == offline_index.token(Book.objects.get(slug="mpbs"))
    with pytest.raises(CommandError, match="nosuchbook"):
        call_command("buildoffline", "nosuchbook")


def test_the_copy_names_no_host_and_the_keeping_page_puts_its_own(client):
    """Rendered for no reader, the copy's absolute addresses name a placeholder origin that can be no real host;
    offline.js replaces it with the page's own origin when it stores the entries."""
    from rulesref.offline.bundle import ORIGIN

    info = json.loads(client.get("/offline/mpbs/info.json").content)
    copy = json.loads(gzip.decompress(client.get(info["url"], HTTP_ACCEPT_ENCODING="gzip").content))
    assert copy["origin"] == ORIGIN and ORIGIN.endswith(".invalid")
    page = next(e for e in copy["entries"] if e["url"] == "/en/rules/mpbs/9.3.1/")
    assert f'hreflang="ru" href="{ORIGIN}/ru/rules/mpbs/9.3.1/"' in page["body"]
    assert "testserver" not in page["body"]


@pytest.mark.offline_copies
def test_migrate_rebuilds_an_index_of_another_format_and_a_copy_of_another_release(client, builds):
    """A release that changes the index format or the pages: `migrate` (which every release runs) brings the
    stored index and copy up to date, so no reader's request finds them stale."""
    from django.core.management import call_command

    from rulesref.offline.models import OfflineBundle

    OfflineIndex.objects.filter(book__slug="mpbs").update(basis="1-0-1")  # built by an older release
    OfflineBundle.objects.filter(book__slug="t9a").update(build="older")
    call_command("migrate", "offline", verbosity=0)
    # mpbs: the index rebuilt, of the same content (so the same token: its copy stays); t9a: the copy rendered
    assert builds["index"].calls == 1 and builds["bundle"].calls == 1
    assert OfflineBundle.objects.get(book__slug="t9a").build != "older"
    assert OfflineIndex.objects.filter(book__slug="mpbs").exclude(basis="1-0-1").exists()
    info = json.loads(client.get("/offline/mpbs/info.json").content)
    assert info["token"] == offline_index.token(Book.objects.get(slug="mpbs"))
    assert json.loads(client.get("/offline/t9a/info.json").content)["token"]
    call_command("migrate", "offline", verbosity=0)  # nothing stale any more: nothing built
    assert builds["index"].calls == 1 and builds["bundle"].calls == 1


@pytest.mark.offline_copies
def test_a_book_too_large_for_a_whole_copy_is_not_offered_and_never_rendered(client, builds, settings):
    """A whole copy of a book past RULESREF_OFFLINE_MAX_SECTIONS would be too long to render and too big to
    download: none is rendered, whoever asks, and the contents page says so in the reader's language."""
    from django.core.management import call_command

    from rulesref.offline import copies

    settings.RULESREF_OFFLINE_MAX_SECTIONS = 20  # mpbs is over it, t9a under
    book = approve_a_change("Quokkas may intercept.")  # a change commits: the copy would be rendered now
    assert builds["bundle"].calls == 0
    assert copies.build_until_current(book.pk) is None and builds["bundle"].calls == 0
    english = client.get("/en/rules/mpbs/").content.decode()
    sections = int(re.search(r"English translation: \d+ of (\d+) sections", english).group(1))  # as the page counts
    assert sections > 20
    assert f"This rulebook has {sections} sections, more than the 20 a whole offline copy holds" in english
    assert 'data-offline-keep="mpbs" data-offline-too-large hidden' in english  # shows only a copy kept before
    assert 'data-offline-action="keep"' not in english and 'data-offline-action="update"' not in english
    russian = client.get("/ru/rules/mpbs/").content.decode()
    assert f"В этих правилах {sections} разделов, а полная копия для работы без сети вмещает не больше 20" in russian
    assert "This rulebook" not in russian and 'data-offline-action="keep"' not in russian
    info = json.loads(client.get("/offline/mpbs/info.json").content)
    assert info == {"book": "mpbs", "revision": revision(book), "tooLarge": True, "sections": sections, "limit": 20}
    response = client.get(f"/offline/mpbs/{offline_index.token(book)}/bundle.json")
    assert response.status_code == 404 and json.loads(response.content)["tooLarge"] is True
    call_command("buildoffline", "mpbs", stdout=(out := io.StringIO()))
    assert "none is built" in out.getvalue() and builds["bundle"].calls == 0
    smaller = client.get("/en/rules/t9a/").content.decode()  # a smaller book is still offered
    assert 'data-offline-action="keep"' in smaller and "data-offline-too-large" not in smaller
