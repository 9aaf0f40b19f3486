"""Rulings remember their rules: every ruling states the book revision and the engine version it was decided under,
and a shared link keeps its answer so that, opened later, it says when the verdict or a cited clause changed."""
from __future__ import annotations

import dataclasses
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from rulesref.checker import books, remembered
from rulesref.checker.models import SavedScenario, SharedRuling
from rulesref.engine import ENGINE_VERSION, book_engine
from rulesref.engine.ruling import Verdict
from rulesref.engine.version import ENGINE_RELEASE, source_digest
from rulesref.reference.loading import load_corpus
from rulesref.reference.models import Book

pytestmark = pytest.mark.django_db
EXAMPLE = "/{lang}/checker/mpbs/examples/interception-example-9.3/"
ASK = {"q": "can-intercept", "p-unit": "CAV-1"}
CLAUSE_C_EN = "c) The cavalry unit is not disordered, and"
CLAUSE_C_RU = "c) Кавалерийское подразделение не рассеяно, и"


def mpbs_revision() -> int:
    return Book.objects.get(slug="mpbs").revision


def test_the_engine_version_is_the_release_and_a_digest_of_what_the_engine_decides_from(tmp_path):
    assert ENGINE_VERSION == f"{ENGINE_RELEASE}+{source_digest()}"
    engine = Path(settings.BASE_DIR) / "rulesref" / "engine"
    tables = Path(settings.BASE_DIR) / "fixtures" / "tables"
    copy, tables_copy = tmp_path / "engine", tmp_path / "tables"
    for base, into, pattern in ((engine, copy, "*.py"), (engine, copy, "*.json"), (tables, tables_copy, "*.json")):
        for path in base.rglob(pattern):
            target = into / path.relative_to(base)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    assert source_digest(copy, tables_copy) == source_digest()
    for changed, edit in ((copy / "mpbs" / "interception.py", "\n# a change of a rule function\n"),
                          (copy / "t9a" / "scenario.schema.json", "\n"),  # a change of the scenario model
                          (tables_copy / "mpbs" / "interception.json", "\n")):  # a change of a table
        before = changed.read_bytes()
        changed.write_bytes(before + edit.encode())
        assert source_digest(copy, tables_copy) != source_digest(), changed
        changed.write_bytes(before)
    assert source_digest(copy, tables_copy) == source_digest()


def test_the_api_and_the_command_line_state_what_a_ruling_was_decided_under(client):
    ex = books.example("mpbs", "interception-example-9.3")
    response = client.post("/api/v1/mpbs/rulings/can-intercept", {"scenario": ex.data, "params": {"unit": "CAV-1"}},
                           content_type="application/json")
    under = response.json()["decided_under"]
    assert under == {"book": "mpbs", "book_revision": mpbs_revision(), "engine_version": ENGINE_VERSION}
    out = io.StringIO()
    call_command("ruling", "mpbs", "can-intercept", str(ex.path), "--param", "unit=CAV-1", stdout=out)
    assert json.loads(out.getvalue())["decided_under"] == under
    for lang, words in (("en", "Decided under revision"), ("ru", "Решено по редакции")):
        out = io.StringIO()
        call_command("ruling", "mpbs", "can-intercept", str(ex.path), "--param", "unit=CAV-1", "--format", "text",
                     "--lang", lang, stdout=out)
        assert f"{words} {mpbs_revision()}" in out.getvalue() and ENGINE_VERSION in out.getvalue()
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["Ruling"]
    assert "decided_under" in schema["required"]


def test_the_checkers_answer_states_the_revision_and_engine(client):
    html = client.get(EXAMPLE.format(lang="en"), ASK).content.decode()
    assert f"Decided under revision {mpbs_revision()} of the rulebook, engine {ENGINE_VERSION}." in html
    ru = client.get(EXAMPLE.format(lang="ru"), ASK).content.decode()
    assert f"Решено по редакции {mpbs_revision()} книги правил, движок {ENGINE_VERSION}." in ru


def share(client, lang: str = "en") -> str:
    response = client.post(EXAMPLE.format(lang=lang), {"action": "share", "tool": "select", **ASK})
    assert response.status_code == 303, response.content[:500]
    assert re.match(rf"^/{lang}/checker/mpbs/s/[a-z0-9]{{7}}/\?", response["Location"])
    return response["Location"]


def test_sharing_an_answer_keeps_its_verdict_clauses_revision_and_engine(client):
    link = share(client)
    saved = SavedScenario.objects.get(code=link.split("/s/")[1].split("/")[0])
    record = SharedRuling.objects.get(scenario=saved)
    # The parameters as asked: the chosen unit and the default the page filled in (the moving enemy).
    assert (record.question, record.params, record.verdict) == (
        "can-intercept", {"unit": "CAV-1", "target": "HI-1"}, "yes")
    assert (record.book_revision, record.engine_version) == (mpbs_revision(), ENGINE_VERSION)
    assert {"clause": "9.3.1c", "status": "pass"} in record.findings
    share(client)  # the same position and question again: the link keeps its first answer
    assert SharedRuling.objects.filter(scenario=saved).count() == 1
    html = client.get(link).content.decode()
    assert "Asked again now, the answer is the same." in html and "Changed since this link was saved" not in html


@pytest.fixture
def fixtures_copy(corpus_copy):
    """The corpus copy with the rest of fixtures/ beside it (the examples, tables and glossaries)."""
    source = Path(settings.BASE_DIR) / "fixtures"
    for part in source.iterdir():
        if part.is_dir() and part.name != "corpus":
            shutil.copytree(part, corpus_copy.parent / part.name)
    return corpus_copy


def test_a_shared_link_whose_cited_clause_changed_says_so_and_shows_both(client, fixtures_copy):
    corpus_copy = fixtures_copy
    link = share(client)
    then = mpbs_revision()
    path = corpus_copy / "mpbs" / "en" / "9.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(CLAUSE_C_EN, "c) The cavalry unit is neither disordered nor <b>shaken</b>, and"),
                    encoding="utf-8")
    path = corpus_copy / "mpbs" / "en" / "5.md"  # a section the answer does not cite changes too
    path.write_text(path.read_text(encoding="utf-8").replace("the", "thee", 1), encoding="utf-8")
    load_corpus()
    assert mpbs_revision() == then + 1
    html = client.get(link).content.decode()
    assert "Changed since this link was saved" in html
    assert f"When this link was saved (revision {then} of the rulebook" in html
    section = html[html.index('class="clause-changes"'):]
    section = section[:section.index("</ul>")]
    # Only the cited clauses whose text changed: 9.3.1c's own paragraph, and 9.3.1, which the answer also cites
    # whole; not 9.3.1a, b, d… (their paragraphs did not change) nor chapter 5 (changed, but not cited).
    assert re.findall(r"<li><b>([^<]*)</b>", section) == ["9.3.1 Eligibility", "9.3.1c Eligibility"]
    assert "<del>not disordered</del>" in section.replace("<del>not </del><del>disordered</del>", "")  \
        or re.search(r"<del>[^<]*not[^<]*</del>", section)
    assert "&lt;b&gt;shaken&lt;/b&gt;" in section and "<b>shaken" not in section  # the new text, escaped
    assert "triggering action" not in section  # of a whole section, only the paragraphs that changed
    assert f'href="/en/rules/mpbs/9.3.1/@{then}/"' in section  # the text then, at its permanent address
    assert f"/en/rules/mpbs/9.3.1/history/?from={then}&amp;to={then + 1}&amp;in=en" in section
    # A reader in Russian reads the Russian text, which did not change (only the translation did).
    ru = client.get(link.replace("/en/", "/ru/", 1)).content.decode()
    assert "Если спросить сейчас, ответ тот же." in ru and "Изменилось с тех пор" not in ru
    # A change of the source text is a change for the readers of either language, each shown in its language.
    path = corpus_copy / "mpbs" / "ru" / "9.md"
    path.write_text(path.read_text(encoding="utf-8").replace(CLAUSE_C_RU, "c) Кавалерия не рассеяна, и"),
                    encoding="utf-8")
    load_corpus()
    ru = client.get(link.replace("/en/", "/ru/", 1)).content.decode()
    assert "Изменилось с тех пор, как ссылка была сохранена" in ru and "<b>9.3.1c Способность</b> (русский)" in ru
    assert re.search(r"<ins>[^<]*Кавалерия", ru)
    en = client.get(link).content.decode()
    assert "<b>9.3.1c Eligibility</b> (English)" in en  # the English reader's own text changed first


def test_a_shared_link_whose_verdict_changed_shows_both_verdicts(client, monkeypatch):
    link = share(client)
    engine = book_engine("mpbs")
    real = engine.QUESTIONS["can-intercept"]

    def changed_engine(scenario, params):  # a later engine that decides otherwise
        return dataclasses.replace(real(scenario, params), verdict=Verdict.NO)

    monkeypatch.setitem(engine.QUESTIONS, "can-intercept", changed_engine)
    monkeypatch.setattr(remembered, "ENGINE_VERSION", "2.0+later")
    html = client.get(link).content.decode()
    assert "Changed since this link was saved" in html
    assert "the answer was: yes." in html and "Asked again now, the answer is: no." in html
    assert "The engine has changed since (now 2.0+later)." in html
    ru = client.get(link.replace("/en/", "/ru/", 1)).content.decode()
    assert "ответ был: да." in ru and "Если спросить сейчас, ответ: нет." in ru


def test_a_link_shared_without_a_question_or_with_another_keeps_nothing_to_compare(client):
    response = client.post(EXAMPLE.format(lang="en"), {"action": "share", "tool": "select"})
    assert response.status_code == 303
    saved = SavedScenario.objects.get(code=response["Location"].split("/s/")[1].split("/")[0])
    assert not SharedRuling.objects.filter(scenario=saved).exists()
    html = client.get(response["Location"].split("?")[0], ASK).content.decode()
    assert "Decided under revision" in html and "When this link was saved" not in html
