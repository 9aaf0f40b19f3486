"""The offline copy in real Chromium: keep a rulebook, go offline, read, follow, search, switch language; come back
online after a change and be told; install checks; what must never be kept."""
from __future__ import annotations

import os
import re

import pytest
from browsing import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.offline_copies]


def controlled(page, url):
    """Open `url` and wait until the service worker controls the page."""
    page.goto(url)
    wait_until(page, "navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=15000)


def keep(page, site, book="mpbs", lang="en"):
    controlled(page, f"{site.url}/{lang}/rules/{book}/")
    box = page.locator(f"[data-offline-keep='{book}']")
    box.wait_for(state="visible")
    wait_until(page, "document.querySelector('.offline-status').textContent.match(/\\d/)")
    box.locator("[data-offline-action=keep]").click()
    wait_until(page, "document.querySelector('[data-offline-action=remove]') && "
                           "!document.querySelector('[data-offline-action=remove]').hidden", timeout=30000)
    return box


def live_search(page, text):
    """Enter `text` in the search box and wait for its results. The box and the results are emptied first without
    an event, and `text` goes in as one input, so that the only results to come are this query's (the results of
    the query before, or of a part of this one, cannot pass for them); on a timeout, say what the page held."""
    page.evaluate("document.getElementById('site-search-results').replaceChildren();"
                  "document.getElementById('site-search-q').value = ''")
    box = page.locator("#site-search-q")
    box.fill(text)
    results = page.locator("#site-search-results .search-results")
    try:
        results.wait_for(state="visible", timeout=20000)
    except Exception as error:
        held = page.evaluate("[navigator.onLine, document.getElementById('site-search-results').outerHTML]")
        raise AssertionError(f"no results for {text!r}: online {held[0]}, box {held[1][:500]!r}, "
                             f"page errors {page.errors}") from error
    return results


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_kept_rulebook_reads_and_searches_offline(site, page_factory, lang):
    page = page_factory()
    box = keep(page, site, lang=lang)
    status = box.locator(".offline-status").inner_text()
    assert re.search(r"revision \d+|редакция \d+", status), status
    page.context.set_offline(True)

    # A section never opened before, with the notice of the offline copy.
    page.goto(f"{site.url}/{lang}/rules/mpbs/11.4.6/")
    assert page.locator("article.section h1").inner_text().startswith("11.4.6")
    notice = page.locator(".offline-notice")
    notice.wait_for()
    assert re.search(r"revision \d+|редакции \d+", notice.inner_text()), notice.inner_text()

    # A cross-reference, followed offline.
    page.goto(f"{site.url}/{lang}/rules/mpbs/9.2.1/")
    ref = page.locator("article a.ref:not(.ref-absent)").first
    target = ref.get_attribute("href")
    ref.click()
    page.wait_for_url(re.compile(re.escape(target.split("#")[0])))
    assert page.locator("article.section").count() == 1

    # A term's tooltip, from the kept page, its definitions and the kept CSS/JS.
    page.goto(f"{site.url}/{lang}/rules/mpbs/9.3.1/")
    term = page.locator(".text a.term").first
    term.hover()
    tip = page.locator("#term-tip")
    tip.wait_for(state="visible")
    assert tip.inner_text().strip()

    # The other language, offline too.
    other = "ru" if lang == "en" else "en"
    page.locator("header.site a.lang").click()
    page.wait_for_url(re.compile(f"/{other}/rules/mpbs/9.3.1/"))
    assert page.locator("html").get_attribute("lang") == other

    # Search by word (any form, either language) and by number.
    results = live_search(page, "перехватить")
    assert "9.3" in results.locator("ul.hits li a").first.inner_text()
    results = live_search(page, "intercepting")
    assert "9.3" in results.locator("ul.hits li a").first.inner_text()
    results = live_search(page, "9. 3. 1")
    assert results.locator("p.jump a").get_attribute("href") == f"/{other}/rules/mpbs/9.3.1/"
    page.locator("#site-search-q").press("Enter")
    page.wait_for_url(re.compile(f"/{other}/rules/mpbs/9.3.1/$"))
    assert page.errors == []


def test_offline_search_works_whichever_of_its_scripts_arrives_first(site, page_factory):
    """The stemmer's script arriving after the search script's (as a slow cache read can make it) must not leave the
    search without its stemmer: here stem.js is held back for half a second."""
    page = page_factory()
    keep(page, site)
    page.context.set_offline(True)
    page.add_init_script("""
        const append = Node.prototype.appendChild;
        Node.prototype.appendChild = function (node) {
          if (node.tagName === "SCRIPT" && /\\/offline\\/stem\\./.test(node.src)) {
            setTimeout(() => append.call(this, node), 500);
            return node;
          }
          return append.call(this, node);
        };
    """)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    results = live_search(page, "intercepting")
    assert "9.3" in results.locator("ul.hits li a").first.inner_text()
    assert page.errors == []


@pytest.mark.parametrize("change", ["load", "approval"])
def test_going_online_after_a_change_says_the_rules_were_updated(site, page_factory, corpus_copy, change):
    from rulesref.reference import history
    from rulesref.reference.loading import load_corpus
    from rulesref.reference.models import Book, SectionText

    load_corpus(force=True)  # from the copy of the corpus this test may change
    page = page_factory()
    keep(page, site)
    page.context.set_offline(True)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    page.locator(".offline-notice").wait_for()
    if change == "load":  # loadrules after an edit of the corpus files
        path = corpus_copy / "mpbs" / "en" / "9.md"
        path.write_text(path.read_text(encoding="utf-8").replace("An inactive cavalry unit", "A changed rule text: an "
                                                                  "inactive cavalry unit", 1), encoding="utf-8")
        assert load_corpus().loaded == ["mpbs"]
    else:  # what approving a translation does
        book = Book.objects.get(slug="mpbs")
        SectionText.objects.filter(section__book=book, section__sid="9.3.1", language="en").update(
            body="A changed rule text.")
        history.record(book, "approval", only=[("9.3.1", "en")])
        book.bump_version()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    banner = page.locator(".offline-banner")
    banner.wait_for(timeout=10000)
    assert "updated" in banner.inner_text() and "Musket" in banner.inner_text()
    banner.locator("button.primary").click()
    wait_until(page, "document.querySelector('.offline-banner').textContent.indexOf('up to date') !== -1",
                           timeout=30000)
    page.context.set_offline(True)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    assert "A changed rule text" in page.locator("article").inner_text()
    page.goto(f"{site.url}/en/rules/mpbs/")
    wait_until(page, "/Kept offline/.test(document.querySelector('.offline-status').textContent)")
    assert f"revision {Book.objects.get(slug='mpbs').revision}" in page.locator(".offline-status").inner_text()


def test_removing_a_copy_removes_the_books_pages(site, page_factory):
    page = page_factory()
    box = keep(page, site)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")  # kept by habit as well
    page.goto(f"{site.url}/en/rules/mpbs/")
    box.locator("[data-offline-action=remove]").click()
    box.locator("[data-offline-action=keep]").wait_for(state="visible")
    wait_until(page, "/removed.*KB to download/.test(document.querySelector('.offline-status').textContent)")
    cached = page.evaluate(CACHED_URLS)
    assert not [url for url in cached if "/rules/mpbs/9." in url], cached
    page.context.set_offline(True)
    page.goto(f"{site.url}/en/rules/mpbs/11.4.6/")
    assert "not kept" in page.locator("main h1").inner_text()


def test_the_checker_offline_says_it_needs_the_network(site, page_factory):
    page = page_factory()
    keep(page, site)
    page.context.set_offline(True)
    page.goto(f"{site.url}/en/checker/")
    assert "needs the network" in page.locator("main h1").inner_text()
    page.goto(f"{site.url}/ru/checker/")
    assert "нужна сеть" in page.locator("main h1").inner_text().lower()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_manifest_and_worker_pass_chromiums_installability_checks(site, browser, tmp_path, lang):
    """Read from the DevTools protocol, in a profile of its own (Chromium never offers to install from an
    incognito context, which is what a plain test context is)."""
    # tests/conftest.py's Chromium and flags (not imported: tests/engine has a conftest module of the same name)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium"),
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
    try:
        page = context.new_page()
        controlled(page, f"{site.url}/{lang}/")
        session = context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert manifest.get("errors", []) == [], manifest.get("errors")
        assert f'"start_url":"/{lang}/"' in manifest["data"].replace(" ", "")
        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
    finally:
        context.close()


CACHED_URLS = """() => caches.keys().then(names => Promise.all(names.map(name => caches.open(name)
    .then(cache => cache.keys()).then(keys => keys.map(k => new URL(k.url).pathname + new URL(k.url).search)))))
    .then(lists => [].concat(...lists))"""


def test_a_signed_in_users_pages_and_posts_are_never_kept(site, page_factory, django_user_model):
    django_user_model.objects.create_user("translator", password="a-long-password")
    page = page_factory()
    controlled(page, f"{site.url}/en/")
    page.goto(f"{site.url}/en/accounts/login/")
    page.fill("input[name=username]", "translator")
    page.fill("input[name=password]", "a-long-password")
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(re.compile("/en/translate/"))
    for path in ("/en/translate/", "/en/accounts/login/", "/en/glossary/mpbs/", "/en/rules/mpbs/9.3.1/"):
        page.goto(site.url + path)
    page.locator("header.site form[action$='/logout/'] button").first.click()  # a POST
    page.wait_for_url(re.compile("/en/$"))
    page.goto(f"{site.url}/en/rules/mpbs/5.7/")  # signed out again: this one may be kept
    page.wait_for_timeout(500)
    cached = page.evaluate(CACHED_URLS)
    assert "/en/rules/mpbs/5.7/" in cached
    for path in ("/en/rules/mpbs/9.3.1/", "/en/glossary/mpbs/", "/en/translate/", "/en/accounts/login/",
                 "/en/accounts/logout/"):
        assert path not in cached, path
    bodies = page.evaluate("""() => caches.keys().then(names => Promise.all(names.map(name => caches.open(name)
        .then(cache => cache.matchAll()).then(all => Promise.all(all.map(r => r.clone().text()))))))
        .then(lists => [].concat(...lists).filter(t => t.indexOf('translator') !== -1 && t.indexOf('<html') !== -1).length)""")
    assert bodies == 0


def test_online_the_reader_always_gets_the_current_page(site, page_factory):
    from rulesref.reference.models import Book, SectionText

    page = page_factory()
    keep(page, site)
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    book = Book.objects.get(slug="mpbs")
    SectionText.objects.filter(section__book=book, section__sid="9.3.1", language="en").update(body="Fresh text.")
    book.bump_version()
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    assert "Fresh text." in page.locator("article").inner_text()
    assert page.locator(".offline-notice").count() == 0


def test_untrusted_text_stays_text_offline(site, page_factory):
    from rulesref.reference.models import Book, SectionText

    book = Book.objects.get(slug="mpbs")
    payload = "quokka <script>alert(1)</script> <img src=x onerror=alert(2)> javascript:alert(3) onerror=alert(4)"
    SectionText.objects.filter(section__book=book, section__sid="9.3.1").update(title=payload, body=payload)
    book.bump_version()
    page = page_factory()
    keep(page, site)
    page.context.set_offline(True)
    page.goto(f"{site.url}/en/rules/mpbs/9.2/")
    results = live_search(page, "quokka")
    assert "<script>" in results.inner_text()  # shown as the text it is
    assert results.locator("script, img").count() == 0
    assert all(not (a.get_attribute("href") or "").startswith("javascript:") for a in results.locator("a").all())
    page.goto(f"{site.url}/en/search/?q=quokka")
    page.locator("#search-page-results .offline-results").wait_for()
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    page.locator(".offline-notice").wait_for()
    assert page.dialogs == [] and page.errors == []


@pytest.mark.parametrize("lang, preparing", [("en", "being prepared"), ("ru", "готовится")])
def test_a_copy_being_prepared_is_said_so_and_offered_once_stored(site, page_factory, settings, monkeypatch,
                                                                   lang, preparing):
    """After a change whose copy is not stored yet, the contents page builds nothing: it says the copy is being
    prepared, offers no button, and asks again when the site said to; once the copy is stored it offers it."""
    from django.core.management import call_command

    from rulesref.offline import views
    from rulesref.reference import history
    from rulesref.reference.models import Book, SectionText

    settings.RULESREF_OFFLINE_COPIES = "off"  # the copy is rendered elsewhere, later
    monkeypatch.setattr(views, "RETRY_SECONDS", 2)
    book = Book.objects.get(slug="mpbs")  # what approving a translation does: a new revision, a new version
    SectionText.objects.filter(section__book=book, section__sid="9.3.1", language="en").update(body="A changed text.")
    history.record(book, "approval", only=[("9.3.1", "en")])
    book.bump_version()
    page = page_factory()
    controlled(page, f"{site.url}/{lang}/rules/mpbs/")
    status = page.locator(".offline-status")
    wait_until(page, f"document.querySelector('.offline-status').textContent.indexOf({preparing!r}) !== -1")
    assert page.locator("[data-offline-action=keep]").is_hidden()
    call_command("buildoffline", "mpbs")
    wait_until(page, "document.querySelector('.offline-status').textContent.match(/\\d/)", timeout=15000)
    assert preparing not in status.inner_text()
    page.locator("[data-offline-action=keep]").click()
    wait_until(page, "!document.querySelector('[data-offline-action=remove]').hidden", timeout=30000)
    assert page.errors == []


def test_a_copy_kept_before_the_book_grew_too_large_can_only_be_removed(site, page_factory, settings):
    """A book past RULESREF_OFFLINE_MAX_SECTIONS offers no copy; a reader who kept it before sees that copy, told
    it can no longer be updated, and can remove it."""
    from rulesref.reference import pagecache
    from rulesref.reference.models import Book

    page = page_factory()
    keep(page, site)
    settings.RULESREF_OFFLINE_MAX_SECTIONS = 20  # mpbs's 36 sections are now too many
    Book.objects.get(slug="mpbs").bump_version()
    pagecache.clear()
    page.goto(f"{site.url}/en/rules/mpbs/")
    assert "cannot be kept offline as one download" in page.locator(".offline-too-large").inner_text()
    box = page.locator("[data-offline-keep='mpbs']")
    box.wait_for(state="visible")
    wait_until(page, "/can no longer be updated/.test(document.querySelector('[data-offline-keep] .offline-status')"
                     ".textContent)")
    assert box.locator("[data-offline-action=keep], [data-offline-action=update]").count() == 0
    box.locator("[data-offline-action=remove]").click()
    wait_until(page, "/removed/.test(document.querySelector('[data-offline-keep] .offline-status').textContent)")
    assert not [url for url in page.evaluate(CACHED_URLS) if "/rules/mpbs/9." in url]
    page.reload()
    assert page.locator("[data-offline-keep='mpbs']").is_hidden()  # nothing kept: nothing to show
    assert page.errors == []
