"""#13's reading points on the server's pages: both languages everywhere, titles for untitled sections, and what
search engines and link previews read (hreflang, sitemap.xml, descriptions, Open Graph), favicon and robots.txt.
The expected texts come from the corpus files (fixtures/corpus/mpbs/*/9.md, 11.md) and the rulebooks' titles."""
import re
from html import unescape
from xml.etree import ElementTree

import pytest

pytestmark = pytest.mark.django_db
LANGS = ("en", "ru")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def page(client, url):
    response = client.get(url)
    assert response.status_code in (200, 404), (url, response.status_code)
    return response.content.decode()


def header(html):
    return re.search(r'<header class="site">(.*?)</header>', html, re.S).group(1)


def meta(html, attr, name):
    found = re.findall(rf'<meta {attr}="{re.escape(name)}" content="([^"]*)">', html)
    assert len(found) == 1, (name, found)
    return unescape(found[0])


# ---------------------------------------------------------------- both languages everywhere


@pytest.mark.parametrize("lang, names", [("en", ["Musket &amp; Pike Battle Series", "The 9th Age"]),
                                         ("ru", ["Musket &amp; Pike", "The 9th Age"])])
def test_the_menu_names_the_rulebooks_not_their_codes(client, lang, names):
    nav = header(page(client, f"/{lang}/"))
    links = re.findall(r'<a href="/\w\w/rules/\w+/"[^>]*>([^<]+)</a>', nav)
    assert links[:2] == names
    assert not re.search(r">\s*(mpbs|t9a)\s*<", nav)


@pytest.mark.parametrize("url", ["/ru/rules/mpbs/9.3.1/", "/ru/glossary/mpbs/", "/ru/rules/mpbs/errata/",
                                 "/ru/glossary/mpbs/hedgehog/", "/ru/rules/t9a/hold/"])
def test_page_titles_name_the_rulebook_not_its_code(client, url):
    title = re.search(r"<title>(.*?)</title>", page(client, url)).group(1)
    assert "mpbs" not in title and "t9a" not in title
    assert "Musket &amp; Pike" in title or "The 9th Age" in title


@pytest.mark.parametrize("lang, title, book", [
    ("ru", "9.3.1 Способность", "В своде правил «Musket &amp; Pike: правила серии» нет раздела «9.3.9»."),
    ("en", "9.3.1 Eligibility", "There is no section “9.3.9” in Musket &amp; Pike Battle Series: series rules."),
])
def test_the_section_404_page_suggests_sections_in_the_readers_language_and_names_the_book(client, lang, title, book):
    """#13: the Russian 404 page suggested the nearest sections with English titles and said "mpbs"."""
    response = client.get(f"/{lang}/rules/mpbs/9.3.9/")
    assert response.status_code == 404
    html = response.content.decode()
    main = re.search(r"<main.*?</main>", html, re.S).group(0)
    assert book in main and "mpbs" not in re.sub(r'href="[^"]*"', "", main)
    suggested = [re.sub(r"<[^>]+>", "", s) for s in re.findall(r'<li><a href="[^"]+">(.*?)</a></li>', main)]
    assert title in suggested
    if lang == "ru":
        assert all(CYRILLIC.search(s) for s in suggested), suggested


@pytest.mark.parametrize("book", ["mpbs", "t9a"])
def test_chapter_titles_are_in_the_readers_language(client, book):
    for lang in LANGS:
        html = page(client, f"/{lang}/rules/{book}/")
        toc = re.search(r'<ul class="toc">(.*)</ul>', html, re.S).group(1)
        chapters = [re.sub(r"<[^>]+>", "", c).strip()
                    for c in re.findall(r'<span class="toc-label">(.*?)</span> <span class="badge', toc)]
        assert chapters, toc[:300]
        for chapter in chapters:
            assert bool(CYRILLIC.search(chapter)) == (lang == "ru"), (lang, chapter)


# ---------------------------------------------------------------- titles for untitled sections


UNTITLED = {  # the first words of each untitled section, from fixtures/corpus/mpbs/<lang>/9.md and 11.md
    "9.3.4": ("After all Close Combat results have been determined…",
              "После того, как все результаты ближних боев определены…"),
    "9.3.5": ("A cavalry unit that has carried out…", "Кавалерийское подразделение, которое осуществляло перехват…"),
    "9.3.6": ("Mark a unit that has attempted an Interception…", "Отметьте подразделение, которое выполнило попытку перехвата…"),
    "9.3.7": ("Cavalry may intercept through friendly artillery units…",
              "Кавалерия может осуществлять перехват через дружественные артиллерийские подразделения…"),
    "11.4.1": ("The results given by the Close Combat Table…", "Результаты, определяемые таблицей «Ближний бой»…"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_untitled_sections_are_shown_under_their_first_words_marked_as_such(client, lang):
    """#13: 9.3.4–9.3.7 and 11.4.1 appeared as bare numbers in the contents, search and glossary."""
    toc = page(client, f"/{lang}/rules/mpbs/")
    for sid, (en, ru) in UNTITLED.items():
        words = unescape(en if lang == "en" else ru)
        mark = re.search(rf'href="/{lang}/rules/mpbs/{re.escape(sid)}/"><span class="num">{re.escape(sid)}</span> '
                         r'<span class="first-words" title="([^"]+)">([^<]+)</span></a>', toc)
        assert mark and unescape(mark.group(2)) == words, sid
        section = page(client, f"/{lang}/rules/mpbs/{sid}/")
        assert unescape(re.search(r"<title>(.*?)</title>", section).group(1)).startswith(f"{sid} {words} · ")
        assert re.search(r'<h1><span class="num">[^<]+</span> <span class="first-words"', section)


def test_untitled_sections_have_their_first_words_in_search_and_in_the_glossary(client):
    found = page(client, "/en/search/?q=artillery+momentum&book=mpbs")
    assert "Cavalry may intercept through friendly <mark>artillery</mark> units…" in found
    term = page(client, "/en/glossary/mpbs/interception-done-marker/")
    assert "Mark a unit that has attempted an Interception…" in unescape(term)
    assert not re.search(r'<a href="/en/rules/mpbs/9\.3\.6/"><span class="num">9\.3\.6</span></a>', term)


# ---------------------------------------------------------------- found by others


KINDS = ["/{lang}/", "/{lang}/rules/mpbs/", "/{lang}/rules/mpbs/9.3.1/", "/{lang}/rules/mpbs/9.3.1/?view=parallel",
         "/{lang}/search/?q=hedgehog", "/{lang}/glossary/mpbs/", "/{lang}/glossary/mpbs/hedgehog/",
         "/{lang}/rules/mpbs/errata/", "/{lang}/checker/", "/{lang}/accounts/login/", "/{lang}/rules/mpbs/9.3.9/"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", LANGS)
def test_every_page_declares_its_language_alternates(client, lang, kind):
    url = kind.format(lang=lang)
    html = page(client, url)
    alternates = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))
    path, _, query = url.partition("?")
    expected = {code: f"http://testserver/{code}/{path[4:]}" + (f"?{query}" if query else "") for code in LANGS}
    assert {k: unescape(v) for k, v in alternates.items()} == {**expected, "x-default": expected["en"]}
    assert re.search(rf'<html lang="{lang}">', html)


def test_a_section_describes_itself_by_its_first_sentence_for_search_engines_and_link_previews(client):
    html = page(client, "/en/rules/mpbs/9.3.1/")
    first = ("An inactive cavalry unit may attempt to intercept an active enemy unit if all of the following "
             "conditions are met:")
    assert meta(html, "name", "description") == first
    assert meta(html, "property", "og:description") == first == meta(html, "name", "twitter:description")
    assert meta(html, "property", "og:title") == "9.3.1 Eligibility · Musket & Pike Battle Series" == meta(html, "name", "twitter:title")
    assert meta(html, "property", "og:url") == "http://testserver/en/rules/mpbs/9.3.1/"
    assert meta(html, "property", "og:type") == "article"
    assert meta(html, "property", "og:locale") == "en_GB"
    assert meta(html, "name", "twitter:card") == "summary"
    assert '<link rel="canonical" href="http://testserver/en/rules/mpbs/9.3.1/">' in html
    ru = page(client, "/ru/rules/mpbs/9.3.4/")
    assert meta(ru, "name", "description").startswith("После того, как все результаты ближних боев определены, "
                                                       "активный игрок возобновляет")
    assert meta(ru, "property", "og:locale") == "ru_RU"
    parallel = page(client, "/en/rules/mpbs/9.3.1/?view=parallel")
    assert meta(parallel, "property", "og:url") == "http://testserver/en/rules/mpbs/9.3.1/"  # the canonical page


@pytest.mark.parametrize("kind", KINDS)
def test_every_page_has_a_description_in_its_language(client, kind):
    for lang in LANGS:
        description = meta(page(client, kind.format(lang=lang)), "name", "description")
        assert len(description) > 30
        assert bool(CYRILLIC.search(description)) == (lang == "ru"), (kind, lang, description)


def test_sitemap_lists_every_reference_page_in_both_languages_with_alternates(client):
    from rulesref.reference.models import Section

    response = client.get("/sitemap.xml")  # an index of sitemap files: one per rulebook, one for the rest
    assert response.status_code == 200 and response["Content-Type"].startswith("application/xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    files = [loc.text for loc in ElementTree.fromstring(response.content).findall("s:sitemap/s:loc", ns)]
    urls = []
    for file in files:
        part = client.get(file)
        assert part.status_code == 200 and part["Content-Type"].startswith("application/xml"), file
        urls += ElementTree.fromstring(part.content).findall("s:url", ns)
    locations = {u.find("s:loc", ns).text: u for u in urls}
    assert len(locations) == len(urls)  # no address in two files
    readable = Section.objects.filter(absent=False).select_related("book")
    for section in readable:
        for lang in LANGS:
            assert f"http://testserver/{lang}/rules/{section.book.slug}/{section.sid}/" in locations
    for extra in ("/ru/", "/en/", "/en/glossary/mpbs/", "/ru/glossary/t9a/flee/", "/en/rules/t9a/errata/"):
        assert f"http://testserver{extra}" in locations
    assert "http://testserver/en/rules/mpbs/9/" not in locations  # a parent the corpus lacks has no text
    alternates = {a.get("hreflang"): a.get("href") for a in
                  locations["http://testserver/ru/rules/mpbs/9.3.1/"].findall("x:link", ns)}
    assert alternates == {"ru": "http://testserver/ru/rules/mpbs/9.3.1/", "en": "http://testserver/en/rules/mpbs/9.3.1/",
                          "x-default": "http://testserver/en/rules/mpbs/9.3.1/"}


def test_robots_txt_points_to_the_sitemap(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert "Sitemap: http://testserver/sitemap.xml" in response.content.decode()


def test_favicon_is_an_icon_not_a_404(client):
    """#13: /favicon.ico was a 404 on every page (the only console error)."""
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # the ICO header
    html = page(client, "/en/")
    assert '<link rel="icon" href="/favicon.ico"' in html and 'type="image/svg+xml"' in html
    assert client.get(re.search(r'<link rel="icon" href="(/static/[^"]+)"', html).group(1)).status_code == 200
