"""A ruling "may be outdated" when a clause it cites changes in either language (#32 point 2): a change of the
rulebook's source (the rule itself) tells every reader; a change of the translation of the clause (revised and
approved) tells the translation's readers, in their language, and not the others; both until a reviewer confirms
the ruling, which records what the clause says in both languages. Derived, as a translation's "outdated" is: the
change writes nothing to the ruling."""
from __future__ import annotations

import pytest
from rulings_support import ANSWER_EN, QUESTION_EN, book, change_source, make

from rulesref.reference.models import BookRevision, SectionText
from rulesref.rulings import workflow
from rulesref.rulings.models import Citation

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db

OLD_EN, NEW_EN = "has not already attempted an Interception", "has not yet attempted any Interception"
OLD_RU, NEW_RU = "еще не пыталось", "еще ни разу не пыталось"
BADGE = {"en": "may be outdated", "ru": "возможно, устарело"}


def notice(client, lang: str, page: str = "rulings/1/") -> str:
    """The ruling's "may be outdated" notice on its page in ``lang`` ("" when it has none)."""
    html = client.get(f"/{lang}/rules/mpbs/{page}").content.decode()
    if 'class="notice outdated-notice"' not in html:
        assert BADGE[lang] not in html, html
        return ""
    return html.split('class="notice outdated-notice"', 1)[1][:300]


def stored(ruling):
    return list(Citation.objects.filter(ruling=ruling).values_list("digest", "translated_digest", "revision"))


@pytest.mark.parametrize("written_in", ["ru", "en"])
def test_a_change_of_the_translation_of_its_clause_outdates_it_for_the_translations_readers(client, reviewer,
                                                                                          written_in):
    if written_in == "en":
        ruling = make(reviewer, lang="en", question=QUESTION_EN, answer=ANSWER_EN)
    else:
        ruling = make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    before = stored(ruling)
    assert notice(client, "en") == "" and notice(client, "ru") == ""
    revision = change_source("9.3.1", OLD_EN, NEW_EN, lang="en")
    assert f"revision {revision}" in notice(client, "en")
    assert notice(client, "ru") == ""  # the Russian clause, and the rule, are as they were
    assert stored(ruling) == before  # derived: the change wrote nothing
    section = client.get("/en/rules/mpbs/9.3.1/").content.decode()
    assert BADGE["en"] in section.split('id="9.3.1f"', 1)[1]  # under the clause, in English
    assert BADGE["ru"] not in client.get("/ru/rules/mpbs/9.3.1/").content.decode()
    page = client.get("/en/rules/mpbs/rulings/1/").content.decode()
    assert f"from={before[0][2]}&amp;to={revision}&amp;in=en" in page  # the diff of the English text

    workflow.confirm(ruling, user=reviewer)
    assert notice(client, "en") == "" and notice(client, "ru") == ""
    assert stored(ruling)[0][1] != before[0][1]  # what the English clause says now


def test_a_change_of_the_source_outdates_it_in_both_languages_until_confirmed(client, reviewer):
    ruling = make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    revision = change_source("9.3.1", OLD_RU, NEW_RU)
    assert f"revision {revision}" in notice(client, "en") and f"{revision}" in notice(client, "ru")
    workflow.confirm(ruling, user=reviewer)
    assert notice(client, "en") == "" and notice(client, "ru") == ""


def test_the_first_revision_that_changed_it_in_either_language_is_named(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    first = change_source("9.3.1", OLD_EN, NEW_EN, lang="en")
    second = change_source("9.3.1", OLD_RU, NEW_RU)
    assert second > first
    assert f"revision {first}" in notice(client, "en")  # the English text changed first
    assert f"{second}" in notice(client, "ru")  # the Russian reader is told of the rule's change only


def test_a_translation_changed_elsewhere_in_the_section_leaves_a_clause_ruling_current(client, reviewer):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    text = SectionText.objects.get(section__book=book(), section__sid="9.3.1", language="en")
    other = next(b for b in text.body.split("\n\n") if b.startswith("c)"))
    change_source("9.3.1", other, other + " Indeed.", lang="en")
    assert notice(client, "en") == ""


def test_a_new_ruling_records_what_its_clauses_say_in_both_languages(reviewer):
    ruling = make(reviewer)
    [(source, translated, revision)] = stored(ruling)
    assert source and translated and source != translated
    assert revision == BookRevision.objects.filter(book=book()).order_by("-number").first().number


def test_the_migration_records_what_the_translation_says_for_rulings_confirmed_before_it(reviewer):
    from importlib import import_module

    from django.apps import apps

    migration = import_module("rulesref.rulings.migrations.0003_clause_translation_digest")
    ruling = make(reviewer, cite="9.3.1f, 11.4.2")
    want = stored(ruling)
    Citation.objects.filter(ruling=ruling).update(translated_digest="")
    migration.record_translations(apps, None)
    assert stored(ruling) == want


def test_the_workspace_lists_it_as_may_be_outdated_after_a_change_in_either_language(client, reviewer):
    ruling = make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    client.force_login(reviewer)

    def listed() -> bool:
        page = client.get("/en/translate/mpbs/+rulings/", {"state": "outdated"}).content.decode()
        return 'href="/en/translate/mpbs/+rulings/1/"' in page

    assert not listed()
    change_source("9.3.1", OLD_EN, NEW_EN, lang="en")
    assert listed()
    workflow.confirm(ruling, user=reviewer)
    assert not listed()


@pytest.mark.parametrize("ui", ["ru", "en"])
def test_the_editor_tells_the_reviewer_of_a_change_of_the_translation_whatever_his_language(client, reviewer, ui):
    make(reviewer, other=(QUESTION_EN, ANSWER_EN))
    client.force_login(reviewer)
    editor = f"/{ui}/translate/mpbs/+rulings/1/"
    assert "outdated-notice" not in client.get(editor).content.decode()
    revision = change_source("9.3.1", OLD_EN, NEW_EN, lang="en")
    page = client.get(editor).content.decode()
    assert "outdated-notice" in page and f"{revision}" in page.split("outdated-notice", 1)[1][:400]
