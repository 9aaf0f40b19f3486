"""The editor's QA panel speaks of the text in the form (#30 item 7).

A reviewer edits a published section so that QA finds errors (a changed number, a wrong section reference: the
story of #13) and presses Approve. The confirmation names the errors; the QA panel beside the editor said
«Замечаний нет» / "No problems found.", because it showed the stored problems of the saved version. Whenever the
editor is rendered with a text that is not the saved one (the confirmation, a form with errors, a conflict's merge)
the panel lists the problems of that text and says it is "as typed, not saved", as the live panel does; the panel's
errors are the confirmation's errors, in both languages. The browser tests see the same in Chromium.
"""
from __future__ import annotations

import html as htmllib
import re

import pytest
from test_translation_support import book, editor_data, editor_url, item, make_user, save, sign_in

from rulesref.translation import workflow
from rulesref.translation.checks.base import format_message
from rulesref.translation.models import QAResult, Status
from tests.axecore import axe_violations, wider_than_screen

pytest_plugins = ["test_translation_support"]
SID = "11.4.5"

# What each language's page says, and what the other's must not (a Russian-page assertion fails on English text).
WORDS = {
    "ru": {"as_typed": "по мере ввода, не сохранено", "none": "Замечаний нет.",
           "ask": "Утвердить и опубликовать с 3 ошибками проверки?",
           "number": "“2” есть в оригинале, но нет в переводе",
           "reference": "Ссылка “9.1.4” есть в переводе, но нет в оригинале"},
    "en": {"as_typed": "as typed, not saved", "none": "No problems found.",
           "ask": "Approve and publish with 3 QA errors?",
           "number": "“2” in the source, not in the translation",
           "reference": "Reference “9.1.4” in the translation, not in the source"},
}
OTHER = {"ru": "en", "en": "ru"}


def break_numbers(text: str) -> str:
    """#13's accident: a changed number and a wrong section reference."""
    assert "2 hexes" in text and "only 1" in text
    return text.replace("2 hexes", "five hexes", 1).replace("only 1", "only 9.1.4", 1)


def visible(fragment: str) -> str:
    """A fragment's text as a reader sees it: tags dropped, entities read, white space collapsed."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def section(page: str, element_id: str) -> str:
    """The <section> with this id (its first closing tag ends it: neither holds a nested section)."""
    assert f'id="{element_id}"' in page, element_id
    return page.split(f'id="{element_id}"', 1)[1].split(">", 1)[1].split("</section>", 1)[0]


def panel(page: str) -> str:
    return section(page, "qa-panel")


def items(fragment: str, css: str | None = None) -> list[str]:
    """The visible text of each <li> of a fragment (those of one class when ``css`` is given)."""
    pattern = r'<li class="%s">(.*?)</li>' % re.escape(css) if css else r"<li[^>]*>(.*?)</li>"
    return [visible(li) for li in re.findall(pattern, fragment, re.S)]


def broken_approval(sid: str = SID) -> dict:
    data = editor_data(sid, status=Status.APPROVED)
    data["p1"] = break_numbers(data["p1"])
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_confirmation_and_the_qa_panel_name_the_same_errors_of_the_text_as_typed(rita, lang):
    words, other = WORDS[lang], WORDS[OTHER[lang]]
    saved = panel(rita.get(editor_url(SID, lang=lang)).content.decode())
    assert words["none"] in saved and words["as_typed"] not in saved  # the saved text has no problem

    response = rita.post(editor_url(SID, lang=lang), broken_approval())
    page = response.content.decode()
    assert response.status_code == 409
    confirmation, shown = section(page, "approve-errors"), panel(page)
    assert visible(confirmation).startswith(words["ask"])
    asked = items(confirmation)
    assert len(asked) == 3 and any(words["number"] in e for e in asked) and any(words["reference"] in e for e in asked)
    assert sorted(items(shown, "error")) == sorted(asked)  # the panel lists exactly the errors the reviewer confirms
    assert words["as_typed"] in shown and words["none"] not in shown
    assert other["as_typed"] not in shown and other["number"] not in page and other["ask"] not in page
    assert '/dismiss/"' not in shown  # a problem of an unsaved text has nothing stored to dismiss
    inline = re.findall(r'<ul class="qa-inline">(.*?)</ul>', page, re.S)
    assert any(words["number"] in visible(ul) for ul in inline)  # and beside its paragraph
    assert item(SID).translation.revisions.count() == 1  # nothing saved


@pytest.mark.django_db
def test_a_form_with_errors_shows_the_problems_of_its_text(rita):
    data = broken_approval()
    data["status"] = Status.REVIEW
    data["title"] = "Title {with braces}"  # refused: nothing is saved, the form comes back
    response = rita.post(editor_url(SID), data)
    page = response.content.decode()
    assert response.status_code == 400 and "Nothing was saved" in page
    shown = panel(page)
    assert WORDS["en"]["as_typed"] in shown and WORDS["en"]["none"] not in shown
    assert any(WORDS["en"]["number"] in e for e in items(shown, "error"))
    assert any(WORDS["en"]["reference"] in e for e in items(shown, "error"))


@pytest.mark.django_db
def test_the_conflict_pages_panel_speaks_of_the_text_to_merge(tina, rita):
    """The conflict page's editor holds the writer's own text, not the saved one: the panel checks that text."""
    stale = dict(broken_approval(), status=Status.DRAFT)
    clean = editor_data(SID, status=Status.REVIEW, title="Units that cannot retreat")
    assert rita.post(editor_url(SID), clean).status_code == 302
    response = tina.post(editor_url(SID), stale)
    assert response.status_code == 302 and "/conflict/" in response["Location"]
    saved = panel(tina.get(editor_url(SID)).content.decode())
    assert WORDS["en"]["none"] in saved  # the saved text (Rita's) has no problem
    shown = panel(tina.get(response["Location"]).content.decode())
    assert WORDS["en"]["as_typed"] in shown and WORDS["en"]["none"] not in shown
    errors = items(shown, "error")
    assert any(WORDS["en"]["number"] in e for e in errors) and any(WORDS["en"]["reference"] in e for e in errors)


def glossary_marks(page: str) -> dict[str, str]:
    """The glossary panel's rows: the required translation → present or absent."""
    table = page.split('class="glossary-panel"', 1)[1].split("</table>", 1)[0]
    return {visible(required): mark for mark, required in re.findall(
        r'<tr class="(present|absent)">.*?<td title="[^"]*"><span lang="en">(.*?)</span>', table, re.S)}


@pytest.mark.django_db
def test_the_glossary_panel_too_reads_the_text_in_the_form(rita):
    """Beside the QA panel the glossary panel says whether the translation uses each term: of the form's text too."""
    saved = glossary_marks(rita.get(editor_url(SID)).content.decode())
    assert saved.get("Morale Broken") == "present", saved
    data = broken_approval()
    data["p1"] = data["p1"].replace("Morale Broken", "Routed")
    marks = glossary_marks(rita.post(editor_url(SID), data).content.decode())
    assert marks["Morale Broken"] == "absent"
    assert {k: v for k, v in marks.items() if k != "Morale Broken"} == {
        k: v for k, v in saved.items() if k != "Morale Broken"}


@pytest.mark.django_db
def test_the_live_panel_names_the_errors_the_confirmation_will_name(rita):
    """One source for all three: what the panel says as the reviewer types is what approving will ask about."""
    data = broken_approval()
    asked = items(section(rita.post(editor_url(SID), data).content.decode(), "approve-errors"))
    live = rita.post(f"/en/translate/mpbs/{SID}/qa/", data, HTTP_HX_REQUEST="true").content.decode()
    assert live.lstrip().startswith('<section id="qa-panel"') and WORDS["en"]["as_typed"] in live
    assert sorted(items(live, "error")) == sorted(asked)


@pytest.mark.django_db
def test_a_dismissed_problem_stays_dismissed_in_the_text_as_typed(rita, reviewer):
    """A problem dismissed for a paragraph's text is not an error of that text as typed either: not in the panel's
    list, not in the confirmation; the panel counts it among the dismissed, with nothing to press."""
    broken = broken_approval()
    save(SID, reviewer, body=workflow.join_blocks([broken[f"p{n}"] for n in range(1, broken["paragraphs"] + 1)]),
         status=Status.REVIEW)
    number = next(r for r in item(SID, qa=True).qa if r.severity == "error"
                  and WORDS["en"]["number"] in format_message(r.message, r.params))
    QAResult.objects.filter(pk=number.pk).update(dismissed=True)
    data = dict(broken, version=item(SID).translation.version)  # the saved text, approved
    page = rita.post(editor_url(SID), data).content.decode()
    asked, shown = items(section(page, "approve-errors")), panel(page)
    assert len(asked) == 2 and not any(WORDS["en"]["number"] in e for e in asked)
    assert sorted(items(shown, "error")) == sorted(asked)
    dismissed = shown.split('class="dismissed"', 1)[1]
    assert "1 dismissed problem" in dismissed and WORDS["en"]["number"] in visible(dismissed)
    assert "Show again" not in dismissed


# ---------------------------------------------------------------------------------------------------- in Chromium


@pytest.mark.browser
@pytest.mark.usefixtures("fast_passwords")
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_in_chromium_the_panel_and_the_confirmation_agree(site, page_factory, lang):
    words, other = WORDS[lang], WORDS[OTHER[lang]]
    make_user("rita", "translators", "reviewers")
    workflow.book_items(book(), "en")
    url = f"/{lang}/translate/mpbs/{SID}/"
    page = page_factory(width=390, height=844, has_touch=True, is_mobile=True)
    sign_in(page, site.url, "rita", url)
    qa_panel = page.locator("#qa-panel")
    assert qa_panel.locator("p.ok").inner_text() == words["none"]
    field = page.locator("#id_p1")
    field.fill(break_numbers(field.input_value()))
    page.locator("#id_status").select_option("approved")
    with page.expect_navigation():
        page.locator(".save-bar button[type=submit]").tap()
    confirm = page.locator("#approve-errors")
    confirm.wait_for(state="visible")
    assert confirm.locator("h2").inner_text() == words["ask"]
    asked = sorted(" ".join(t.split()) for t in confirm.locator("li").all_inner_texts())
    assert len(asked) == 3 and any(words["reference"] in e for e in asked)
    assert words["as_typed"] in qa_panel.locator("h2").inner_text()
    assert other["as_typed"] not in qa_panel.inner_text()
    assert qa_panel.locator("p.ok").count() == 0  # not «Замечаний нет» / "No problems found."
    shown = sorted(" ".join(t.split()) for t in qa_panel.locator("li.error").all_inner_texts())
    assert shown == asked
    assert item(SID).translation.revisions.count() == 1
    assert axe_violations(page) == [] and wider_than_screen(page) == []  # the page with both, on a phone
    assert page.errors == [] and page.dialogs == []
