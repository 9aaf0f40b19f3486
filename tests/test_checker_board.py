"""The t9a board editor without a browser: each edit of ``boardedit`` (valid, and refused by the engine with the
problem at its field), and the views' full-page and htmx paths (each edit a new immutable draft)."""
from __future__ import annotations

import copy
import re

import pytest

from rulesref.checker.editing import EditError, validate
from rulesref.checker.models import Draft
from rulesref.checker.tabletop import edits as boardedit, forms as boardforms

EDITOR = "/en/checker/t9a/"


def two_units():
    data = boardedit.blank()
    data, red = boardedit.place_unit(data, 24, 8, "red", advance_rate=5)
    data, blue = boardedit.place_unit(data, 24, 30, "blue", advance_rate=4, missile_weapons=True)
    return data, red, blue


# --- edit operations ------------------------------------------------------------------------------------------


def test_blank_board_is_a_valid_scenario():
    assert validate("t9a", boardedit.blank()) == []


def test_place_faces_the_middle_and_is_valid():
    data, red, blue = two_units()
    assert validate("t9a", data) == []
    units = {u["id"]: u for u in data["units"]}
    assert (red, blue) == ("red-1", "blue-1")
    assert units[red] == {"id": "red-1", "side": "red", "centre": [24, 8], "facing": 0, "width": 5, "depth": 2,
                          "advance_rate": 5}
    assert units[blue]["facing"] == 180 and units[blue]["missile_weapons"] is True


def test_place_does_not_change_its_input():
    data = boardedit.blank()
    boardedit.place_unit(data, 10, 10, "red")
    assert data["units"] == []


def test_place_overlapping_or_off_the_board_is_refused_at_the_centre():
    data, red, blue = two_units()
    overlapping, _ = boardedit.place_unit(data, 25, 8.5, "blue")
    assert [p for p, m in validate("t9a", overlapping)] == ["units[2].centre"]
    assert "overlaps" in validate("t9a", overlapping)[0][1]
    off, _ = boardedit.place_unit(data, 1, 1, "blue")
    assert validate("t9a", off) == [("units[2].centre", "the Unit Boundary of 'blue-2' is not wholly on the board")]


def test_place_needs_a_side_and_numbers():
    with pytest.raises(EditError):
        boardedit.place_unit(boardedit.blank(), 10, 10, " ")
    with pytest.raises(EditError):
        boardedit.place_unit(boardedit.blank(), "ten", 10, "red")
    with pytest.raises(EditError):
        boardedit.place_unit(boardedit.blank(), "nan", 10, "red")


def test_move_and_refused_move():
    data, red, blue = two_units()
    moved = boardedit.move_unit(data, red, 20.456, 12)
    assert moved["units"][0]["centre"] == [20.46, 12] and validate("t9a", moved) == []
    onto = boardedit.move_unit(data, red, 24, 30)
    assert validate("t9a", onto)[0][0] == "units[1].centre"  # the engine reports an overlap at the later unit
    off = boardedit.move_unit(data, red, 24, 47.5)
    assert validate("t9a", off)[0][0] == "units[0].centre"
    with pytest.raises(EditError):
        boardedit.move_unit(data, "ghost", 1, 1)


def test_rotate_by_steps_and_to_an_angle():
    data, red, _ = two_units()
    assert boardedit.rotate_unit(data, red, 15)["units"][0]["facing"] == 15
    assert boardedit.rotate_unit(data, red, -15)["units"][0]["facing"] == 345
    assert boardedit.rotate_unit(data, red, 90)["units"][0]["facing"] == 90
    assert boardedit.rotate_unit(data, red, -90)["units"][0]["facing"] == 270
    assert boardedit.set_facing(data, red, 372.5)["units"][0]["facing"] == 12.5
    assert boardedit.set_facing(data, red, -0.001)["units"][0]["facing"] == 0
    # a wide unit turned near the edge leaves the board: the engine says so
    edge = boardedit.move_unit(data, red, 24, 46.9)
    assert validate("t9a", edge) == []
    assert validate("t9a", boardedit.rotate_unit(edge, red, 90))[0][0] == "units[0].centre"


def test_remove_drops_the_charges_and_pursuit_that_name_it():
    data, red, blue = two_units()
    data["declared_charges"] = [{"charger": red, "target": blue}]
    out = boardedit.remove_unit(data, blue)
    assert [u["id"] for u in out["units"]] == [red] and out["declared_charges"] == []
    assert validate("t9a", out) == []
    with pytest.raises(EditError):
        boardedit.remove_unit(data, "ghost")


def test_board_size_valid_and_refused():
    data, red, blue = two_units()
    assert validate("t9a", boardedit.set_board(data, 72, 48)) == []
    small = boardedit.set_board(data, 48, 20)
    assert any(p == "units[1].centre" for p, m in validate("t9a", small))
    assert any(p.startswith("board.width") for p, m in validate("t9a", boardedit.set_board(data, 0, 48)))


def test_advance_rate_as_a_number_or_the_models_rates():
    assert boardedit.parse_advance_rate("5") == 5
    assert boardedit.parse_advance_rate("5, 4") == [5, 4]
    assert boardedit.parse_advance_rate("4.5") == 4.5
    with pytest.raises(EditError):
        boardedit.parse_advance_rate("")


def unit_form(data, uid, **changes):
    initial = boardforms.BoardUnitForm.initial_for(data["units"][boardedit.unit_index(data, uid)])
    initial.update(changes)
    post = {}
    for k, v in initial.items():
        post[f"bu-{k}"] = v
    return boardforms.BoardUnitForm(post, prefix="bu", sides=boardforms.side_choices(data))


def test_unit_form_edits_every_property_and_renames_references():
    data, red, blue = two_units()
    data["declared_charges"] = [{"charger": red, "target": blue}]
    form = unit_form(data, red, id="knights", name="Knights", side="red", width=6, depth=3, advance_rate="7, 8",
                     missile_weapons="no", state=["stood-and-shot"], facing=10)
    assert form.is_valid(), form.errors
    out, new_id = form.apply(data, red)
    assert new_id == "knights" and validate("t9a", out) == []
    unit = out["units"][0]
    assert unit == {"id": "knights", "name": "Knights", "side": "red", "centre": [24, 8], "facing": 10, "width": 6,
                    "depth": 3, "advance_rate": [7, 8], "missile_weapons": False, "state": ["stood-and-shot"]}
    assert out["declared_charges"] == [{"charger": "knights", "target": blue}]


def test_unit_form_refuses_a_bad_id_and_a_taken_one():
    data, red, blue = two_units()
    form = unit_form(data, red, id="<script>")
    assert not form.is_valid() and "id" in form.errors
    form = unit_form(data, red, id=blue)
    assert form.is_valid()
    with pytest.raises(EditError):
        form.apply(data, red)
    assert "id" in form.errors


def test_engaged_and_fleeing_together_is_the_engines_problem_at_state():
    data, red, blue = two_units()
    form = unit_form(data, red, state=["engaged", "fleeing"])
    assert form.is_valid()
    out, _ = form.apply(data, red)
    assert validate("t9a", out)[0][0].startswith("units[0]")


# --- views ------------------------------------------------------------------------------------------------------


def draft_of(response) -> Draft:
    location = response["Location"] if response.status_code in (302, 303) else response["HX-Push-Url"]
    return Draft.objects.get(key=re.search(r"[?&]d=([a-z0-9]+)", location).group(1))


def place(client, url, x, y, side, **extra):
    fields = {"action": "board-place", "x": x, "y": y, "place_side": side, "place_width": 5, "place_depth": 2,
              "place_ar": extra.pop("ar", 5), "place_missile": extra.pop("missile", "")}
    fields.update(extra)
    return client.post(url, fields)


@pytest.mark.django_db
def test_blank_board_editor_page(client):
    html = client.get(EDITOR).content.decode()
    assert 'class="tboard"' in html and 'id="board-place"' in html and "Place a unit" in html
    assert 'name="tool" value="place"' in html


@pytest.mark.django_db
def test_full_page_edits_make_drafts_and_the_answer_is_drawn(client):
    # Advance Rate 8: the charge from 20" away can be declared (8 + 12), so the target has reactions to choose.
    r = place(client, EDITOR, 24, 8, "red", ar=8)
    assert r.status_code == 303 and "sel=red-1" in r["Location"]
    first = draft_of(r)
    r = place(client, r["Location"], 24, 30, "blue", ar=4, missile="yes")
    second = draft_of(r)
    assert second.parent_id == first.pk and len(second.data["units"]) == 2
    page = client.get(r["Location"]).content.decode()
    assert 'data-unit="blue-1"' in page and 'class="arcs"' in page  # the selected unit's arcs
    asked = client.get(f"{EDITOR}?d={second.key}&q=charge-reactions&p-charger=red-1&p-target=blue-1")
    html = asked.content.decode()
    assert "verdict-yes" in html and 'class="flee"' in html
    assert finding("pass", "Stand and Shoot: the charge starts 20″ away, farther than the Advance Rate of red-1 (8″)",
                   html)
    # move the charger within its Advance Rate through the form, then ask again
    r = client.post(f"{EDITOR}?d={second.key}&sel=red-1", {"action": "board-move", "d": second.key, "sel": "red-1",
                                                          "x": 24, "y": 26, "facing": 0})
    third = draft_of(r)
    assert third.parent_id == second.pk and third.data["units"][0]["centre"] == [24, 26]
    html = client.get(f"{EDITOR}?d={third.key}&q=charge-reactions&p-charger=red-1&p-target=blue-1").content.decode()
    assert finding("fail", "Stand and Shoot: the charge starts 2″ away, not farther than the Advance Rate of red-1 (8″)",
                   html)
    assert "8 clauses checked, 7 met, 1 not met" in html


def finding(status: str, message: str, html: str) -> bool:
    """Whether the answer lists ``message`` as one finding, marked met (``pass``) or not met (``fail``)."""
    sign = {"pass": ("met", "✓"), "fail": ("not met", "✗")}[status]
    return re.search(rf'<li class="finding st-{status}">\s*<span class="sign" role="img" aria-label="{sign[0]}">'
                     rf'{sign[1]}</span>(?:(?!</li>).)*<span class="msg">{re.escape(message)}</span>', html, re.S) \
        is not None


@pytest.mark.django_db
def test_refused_move_keeps_the_state_and_shows_the_problem_at_x_y(client):
    r = place(client, EDITOR, 24, 8, "red")
    r = place(client, r["Location"], 24, 30, "blue")
    d = draft_of(r)
    before = Draft.objects.count()
    r = client.post(EDITOR, {"action": "board-move", "d": d.key, "sel": "blue-1", "x": 24, "y": 8.5, "facing": ""})
    assert r.status_code == 422 and Draft.objects.count() == before
    html = r.content.decode()
    assert re.search(r'name="y"[^>]*>\s*</label>\s*<ul class="errorlist"><li>&#x27;blue-1&#x27; overlaps', html)
    assert 'value="8.5"' in html  # the values tried stay in the form
    r = place(client, f"{EDITOR}?d={d.key}", 1, 1, "blue", d=d.key)
    assert r.status_code == 422 and "not wholly on the board" in r.content.decode()


@pytest.mark.django_db
def test_htmx_edits_answer_with_the_fragment_and_the_address(client):
    r = client.post(EDITOR, {"action": "board-place", "x": 24, "y": 8, "place_side": "red"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and r["HX-Push-Url"].startswith("/en/checker/t9a/?d=")
    html = r.content.decode()
    assert html.lstrip().startswith('<div id="editor"') and "<html" not in html and 'data-unit="red-1"' in html
    d = draft_of(r)
    for degrees, facing in ((15, 15), (-90, 285)):
        r = client.post(EDITOR, {"action": "board-rotate", "d": d.key, "sel": "red-1", "degrees": degrees},
                        HTTP_HX_REQUEST="true")
        d = draft_of(r)
        assert d.data["units"][0]["facing"] == facing
    r = client.post(EDITOR, {"action": "board-size", "d": d.key, "width": 60, "depth": 44}, HTTP_HX_REQUEST="true")
    d = draft_of(r)
    assert d.data["board"] == {"width": 60, "depth": 44}
    r = client.post(EDITOR, {"action": "board-unit", "d": d.key, "sel": "red-1", "bu-id": "knights", "bu-name": "K",
                             "bu-side": "red", "bu-x": 24, "bu-y": 8, "bu-facing": 0, "bu-width": 5, "bu-depth": 2,
                             "bu-advance_rate": "5", "bu-missile_weapons": "yes", "bu-state": ["stood-and-shot"]},
                    HTTP_HX_REQUEST="true")
    d = draft_of(r)
    assert "sel=knights" in r["HX-Push-Url"] and d.data["units"][0]["missile_weapons"] is True
    r = client.post(EDITOR, {"action": "board-remove", "d": d.key, "sel": "knights"}, HTTP_HX_REQUEST="true")
    assert draft_of(r).data["units"] == []


@pytest.mark.django_db
def test_unit_form_problems_are_shown_at_their_fields(client):
    r = place(client, EDITOR, 24, 8, "red")
    r = place(client, r["Location"], 24, 30, "blue")
    d = draft_of(r)
    r = client.post(EDITOR, {"action": "board-unit", "d": d.key, "sel": "blue-1", "bu-id": "blue-1", "bu-side": "blue",
                             "bu-x": 24, "bu-y": 30, "bu-facing": 0, "bu-width": 5, "bu-depth": 2,
                             "bu-advance_rate": "fast"})
    assert r.status_code == 422
    assert re.search(r'name="bu-advance_rate"[^>]*>\s*(<small>[^<]*</small>)?\s*<ul class="errorlist"', r.content.decode())
    r = client.post(EDITOR, {"action": "board-unit", "d": d.key, "sel": "blue-1", "bu-id": "blue-1", "bu-side": "blue",
                             "bu-x": 44, "bu-y": 30, "bu-facing": 0, "bu-width": 10, "bu-depth": 2,
                             "bu-advance_rate": "4"})
    assert r.status_code == 422
    assert re.search(r'name="bu-x"[^>]*><ul class="errorlist"[^>]*><li>[^<]*(overlaps|not wholly)', r.content.decode())
    # wider than the scenario format allows: the engine's limit is said at the width
    r = client.post(EDITOR, {"action": "board-unit", "d": d.key, "sel": "blue-1", "bu-id": "blue-1", "bu-side": "blue",
                             "bu-x": 24, "bu-y": 30, "bu-facing": 0, "bu-width": 50, "bu-depth": 2,
                             "bu-advance_rate": "4"})
    assert r.status_code == 422
    assert re.search(r'name="bu-width"[^>]*><ul class="errorlist"[^>]*><li>[^<]*most allowed', r.content.decode())


@pytest.mark.django_db
def test_hex_and_board_actions_do_not_mix(client):
    assert client.post(EDITOR, {"action": "click", "at": "0101"}).status_code == 400
    assert client.post("/en/checker/mpbs/", {"action": "board-place", "x": 1, "y": 1}).status_code == 400


@pytest.mark.django_db
def test_bad_numbers_are_said_not_raised(client):
    r = client.post(EDITOR, {"action": "board-place", "x": "abc", "y": 1, "place_side": "red"})
    assert r.status_code == 422 and "is not a number" in r.content.decode()
    r = client.post(EDITOR, {"action": "board-move", "x": 1, "y": 1})
    assert r.status_code == 422 and "Select a unit first" in r.content.decode()


@pytest.mark.django_db
def test_moving_the_first_unit_onto_another_blames_the_one_moved(client):
    r = place(client, EDITOR, 24, 8, "red")
    r = place(client, r["Location"], 24, 30, "blue")
    d = draft_of(r)
    r = client.post(EDITOR, {"action": "board-move", "d": d.key, "sel": "red-1", "x": 24, "y": 29.5, "facing": ""})
    assert r.status_code == 422
    html = r.content.decode()
    # the problem is at the moved unit's x / y (the engine names both units of the overlap), not at blue-1's
    found = re.search(r'name="y"[^>]*>\s*</label>\s*<ul class="errorlist"><li>([^<]*)</li>', html)
    assert found and "overlaps" in found.group(1) and "red-1" in found.group(1) and "blue-1" in found.group(1)


@pytest.mark.django_db
def test_numbers_in_the_russian_page_stay_numbers(client):
    r = client.post("/ru/checker/t9a/", {"action": "board-place", "x": "24.5", "y": "8,25", "place_side": "red"})
    html = client.get(r["Location"]).content.decode()
    assert 'name="x" step="any" value="24.5"' in html and 'name="y" step="any" value="8.25"' in html
    assert 'name="bu-x" value="24.5"' in html


@pytest.mark.django_db
def test_empty_place_fields_take_the_defaults(client):
    r = client.post(EDITOR, {"action": "board-place", "x": 24, "y": 8, "place_side": "red", "place_width": "",
                             "place_depth": "", "place_ar": " ", "place_missile": ""})
    assert r.status_code == 303
    assert draft_of(r).data["units"][0] == {"id": "red-1", "side": "red", "centre": [24, 8], "facing": 0, "width": 5,
                                            "depth": 2, "advance_rate": 5}


@pytest.mark.django_db
@pytest.mark.parametrize("fields", [
    {"action": "board-place", "x": "1e308", "y": "1", "place_side": "red"},
    {"action": "board-place", "x": "inf", "y": "1", "place_side": "red"},
    {"action": "board-place", "x": "3", "y": "3", "place_side": "<b>"},
    {"action": "board-place", "x": "3", "y": "3", "place_side": "red", "place_ar": "fast"},
    {"action": "board-place", "x": "3", "y": "3", "place_side": "red", "place_width": "-1"},
    {"action": "board-rotate", "sel": "red-1", "degrees": "1e400"},
    {"action": "board-rotate", "sel": "red-1", "degrees": ""},
    {"action": "board-move", "sel": "red-1", "x": "", "y": "2"},
    {"action": "board-size", "width": "2000", "depth": "10"},
    {"action": "board-unit", "sel": "red-1"},
    {"action": "board-remove", "sel": "ghost"},
])
def test_odd_board_edits_are_refused_never_a_500(client, fields):
    r = place(client, EDITOR, 24, 8, "red")
    d = draft_of(r)
    r = client.post(EDITOR, {"d": d.key, **fields})
    assert r.status_code == 422, r.status_code


# --- terrain, declared charges and the pursuit: edits ----------------------------------------------------------


XSS = '<img src=x onerror=alert(1)><script>alert(2)</script>'


def test_rectangle_is_turned_clockwise_about_its_centre():
    assert boardedit.rectangle(10, 20, 6, 4) == [[7, 22], [13, 22], [13, 18], [7, 18]]
    turned = boardedit.rectangle(10, 20, 6, 4, 90)
    assert sorted(map(tuple, turned)) == [(8, 17), (8, 23), (12, 17), (12, 23)]
    with pytest.raises(EditError):
        boardedit.rectangle(10, 20, 0, 4)
    with pytest.raises(EditError):
        boardedit.rectangle("x", 20, 6, 4)


def test_add_terrain_keeps_ids_unique_and_does_not_change_its_input():
    data, _, _ = two_units()
    out, first = boardedit.add_terrain(data, boardedit.rectangle(10, 20, 6, 4), "Wood", obscuring=True)
    out, second = boardedit.add_terrain(out, boardedit.rectangle(38, 20, 4, 4), "", impassable=True)
    assert "terrain" not in data
    assert (first, second) == ("terrain-1", "terrain-2")
    assert out["terrain"][0] == {"id": "terrain-1", "name": "Wood", "obscuring": True,
                                 "polygon": [[7, 22], [13, 22], [13, 18], [7, 18]]}
    assert out["terrain"][1]["impassable"] is True and "name" not in out["terrain"][1]
    assert validate("t9a", out) == []
    removed = boardedit.remove_terrain(out, first)
    assert [t["id"] for t in removed["terrain"]] == [second] and len(out["terrain"]) == 2
    assert "terrain" not in boardedit.remove_terrain(removed, second)
    assert boardedit.new_terrain_id(removed) == "terrain-1"
    with pytest.raises(EditError):
        boardedit.remove_terrain(out, "ghost")


def test_impassable_terrain_under_a_unit_is_the_engines_problem():
    data, _, _ = two_units()
    out, _ = boardedit.add_terrain(data, boardedit.rectangle(24, 8, 6, 4), impassable=True)
    assert [p for p, m in validate("t9a", out)] == ["units[0].centre"]


@pytest.mark.parametrize("text, points", [
    ("0, 0\n10, 0\n10, 5", [[0, 0], [10, 0], [10, 5]]),
    ("0 0\n10 0\n10 5\n0 0\n", [[0, 0], [10, 0], [10, 5]]),  # closed rings lose the repeated corner
    ("1,5 2,5\n3.5; 4\n\n6,7", [[1.5, 2.5], [3.5, 4], [6, 7]]),
])
def test_parse_polygon(text, points):
    assert boardedit.parse_polygon(text) == points
    assert boardedit.parse_polygon(boardedit.polygon_text(points)) == points


@pytest.mark.parametrize("text", ["", "0, 0\n1, 1", "0, 0\n1, x\n2, 2", "0, 0, 0\n1, 1\n2, 0", "1e999, 0\n1, 1\n2, 0"])
def test_parse_polygon_refuses(text):
    with pytest.raises(EditError):
        boardedit.parse_polygon(text)


def terrain_form(post):
    return boardforms.TerrainForm({f"te-{k}": v for k, v in post.items()}, prefix="te")


def test_terrain_form_edits_name_flags_corners_and_id():
    data, _, _ = two_units()
    data, tid = boardedit.add_terrain(data, boardedit.rectangle(10, 20, 6, 4), "Wood", obscuring=True)
    form = terrain_form({"id": "hill", "name": "Hill", "impassable": "on", "polygon": "5, 15\n15, 15\n10, 25"})
    assert form.is_valid(), form.errors
    out, new_id = form.apply(data, tid)
    assert new_id == "hill" and data["terrain"][0]["id"] == tid
    assert out["terrain"] == [{"id": "hill", "name": "Hill", "impassable": True,
                               "polygon": [[5, 15], [15, 15], [10, 25]]}]
    assert validate("t9a", out) == []
    # a self-crossing outline is the engine's problem at the polygon
    form = terrain_form({"id": tid, "polygon": "0, 0\n10, 10\n10, 0\n0, 10"})
    assert form.is_valid()
    out, _ = form.apply(data, tid)
    assert validate("t9a", out)[0][0] == "terrain[0].polygon"


def test_terrain_form_refuses_bad_ids_short_polygons_and_a_taken_id():
    data, _, _ = two_units()
    data, first = boardedit.add_terrain(data, boardedit.rectangle(10, 20, 6, 4))
    data, second = boardedit.add_terrain(data, boardedit.rectangle(38, 20, 6, 4))
    form = terrain_form({"id": "<b>", "polygon": "0, 0\n1, 1"})
    assert not form.is_valid() and set(form.errors) == {"id", "polygon"}
    form = terrain_form({"id": second, "polygon": "0, 0\n1, 0\n1, 1"})
    assert form.is_valid()
    with pytest.raises(EditError):
        form.apply(data, first)
    assert "id" in form.errors


def test_declared_charges_add_move_remove_in_order():
    data, red, blue = two_units()
    data, red2 = boardedit.place_unit(data, 10, 8, "red")
    one = boardedit.add_charge(data, red, blue)
    two = boardedit.add_charge(one, red2, blue)
    assert "declared_charges" not in data and len(one["declared_charges"]) == 1
    assert [c["charger"] for c in two["declared_charges"]] == [red, red2] and validate("t9a", two) == []
    up = boardedit.move_charge(two, 1, -1)
    assert [c["charger"] for c in up["declared_charges"]] == [red2, red]
    assert boardedit.move_charge(two, 0, -1) == two  # the first stays first
    assert [c["charger"] for c in boardedit.move_charge(two, "0", "1")["declared_charges"]] == [red2, red]
    assert [c["charger"] for c in two["declared_charges"]] == [red, red2]
    less = boardedit.remove_charge(two, 0)
    assert less["declared_charges"] == [{"charger": red2, "target": blue}]
    assert "declared_charges" not in boardedit.remove_charge(less, 0)


@pytest.mark.parametrize("charger, target", [("ghost", "blue-1"), ("red-1", "ghost"), ("red-1", "red-1")])
def test_add_charge_refuses_unknown_units_and_itself(charger, target):
    data, _, _ = two_units()
    with pytest.raises(EditError):
        boardedit.add_charge(data, charger, target)


def test_a_charge_on_the_same_side_or_declared_twice_is_the_engines_problem():
    data, red, blue = two_units()
    data, red2 = boardedit.place_unit(data, 10, 8, "red")
    assert validate("t9a", boardedit.add_charge(data, red, red2)) == [
        ("declared_charges[0].target", "'red-2' is on the same side as 'red-1'")]
    twice = boardedit.add_charge(boardedit.add_charge(data, red, blue), red, blue)
    assert validate("t9a", twice)[0][0] == "declared_charges[1].charger"


@pytest.mark.parametrize("index", ["", "x", "5", "-1", None])
def test_list_edits_refuse_an_index_not_in_the_list(index):
    data, red, blue = two_units()
    data = boardedit.add_charge(data, red, blue)
    with pytest.raises(EditError):
        boardedit.remove_charge(data, index)
    with pytest.raises(EditError):
        boardedit.move_charge(data, index, 1)


@pytest.mark.parametrize("text, roll", [("8", 8), (" 3 5 ", [3, 5]), ("3+5", [3, 5]), ("6,6", [6, 6]), ("", None)])
def test_parse_roll(text, roll):
    assert boardedit.parse_roll(text) == roll


@pytest.mark.parametrize("text", ["1", "13", "0 5", "7 1", "1 2 3", "two", "-3"])
def test_parse_roll_refuses(text):
    with pytest.raises(EditError):
        boardedit.parse_roll(text)


def test_parse_roll_required():
    with pytest.raises(EditError):
        boardedit.parse_roll(" ", required=True)


def pursuit_position():
    data, red, blue = two_units()
    data, blue2 = boardedit.place_unit(data, 10, 30, "blue")
    data, red2 = boardedit.place_unit(data, 10, 8, "red")
    return data, red, blue, red2, blue2


def test_pursuit_is_built_entry_by_entry_and_inputs_are_not_changed():
    data, red, blue, red2, blue2 = pursuit_position()
    fled = boardedit.add_fled(data, blue, "4 3")
    assert "pursuit" not in data
    assert fled["pursuit"] == {"fled": [{"unit": blue, "roll": [4, 3]}], "pursuers": []}
    fled2 = boardedit.add_fled(fled, blue2, "", destroyed=True)
    assert fled2["pursuit"]["fled"][1] == {"unit": blue2, "destroyed": True} and len(fled["pursuit"]["fled"]) == 1
    one = boardedit.add_pursuer(fled2, red, blue, "8")
    two = boardedit.add_pursuer(one, red2, blue2, "2 2")
    assert two["pursuit"]["pursuers"] == [{"unit": red, "pursues": blue, "roll": 8},
                                          {"unit": red2, "pursues": blue2, "roll": [2, 2]}]
    assert len(one["pursuit"]["pursuers"]) == 1 and validate("t9a", two) == []
    swapped = boardedit.move_pursuer(two, 1, -1)
    assert [p["unit"] for p in swapped["pursuit"]["pursuers"]] == [red2, red]
    melee = boardedit.set_melee(two, [red2, red2])
    assert melee["pursuit"]["melee"] == [red2] and "melee" not in two["pursuit"]
    assert "melee" not in boardedit.set_melee(melee, [])["pursuit"]
    assert [p["unit"] for p in boardedit.remove_pursuer(two, 0)["pursuit"]["pursuers"]] == [red2]
    # a fled unit goes with the pursuers that chased it; the last one takes the pursuit with it
    less = boardedit.remove_fled(two, 0)
    assert less["pursuit"]["fled"] == [{"unit": blue2, "destroyed": True}]
    assert [p["unit"] for p in less["pursuit"]["pursuers"]] == [red2] and validate("t9a", less) == []
    assert "pursuit" not in boardedit.remove_fled(less, 0)
    assert "pursuit" not in boardedit.clear_pursuit(two) and "pursuit" in two


def test_pursuit_edits_refuse_what_makes_no_sense():
    data, red, blue, _, blue2 = pursuit_position()
    with pytest.raises(EditError):
        boardedit.add_fled(data, "ghost")
    with pytest.raises(EditError):
        boardedit.add_pursuer(data, red, blue, 8)  # nobody fled yet
    with pytest.raises(EditError):
        boardedit.set_melee(data, [red])
    with pytest.raises(EditError):
        boardedit.clear_pursuit(data)
    fled = boardedit.add_fled(data, blue)
    with pytest.raises(EditError):
        boardedit.add_fled(fled, blue)
    with pytest.raises(EditError):
        boardedit.add_pursuer(fled, red, blue, "")
    with pytest.raises(EditError):
        boardedit.add_pursuer(fled, red, blue, "13")
    with pytest.raises(EditError):
        boardedit.set_melee(fled, [red, "ghost"])
    # the same side, a fled unit that pursues, a second pursuit by the same unit: the engine's problems
    assert validate("t9a", boardedit.add_pursuer(fled, blue2, blue, 8))[0][0] == "pursuit.pursuers[0].pursues"
    assert validate("t9a", boardedit.add_pursuer(fled, blue, blue, 8))[0][0].startswith("pursuit.pursuers[0]")


def test_removing_or_renaming_a_unit_follows_it_through_charges_and_pursuit():
    data, red, blue, red2, blue2 = pursuit_position()
    data = boardedit.add_charge(data, red2, blue2)
    data = boardedit.add_pursuer(boardedit.add_fled(data, blue, 5), red, blue, 8)
    data = boardedit.set_melee(data, [red2])
    form = unit_form(data, red, id="knights")
    assert form.is_valid()
    renamed, _ = form.apply(data, red)
    assert renamed["pursuit"]["pursuers"][0]["unit"] == "knights" and validate("t9a", renamed) == []
    gone = boardedit.remove_unit(data, blue)
    assert "pursuit" not in gone and validate("t9a", gone) == []
    gone = boardedit.remove_unit(data, red2)
    assert "declared_charges" in gone and gone["declared_charges"] == [] and gone["pursuit"]["melee"] == []
    assert validate("t9a", gone) == []


# --- terrain, declared charges and the pursuit: views ---------------------------------------------------------


def two_unit_draft(client):
    r = place(client, EDITOR, 24, 8, "red")
    r = place(client, r["Location"], 24, 30, "blue")
    return draft_of(r)


def post(client, d, **fields):
    return client.post(EDITOR, {"d": d.key, **fields})


def add_terrain(client, d, **fields):
    values = {"nt-name": "Wood", "nt-x": 10, "nt-y": 20, "nt-width": 6, "nt-depth": 4, "nt-rotation": 0, **fields}
    return post(client, d, action="board-terrain-add", **values)


@pytest.mark.django_db
def test_terrain_is_added_selected_edited_and_removed(client):
    d = two_unit_draft(client)
    r = add_terrain(client, d, **{"nt-obscuring": "on"})
    assert r.status_code == 303 and "terrain=terrain-1" in r["Location"] and "sel=" not in r["Location"]
    d1 = draft_of(r)
    assert d1.parent_id == d.pk
    assert d1.data["terrain"] == [{"id": "terrain-1", "name": "Wood", "obscuring": True,
                                   "polygon": [[7, 22], [13, 22], [13, 18], [7, 18]]}]
    html = client.get(r["Location"]).content.decode()
    assert 'data-terrain="terrain-1"' in html and 'class="bterrain sel"' in html and 'id="terrain-h"' in html
    assert 'name="te-polygon"' in html and "7, 22\n13, 22" in html
    r = post(client, d1, terrain="terrain-1", action="board-terrain", **{
        "te-id": "hill", "te-name": "Hill", "te-impassable": "on", "te-polygon": "5, 15\n15, 15\n10, 25"})
    d2 = draft_of(r)
    assert "terrain=hill" in r["Location"]
    assert d2.data["terrain"] == [{"id": "hill", "name": "Hill", "impassable": True,
                                   "polygon": [[5, 15], [15, 15], [10, 25]]}]
    r = post(client, d2, terrain="hill", action="board-terrain-remove")
    assert "terrain" not in draft_of(r).data and "terrain=" not in r["Location"]


@pytest.mark.django_db
def test_terrain_added_by_a_click_with_the_place_terrain_tool(client):
    d = two_unit_draft(client)
    page = client.get(f"{EDITOR}?d={d.key}&tool=place-terrain").content.decode()
    assert 'id="terrain-add"' in page and 'data-board="x"' in page and 'data-tool="place-terrain"' in page
    r = client.post(EDITOR, {"d": d.key, "tool": "place-terrain", "action": "board-terrain-add", "nt-x": 40,
                             "nt-y": 20, "nt-width": 6, "nt-depth": 4, "nt-rotation": ""}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "tool=place-terrain" in r["HX-Push-Url"]
    assert draft_of(r).data["terrain"][0]["polygon"] == [[37, 22], [43, 22], [43, 18], [37, 18]]
    assert 'data-terrain="terrain-1"' in r.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("fields, field, text", [
    ({"nt-x": "abc"}, "nt-x", "Enter a number"),
    ({"nt-width": "0"}, "nt-width", "greater than or equal to 0.1"),
    ({"nt-x": "24", "nt-y": "8", "nt-impassable": "on"}, None, "stands in impassable terrain"),
])
def test_refused_new_terrain_keeps_the_state_and_says_why_at_the_form(client, fields, field, text):
    d = two_unit_draft(client)
    before = Draft.objects.count()
    r = add_terrain(client, d, **fields)
    assert r.status_code == 422 and Draft.objects.count() == before
    html = r.content.decode()
    form = html[html.index('id="terrain-add"'):]
    form = form[:form.index("</form>")]
    assert text in form
    if field:
        assert re.search(rf'name="{field}"[^>]*>\s*<ul class="errorlist"', form)
    r = client.post(EDITOR, {"d": d.key, "action": "board-terrain-add", "nt-x": 10, "nt-y": 20, "nt-width": 6,
                             "nt-depth": 4, **fields}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "HX-Push-Url" not in r and text in r.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("polygon, text", [
    ("0, 0\n1, 1", "at least 3 corners"),
    ("0, 0\n1, x\n2, 2", "is not a number"),
    ("10, 10\n20, 20\n20, 10\n10, 20", "not a simple polygon"),
])
def test_refused_terrain_edit_keeps_the_state_and_says_why_at_the_corners(client, polygon, text):
    d = two_unit_draft(client)
    d1 = draft_of(add_terrain(client, d))
    before = Draft.objects.count()
    r = post(client, d1, terrain="terrain-1", action="board-terrain",
             **{"te-id": "terrain-1", "te-polygon": polygon})
    assert r.status_code == 422 and Draft.objects.count() == before
    assert re.search(r'name="te-polygon"[^>]*>[^<]*</textarea>\s*<small>[^<]*</small>\s*<ul class="errorlist"[^>]*><li>'
                     r'[^<]*' + re.escape(text), r.content.decode())


@pytest.mark.django_db
def test_declared_charges_are_added_listed_reordered_and_removed(client):
    d = two_unit_draft(client)
    d = draft_of(place(client, f"{EDITOR}?d={d.key}", 10, 8, "red", d=d.key))
    r = post(client, d, action="board-charge-add", panel="charges", **{"ch-charger": "red-1", "ch-target": "blue-1"})
    assert r.status_code == 303 and "panel=charges" in r["Location"]
    d1 = draft_of(r)
    r = post(client, d1, action="board-charge-add", panel="charges", **{"ch-charger": "red-2", "ch-target": "blue-1"})
    d2 = draft_of(r)
    assert [c["charger"] for c in d2.data["declared_charges"]] == ["red-1", "red-2"]
    html = client.get(r["Location"]).content.decode()
    assert re.search(r'<ol class="entries charge-list"><li><span class="entry">red-1 \(red\) → blue-1 \(blue\)', html)
    assert 'class="charge-line"' in html  # drawn on the board, numbered
    r = post(client, d2, action="board-charge-move", panel="charges", index=1, step=-1)
    d3 = draft_of(r)
    assert [c["charger"] for c in d3.data["declared_charges"]] == ["red-2", "red-1"]
    r = post(client, d3, action="board-charge-remove", panel="charges", index=0)
    assert draft_of(r).data["declared_charges"] == [{"charger": "red-1", "target": "blue-1"}]


@pytest.mark.django_db
@pytest.mark.parametrize("fields, field, text", [
    ({"ch-charger": "red-1", "ch-target": "red-2"}, "ch-target", "on the same side as"),
    ({"ch-charger": "red-1", "ch-target": "ghost"}, "ch-target", "Select a valid choice"),
    ({"ch-charger": "red-1", "ch-target": "red-1"}, "ch-target", "cannot charge itself"),
    ({"ch-charger": "red-1"}, "ch-target", "This field is required"),
])
def test_refused_charge_is_shown_next_to_the_form(client, fields, field, text):
    d = two_unit_draft(client)
    d = draft_of(place(client, f"{EDITOR}?d={d.key}", 10, 8, "red", d=d.key))
    before = Draft.objects.count()
    r = post(client, d, action="board-charge-add", **fields)
    assert r.status_code == 422 and Draft.objects.count() == before
    html = r.content.decode()
    assert re.search(rf'name="{field}"[^>]*>.*?</select>\s*<ul class="errorlist"[^>]*><li>[^<]*{text}', html, re.DOTALL)


@pytest.mark.django_db
def test_pursuit_is_set_up_through_the_panel(client):
    d = two_unit_draft(client)
    d = draft_of(place(client, f"{EDITOR}?d={d.key}", 10, 8, "red", d=d.key))
    page = client.get(f"{EDITOR}?d={d.key}&panel=pursuit").content.decode()
    assert 'name="fl-unit"' in page and 'name="pu-unit"' not in page  # no pursuer before someone fled
    r = post(client, d, action="board-fled-add", panel="pursuit", **{"fl-unit": "blue-1", "fl-roll": "4 3"})
    d = draft_of(r)
    r = post(client, d, action="board-pursuer-add", panel="pursuit",
             **{"pu-unit": "red-1", "pu-pursues": "blue-1", "pu-roll": "8"})
    d = draft_of(r)
    r = post(client, d, action="board-pursuer-add", panel="pursuit",
             **{"pu-unit": "red-2", "pu-pursues": "blue-1", "pu-roll": "3 3"})
    d = draft_of(r)
    r = post(client, d, action="board-pursuer-move", panel="pursuit", index=1, step=-1)
    d = draft_of(r)
    assert d.data["pursuit"] == {"fled": [{"unit": "blue-1", "roll": [4, 3]}],
                                 "pursuers": [{"unit": "red-2", "pursues": "blue-1", "roll": [3, 3]},
                                              {"unit": "red-1", "pursues": "blue-1", "roll": 8}]}
    html = client.get(r["Location"]).content.decode()
    assert "blue-1 (blue), roll 4 + 3 = 7" in html and "red-2 (red) → blue-1 (blue), roll 3 + 3 = 6" in html
    r = post(client, d, action="board-pursuit-remove", panel="pursuit", what="pursuer", index=0)
    d = draft_of(r)
    assert [p["unit"] for p in d.data["pursuit"]["pursuers"]] == ["red-1"]
    r = post(client, d, action="board-melee", panel="pursuit", **{"me-melee": ["red-2"]})
    d = draft_of(r)
    assert d.data["pursuit"]["melee"] == ["red-2"]
    r = post(client, d, action="board-pursuit-clear", panel="pursuit")
    assert "pursuit" not in draft_of(r).data


@pytest.mark.django_db
@pytest.mark.parametrize("action, fields, name, text", [
    ("board-pursuer-add", {"pu-unit": "red-1", "pu-pursues": "blue-1", "pu-roll": "13"}, "pu-roll", "A roll is"),
    ("board-pursuer-add", {"pu-unit": "red-1", "pu-pursues": "blue-1", "pu-roll": ""}, "pu-roll", "required"),
    ("board-pursuer-add", {"pu-unit": "red-1", "pu-pursues": "red-1", "pu-roll": "8"}, "pu-pursues",
     "Select a valid choice"),
    ("board-fled-add", {"fl-unit": "blue-1"}, "fl-unit", "has already fled"),
    ("board-fled-add", {"fl-unit": "red-1", "fl-roll": "1"}, "fl-roll", "A roll is"),
])
def test_refused_pursuit_edits_are_shown_next_to_the_form(client, action, fields, name, text):
    d = two_unit_draft(client)
    d = draft_of(post(client, d, action="board-fled-add", **{"fl-unit": "blue-1"}))
    before = Draft.objects.count()
    r = post(client, d, action=action, **fields)
    assert r.status_code == 422 and Draft.objects.count() == before
    assert re.search(rf'name="{name}"[^>]*>(.*?</select>)?\s*(<small>[^<]*</small>)?\s*<ul class="errorlist"[^>]*>'
                     rf'<li>[^<]*{text}', r.content.decode(), re.DOTALL)


@pytest.mark.django_db
def test_a_blue_pursuer_of_blue_is_the_engines_problem_at_pursues(client):
    d = two_unit_draft(client)
    d = draft_of(place(client, f"{EDITOR}?d={d.key}", 10, 30, "blue", d=d.key))
    d = draft_of(post(client, d, action="board-fled-add", **{"fl-unit": "blue-1"}))
    r = post(client, d, action="board-pursuer-add", **{"pu-unit": "blue-2", "pu-pursues": "blue-1", "pu-roll": "8"})
    assert r.status_code == 422
    assert re.search(r'name="pu-pursues".*?</select>\s*<ul class="errorlist"[^>]*><li>&#x27;blue-1&#x27; '
                     r'is on the same side', r.content.decode(), re.DOTALL)


@pytest.mark.django_db
@pytest.mark.parametrize("fields", [
    {"action": "board-terrain", "terrain": "ghost", "te-id": "x", "te-polygon": "0,0\n1,0\n1,1"},
    {"action": "board-terrain"},
    {"action": "board-terrain-remove", "terrain": "ghost"},
    {"action": "board-terrain-remove"},
    {"action": "board-terrain-add"},
    {"action": "board-terrain-add", "nt-x": "1e400", "nt-y": "1", "nt-width": "1", "nt-depth": "1"},
    {"action": "board-terrain-add", "nt-x": "1e300", "nt-y": "1", "nt-width": "1", "nt-depth": "1"},
    {"action": "board-terrain-add", "nt-x": "5", "nt-y": "5", "nt-width": "1", "nt-depth": "1", "nt-rotation": "nan"},
    {"action": "board-charge-add", "ch-charger": ["red-1", "blue-1"], "ch-target": "x" * 5000},
    {"action": "board-charge-remove", "index": "0"},
    {"action": "board-charge-remove", "index": "nope"},
    {"action": "board-charge-move", "index": "-5", "step": "-1"},
    {"action": "board-fled-add", "fl-unit": "<script>"},
    {"action": "board-pursuer-add", "pu-unit": "red-1", "pu-pursues": "blue-1", "pu-roll": "8"},
    {"action": "board-melee", "me-melee": ["red-1"]},
    {"action": "board-pursuit-remove", "what": "fled", "index": "0"},
    {"action": "board-pursuit-remove", "what": "<b>", "index": "0"},
    {"action": "board-pursuer-move", "index": "0", "step": "1"},
    {"action": "board-pursuit-clear"},
])
def test_odd_scenario_edits_are_refused_never_a_500(client, fields):
    d = two_unit_draft(client)
    before = Draft.objects.count()
    r = client.post(EDITOR, {"d": d.key, **fields})
    assert r.status_code == 422, r.status_code
    assert Draft.objects.count() == before and 'role="status" aria-live="polite"></p>' not in r.content.decode()


@pytest.mark.django_db
def test_terrain_and_unit_names_are_escaped_in_the_page_and_the_board(client):
    d = two_unit_draft(client)
    r = add_terrain(client, d, **{"nt-name": XSS})
    d = draft_of(r)
    r = post(client, d, action="board-charge-add", panel="charges", **{"ch-charger": "red-1", "ch-target": "blue-1"})
    d = draft_of(r)
    r = client.post(EDITOR, {"action": "board-unit", "d": d.key, "sel": "blue-1", "bu-id": "blue-1", "bu-name": XSS,
                             "bu-side": "blue", "bu-x": 24, "bu-y": 30, "bu-facing": 180, "bu-width": 5, "bu-depth": 2,
                             "bu-advance_rate": "4"})
    d = draft_of(r)
    assert d.data["terrain"][0]["name"] == XSS
    for query in ("&terrain=terrain-1&panel=terrain", "&panel=charges", "&panel=pursuit"):
        html = client.get(f"{EDITOR}?d={d.key}{query}").content.decode()
        assert "<img src=x" not in html and "<script>alert" not in html
        assert "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;" in html
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert 'aria-label="Terrain piece &lt;img src=x onerror=alert(1)&gt;' in svg
    assert "<title>&lt;img src=x" in svg and "<img" not in svg and "<script" not in svg


@pytest.mark.django_db
@pytest.mark.parametrize("choice, stored, listed", [("", None, None), ("yes", True, "destroyed"), ("no", False, "escaped")])
def test_a_fled_unit_is_caught_escaped_or_left_to_the_rolls(client, choice, stored, listed):
    """The three states the format has: ``destroyed`` true, false, or absent (the pursuit rolls decide)."""
    d = two_unit_draft(client)
    d = draft_of(post(client, d, action="board-fled-add", panel="pursuit",
                      **{"fl-unit": "blue-1", "fl-roll": "7", "fl-destroyed": choice}))
    assert d.data["pursuit"]["fled"][0].get("destroyed") == stored
    page = client.get(f"{EDITOR}?d={d.key}&panel=pursuit").content.decode()
    entry = re.search(r'<ul class="entries fled-list"><li><span class="entry">([^<]*)</span>', page).group(1)
    assert entry.endswith(f", {listed}") if listed else "destroyed" not in entry and "escaped" not in entry


def test_set_roll_changes_one_entry_in_place_and_keeps_the_order():
    data, red, blue = two_units()
    data = boardedit.add_fled(data, blue, "7")
    data = boardedit.add_pursuer(data, red, blue, "8")
    before = copy.deepcopy(data)
    changed = boardedit.set_roll(data, "pursuer", 0, "3 5")
    assert changed["pursuit"]["pursuers"] == [{"unit": red, "pursues": blue, "roll": [3, 5]}] and data == before
    assert "roll" not in boardedit.set_roll(data, "fled", 0, "")["pursuit"]["fled"][0]  # a flee roll may be unknown
    with pytest.raises(EditError):
        boardedit.set_roll(data, "pursuer", 0, "")  # a pursuer's may not
    with pytest.raises(EditError):
        boardedit.set_roll(data, "pursuer", 0, "13")
    with pytest.raises(EditError):
        boardedit.set_roll(data, "pursuer", 5, "8")


@pytest.mark.django_db
def test_a_roll_is_edited_in_its_list_entry(client):
    d = two_unit_draft(client)
    d = draft_of(post(client, d, action="board-fled-add", panel="pursuit", **{"fl-unit": "blue-1", "fl-roll": "7"}))
    d = draft_of(post(client, d, action="board-pursuer-add", panel="pursuit",
                      **{"pu-unit": "red-1", "pu-pursues": "blue-1", "pu-roll": "8"}))
    page = client.get(f"{EDITOR}?d={d.key}&panel=pursuit").content.decode()
    assert page.count('name="action" value="board-roll"') == 2 and 'name="roll" value="8"' in page
    d = draft_of(post(client, d, action="board-roll", panel="pursuit", what="pursuer", index=0, roll="6 6"))
    assert d.data["pursuit"]["pursuers"][0]["roll"] == [6, 6]
    before = Draft.objects.count()
    r = post(client, d, action="board-roll", panel="pursuit", what="pursuer", index=0, roll="1")
    assert r.status_code == 422 and Draft.objects.count() == before and "A roll is" in r.content.decode()
