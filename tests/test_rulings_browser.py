"""Rulings in real Chromium, in both languages (#32): a reader asks a rules question on a clause, a reviewer answers
it with a ruling, and the reader finds it collapsed under that clause, by the site's search and in the offline copy;
when the clause changes the ruling says it may be outdated, and once the reviewer confirms it, it no longer does.
Untrusted text — a ruling, a reader's question, a quick-reference title — runs nothing: on the pages, in the API's
HTML and in print."""
from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from browsing import wait_until
from rulings_support import change_source, make
from test_offline_browser import keep, live_search
from test_security_browser import violations, watched
from test_translation_browser import sign_in
from test_translation_support import make_user

from rulesref.translation.models import Status

pytest_plugins = ["test_translation_support"]
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.offline_copies,
              pytest.mark.usefixtures("fast_passwords")]
WORDS = {"ru": ("Может ли кавалерийское подразделение попытаться перехватить второй раз за одну активацию крыла?",
                "Нет: по 9.3.1f кавалерийское подразделение пытается перехватить только однажды за активацию.",
                "второй активации", "разъяснение"),
         "en": ("May a cavalry unit try to intercept a second time in one activation of a wing?",
                "No: under 9.3.1f a cavalry unit tries to intercept only once per enemy activation.",
                "intercepts activations", "ruling")}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_readers_question_answered_shown_found_kept_outdated_and_confirmed(site, page_factory, lang):
    make_user("rita", "reviewers")
    question, answer, query, word = WORDS[lang]

    # A reader asks on clause f of 9.3.1.
    reader = page_factory()
    reader.goto(f"{site.url}/{lang}/rules/mpbs/9.3.1/")
    reader.locator(f"a[hx-target='#report-{lang}-7']").click()
    form = reader.locator(f"#report-{lang}-7 form")
    form.wait_for()
    form.locator("input[value=rules]").check()
    form.locator("textarea").fill(question)
    form.locator("button[type=submit]").click()
    reader.locator(f"#report-{lang}-7 .report-thanks").wait_for()

    # A reviewer answers it with a ruling from the workspace.
    reviewer = page_factory()
    sign_in(reviewer, site.url, "rita", f"/{lang}/translate/")
    reviewer.goto(f"{site.url}/{lang}/translate/mpbs/+rulings/")
    reviewer.locator("section.open-questions a", has_text=re.compile("Answer with a ruling|Ответить")).click()
    assert reviewer.locator("#id_citations").input_value() == "9.3.1f"
    assert reviewer.locator("#id_question").input_value() == question
    reviewer.locator("#id_answer").fill(answer)
    reviewer.locator("#id_status").select_option("approved")
    reviewer.locator("form.ruling-form button[type=submit]").click()
    reviewer.wait_for_url(re.compile(r"/\+rulings/1/$"))

    # The reader finds it collapsed under the clause, and opens it.
    reader.goto(f"{site.url}/{lang}/rules/mpbs/9.3.1/")
    under = reader.locator("p[id='9.3.1f'] ~ details.rulings-here").first
    assert re.match(rf"1 {word}", under.locator("summary").inner_text())
    assert not under.locator(".ruling-a").is_visible()
    under.locator("summary").click()
    assert answer.split(":")[0] in under.locator(".ruling-a").inner_text()

    # The site's search finds it by other forms of its words.
    results = live_search(reader, query)
    assert results.locator(".ruling-hits a.ruling-hit").first.get_attribute("href") == f"/{lang}/rules/mpbs/rulings/1/"

    # The offline copy has it under its clause.
    keep(reader, site, lang=lang)
    reader.context.set_offline(True)
    reader.goto(f"{site.url}/{lang}/rules/mpbs/9.3.1/")
    reader.locator(".offline-notice").wait_for()
    assert answer.split(":")[0] in reader.locator("details.rulings-here .ruling-a").first.text_content()
    reader.context.set_offline(False)

    # The clause changes: the ruling may be outdated, until the reviewer confirms it.
    revision = change_source("9.3.1", "еще не пыталось", "еще ни разу не пыталось")
    reader.goto(f"{site.url}/{lang}/rules/mpbs/rulings/1/")
    assert str(revision) in reader.locator(".outdated-notice").inner_text()
    reviewer.goto(f"{site.url}/{lang}/translate/mpbs/+rulings/1/")
    reviewer.locator(".outdated-notice button[type=submit]").click()
    reviewer.locator("ul.messages").wait_for()
    reader.goto(f"{site.url}/{lang}/rules/mpbs/rulings/1/")
    assert reader.locator(".outdated-notice").count() == 0

    # The English translation of the clause changes: English readers are told, Russian readers are not.
    revision = change_source("9.3.1", "has not already attempted", "has not yet attempted", lang="en")
    for page_lang, told in (("en", True), ("ru", False)):
        reader.goto(f"{site.url}/{page_lang}/rules/mpbs/rulings/1/")
        notice = reader.locator(".outdated-notice")
        assert (notice.count() == 1) is told, page_lang
        assert not told or str(revision) in notice.inner_text()
    reviewer.goto(f"{site.url}/{lang}/translate/mpbs/+rulings/1/")  # told in either language's workspace
    reviewer.locator(".outdated-notice button[type=submit]").click()
    reviewer.locator("ul.messages").wait_for()
    reader.goto(f"{site.url}/en/rules/mpbs/rulings/1/")
    assert reader.locator(".outdated-notice").count() == 0
    assert reader.errors == [] and reviewer.errors == []


PAYLOAD = ('<script>window.__pwned = "script"</script> <img src=x onerror="window.__pwned = \'img\'"> '
           '<a href="javascript:window.__pwned=\'js\'">x</a> "><svg onload="window.__pwned = \'svg\'"> '
           'javascript:window.__pwned="text"')


def nothing_ran(page) -> None:
    assert page.evaluate("window.__pwned === undefined"), page.evaluate("window.__pwned")
    assert page.dialogs == [] and page.evaluate("document.querySelectorAll('a[href^=\"javascript:\" i]').length") == 0


def test_untrusted_text_runs_nothing_on_the_pages_in_the_apis_html_and_in_print(site, page_factory):
    from rulesref.translation.models import Report

    reviewer = make_user("rita", "reviewers")
    Report.objects.create(token="t" * 24, book="mpbs", sid="9.3.1", language="en", paragraph=7, revision="x",
                          quoted="f)", kind="rules", message=PAYLOAD, created="2026-01-01T00:00Z",
                          updated="2026-01-01T00:00Z")
    make(reviewer, question=f"{PAYLOAD} 9.3.1f?", answer=f"{PAYLOAD}\n\n- {PAYLOAD}", other=(PAYLOAD, PAYLOAD),
         other_status=Status.APPROVED)
    page = watched(page_factory, width=1366, height=900)  # and every page passes the site's Content-Security-Policy
    sign_in(page, site.url, "rita", "/en/translate/")
    for path in ["/en/rules/mpbs/9.3.1/", "/ru/rules/mpbs/9.3.1/?view=parallel", "/en/rules/mpbs/rulings/1/",
                 "/ru/rules/mpbs/faq/", "/en/rules/mpbs/rulings/1/history/", "/en/translate/mpbs/+rulings/",
                 "/en/translate/mpbs/+rulings/1/", "/en/translate/mpbs/+rulings/1/revisions/",
                 f"/en/translate/mpbs/+rulings/new/?report={Report.objects.get().pk}",
                 "/en/print/?s=mpbs:9.3.1&rulings=1&text=both&title=" + quote(PAYLOAD),
                 "/en/search/?q=" + quote("window pwned")]:
        page.goto(f"{site.url}{path}")
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        nothing_ran(page)
        assert violations(page) == [], path

    # The API's HTML, put into a page that has no policy to protect it: escaped, it is only text.
    for path in ["/api/v1/books/mpbs/rulings/1?lang=en", "/api/v1/books/mpbs/rulings/1?lang=ru"]:
        data = json.loads(page.goto(f"{site.url}{path}").text())
        blank = page_factory()
        blank.set_content(f"<div>{data['question_html']}</div><div>{data['answer_html']}</div>")
        blank.wait_for_timeout(200)
        nothing_ran(blank)
        assert "window.__pwned" in blank.locator("body").inner_text()  # shown, as text

    # A quick-reference sheet kept in the browser with a hostile title and label, printed.
    mine = watched(page_factory)
    mine.goto(f"{site.url}/en/print/mine/")
    mine.evaluate("payload => localStorage.setItem('rulesref.quickref', JSON.stringify({title: payload, items: "
                  "[{book: 'mpbs', sid: '9.3.1', label: payload}, {book: 'mpbs', sid: 'javascript:alert(1)', "
                  "label: 'x'}]}))", PAYLOAD)
    mine.reload()
    wait_until(mine, "document.querySelectorAll('#quickref-items li').length === 2")
    nothing_ran(mine)
    assert mine.locator("#quickref-items li").first.inner_text().startswith(PAYLOAD[:20])
    href = mine.locator("#quickref-open").get_attribute("href")
    assert href.startswith("/en/print/?")
    mine.locator("#quickref-open").click()
    mine.wait_for_load_state()
    nothing_ran(mine)
    assert mine.locator("h1").inner_text() == " ".join(PAYLOAD.split())[:120]
    assert violations(mine) == []
