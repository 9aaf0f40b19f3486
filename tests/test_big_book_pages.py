"""The sitemap and the contents page of a big rulebook, bounded by counting (never by timing): the sitemap is an
index of files, one a rulebook (paged past ``ReferenceSitemap.limit`` addresses), each written once per content
version and kept in Django's cache; the contents page reads the book's outline in a few queries, however many
sections it has, and shows a book too big to list at once with its deeper levels closed, each opened by a link
(the page again without script, the subsections alone with htmx). Generated books of 1,200 and 3,000 sections
(bench/corpus_gen.py, loaded as loadrules loads) stand for the big ones."""
from __future__ import annotations

import gzip
import re
from html import unescape
from xml.etree import ElementTree

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from generated_books import load, remove

from rulesref.reference import index, pagecache
from rulesref.reference.models import Book, Section
from rulesref.reference.sitemaps import ReferenceSitemap, _section_paths

pytestmark = pytest.mark.django_db
SIZES = {"scale1200": 1200, "scale3000": 3000}
LANGS = ("ru", "en")
NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


@pytest.fixture(scope="module")
def big_books(django_db_setup, django_db_blocker, tmp_path_factory):
    """Two generated rulebooks, for this module's tests only: removed again after them."""
    with django_db_blocker.unblock():
        yield {slug: load(slug, sections, tmp_path_factory.mktemp(slug)) for slug, sections in SIZES.items()}
        remove(*SIZES)


@pytest.fixture(autouse=True)
def empty_cache():
    """Sitemap files are kept in Django's cache under the books' versions, which rolled-back tests reuse."""
    caches["default"].clear()
    yield
    caches["default"].clear()


def cold() -> None:
    """As a process that has served nothing of the books since they changed."""
    index.invalidate()
    pagecache.clear()
    caches["default"].clear()


def queries(client, url: str, **headers):
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, **headers)
    return response, [q["sql"] for q in captured.captured_queries]


def readable(slug: str) -> list[str]:
    return list(Section.objects.filter(book__slug=slug, absent=False).order_by("position").values_list("sid", flat=True))


# ---------------------------------------------------------------------------------------------- the contents page


@pytest.mark.parametrize("rows", [None, 100, 10_000])
def test_the_contents_page_costs_the_same_few_queries_whatever_the_books_size(client, big_books, settings, rows,
                                                                                django_assert_max_num_queries):
    """The first render, whether the book is shown whole (rows: 10,000) or with its deeper levels closed: the
    books' versions and rows (read again after a change), the book's sections, how many have a text in each
    language, the titles of the rows shown."""
    if rows:
        settings.RULESREF_TOC_ROWS = rows
    counts = {}
    for slug in SIZES:
        cold()
        with django_assert_max_num_queries(5):
            response, sql = queries(client, f"/en/rules/{slug}/")
        assert response.status_code == 200
        counts[slug] = len(sql)
    assert counts["scale1200"] == counts["scale3000"], counts


def test_the_contents_page_once_rendered_costs_the_one_versions_query(client, big_books, django_assert_num_queries):
    for slug in SIZES:
        for lang in LANGS:
            assert client.get(f"/{lang}/rules/{slug}/").status_code == 200
            with django_assert_num_queries(1):  # the page cache's
                assert client.get(f"/{lang}/rules/{slug}/").status_code == 200
            pagecache.clear()
            with django_assert_num_queries(1):  # rendered again from the outline kept, titles and all
                assert client.get(f"/{lang}/rules/{slug}/").status_code == 200


def links(html: str, lang: str, slug: str) -> list[str]:
    return [unescape(s) for s in re.findall(rf'<li[^>]*><a href="/{lang}/rules/{slug}/([^"?]+)/">', html)]


def openers(html: str) -> list[str]:
    return [unescape(u) for u in re.findall(r'<a class="badge muted toc-open" href="[^"]+" rel="nofollow" '
                                            r'hx-get="([^"]+)"', html)]


def test_a_book_within_the_rows_is_listed_whole(client, big_books, settings):
    settings.RULESREF_TOC_ROWS = 2000
    html = client.get("/en/rules/scale1200/").content.decode()
    assert links(html, "en", "scale1200") == readable("scale1200")
    assert "toc-open" not in html and 'class="note"' not in html


def test_a_big_book_lists_every_chapter_and_opens_the_rest_without_script(client, big_books, settings):
    """Past RULESREF_TOC_ROWS rows the page shows as many levels as fit (every chapter always), each section left
    closed with a link to the page with it open: followed without script, it shows that section's subsections at
    its place (an anchor), the page's canonical address being the contents' own."""
    settings.RULESREF_TOC_ROWS = 2000
    slug, lang = "scale3000", "ru"
    html = client.get(f"/{lang}/rules/{slug}/").content.decode()
    shown = links(html, lang, slug)
    chapters = list(Section.objects.filter(book__slug=slug, parent=None).order_by("position").values_list("sid", flat=True))
    assert set(chapters) <= set(shown) and len(shown) < len(readable(slug))
    assert html.count("<li") <= 2000 and "разделов — слишком много" in html
    closed = re.findall(r'<li id="toc-([^"]+)"><a [^>]+>.*?</a> <a class="badge muted toc-open" href="([^"]+)"', html)
    assert closed and all(unescape(url).startswith(f"/{lang}/rules/{slug}/?open=") for _, url in closed)
    sid, url = closed[0]
    opened = client.get(unescape(url).split("#")[0])
    assert opened.status_code == 200 and unescape(url).endswith(f"#toc-{sid}")
    page = opened.content.decode()
    assert f'<li id="toc-{sid}">' in page
    children = Section.objects.filter(book__slug=slug, parent__sid=sid).values_list("sid", flat=True)
    assert set(children) <= set(links(page, lang, slug))
    assert f'<link rel="canonical" href="http://testserver/{lang}/rules/{slug}/">' in page
    assert client.get(f"/{lang}/rules/{slug}/", {"open": "no-such-section"}).status_code == 404
    leaf = Section.objects.filter(book__slug=slug, children=None).values_list("sid", flat=True).first()
    assert client.get(f"/{lang}/rules/{slug}/", {"open": leaf}).status_code == 404


def test_a_deep_section_opened_without_script_shows_the_way_to_it(client, big_books, settings):
    settings.RULESREF_TOC_ROWS = 30
    slug = "scale1200"
    deep = Section.objects.filter(book__slug=slug, depth=3).exclude(children=None).order_by("position").first()
    page = client.get(f"/en/rules/{slug}/", {"open": deep.sid}).content.decode()
    for sid in (deep.parent.parent.sid, deep.parent.sid, deep.sid):
        assert f'<li id="toc-{sid}">' in page
    assert set(deep.children.values_list("sid", flat=True)) <= set(links(page, "en", slug))


def test_every_section_is_reached_by_opening_with_htmx(client, big_books, settings):
    """htmx asks for the subsections alone (``HX-Request``) and puts them in place of the link: opening every
    link, and every link those bring, lists each section of the book exactly once."""
    settings.RULESREF_TOC_ROWS = 30  # 9 chapters shown alone; a chapter opens to its sections, closed in turn
    slug, lang = "scale1200", "en"
    html = client.get(f"/{lang}/rules/{slug}/").content.decode()
    seen, waiting, asked = links(html, lang, slug), openers(html), 0
    while waiting:
        fragment = client.get(waiting.pop(), HTTP_HX_REQUEST="true")
        asked += 1
        assert fragment.status_code == 200 and "HX-Request" in fragment["Vary"]
        text = fragment.content.decode()
        assert text.startswith('<ul class="toc">') and "<html" not in text
        seen += links(text, lang, slug)
        waiting += openers(text)
    assert sorted(seen) == sorted(readable(slug)) and asked > 9


def test_the_outline_shows_what_the_index_does(client, big_books):
    """The contents page reads titles from the outline (no texts but an untitled section's first words): each
    entry labels its section as the index's entry does, untitled sections included, and the progress counts
    are the same."""
    from rulesref.reference.templatetags.rulebooks import section_label
    from rulesref.reference.views import _progress

    untitled = dict.fromkeys(["mpbs", "t9a", *SIZES], 0)
    for book in Book.objects.filter(slug__in=untitled):
        whole, outline = index.book_index(book), index.book_outline(book)
        assert outline.order == whole.order
        entries = outline.entries(outline.order)
        for sid in whole.order:
            ours, theirs = entries[sid], whole.entries[sid]
            assert outline.subsections(sid) == theirs.children
            assert (ours.absent, ours.changed, ours.number, ours.parent, ours.languages) == \
                   (theirs.absent, theirs.changed, theirs.number, theirs.parent, theirs.languages)
            for lang in LANGS:
                assert section_label(ours, lang) == section_label(theirs, lang), (book.slug, sid, lang)
                untitled[book.slug] += theirs.untitled(lang)
        with translation.override("en"):
            readable_ = [e for e in whole.entries.values() if not e.absent]
            done = sum(1 for e in readable_ if ("en" if book.source_language == "ru" else "ru") in e.languages)
            assert (_progress(book, outline)["done"], _progress(book, outline)["total"]) == (done, len(readable_))
    assert untitled["mpbs"] and untitled["scale1200"] and untitled["scale3000"], untitled


# ---------------------------------------------------------------------------------------------- the sitemap


def index_files(client) -> list[str]:
    response = client.get("/sitemap.xml")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    return [loc.text for loc in ElementTree.fromstring(response.content).findall("s:sitemap/s:loc", NS)]


def addresses(client, url: str) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml"), url
    urls = ElementTree.fromstring(response.content).findall("s:url", NS)  # valid XML, or this raises
    for u in urls:  # each in both languages
        assert {a.get("hreflang") for a in u.findall("x:link", NS)} == {"ru", "en", "x-default"}
    return [u.find("s:loc", NS).text for u in urls]


def expected(slug: str) -> set[str]:
    """The pages a rulebook has, in both languages."""
    from django.conf import settings

    from rulesref.reference.glossary import book_glossary

    names = [("reference:book", {}), ("reference:errata", {})]
    names += [("reference:section", {"section": sid}) for sid in readable(slug)]
    terms = book_glossary(settings.FIXTURES_DIR, slug).terms
    if terms:
        names += [("reference:glossary", {})] + [("reference:term", {"term": t.id}) for t in terms]
    out = set()
    for lang in LANGS:
        with translation.override(lang):
            out |= {"http://testserver" + reverse(name, kwargs={"book": slug, **kw}) for name, kw in names}
    return out


def test_the_index_names_a_file_per_rulebook_listing_exactly_its_pages(client, big_books):
    files = index_files(client)
    slugs = list(Book.objects.values_list("slug", flat=True))
    assert files == ["http://testserver/sitemap-site.xml"] + [f"http://testserver/sitemap-book-{s}.xml" for s in slugs]
    assert set(addresses(client, files[0])) == {"http://testserver/ru/", "http://testserver/en/"}
    for slug, file in zip(slugs, files[1:]):
        listed = addresses(client, file)
        assert len(listed) == len(set(listed)) <= ReferenceSitemap.limit == 50_000
        assert set(listed) == expected(slug), slug


def test_a_book_with_more_addresses_than_a_file_holds_is_paged(client, big_books, monkeypatch):
    monkeypatch.setattr(ReferenceSitemap, "limit", 1000)
    files = [f for f in index_files(client) if "scale3000" in f]
    pages = -(-len(expected("scale3000")) // 1000)
    assert pages == 7 and files == ["http://testserver/sitemap-book-scale3000.xml"] + [
        f"http://testserver/sitemap-book-scale3000.xml?p={n}" for n in range(2, pages + 1)]
    listed = []
    for file in files:
        page = addresses(client, file)
        assert 0 < len(page) <= 1000
        listed += page
    assert len(listed) == len(set(listed)) and set(listed) == expected("scale3000")
    for other in ("8", "0", "x", "-1", "²"):
        assert client.get("/sitemap-book-scale3000.xml", {"p": other}).status_code == 404
    assert client.get("/sitemap-book-no-such-book.xml").status_code == 404
    assert client.get("/sitemap-other.xml").status_code == 404


def test_writing_a_file_costs_the_same_few_queries_whatever_the_books_size(client, big_books,
                                                                           django_assert_max_num_queries):
    """The books' versions and rows (read again after a change) and the book's sections with a text (for the
    index: their number in every book)."""
    counts = {}
    for slug in SIZES:
        cold()
        with django_assert_max_num_queries(3):
            response, sql = queries(client, f"/sitemap-book-{slug}.xml")
        assert response.status_code == 200
        counts[slug] = len(sql)
        cold()
        with django_assert_max_num_queries(3):
            assert client.get("/sitemap.xml").status_code == 200
    assert counts["scale1200"] == counts["scale3000"]


@pytest.mark.parametrize("url", ["/sitemap.xml", "/sitemap-book-scale3000.xml", "/sitemap-book-mpbs.xml"])
def test_a_kept_file_is_served_with_no_query_but_the_books_versions(client, big_books, url):
    """Once written, a file costs no query of its own: only the one every reference page costs, the books'
    content versions (which name the file's key, so a change made by any process is seen at once); a client
    that has it gets 304, by its ETag or its Last-Modified."""
    first = client.get(url)
    again, sql = queries(client, url)
    assert again.status_code == 200 and again.content == first.content
    assert len(sql) == 1 and "version" in sql[0].lower() and "reference_section" not in sql[0]
    for headers in ({"HTTP_IF_NONE_MATCH": first["ETag"]}, {"HTTP_IF_MODIFIED_SINCE": first["Last-Modified"]}):
        unchanged, sql = queries(client, url, **headers)
        assert unchanged.status_code == 304 and unchanged.content == b"" and len(sql) == 1
        assert unchanged["ETag"] == first["ETag"]
    site, sql = queries(client, "/sitemap-site.xml")
    assert site.status_code == 200 and sql == []


def test_a_change_of_one_book_rewrites_its_files_and_the_index_only(client, big_books):
    urls = ["/sitemap.xml", "/sitemap-book-scale1200.xml", "/sitemap-book-scale3000.xml", "/sitemap-site.xml"]
    before = {url: client.get(url) for url in urls}
    Book.objects.get(slug="scale1200").bump_version()
    cost = {}
    for url in urls:
        response, sql = queries(client, url)
        cost[url] = len(sql)
        changed = client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"]).status_code
        assert changed == (200 if url in urls[:2] else 304), url
    # The first request after the change reads the books' rows again (index.books), as every page does.
    assert cost == {"/sitemap.xml": 3, "/sitemap-book-scale1200.xml": 2, "/sitemap-book-scale3000.xml": 1,
                    "/sitemap-site.xml": 0}


def test_a_file_is_kept_and_sent_compressed(client, big_books):
    plain = client.get("/sitemap-book-scale3000.xml")
    packed = client.get("/sitemap-book-scale3000.xml", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.content) == plain.content and len(packed.content) * 10 < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"] and packed["X-Robots-Tag"].startswith("noindex")


def test_a_file_says_what_djangos_sitemap_framework_says(rf):
    """The files are written without Django's template and ``get_urls``, to the same effect: each address with
    its priority and alternates, in the same order."""
    from django.contrib.sitemaps import views

    from rulesref.reference.sitemaps import BookSitemap, SiteSitemap

    for sitemap in (SiteSitemap(), *(BookSitemap(b) for b in Book.objects.filter(slug__in=["mpbs", "t9a"]))):
        theirs = views.sitemap(rf.get("/"), {"s": sitemap}, section="s").render().content
        ours = sitemap.urlset(1, "http://testserver")

        def urls(xml: bytes) -> list:
            return [(u.find("s:loc", NS).text, u.find("s:priority", NS).text,
                     [(a.get("hreflang"), a.get("href")) for a in u.findall("x:link", NS)])
                    for u in ElementTree.fromstring(xml).findall("s:url", NS)]

        assert urls(ours) == urls(theirs) and len(urls(ours)) > 1


def test_section_addresses_are_written_as_reverse_writes_them(big_books):
    sids = list(Section.objects.values_list("sid", flat=True)) + ["§ 1-2", "О22.3", "a&b", "it's", "x y", "50%"]
    paths = _section_paths("mpbs")
    for sid in sids:
        for lang in LANGS:
            with translation.override(lang):
                assert paths(sid)[lang] == reverse("reference:section", kwargs={"book": "mpbs", "section": sid})


def test_robots_txt_names_the_index(client):
    assert "Sitemap: http://testserver/sitemap.xml\n" in client.get("/robots.txt").content.decode()
