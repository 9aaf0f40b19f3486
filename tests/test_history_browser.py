"""Rule history in real Chromium: a section changed between two loads shows its history and a word diff in both
languages, hostile text in the diff does not run; a saved scenario whose cited clause changed since says so when
opened, in both languages."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.browser]

OLD_EN = "anywhere within four hexes of the cavalry unit"
NEW_EN = 'anywhere within three hexes <img src=x onerror="window.pwned=1"><script>window.pwned=2</script> of the cavalry unit'
OLD_RU = "где-либо в пределах четырех гексов от кавалерийского подразделения"
NEW_RU = 'где-либо в пределах трёх гексов <img src=x onerror="window.pwned=3"> от кавалерийского подразделения'
CLAUSE_C_RU = "c) Кавалерийское подразделение не рассеяно, и"


def edit(corpus, relative: str, old: str, new: str) -> None:
    path = corpus / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def reload_corpus() -> None:
    from rulesref.reference.index import invalidate
    from rulesref.reference.loading import load_corpus

    assert load_corpus().loaded == ["mpbs"]
    invalidate()


def assert_nothing_ran(page) -> None:
    assert page.evaluate("window.pwned === undefined")
    assert not page.dialogs and not page.errors


def test_a_section_changed_between_two_loads_shows_its_history_and_word_diff_in_both_languages(
        corpus_copy, site, page_factory):
    edit(corpus_copy, "mpbs/en/9.md", OLD_EN, NEW_EN)
    edit(corpus_copy, "mpbs/ru/9.md", OLD_RU, NEW_RU)
    reload_corpus()
    page = page_factory()
    # English: from the section page to its history, where the latest change is shown word by word.
    page.goto(f"{site.url}/en/rules/mpbs/9.3.1/")
    assert page.locator("a.badge.changed-revision").inner_text() == "changed in revision 2"
    page.locator("a.history-link").click()
    page.wait_for_url(re.compile(r"/en/rules/mpbs/9\.3\.1/history/$"))
    assert page.locator(".diff-view h2").inner_text() == "Revision 1 → revision 2, English"
    deleted = page.locator(".diff-body del").all_inner_texts()
    inserted = " ".join(page.locator(".diff-body ins").all_inner_texts())
    assert any("four" in d for d in deleted)
    assert "three" in inserted and '<img src=x onerror="window.pwned=1">' in inserted  # shown as text
    assert page.locator(".diff-body img, .diff-body script").count() == 0
    assert page.locator("ol.revisions > li").count() == 2
    assert_nothing_ran(page)
    # The same two revisions in Russian, from the English page.
    page.get_by_role("link", name="The same revisions in Russian").click()
    page.wait_for_url(re.compile(r"in=ru"))
    assert page.locator(".diff-view h2").inner_text() == "Revision 1 → revision 2, Russian"
    assert any("четырех" in d for d in page.locator(".diff-body del").all_inner_texts())
    assert "трёх" in " ".join(page.locator(".diff-body ins").all_inner_texts())
    assert page.locator(".diff[lang=ru]").count() == 1
    assert_nothing_ran(page)
    # Russian: the Russian page, its history, and the text of revision 1 at its permanent address.
    page.goto(f"{site.url}/ru/rules/mpbs/9.3.1/")
    assert page.locator("a.badge.changed-revision").inner_text() == "изменён в редакции 2"
    page.locator("a.history-link").click()
    page.wait_for_url(re.compile(r"/ru/rules/mpbs/9\.3\.1/history/$"))
    assert page.locator(".diff-view h2").inner_text() == "Редакция 1 → редакция 2, русский"
    assert '<img src=x onerror="window.pwned=3">' in " ".join(page.locator(".diff-body ins").all_inner_texts())
    page.locator("#revision-1 a").first.click()
    page.wait_for_url(re.compile(r"/ru/rules/mpbs/9\.3\.1/@1/$"))
    assert OLD_RU in page.locator("article .text").inner_text()
    assert "Текст редакции 1" in page.locator(".revision-note").inner_text()
    assert_nothing_ran(page)


def test_a_saved_scenario_whose_cited_clause_changed_says_so_when_opened(corpus_copy, site, page_factory, settings):
    import shutil
    from pathlib import Path

    source = Path(settings.BASE_DIR) / "fixtures"
    for part in source.iterdir():  # the examples, tables and glossaries beside the corpus copy
        if part.is_dir() and part.name != "corpus":
            shutil.copytree(part, corpus_copy.parent / part.name)
    page = page_factory()
    page.goto(f"{site.url}/en/checker/mpbs/examples/interception-example-9.3/")
    page.locator("section.answer").wait_for()
    page.get_by_role("button", name="Save and get a link").click()
    page.locator("#share-link").wait_for()
    link = page.locator("#share-link").input_value()
    assert "/en/checker/mpbs/s/" in link and "Asked again now, the answer is the same." in page.content()
    edit(corpus_copy, "mpbs/ru/9.md", CLAUSE_C_RU, "c) Кавалерийское подразделение не рассеяно и не <b>дрогнуло</b>, и")
    reload_corpus()
    for lang, heading, clause, words in (
            ("en", "Changed since this link was saved", "9.3.1c Eligibility", "the answer was: yes"),
            ("ru", "Изменилось с тех пор, как ссылка была сохранена", "9.3.1c Способность", "ответ был: да")):
        page.goto(link.replace("/en/", f"/{lang}/", 1))
        box = page.locator("#then-now")
        box.wait_for()
        assert box.locator("h4").inner_text() == heading
        assert words in box.inner_text()
        assert clause in box.locator(".clause-changes").inner_text()
        assert "<b>дрогнуло</b>" in " ".join(box.locator(".clause-changes ins").all_inner_texts())  # as text
        assert box.locator(".clause-changes b").count() >= 1 and box.locator(".diff b").count() == 0
        assert page.locator(".verdict-bar a.badge.changed").count() == 1
        # The text then is one click away, at its permanent address.
        then = box.locator(".clause-changes a").first.get_attribute("href")
        assert re.search(rf"^/{lang}/rules/mpbs/9\.3\.1/@1/$", then)
        assert_nothing_ran(page)
