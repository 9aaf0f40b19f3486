"""Reference pages for any rulebook (#14, #13): tables in the rule text as real tables, a book's own number forms
(book.toml ``[numbering] patterns``) recognised wherever a number is (links, stored references, the translation QA
checks, search), and a rulebook whose source is English read in both interface languages.

The book is a small original one in the corpus format (tests/reference_data/harbour): English source, Russian
translation of all sections but 2.2, a translation that leaves 1.3 untitled, a table in 1.2, and references
printed ``§ 1-2``, a form only its book.toml declares. The oracles are those files."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulesref.reference.corpus import read_book
from rulesref.reference.index import book_index
from rulesref.reference.loading import load_book
from rulesref.reference.models import Book, Reference, SectionText
from rulesref.reference.render import reference_spans, render_text
from rulesref.translation import qa, workflow
from rulesref.translation.checks.base import CheckContext
from rulesref.translation.checks.numbers import NumbersCheck, extract_numbers
from rulesref.translation.checks.references import ReferencesCheck, reference_targets

pytestmark = pytest.mark.django_db
HARBOUR = Path(__file__).resolve().parent / "reference_data" / "harbour"
PATTERN = r"§\s?(?P<num>\d+(?:-\d+)*)"


@pytest.fixture
def harbour() -> Book:
    load_book(read_book(HARBOUR))
    book = Book.objects.get(slug="harbour")
    assert book.source_language == "en" and book.number_patterns == [PATTERN]
    return book


def html_of(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def main(html: str) -> str:
    return re.search(r"<main.*?</main>", html, re.S).group(0)


class Tables(HTMLParser):
    """Every <table> of a page: its rows as [(tag, text)] and the attributes of the element around it."""

    def __init__(self):
        super().__init__()
        self.tables, self.stack, self.cell, self.wrappers = [], [], None, []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"head": [], "body": [], "wrapper": dict(self.stack[-1][1]) if self.stack else {}})
            self.part = None
        elif tag in ("thead", "tbody"):
            self.part = "head" if tag == "thead" else "body"
        elif tag == "tr" and self.tables:
            self.tables[-1][self.part].append([])
        elif tag in ("th", "td") and self.tables:
            self.cell = [tag, ""]
        if tag not in ("br", "img", "input", "link", "meta"):
            self.stack.append((tag, attrs))

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self.cell is not None:
            self.tables[-1][self.part][-1].append((self.cell[0], self.cell[1].strip()))
            self.cell = None
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[1] += data


def tables_of(html: str) -> list[dict]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


# ---------------------------------------------------------------- tables


@pytest.mark.parametrize("lang, head, rows", [
    ("en", ["Water", "Cost in oars", "Effect"],
     [["Calm", "1", "None"], ["Choppy", "2", "The boat may not board (§ 2-1)"],
      ["Reef", "—", "Only along the channel, see 1.1"]]),
    ("ru", ["Вода", "Стоимость в вёслах", "Эффект"],
     [["Спокойная", "1", "Нет"], ["Рябь", "2", "Лодка не может идти на абордаж (§ 2-1)"],
      ["Риф", "—", "Только по фарватеру, см. 1.1"]]),
])
def test_a_table_in_the_text_is_a_table_with_its_header_and_rows(client, harbour, lang, head, rows):
    html = html_of(client, f"/{lang}/rules/harbour/1.2/")
    [table] = tables_of(main(html))
    assert table["head"] == [[("th", h) for h in head]]
    assert table["body"] == [[("td", c) for c in row] for row in rows]
    assert table["wrapper"].get("class") == "table-wrap" and table["wrapper"].get("tabindex") == "0"
    assert "| --- |" not in html and "| Calm |" not in html  # the Markdown is not shown as text
    # Cells are rule text: references in them are links, in the book's own form and the seeds' alike.
    assert f'<a class="ref" href="/{lang}/rules/harbour/2.1/"' in html and f'href="/{lang}/rules/harbour/1.1/"' in html


def test_the_parallel_view_puts_the_table_beside_its_translation(client, harbour):
    html = main(html_of(client, "/en/rules/harbour/1.2/?view=parallel"))
    cells = re.findall(r'<div class="cell" role="cell" lang="(\w\w)">(.*?)(?=<div class="cell"|</div>\s*</div>)',
                       html, re.S)
    assert [lang for lang, _ in cells] == ["en", "ru", "en", "ru"]  # the English source first
    assert "<table" in cells[2][1] and "Cost in oars" in cells[2][1]
    assert "<table" in cells[3][1] and "Стоимость в вёслах" in cells[3][1]


HOSTILE = ("| Water <script>alert(1)</script> | Cost |\n| --- | --- |\n"
           "| <img src=x onerror=alert(2)> | 1 \\| 2 |\n| \"><b>bold</b> | &amp; see § 1-1 |")


def test_hostile_text_in_a_table_is_shown_as_text(client, harbour):
    text = SectionText.objects.get(section__book=harbour, section__sid="1.2", language="en")
    text.body = HOSTILE
    text.save()
    harbour.bump_version()
    html = main(html_of(client, "/en/rules/harbour/1.2/"))
    [table] = tables_of(html)
    assert table["head"] == [[("th", "Water <script>alert(1)</script>"), ("th", "Cost")]]
    assert table["body"] == [[("td", "<img src=x onerror=alert(2)>"), ("td", "1 | 2")],
                             [("td", '"><b>bold</b>'), ("td", "&amp; see § 1-1")]]
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&amp;amp; see" in html
    assert '<a class="ref" href="/en/rules/harbour/1.1/"' in html


def test_a_malformed_table_in_a_saved_text_is_a_paragraph_not_a_broken_page(harbour):
    index = book_index(harbour)
    rendered = render_text(["| a | b |\n| --- | --- |\n| only one cell |"], "1.2", index, "en")
    assert "<table" not in rendered.blocks[0] and rendered.blocks[0].startswith("<p>")
    assert "| only one cell |" in rendered.blocks[0]


# ---------------------------------------------------------------- the book's own number forms


def test_the_books_own_number_form_is_a_link_and_is_stored(client, harbour):
    html = main(html_of(client, "/en/rules/harbour/1.1/"))
    assert re.search(r'<a class="ref" href="/en/rules/harbour/1.2/" title="1.2 Rowing">§ 1-2</a>', html)
    assert '<a class="ref" href="/en/rules/harbour/2.1/" title="2.1 Boarding">2.1</a>' in html
    stored = set(Reference.objects.filter(source__book=harbour, language="ru").values_list("anchor", "target_sid"))
    assert {("§ 1-2", "1.2"), ("§ 2-1", "2.1"), ("§ 1-3", "1.3")} <= stored
    # "referenced by" on 1.3 comes from the stored "§ 1-3" in 2.1
    assert 'href="/ru/rules/harbour/2.1/"' in main(html_of(client, "/ru/rules/harbour/1.3/")).split("backlinks")[-1]


def test_another_books_number_form_is_not_recognised(harbour):
    mpbs = book_index(Book.objects.get(slug="mpbs"))
    assert [s for s in reference_spans("see § 9-3", mpbs, "en")] == []
    own = book_index(harbour)
    assert [(s.start, s.end) for s in reference_spans("see § 1-2", own, "en")] == [(4, 9)]


def test_the_qa_checks_read_the_books_number_form(harbour):
    context = qa.check_context(harbour, "ru")
    assert context.patterns == (PATTERN,) and context.at("1.1", 1).patterns == (PATTERN,)
    # references: "§ 1-2" is a reference to 1.2, so a translation pointing at 1.3 is an error ...
    assert reference_targets("Rowing is in § 1-2.", context.patterns) == {"1.2"}
    problems = ReferencesCheck().check("Rowing is in § 1-2.", "Гребля — в § 1-3.", context.at("1.1", 1))
    assert len(problems) == 2 and "1.2" in problems[0].params["refs"] and "1.3" in problems[1].params["refs"]
    assert ReferencesCheck().check("Rowing is in § 1-2.", "Гребля — в § 1-2.", context.at("1.1", 1)) == []
    # ... and its digits are not numbers the translation must repeat as numbers
    assert extract_numbers("Rowing is in § 1-2, two oars.", "en", context.patterns).strong == {"2"}
    assert NumbersCheck().check("Rowing is in § 1-2.", "Гребля описана в п. 1.2.", context.at("1.1", 1)) == []
    # without the book's patterns the same digits were a die range "1–2" the translation lacked
    plain = CheckContext("harbour", "en", "ru", context.glossary, "1.1", 1)
    assert NumbersCheck().check("Rowing is in § 1-2.", "Гребля описана в п. 1.2.", plain)


def test_the_translation_qa_of_the_book_is_clean_on_its_own_references(harbour):
    problems = workflow.book_item(harbour, "ru", "1.1").qa  # every check's stored results on the section
    assert not [p for p in problems if p.check_id in ("numbers", "references")], [p.text() for p in problems]


# ---------------------------------------------------------------- an English-source book in both languages


def test_an_untitled_translation_falls_back_to_the_source_title(client, harbour):
    html = html_of(client, "/ru/rules/harbour/1.3/")
    assert re.search(r'<h1><span class="num">1.3</span> <span lang="en">Drifting</span></h1>', html)
    assert "<title>1.3 Drifting ·" in html
    entry = book_index(harbour).entries["1.3"]
    assert entry.title("ru") == "Drifting" and entry.title_language("ru") == "en"
    # a Russian-source book falls back to Russian, as before
    assert book_index(Book.objects.get(slug="mpbs")).entries["9.3.1"].title_language("ru") == "ru"


@pytest.mark.parametrize("lang, notice, source_words", [
    ("ru", "Этот раздел ещё не переведён на русский. Показан английский оригинал.", "prize crew of two sailors"),
    ("en", None, "prize crew of two sailors"),
])
def test_an_untranslated_section_says_which_language_it_shows(client, harbour, lang, notice, source_words):
    html = main(html_of(client, f"/{lang}/rules/harbour/2.2/"))
    assert source_words in html
    assert re.search(r'<div class="text" lang="en">', html)
    if notice:
        assert notice in html
        assert "Russian source" not in html and "русский оригинал" not in html
        assert "Prize crews" in html  # the source's title, as the title falls back to it
        assert "translation-note" not in html  # the English source is shown: no "Russian translation by …"
    else:
        assert 'class="notice"' not in html


@pytest.mark.parametrize("lang, note, wrong", [
    ("ru", "Русский перевод выполнен проектом rulesref.", "Английский перевод"),
    ("en", None, "translation by the rulesref project"),
])
def test_the_translation_note_names_the_language_of_the_translation(client, harbour, lang, note, wrong):
    html = main(html_of(client, f"/{lang}/rules/harbour/1.1/"))
    if note:
        assert note in html
    assert wrong not in html  # the English page is the source: no translation note


@pytest.mark.parametrize("url, footer", [
    ("/ru/rules/harbour/1.1/", "Английский текст — исходный. Русский текст — собственный перевод проекта"),
    ("/en/rules/harbour/", "The English text is the source. The Russian text is this project's own translation"),
    ("/ru/rules/mpbs/9.3.1/", "Русский текст — исходный. Английский текст — собственный перевод проекта"),
    ("/en/rules/mpbs/", "The Russian text is the source. The English text is this project's own translation"),
    ("/en/", "Each rulebook's original text is the source. The text in the other language is"),
    ("/ru/", "Исходный текст каждого свода правил — оригинал. Текст на другом языке"),
])
def test_the_footer_names_the_source_of_the_rulebook_shown(client, harbour, url, footer):
    html = html_of(client, url)
    assert footer in re.search(r'<footer class="site">(.*?)</footer>', html, re.S).group(1)


def test_the_home_page_footer_without_an_english_source_book_is_as_before(client):
    html = html_of(client, "/en/")
    assert "The Russian text is the source." in re.search(r'<footer class="site">(.*?)</footer>', html, re.S).group(1)


@pytest.mark.parametrize("lang, line, other", [
    ("ru", "Перевод на русский: 6 из 7 разделов", "Перевод на английский"),
    ("en", "Russian translation: 6 of 7 sections", "English translation"),
])
def test_the_progress_line_names_the_target_language(client, harbour, lang, line, other):
    book = main(html_of(client, f"/{lang}/rules/harbour/"))
    assert line in book and other not in book
    home = main(html_of(client, f"/{lang}/"))
    card = re.search(r'<li class="card">\s*<h2><a href="/\w\w/rules/harbour/">.*?</li>', home, re.S).group(0)
    assert line in card and other not in card
    mpbs = re.search(r'<li class="card">\s*<h2><a href="/\w\w/rules/mpbs/">.*?</li>', home, re.S).group(0)
    assert other in mpbs  # a Russian-source book still counts its English translation


@pytest.mark.parametrize("lang, wrong", [("en", "Two wargame rulebooks"), ("ru", "Два свода правил")])
def test_the_home_page_does_not_count_the_rulebooks_in_words(client, harbour, lang, wrong):
    html = html_of(client, f"/{lang}/")
    assert wrong not in html
    assert html.count('<li class="card">') == Book.objects.count() == 3


# ---------------------------------------------------------------- "Report a problem" under each paragraph


@pytest.mark.parametrize("lang, name", [("en", "Report a problem in paragraph %d"),
                                        ("ru", "Сообщить о проблеме в абзаце %d")])
def test_each_paragraph_has_a_report_link_named_by_its_paragraph(client, harbour, lang, name):
    from rulesref.reference.corpus import source_revision

    html = main(html_of(client, f"/{lang}/rules/harbour/1.2/"))
    text = SectionText.objects.get(section__book=harbour, section__sid="1.2", language=lang)
    rev = source_revision(text.title, text.body)
    found = re.findall(r'<p class="report-problem"><a href="([^"]+)" rel="nofollow" hx-get="\1" '
                       r'hx-target="#(report-\w\w-\d)" hx-swap="innerHTML" aria-label="([^"]+)">', html)
    assert found == [(f"/{lang}/report/harbour/1.2/{n}/?rev={rev}", f"report-{lang}-{n}", name % n) for n in (1, 2)]
    assert html.count('<div class="report-slot" id="report-') == 2
    # the table is the second paragraph: its link follows the table
    assert html.index("</table></div>") < html.index(f'id="report-{lang}-2"')


def test_the_source_shown_for_a_missing_translation_is_reported_in_its_language(client, harbour):
    html = main(html_of(client, "/ru/rules/harbour/2.2/"))
    [url] = re.findall(r'<p class="report-problem"><a href="([^"]+)"', html)
    assert url.startswith("/ru/report/harbour/2.2/1/?rev=") and url.endswith("&amp;text=en")
    assert client.get(url.replace("&amp;", "&")).status_code == 200


def test_report_links_are_built_once_per_text_not_on_every_page(client, harbour, monkeypatch):
    from rulesref.reference import pagecache, views

    calls = []
    original = views.source_revision
    monkeypatch.setattr(views, "source_revision", lambda *a: calls.append(a) or original(*a))
    assert client.get("/en/rules/harbour/1.2/").status_code == 200
    assert len(calls) == 1
    for _ in range(3):
        pagecache.clear()
        assert client.get("/en/rules/harbour/1.2/").status_code == 200
    assert len(calls) == 1  # a page the page cache lacks reuses them
    client.get("/ru/rules/harbour/1.2/")
    assert len(calls) == 2  # per language of the text
    text = SectionText.objects.get(section__book=harbour, section__sid="1.2", language="en")
    text.body += "\n\nA boat that rows twice tires its crew."
    text.save()
    harbour.bump_version()  # an edit: built again, now for three paragraphs
    html = main(html_of(client, "/en/rules/harbour/1.2/"))
    assert len(calls) == 3 and html.count('class="report-problem"') == 3
    assert f"?rev={original(text.title, text.body)}" in html


def test_the_parallel_view_has_a_report_link_under_each_paragraph_of_each_language(client, harbour):
    html = main(html_of(client, "/ru/rules/harbour/1.2/?view=parallel"))
    en, ru = (SectionText.objects.get(section__book=harbour, section__sid="1.2", language=lang) for lang in ("en", "ru"))
    from rulesref.reference.corpus import source_revision

    found = re.findall(r'<p class="report-problem"><a href="([^"]+)"[^>]* hx-target="#(report-\w\w-\d)"', html)
    assert found == [
        (f"/ru/report/harbour/1.2/1/?rev={source_revision(en.title, en.body)}&amp;text=en", "report-en-1"),
        (f"/ru/report/harbour/1.2/1/?rev={source_revision(ru.title, ru.body)}", "report-ru-1"),
        (f"/ru/report/harbour/1.2/2/?rev={source_revision(en.title, en.body)}&amp;text=en", "report-en-2"),
        (f"/ru/report/harbour/1.2/2/?rev={source_revision(ru.title, ru.body)}", "report-ru-2")]
    # an untranslated paragraph has nothing to report in the missing language
    untranslated = main(html_of(client, "/ru/rules/harbour/2.2/?view=parallel"))
    assert re.findall(r'hx-target="#(report-\w\w-\d)"', untranslated) == ["report-en-1"]


def test_an_absent_section_has_no_report_links(client):
    assert "report-problem" not in client.get("/en/rules/mpbs/9/").content.decode()
    assert "report-problem" not in client.get("/en/rules/mpbs/9/?view=parallel").content.decode()


@pytest.mark.parametrize("typed", ["§ 1-2", "§1-2", "%C2%A7%201-2"])
def test_an_address_in_the_books_own_number_form_redirects_to_the_section(client, harbour, typed):
    response = client.get(f"/en/rules/harbour/{typed}/")
    assert response.status_code == 301 and response["Location"] == "/en/rules/harbour/1.2/"
    assert client.get("/en/rules/harbour/§ 9-9/").status_code == 404
    assert client.get("/en/rules/mpbs/§ 9-3/").status_code == 404  # another book's form is not this one's


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("query, section", [("§ 1-2", "1.2"), ("§2-1", "2.1"), ("1.3", "1.3")])
def test_search_goes_straight_to_a_section_named_in_the_books_own_form(client, harbour, lang, query, section):
    response = client.get(f"/{lang}/search/", {"q": query, "book": "harbour"})
    assert response.status_code == 302 and response["Location"] == f"/{lang}/rules/harbour/{section}/"


def test_words_of_an_english_source_book_are_found_in_both_languages(client, harbour):
    english = client.get("/en/search/", {"q": "tide", "book": "harbour"}).content.decode()
    assert 'href="/en/rules/harbour/1.3/"' in english
    russian = client.get("/ru/search/", {"q": "течением", "book": "harbour"}).content.decode()
    assert 'href="/ru/rules/harbour/1.3/"' in russian


@pytest.mark.parametrize("lang, said, unsaid", [
    ("en", "English and Russian side by side", "Russian and English side by side"),
    ("ru", "Английский и русский рядом", "Русский и английский рядом"),
])
def test_the_side_by_side_link_names_the_source_language_first(client, harbour, lang, said, unsaid):
    english_source = main(html_of(client, f"/{lang}/rules/harbour/1.2/"))
    assert said in english_source and unsaid not in english_source
    russian_source = main(html_of(client, f"/{lang}/rules/mpbs/9.3.1/"))
    assert unsaid in russian_source and said not in russian_source


@pytest.mark.parametrize("lang, wrong", [("en", "Two wargame rulebooks"), ("ru", "Два свода правил")])
def test_the_offline_manifest_does_not_count_the_rulebooks_in_words(client, harbour, lang, wrong):
    description = client.get(f"/{lang}/manifest.webmanifest").json()["description"]
    assert description and wrong not in description
