"""Checker pages without a browser: gallery, editor edits (each a new immutable draft), undo and redo, sharing,
download and upload with per-field problems, links from rule sections, odd input."""
from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from rulesref.checker import books, links
from rulesref.checker.models import Draft, ImmutableError, SavedScenario

pytestmark = pytest.mark.django_db
EDITOR = "/en/checker/mpbs/"
EXAMPLE = "/en/checker/mpbs/examples/interception-example-9.3/"


def draft_of(response) -> Draft:
    location = response["Location"] if response.status_code in (302, 303) else response["HX-Push-Url"]
    key = re.search(r"[?&]d=([a-z0-9]+)", location).group(1)
    return Draft.objects.get(key=key)


def edit(client, url, **fields):
    fields.setdefault("tool", "select")
    return client.post(url, {k: v for k, v in fields.items() if v is not None})


def test_gallery_lists_every_example_in_both_languages(client):
    for lang in ("en", "ru"):
        html = client.get(f"/{lang}/checker/").content.decode()
        for book in books.BOOKS:
            for slug in books.examples(book):
                assert f"/{lang}/checker/{book}/examples/{slug}/" in html
    assert "The interception example of 9.3" in client.get("/en/checker/").content.decode()


def test_examples_carry_titles_and_descriptions_in_both_languages():
    lacking = [f"{b}/{s}" for b in books.BOOKS for s, ex in books.examples(b).items() if not ex.has_both_languages()]
    assert not lacking, f"fixture scenarios without a title and description in ru and en: {lacking}"


def test_an_example_opens_with_its_question_answered(client):
    r = client.get(EXAMPLE, follow=True)
    assert r.redirect_chain[0][0].endswith("?q=can-intercept&p-unit=CAV-1")
    html = r.content.decode()
    assert 'class="answer verdict-yes"' in html
    assert "9.3.1c" in html and "/en/rules/mpbs/9.3.1/#9.3.1c" in html
    assert 'class="mk-path"' in html  # the interception path drawn


def test_the_answer_follows_the_language(client):
    html = client.get("/ru/checker/mpbs/examples/interception-example-9.3/?q=can-intercept&p-unit=CAV-1").content.decode()
    assert "/ru/rules/mpbs/9.3.1/#9.3.1c" in html and "/en/rules/" not in html
    assert re.search(r'<h3 id="answer-h">Ответ: <span class="verdict">да</span></h3>', html), "the answer in Russian"
    assert "Answer:" not in html


def test_blank_editor_draws_the_map(client):
    r = client.get(EDITOR)
    html = r.content.decode()
    assert r.status_code == 200
    assert html.count('class="hx') == 120
    assert 'data-hex="0101"' in html and 'data-hex="1210"' in html
    assert len(re.findall(r'<script src="[^"]*django_htmx/htmx-2\.min\.js"', html)) == 1  # the editor needs it at once


def test_placing_moving_turning_and_removing_units_without_javascript(client):
    r = edit(client, EDITOR, action="place", at="0405", place_side="blue", place_kind="heavy-infantry", place_two="1")
    assert r.status_code == 303
    d1 = draft_of(r)
    unit = d1.data["units"][0]
    assert unit["id"] == "HI-1" and unit["facing"] == "N" and len(unit["hexes"]) == 2
    r = edit(client, f"{EDITOR}?d={d1.key}", d=d1.key, sel="HI-1", action="move", at="0605")
    d2 = draft_of(r)
    assert d2.parent == d1 and d2.data["units"][0]["hexes"][0] == "0605"
    r = edit(client, EDITOR, d=d2.key, sel="HI-1", action="rotate", steps="1")
    d3 = draft_of(r)
    turned = d3.data["units"][0]
    assert turned["facing"] == "NE" and turned["hexes"][0] == "0605"  # wheeled about its first hex
    r = edit(client, EDITOR, d=d3.key, sel="HI-1", action="rotate", steps="3")
    assert draft_of(r).data["units"][0]["facing"] == "SW"
    r = edit(client, EDITOR, d=d3.key, sel="HI-1", action="remove")
    assert draft_of(r).data["units"] == []
    assert Draft.objects.get(pk=d1.pk).data["units"][0]["hexes"][0] == "0405"  # drafts never change


def test_click_with_each_tool_over_htmx(client):
    h = {"HTTP_HX_REQUEST": "true"}
    r = client.post(EDITOR, {"action": "click", "at": "0303", "tool": "place", "side": "red", "kind": "cavalry"}, **h)
    assert r.status_code == 200 and "HX-Push-Url" in r
    assert 'id="editor"' in r.content.decode() and "<html" not in r.content.decode()
    d = draft_of(r)
    assert d.data["units"][0]["id"] == "CAV-1" and d.data["units"][0]["facing"] == "S"
    r = client.post(EDITOR, {"d": d.key, "action": "click", "at": "0505", "tool": "terrain", "paint": "woods"}, **h)
    d = draft_of(r)
    assert d.data["map"]["terrain"] == {"0505": "woods"}
    r = client.post(EDITOR, {"d": d.key, "action": "click", "at": "0506", "tool": "dead"}, **h)
    d = draft_of(r)
    assert d.data["map"]["dead_zones"] == ["0506"]
    r = client.post(EDITOR, {"d": d.key, "action": "click", "at": "0303", "tool": "select"}, **h)
    assert "sel=CAV-1" in r["HX-Push-Url"] and draft_of(r) == d  # selecting changes nothing
    r = client.post(EDITOR, {"d": d.key, "sel": "CAV-1", "action": "click", "at": "0707", "tool": "select"}, **h)
    d = draft_of(r)
    assert d.data["units"][0]["hexes"] == ["0707"]
    r = client.post(EDITOR, {"d": d.key, "action": "click", "at": "0707", "tool": "erase"}, **h)
    assert draft_of(r).data["units"] == []


def test_undo_and_redo_walk_the_drafts(client):
    d1 = draft_of(edit(client, EDITOR, action="place", at="0202", place_side="blue", place_kind="cavalry"))
    d2 = draft_of(edit(client, EDITOR, d=d1.key, action="place", at="0404", place_side="red", place_kind="cavalry"))
    html = client.get(f"{EDITOR}?d={d2.key}").content.decode()
    undo = re.search(r'href="([^"]+)"[^>]*data-key="undo"', html).group(1).replace("&amp;", "&")
    assert f"d={d1.key}" in undo and f"redo={d2.key}" in undo
    html = client.get(undo).content.decode()
    redo = re.search(r'href="([^"]+)"[^>]*data-key="redo"', html).group(1).replace("&amp;", "&")
    assert f"d={d2.key}" in redo
    undo2 = re.search(r'href="([^"]+)"[^>]*data-key="undo"', html).group(1).replace("&amp;", "&")
    assert undo2.startswith(EDITOR) and "d=" not in undo2.split("redo=")[0]  # back to the empty map
    html = client.get(undo2).content.decode()
    redo = re.search(r'href="([^"]+)"[^>]*data-key="redo"', html).group(1).replace("&amp;", "&")
    assert f"d={d1.key}" in redo  # redo steps forward one draft at a time
    # A new edit after undo starts a new branch: no redo.
    d3 = draft_of(edit(client, EDITOR, d=d1.key, redo=d2.key, action="place", at="0808", place_side="red",
                       place_kind="leader"))
    assert 'data-key="redo"' not in client.get(f"{EDITOR}?d={d3.key}").content.decode()


def test_invalid_edits_change_nothing_and_say_why(client):
    d1 = draft_of(edit(client, EDITOR, action="place", at="0202", place_side="blue", place_kind="cavalry"))
    d2 = draft_of(edit(client, EDITOR, d=d1.key, action="place", at="0404", place_side="red", place_kind="cavalry"))
    count = Draft.objects.count()
    r = edit(client, EDITOR, d=d2.key, sel="CAV-1", action="move", at="0404")  # onto the enemy
    assert r.status_code == 422 and "enemy unit" in r.content.decode()
    r = edit(client, EDITOR, d=d2.key, sel="CAV-1", action="move", at="9999")
    assert r.status_code == 422 and "not on this map" in r.content.decode()
    r = edit(client, EDITOR, d=d2.key, action="rotate")
    assert r.status_code == 422 and "Select a unit first" in r.content.decode()
    r = edit(client, EDITOR, d=d2.key, action="nonsense")
    assert r.status_code == 400
    assert Draft.objects.count() == count


def test_unit_form_problems_are_shown_next_to_their_fields(client):
    d1 = draft_of(edit(client, EDITOR, action="place", at="0202", place_side="blue", place_kind="cavalry"))
    d2 = draft_of(edit(client, EDITOR, d=d1.key, action="place", at="0404", place_side="red", place_kind="cavalry"))
    fields = {"u-id": "CAV-2", "u-side": "blue", "u-type": "cavalry", "u-facing": "N", "u-morale_state": "normal",
              "u-formation_state": "normal", "u-wing": "R1"}
    r = edit(client, EDITOR, d=d2.key, sel="CAV-2", action="unit", **fields)
    html = r.content.decode()
    assert r.status_code == 422
    # the wing belongs to red, the unit to blue: the problem sits by the wing field
    wing_field = html[html.index('name="u-wing"'):]
    assert "belongs to side" in wing_field[: wing_field.index("</div>")]
    fields.update({"u-wing": "B1", "u-id": "Blue horse", "u-morale_rating": "8"})
    r = edit(client, EDITOR, d=d2.key, sel="CAV-2", action="unit", **fields)
    d3 = draft_of(r)
    assert "sel=Blue+horse" in r["Location"]
    assert {u["id"] for u in d3.data["units"]} == {"CAV-1", "Blue horse"}


def test_share_gives_one_short_permanent_link_per_scenario(client):
    d1 = draft_of(edit(client, EDITOR, action="place", at="0202", place_side="blue", place_kind="cavalry"))
    r = edit(client, EDITOR, d=d1.key, action="share", q="can-intercept")
    assert r.status_code == 303
    m = re.match(r"^/en/checker/mpbs/s/([a-z0-9]{7})/\?q=can-intercept$", r["Location"])
    assert m, r["Location"]
    saved = SavedScenario.objects.get(code=m.group(1))
    assert saved.data == d1.data
    again = edit(client, EDITOR, d=d1.key, action="share")
    assert m.group(1) in again["Location"]  # the same scenario, the same link
    saved.data = {}
    with pytest.raises(ImmutableError):
        saved.save()
    html = client.get(r["Location"]).content.decode()
    assert 'id="share-link"' in html and f"/en/checker/mpbs/s/{saved.code}/" in html
    # Editing a shared scenario makes drafts; undo leads back to the shared link.
    d2 = draft_of(edit(client, f"/en/checker/mpbs/s/{saved.code}/", action="place", at="0505", place_side="red",
                       place_kind="cavalry"))
    assert d2.origin == f"s:{saved.code}" and d2.parent is None
    html = client.get(f"{EDITOR}?d={d2.key}").content.decode()
    assert re.search(rf'href="/en/checker/mpbs/s/{saved.code}/\?redo={d2.key}"[^>]*data-key="undo"', html)


def test_download_and_upload_round_trip(client):
    ex = books.example("mpbs", "interception-example-9.3")
    r = client.get(f"{EXAMPLE}?q=can-intercept&download=json")
    assert r["Content-Disposition"] == 'attachment; filename="interception-example-9.3.json"'
    assert json.loads(r.content) == ex.data
    upload = SimpleUploadedFile("mine.json", r.content, content_type="application/json")
    r = client.post(EDITOR, {"action": "upload", "up-file": upload})
    assert r.status_code == 303
    assert draft_of(r).data == ex.data


def test_a_broken_upload_shows_every_problem_next_to_its_field(client):
    ex = books.example("mpbs", "interception-example-9.3")
    data = json.loads(json.dumps(ex.data))
    data["units"][0]["facing"] = 5
    data["units"][1]["morale"]["rating"] = 40
    data["map"]["colour"] = "green"
    upload = SimpleUploadedFile("broken.json", json.dumps(data).encode(), content_type="application/json")
    r = client.post(EDITOR, {"action": "upload", "up-file": upload})
    html = r.content.decode()
    assert r.status_code == 422
    assert "Problems in broken.json" in html
    problems = re.findall(r'<li class="jt-item jt-bad"><span class="jt-key">(\w+)</span>.*?<span class="jt-problem"', html)
    assert {"facing", "rating", "map"} <= set(problems)
    before = Draft.objects.count()
    upload = SimpleUploadedFile("syntax.json", b'{"book": "mpbs",\n "map": {,}}', content_type="application/json")
    r = client.post(EDITOR, {"action": "upload", "up-file": upload})
    assert r.status_code == 422 and "line 2, column" in r.content.decode()
    upload = SimpleUploadedFile("t9a.json", books.example("t9a", "charge-clear").path.read_bytes())
    r = client.post(EDITOR, {"action": "upload", "up-file": upload})
    assert r.status_code == 422 and "t9a checker" in r.content.decode()
    assert Draft.objects.count() == before


def test_odd_urls_get_clear_pages_never_a_500(client):
    assert client.get("/en/checker/chess/").status_code == 404
    assert client.get(f"{EDITOR}?d=zzzzzzzz").status_code == 404
    assert client.get("/en/checker/mpbs/s/nothere/").status_code == 404
    assert client.get("/en/checker/mpbs/examples/nothere/").status_code == 404
    for query in ("?hex=<script>", "?q=bogus", "?tool=../../etc", "?q=can-intercept&p-unit=x" * 3,
                  "?d=", "?kind=dragon&tool=place", "?q=retreat&p-fought=A&p-fought=B&p-result=nope"):
        assert client.get(EDITOR + query).status_code == 200, query
    assert client.get(EDITOR + "?sel=%00").status_code == 400  # text no database can store: refused at the edge
    assert client.delete(EDITOR).status_code == 405


def test_section_links_open_the_example_and_check_each_cited_rule(client):
    found = links.section_links("mpbs", "9.3.7", "ru")
    labels = [link["kind"] for link in found]
    assert "example" in labels
    example = next(link for link in found if link["kind"] == "example")
    assert example["url"].startswith("/ru/checker/mpbs/examples/interception-example-9.3/?q=can-intercept")
    check = links.section_links("mpbs", "9.3.1", "en")
    assert [link["kind"] for link in check] == ["check", "coverage"]
    assert check[1]["url"] == "/en/rules/mpbs/coverage/#c-9.3.1"
    assert "focus=9.3.1" in check[0]["url"]
    assert client.get(check[0]["url"]).status_code == 200
    assert links.section_links("mpbs", "1.1", "en") == []
    assert links.section_links("chess", "1", "en") == []


def test_every_cited_section_has_a_scenario_that_exercises_it():
    from rulesref.engine import book_engine
    from rulesref.engine.ruling import Citation

    missing = {}
    for book in books.BOOKS:
        cited = links.cited_sections(book)
        sections = {Citation(book, c).section for c in book_engine(book).CITABLE_CLAUSES}
        lacking = sorted(sections - set(cited))
        if lacking:
            missing[book] = lacking
    assert not missing, f"sections the engine cites that no example scenario exercises yet: {missing}"


def test_old_drafts_are_pruned_and_shared_scenarios_kept(client):
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    d1 = draft_of(edit(client, EDITOR, action="place", at="0202", place_side="blue", place_kind="cavalry"))
    d2 = draft_of(edit(client, EDITOR, d=d1.key, action="place", at="0404", place_side="red", place_kind="cavalry"))
    SavedScenario.share("mpbs", d1.data)
    Draft.objects.filter(pk=d1.pk).update(created=timezone.now() - timedelta(days=40),
                                          opened=timezone.now() - timedelta(days=40))
    call_command("prunedrafts", stdout=StringIO())
    assert list(Draft.objects.values_list("key", flat=True)) == [d2.key]
    assert SavedScenario.objects.count() == 1
    html = client.get(f"{EDITOR}?d={d2.key}").content.decode()
    assert 'data-key="undo"' in html  # its parent is gone: undo leads to the empty map


@pytest.mark.parametrize("book,slug", [(b, s) for b in books.BOOKS for s in sorted(books.examples(b))])
def test_every_example_page_renders(client, book, slug):
    """Every example opens in Russian with its first question answered as its ``expect`` block says."""
    first = books.example(book, slug).questions[0]
    r = client.get(f"/ru/checker/{book}/examples/{slug}/", follow=True)
    assert r.status_code == 200
    assert f"?q={first['question']}" in r.redirect_chain[0][0]
    html = r.content.decode()
    verdict = first["expect"]["verdict"]
    assert f'<section class="answer verdict-{verdict}" id="answer"' in html
    assert '<h3 id="answer-h">Ответ: <span class="verdict">' in html and "Answer:" not in html


def test_a_shared_scenario_the_engine_now_refuses_is_listed_not_drawn(client):
    saved = SavedScenario.objects.create(code="zzzzzzz", book="mpbs", data={"book": "mpbs", "map": {"columns": "x"}},
                                         digest="0" * 64)
    r = client.get(f"/en/checker/mpbs/s/{saved.code}/")
    assert r.status_code == 200 and b"the engine cannot read it" in r.content and b"<svg" not in r.content


def test_the_moment_panel_sets_an_extended_activation_and_a_pass(client):
    """The moment fields the engine reads (9.3.1 note: an extended activation is a new one; 5.8: the player passes)
    and the unit flags beside them can be set in the editor, not only in an uploaded file."""
    page = client.get(EXAMPLE + "?panel=moment", follow=True).content.decode()
    assert 'name="mo-extended_activation"' in page and 'name="mo-wing_passes"' in page
    assert "activation has been extended" in page
    russian = client.get(EXAMPLE.replace("/en/", "/ru/") + "?panel=moment", follow=True).content.decode()
    assert 'name="mo-extended_activation"' in russian and "activation has been extended" not in russian
    assert "Активация крыла продлена" in russian and "Игрок пасует" in russian
    example = books.example("mpbs", "interception-example-9.3").data
    r = edit(client, EXAMPLE, action="moment", **{"mo-phase": "actions", "mo-extended_activation": "on"})
    moment = draft_of(r).data["moment"]
    assert moment["extended_activation"] is True and "wing_passes" not in moment
    assert moment["event"] == example["moment"]["event"]  # what the panel does not edit is kept
    d = draft_of(r)
    r = edit(client, EDITOR, d=d.key, action="moment", **{"mo-phase": "actions", "mo-wing_passes": "on"})
    moment = draft_of(r).data["moment"]
    assert moment["wing_passes"] is True and "extended_activation" not in moment
    unit_panel = client.get(EDITOR + f"?d={d.key}&sel=CAV-1").content.decode()
    assert 'value="interception_attempted_before_extension"' in unit_panel and 'value="off_map_pursuer"' in unit_panel
