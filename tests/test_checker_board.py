"""The t9a board editor without a browser: each edit of ``boardedit`` (valid, and refused by the engine with the
problem at its field), and the views' full-page and htmx paths (each edit a new immutable draft)."""
from __future__ import annotations

import re

import pytest

from rulesref.checker import boardedit
from rulesref.checker.hexedit import EditError
from rulesref.checker.models import Draft
from rulesref.checker.views import validate

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
    assert validate("t9a", off) == [("units[2].centre", "the Unit Boundary of 'blue-1' is not wholly on the board")] \
        or validate("t9a", off)[0][0] == "units[2].centre"


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
    initial = boardedit.BoardUnitForm.initial_for(data["units"][boardedit.unit_index(data, uid)])
    initial.update(changes)
    post = {}
    for k, v in initial.items():
        post[f"bu-{k}"] = v
    return boardedit.BoardUnitForm(post, prefix="bu")


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
    r = place(client, EDITOR, 24, 8, "red")
    assert r.status_code == 303 and "sel=red-1" in r["Location"]
    first = draft_of(r)
    r = place(client, r["Location"], 24, 30, "blue", ar=4, missile="yes")
    second = draft_of(r)
    assert second.parent_id == first.pk and len(second.data["units"]) == 2
    page = client.get(r["Location"]).content.decode()
    assert 'data-unit="blue-1"' in page and 'class="arcs"' in page  # the selected unit's arcs
    asked = client.get(f"{EDITOR}?d={second.key}&q=charge-reactions&p-charger=red-1&p-target=blue-1")
    html = asked.content.decode()
    assert "verdict-yes" in html and 'class="flee"' in html and "farther than the Advance Rate" in html
    # move the charger within its Advance Rate through the form, then ask again
    r = client.post(f"{EDITOR}?d={second.key}&sel=red-1", {"action": "board-move", "d": second.key, "sel": "red-1",
                                                          "x": 24, "y": 26, "facing": 0})
    third = draft_of(r)
    assert third.parent_id == second.pk and third.data["units"][0]["centre"] == [24, 26]
    html = client.get(f"{EDITOR}?d={third.key}&q=charge-reactions&p-charger=red-1&p-target=blue-1").content.decode()
    assert "not farther than" in html or "within" in html or "✗" in html


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
                             "bu-x": 24, "bu-y": 30, "bu-facing": 0, "bu-width": 50, "bu-depth": 2,
                             "bu-advance_rate": "4"})
    assert r.status_code == 422
    assert re.search(r'name="bu-x"[^>]*><ul class="errorlist"[^>]*><li>[^<]*(overlaps|not wholly)', r.content.decode())


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
    # the problem is at the moved unit's x / y, naming the other unit by its real index
    assert re.search(r'name="y"[^>]*>\s*</label>\s*<ul class="errorlist"><li>&#x27;red-1&#x27; overlaps '
                     r'&#x27;blue-1&#x27; \(units\[1\]\)', html)


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
