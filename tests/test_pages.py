"""Every reference page in both languages, the URL contract, the crawl of every internal link, and escaping."""
import re
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

import pytest

from rulesref.reference.loading import load_corpus
from rulesref.reference.models import Section

pytestmark = pytest.mark.django_db
LANGS = ("en", "ru")


@pytest.mark.parametrize("lang", LANGS)
def test_home_lists_books_with_progress(client, lang):
    html = client.get(f"/{lang}/").content.decode()
    assert "Musket &amp; Pike" in html and "The 9th Age" in html
    if lang == "ru":
        assert "Перевод на английский: 36 из 36 разделов (100" in html
    else:
        assert "English translation: 36 of 36 sections (100%)" in html
        assert "English translation: 10 of 10 sections (100%)" in html


def test_root_redirects_to_a_language(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 302 and response["Location"] == "/ru/"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("book", ["mpbs", "t9a"])
def test_table_of_contents_is_a_tree_with_markers(client, lang, book):
    html = client.get(f"/{lang}/rules/{book}/").content.decode()
    assert html.count('<ul class="toc">') > 3
    if book == "mpbs":
        assert ("не в корпусе" in html or "нет в корпусе" in html) if lang == "ru" else "not in this corpus" in html
        assert ("изменено" if lang == "ru" else "changed") in html
        assert f'href="/{lang}/rules/mpbs/9.3.1/"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_every_section_page_renders(client, lang):
    for section in Section.objects.select_related("book"):
        response = client.get(f"/{lang}/rules/{section.book.slug}/{section.sid}/")
        assert response.status_code == 200, section
        parallel = client.get(f"/{lang}/rules/{section.book.slug}/{section.sid}/?view=parallel")
        assert parallel.status_code == 200, section


def test_section_page_has_everything_a_reader_needs(client):
    html = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert '<span class="num">9.3.1</span> Eligibility' in html
    assert 'href="/en/rules/mpbs/9.3/"' in html  # breadcrumb
    assert 'rel="prev" href="/en/rules/mpbs/9.3/"' in html and 'rel="next" href="/en/rules/mpbs/9.3.2/"' in html
    assert 'href="/ru/rules/mpbs/9.3.1/"' in html  # the same section in the other language
    assert 'class="copy-link" data-url="http://testserver/en/rules/mpbs/9.3.1/"' in html
    assert '<p class="clause" id="9.3.1c">' in html
    # a reference to a section the corpus lacks is styled with a tooltip, never a link
    assert re.search(r'<span class="ref ref-missing" title="Section 10.9.3b is not in this corpus" tabindex="0">10.9.3b</span>', html)
    assert 'href="/en/rules/mpbs/10.9.3' not in html


def test_links_in_both_languages_and_backlinks(client):
    ru = client.get("/ru/rules/mpbs/9.2.1/").content.decode()
    assert '<a class="ref" href="/ru/rules/mpbs/9.2.2/" title="9.2.2 Изменение ориентации">9.2.2</a>' in ru
    assert '<a class="ref" href="/ru/rules/mpbs/9.2.4/" title="9.2.4 Отход (Withdraw)">9.2.4</a>' in ru
    target = client.get("/ru/rules/mpbs/9.2.2/").content.decode()
    assert "Ссылки на этот раздел" in target and 'href="/ru/rules/mpbs/9.2.1/"' in target
    en = client.get("/en/rules/t9a/pursuit-pivot/").content.decode()
    assert 'href="/en/rules/t9a/pursuing-off-the-board/"' in en  # "on page 58"
    assert "(not in this corpus)" in en


def test_parallel_view_pairs_paragraphs(client):
    html = client.get("/en/rules/mpbs/9.3.1/?view=parallel").content.decode()
    assert html.count('<div class="row" role="row">') == 9
    assert 'lang="ru"><p class="clause" id="9.3.1a">' in html
    assert 'lang="en"><p class="clause" id="9.3.1a">' in html


@pytest.mark.parametrize("path, location", [
    ("/en/rules/mpbs/9.3.1c/", "/en/rules/mpbs/9.3.1/#9.3.1c"),
    ("/en/rules/mpbs/11.%204.%205/", "/en/rules/mpbs/11.4.5/"),
    ("/ru/rules/t9a/xiii.7.c/", "/ru/rules/t9a/XIII.7.C/"),
    ("/en/rules/t9a/Hold/", "/en/rules/t9a/hold/"),
])
def test_section_urls_in_other_forms_redirect_to_the_canonical_one(client, path, location):
    response = client.get(path)
    assert response.status_code == 301 and response["Location"] == location


@pytest.mark.parametrize("lang", LANGS)
def test_unknown_section_is_a_404_with_suggestions(client, lang):
    response = client.get(f"/{lang}/rules/mpbs/9.3.9/")
    assert response.status_code == 404
    html = response.content.decode()
    assert f'href="/{lang}/rules/mpbs/9.3/"' in html and f'href="/{lang}/rules/mpbs/9.3.1/"' in html


@pytest.mark.parametrize("path", ["/en/rules/nope/", "/en/rules/nope/9.3.1/", "/xx/rules/mpbs/", "/en/rules/mpbs/%00/",
                                  "/en/rules/mpbs/" + "9." * 300 + "/", "/en/rules/mpbs/<script>/"])
def test_odd_urls_are_404_not_500(client, path):
    assert client.get(path).status_code == 404


def test_errata_page(client):
    html = client.get("/ru/rules/mpbs/errata/").content.decode()
    assert ">ПРМЕЧАНИЕ</del>" in html and ">ПРИМЕЧАНИЕ</ins>" in html


def test_russian_ui(client):
    html = client.get("/ru/rules/mpbs/9.3.1/").content.decode()
    assert "Копировать ссылку" in html and "Этот раздел по-английски" in html


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)


def test_crawl_every_internal_link_from_both_tables_of_contents(client):
    """Follow every link between reference pages (rules and glossary) from both tables of contents; every other
    internal link found on them (search, checker, sign-in…) is requested once and must not be a 404 either."""
    start = [f"/{lang}/rules/{book}/" for lang in LANGS for book in ("mpbs", "t9a")]
    seen, queue, broken, others = set(), list(start), [], set()
    follow = re.compile(r"^/(?:en|ru)/(?:rules|glossary)/")
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, follow=True)
        if response.status_code != 200:
            broken.append((url, response.status_code))
            continue
        parser = Links()
        parser.feed(response.content.decode())
        for href in parser.links:
            absolute = urljoin(url, href)
            parts = urlsplit(absolute)
            if parts.netloc not in ("", "testserver") or parts.path.startswith("/admin"):
                continue
            target = parts.path + (f"?{parts.query}" if parts.query else "")
            if not follow.match(parts.path):
                others.add(parts.path)
            elif target not in seen:
                queue.append(target)
    for path in sorted(others):
        status = client.get(path, follow=True).status_code
        if status == 404 or status >= 500:
            broken.append((path, status))
    assert not broken
    assert len(seen) > 400  # sections, parallel views and glossary entries in both languages


PAYLOADS = ['<script>alert(1)</script>', '<img src=x onerror=alert(2)>', '[x](javascript:alert(3))',
            '"><svg onload=alert(4)>', "javascript:alert(5)"]


def test_corpus_text_is_escaped(client, corpus_copy):
    path = corpus_copy / "mpbs" / "en" / "9.md"
    text = path.read_text(encoding="utf-8")
    evil = " ".join(PAYLOADS)
    text = text.replace("### Eligibility {#9.3.1", f"### Eligibility {evil} {{#9.3.1", 1)
    text = text.replace("An inactive cavalry unit", f"{evil} (9.3.2) An inactive cavalry unit", 1)
    path.write_text(text, encoding="utf-8")
    load_corpus()
    html = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert "<script>alert" not in html and "<img src=x" not in html and "<svg onload" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'href="javascript' not in html


def test_rule_sections_link_into_the_checker(client):
    html = client.get("/ru/rules/mpbs/9.3.7/").content.decode()
    assert 'href="/ru/checker/mpbs/examples/interception-example-9.3/?q=can-intercept' in html
    assert "Открыть этот пример в проверке ситуаций" in html
    cited = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert "Check this rule" in cited
