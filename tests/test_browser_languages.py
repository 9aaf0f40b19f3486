"""Both languages everywhere (#13): every kind of page, in real Chromium, shows no UI text of the other language.

The UI texts are the catalogs' own: a Russian page fails on any fragment of an English msgid
(locale/en/LC_MESSAGES/django.po) in its visible text, an English page on any fragment of a Russian msgstr
(locale/ru/LC_MESSAGES/django.po). Text that a page marks as being in the other language (lang="…": the parallel
view's other column, a term's other-language name, the language switch) is not UI text and is left out, as are
proper names that are the same in both languages (the site's and the rulebooks' names).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.test import Client
from test_translation_support import editor_data, make_user

from rulesref.translation import workflow
from rulesref.reference.models import Book

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("fast_passwords")]
LOCALE = Path(__file__).resolve().parent.parent / "locale"
PLACEHOLDER = re.compile(r"%\([^)]*\)[sd]|%[sd]|\{[^}]*\}")
# Names that are the same on the pages of both languages: the site, the rulebooks (their titles in book.toml).
PROPER_NAMES = ("rulesref", "Musket & Pike", "The 9th Age: Fantasy Battles", "The 9th Age")

PAGES = {
    "home": "/{lang}/",
    "contents": "/{lang}/rules/mpbs/",
    "section": "/{lang}/rules/mpbs/9.3.1/",
    "untitled section": "/{lang}/rules/mpbs/9.3.4/",
    "parallel": "/{lang}/rules/mpbs/9.3.1/?view=parallel",
    "search": "/{lang}/search/?q=hedgehog",
    "search in Russian": "/{lang}/search/?q=перехватить",
    "search for a missing number": "/{lang}/search/?q=9.3.9",
    "glossary": "/{lang}/glossary/mpbs/",
    "term": "/{lang}/glossary/mpbs/formation-hits/",
    "errata": "/{lang}/rules/mpbs/errata/",
    "section history": "/{lang}/rules/mpbs/9.3.1/history/",
    "section at a revision": "/{lang}/rules/mpbs/9.3.1/@1/",
    "what changed": "/{lang}/rules/mpbs/changes/?since=1",
    "bad history request": "/{lang}/rules/mpbs/9.3.1/history/?from=x",
    "404": "/{lang}/rules/mpbs/9.3.9/",
    "page 404": "/{lang}/no-such-page/",
    "sign-in": "/{lang}/accounts/login/",
}
WORKSPACE = {
    "dashboard": "/{lang}/translate/mpbs/",
    "editor": "/{lang}/translate/mpbs/9.3.4/",
    "revisions": "/{lang}/translate/mpbs/9.3.4/revisions/",
    "diff": "/{lang}/translate/mpbs/9.3.4/diff/",
}


def _fragments(text: str, script: re.Pattern) -> set[str]:
    out = set()
    for part in PLACEHOLDER.split(text):
        part = " ".join(part.split()).strip(" .,:;!?()[]«»“”\"'—–-·→←/")
        if len(script.findall(part)) >= 2:
            out.add(part)
    return out


@lru_cache(maxsize=None)
def ui_texts(lang: str) -> tuple[str, ...]:
    """The UI texts of ``lang``: the English catalog's msgids, or the Russian catalog's msgstrs."""
    path = LOCALE / ("en" if lang == "en" else "ru") / "LC_MESSAGES" / "django.po"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    script = re.compile(r"[A-Za-z]" if lang == "en" else r"[А-Яа-яЁё]")
    found: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        texts = message.id if lang == "en" else message.string
        for text in texts if isinstance(texts, (list, tuple)) else [texts]:
            if text:
                found |= _fragments(text, script)
    return tuple(sorted(found, key=len, reverse=True))


VISIBLE_TEXT = """lang => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || !node.textContent.trim() || ["SCRIPT", "STYLE", "TEMPLATE"].includes(el.tagName)) continue;
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    if ((el.closest("[lang]") || document.documentElement).getAttribute("lang") !== lang) continue;
    out.push(node.textContent);
  }
  // what else a reader sees or hears: placeholders, labels of controls, tooltips given as titles
  for (const el of document.querySelectorAll("[placeholder], [aria-label], [title], input[type=submit][value]")) {
    if (!el.checkVisibility() || (el.closest("[lang]") || document.documentElement).getAttribute("lang") !== lang) continue;
    for (const name of ["placeholder", "aria-label", "title", "value"]) {
      if (el.hasAttribute(name) && (name !== "value" || el.type === "submit")) out.push(el.getAttribute(name));
    }
  }
  return out.join("\\n");
}"""


def other_language_ui(text: str, page_lang: str) -> list[str]:
    """The UI texts of the other language found in ``text`` (as whole words)."""
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    other = "ru" if page_lang == "en" else "en"
    letters = "A-Za-z" if other == "en" else "А-Яа-яЁё"
    found = []
    for fragment in ui_texts(other):
        if re.search(rf"(?<![{letters}]){re.escape(fragment)}(?![{letters}])", text):
            found.append(fragment)
            text = text.replace(fragment, " ")
    return found


def test_the_oracle_finds_ui_text_of_the_other_language():
    assert other_language_ui("Поиск: Glossary terms: и ещё", "ru") == ["Glossary terms"]
    assert other_language_ui("Search the rules · Копировать ссылку", "en") == ["Копировать ссылку"]
    assert other_language_ui("Musket & Pike Battle Series", "ru") == ["Battle Series"] or \
        other_language_ui("Musket & Pike Battle Series", "ru") == []
    assert other_language_ui("The 9th Age: Fantasy Battles, 2-я редакция · rulesref", "ru") == []


@pytest.fixture
def workspace(site, page_factory):
    """A translator with a session, and section 9.3.4 saved once more, so it has revisions to compare."""
    translator = make_user("tina", "translators")
    workflow.book_items(Book.objects.get(slug="mpbs"), "en")
    client = Client()
    client.force_login(translator)
    data = editor_data("9.3.4")
    data["p1"] = data["p1"] + " (checked)"
    response = client.post("/en/translate/mpbs/9.3.4/", data)
    assert response.status_code == 302, response.content[:500]
    return client.cookies["sessionid"].value


def _problems(page, base: str, pages: dict[str, str], lang: str) -> dict[str, list[str]]:
    problems = {}
    for kind, url in pages.items():
        response = page.goto(base + url.format(lang=lang))
        assert response.status in (200, 400, 404), (kind, response.status)
        assert page.locator("html").get_attribute("lang") == lang
        found = other_language_ui(page.evaluate(VISIBLE_TEXT, lang), lang)
        if found:
            problems[kind] = found
    return problems


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_kind_of_reading_page_is_wholly_in_the_readers_language(site, page_factory, lang):
    reader = page_factory(width=1366, height=900)
    problems = _problems(reader, site.url, PAGES, lang)
    # a section page with a tooltip open, for a term and for a reference to a section the corpus lacks
    reader.goto(site.url + PAGES["section"].format(lang=lang))
    reader.locator(".text a.term").first.hover()
    reader.locator("#term-tip").wait_for(state="visible")
    found = other_language_ui(reader.evaluate(VISIBLE_TEXT, lang), lang)
    reader.locator(".ref-missing").first.hover()
    found += other_language_ui(reader.evaluate(VISIBLE_TEXT, lang), lang)
    if found:
        problems["section with a tooltip"] = found
    assert not problems
    assert reader.errors == []


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_kind_of_workspace_page_is_wholly_in_the_readers_language(site, page_factory, workspace, lang):
    translator = page_factory(width=1366, height=900)
    host = re.sub(r"^https?://", "", site.url).split(":")[0]
    translator.context.add_cookies([{"name": "sessionid", "value": workspace, "domain": host, "path": "/"}])
    problems = _problems(translator, site.url, WORKSPACE, lang)
    assert not problems
    assert translator.errors == []
