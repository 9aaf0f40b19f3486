"""The workspace in both languages (issue #13): a Russian page shows no English UI word and an English page no
Russian one, outside elements marked with the other language (the texts being translated, terms quoted in a QA
message). The oracle is the catalogs themselves: a word of an English msgid that the Russian catalog never uses is
English UI text; chapter names, check names and language names come in the reader's language."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from test_translation_support import editor_url, save

from rulesref import catalogs
from rulesref.reference.models import Book, SectionText

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db

VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "col", "area", "base", "embed", "param", "track"}
SKIP = {"script", "style", "textarea", "template", "title"}
ATTRS = ("title", "aria-label", "placeholder", "alt")


class VisibleText(HTMLParser):
    """Text a reader sees (and tooltips, labels), leaving out elements in another language than the page's."""

    def __init__(self, page_lang: str):
        super().__init__()
        self.page_lang, self.stack, self.parts = page_lang, [], []

    def _foreign(self) -> bool:
        for tag, lang in reversed(self.stack):
            if tag in SKIP:
                return True
            if lang:
                return lang != self.page_lang
        return False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag not in VOID:
            self.stack.append((tag, attrs.get("lang")))
        if not self._foreign():
            self.parts += [attrs[a] for a in ATTRS if attrs.get(a)]
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.parts.append(attrs["value"])

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not self._foreign():
            self.parts.append(data)


def _words(text: str, script: str) -> set[str]:
    pattern = r"[A-Za-z]{2,}" if script == "latin" else r"[А-Яа-яЁё]{2,}"
    return {w.lower() for w in re.findall(pattern, text)}


@pytest.fixture(scope="module")
def catalog_words():
    en = catalogs.read_catalog(catalogs.po_path("en"), "en")
    ru = catalogs.read_catalog(catalogs.po_path("ru"), "ru")
    english_ui, russian_ui, russian_strings = set(), set(), set()
    for message in en:
        for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
            english_ui |= _words(re.sub(r"%\(\w+\)s|\{\{ *\w+ *\}\}", " ", msgid or ""), "latin")
    for message in ru:
        for string in (message.string if isinstance(message.string, tuple) else (message.string,)):
            russian_strings |= _words(string or "", "latin")
            russian_ui |= _words(string or "", "cyrillic")
    return english_ui - russian_strings, russian_ui


def foreign_ui_words(html: str, page_lang: str, catalog_words) -> set[str]:
    english_ui, russian_ui = catalog_words
    # Content is not UI: the rulebooks' names ("The 9th Age" is its Russian name too) and words the rule texts
    # themselves use in the page's language (the Russian source writes «Ориентация (Facing)»).
    names = set()
    for book in Book.objects.all():
        names |= _words(book.title_ru, "latin") | _words(book.title_en, "cyrillic")
    for text in SectionText.objects.filter(language=page_lang).values_list("title", "body"):
        names |= _words(" ".join(text), "latin" if page_lang == "ru" else "cyrillic")
    parser = VisibleText(page_lang)
    parser.feed(html)
    text = " ".join(parser.parts)
    if page_lang == "ru":
        return _words(text, "latin") & english_ui - names
    return _words(text, "cyrillic") & russian_ui - names


def pages(sid: str = "9.3.1", book: str = "mpbs") -> list[str]:
    return ["/translate/", f"/translate/{book}/", f"/translate/{book}/{sid}/", f"/translate/{book}/{sid}/revisions/",
            f"/translate/{book}/{sid}/revisions/1/", f"/translate/{book}/{sid}/diff/?a=1&b=2",
            f"/translate/{book}/+import/"]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("book, sid", [("mpbs", "9.3.1"), ("t9a", "stand-and-shoot")])
def test_no_ui_word_of_the_other_language(tina, translator, catalog_words, lang, book, sid):
    save(sid, translator, slug=book, body=None)  # a second revision, for the diff page
    for path in pages(sid, book):
        response = tina.get(f"/{lang}{path}")
        assert response.status_code == 200, path
        assert foreign_ui_words(response.content.decode(), lang, catalog_words) == set(), f"/{lang}{path}"


def test_chapter_names_check_names_and_languages_in_the_readers_language(tina):
    html = tina.get("/ru/translate/mpbs/").content.decode()
    assert "Ответные действия" in html and ">9 Reaction<" not in html  # chapter 9 in Russian
    assert "русский → английский" in html and "ru → en" not in html
    assert ">glossary-consistency<" not in html and "Термин записан по-разному" in html
    editor = tina.get("/ru" + editor_url("9.3.1")[3:]).content.decode()
    assert "Оригинал (русский)" in editor and "Перевод (английский)" in editor
    english = tina.get("/en/translate/mpbs/").content.decode()
    assert "9 Reaction" in english and "Term spelt two ways" in english
