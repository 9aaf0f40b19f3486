"""What a new player meets first in the checker (#30 points 3, 4, 5 and 11), without a browser: answers that say
where and which in words, question and form defaults that start from the position, the reactions to a charge
already declared, a pursuit with nobody pursuing, and no code names where a player reads."""
from __future__ import annotations

import re
from html import unescape

import pytest

from rulesref.checker.models import Draft
from rulesref.checker.tabletop import edits as boardedit

pytestmark = pytest.mark.django_db


def text_of(html: str, start: str, end: str) -> str:
    """The visible words of the page between two markers, tags dropped and spaces folded."""
    part = html[html.index(start):html.index(end, html.index(start))]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", part)).split())


def verdict_bar(html: str) -> str:
    return text_of(html, 'class="verdict-bar', "</div>")


def t9a_position(*, charges=(), pursuit=None) -> Draft:
    data = boardedit.blank()
    data, _ = boardedit.place_unit(data, 24, 14, "red", advance_rate=5)  # facing blue-1, 14″ from it
    data, _ = boardedit.place_unit(data, 24, 30, "blue", advance_rate=4, missile_weapons=True)
    data, _ = boardedit.place_unit(data, 40, 30, "blue", advance_rate=4)
    for charger, target in charges:
        data = boardedit.add_charge(data, charger, target)
    if pursuit is not None:
        data["pursuit"] = pursuit
    return Draft.make("t9a", data, None)


# --- #30 point 4: where must this unit retreat? -----------------------------------------------------------------

RETREAT = "/{lang}/checker/mpbs/examples/retreat/?q=retreat&p-unit=R-A&p-result=broken&p-fought=B-A"


@pytest.mark.parametrize("lang, verdict, said", [
    ("en", "retreat", "R-A retreats 2 hexes toward the north edge: to 0204 by 0305, or to 0304 by 0305 "
                      "(the owning player chooses)."),
    ("ru", "отступление", "R-A отступает на 2 гекса к северному краю карты: в 0204 через 0305 или в 0304 через 0305 "
                          "(выбирает владелец)."),
])
def test_the_retreat_answer_says_where_in_words(client, lang, verdict, said):
    """It answered «да» / "yes", the hexes only on the map."""
    html = client.get(RETREAT.format(lang=lang)).content.decode()
    bar = verdict_bar(html)
    assert f" {verdict} " in f" {bar} " and said in bar
    assert re.search(rf'<h3 id="answer-h">[^<]*<span class="verdict">{verdict}</span></h3>\s*'
                     rf'<p class="headline">{re.escape(said)}</p>', html)
    assert ">yes<" not in html and ">да<" not in html


def test_a_retreat_off_the_map_or_short_of_it_is_said_too():
    from rulesref.checker.hex.answers import retreat_words

    label, said = retreat_words({"unit": "B-G", "outcome": "retreat-or-eliminated", "distance": 2, "edge": "south",
                                 "destinations": [{"hexes": ["0504"], "path": [["0505"], ["0504"]]},
                                                  {"hexes": [], "path": [["0505"], ["off-map"]], "off_map": True}]})
    assert str(label) == "retreat or elimination"
    assert said == ("B-G retreats 2 hexes toward the south edge: to 0504 by 0505, or off the map (the unit is "
                    "eliminated) (the owning player chooses).")
    label, said = retreat_words({"unit": "R-D", "outcome": "unable-to-retreat", "distance": 2, "retreated": 1,
                                 "destinations": [{"hexes": ["0309"], "path": [["0309"]]}]})
    assert (str(label), said) == ("unable to retreat", "R-D can retreat only 1 hex of 2. It retreats to 0309.")


def test_the_unit_that_retreats_is_not_the_attacker_by_default(client):
    """Its unit defaulted to the unit selected, the attacker moving into the close combat."""
    from rulesref.checker.hex import edits as hexedit

    data = hexedit.blank("mpbs")
    data, red = hexedit.place_unit(data, "0305", "red", "heavy-infantry")
    data, blue = hexedit.place_unit(data, "0306", "blue", "heavy-infantry")
    data = hexedit.set_event(data, red, "move", ["0304"], 1)  # the red unit attacks: it moves into the combat
    draft = Draft.make("mpbs", data, None)
    html = client.get(f"/en/checker/mpbs/?d={draft.key}&sel={red}&q=retreat").content.decode()
    unit = re.search(r'<select name="p-unit" id="f-p-unit">(.*?)</select>', html, re.S).group(1)
    assert "selected" not in unit  # the attacker is not offered as the unit that retreats
    html = client.get(f"/en/checker/mpbs/?d={draft.key}&sel={blue}&q=retreat").content.decode()
    assert re.search(rf'<option value="{blue}" selected>', html)
    assert re.search(rf'<input type="checkbox" name="p-fought" value="{red}" checked>', html)  # it fought the mover
    # a list of boxes to tick is not described as the engine's "comma-separated ids"
    assert "comma-separated" not in html


# --- #30 point 5: the verdict bar, compass points --------------------------------------------------------------

def test_the_verdict_bar_names_a_clause_once(client):
    """ "Stand and Shoot: Stand and Shoot: the scenario does not say…" """
    html = client.get("/en/checker/t9a/examples/reactions-missile-weapons-unknown/", follow=True).content.decode()
    bar = verdict_bar(html)
    assert "Stand and Shoot: Stand and Shoot" not in bar
    assert re.search(r"Stand and Shoot ?: the scenario does not say whether Archers has a Shooting Weapon", bar)


def test_compass_points_are_written_in_the_readers_language(client):
    html = client.get("/ru/checker/mpbs/examples/interception-example-9.3/?sel=CAV-1", follow=True).content.decode()
    facing = re.search(r'<select name="u-facing"[^>]*>(.*?)</select>', html, re.S).group(1)
    labels = re.findall(r">([^<]+)</option>", facing)
    assert set(labels) - {"—"} <= {"С", "СВ", "В", "ЮВ", "Ю", "ЮЗ", "З", "СЗ"} and len(labels) > 2
    assert re.search(r"<title>CAV-1[^<]*ориентация (С|СВ|В|ЮВ|Ю|ЮЗ|З|СЗ),", html)


# --- #30 point 3: the t9a workflow -----------------------------------------------------------------------------

def test_the_reactions_to_a_declared_charge_are_those_open_as_it_is_declared(client):
    """Declaring the charge and then asking which reactions the target may declare answered "no — red-1 has
    already declared a charge against blue-1"."""
    draft = t9a_position(charges=[("red-1", "blue-1")])
    html = client.get(f"/en/checker/t9a/?d={draft.key}&sel=blue-1&q=charge-reactions").content.decode()
    assert "has already declared a charge" not in html
    assert 'class="answer verdict-yes"' in html
    assert "blue-1 may declare Hold, Stand and Shoot or Flee." in verdict_bar(html)
    assert "May this unit declare a charge?" in html  # asking whether red-1 may declare it still says it has
    html = client.get(f"/en/checker/t9a/?d={draft.key}&q=can-charge&p-charger=red-1&p-target=blue-1").content.decode()
    assert "red-1 has already declared a charge against blue-1" in html


def test_the_charge_form_offers_an_enemy_as_the_target(client):
    """The declared-charge form defaulted the target to the charger."""
    draft = t9a_position()
    for sel, charger, target in (("", "red-1", "blue-1"), ("blue-2", "blue-2", "red-1")):
        html = client.get(f"/en/checker/t9a/?d={draft.key}&panel=charges&sel={sel}").content.decode()
        form = html[html.index('class="list-add charge-add"'):]
        assert re.search(rf'name="ch-charger"[^>]*>.*?<option value="{charger}" selected>', form, re.S)
        assert re.search(rf'name="ch-target"[^>]*>.*?<option value="{target}" selected>', form, re.S)


def test_a_pursuit_without_pursuers_is_not_asked(client):
    """An empty pursuit said "0 pursuers move one at a time"."""
    draft = t9a_position(pursuit={"fled": [{"unit": "blue-1", "roll": 7}], "pursuers": []})
    html = client.get(f"/en/checker/t9a/?d={draft.key}&q=pursuit").content.decode()
    assert "0 pursuers" not in html and 'class="answer' not in html
    assert "No unit pursues yet" in html


def test_only_an_enemy_of_a_fled_unit_is_offered_as_a_pursuer(client):
    draft = t9a_position(pursuit={"fled": [{"unit": "blue-1", "roll": 7}], "pursuers": []})
    html = client.get(f"/en/checker/t9a/?d={draft.key}&panel=pursuit").content.decode()
    pursuers = re.search(r'<select name="pu-unit"[^>]*>(.*?)</select>', html, re.S).group(1)
    assert re.findall(r'<option value="([^"]+)"', pursuers) == ["red-1"]


# --- #30 point 11: the gallery ---------------------------------------------------------------------------------

def test_the_gallery_names_each_question_of_an_example_once(client):
    """It repeated "Asks: May the winners advance after combat?" nine times for one example."""
    for lang in ("en", "ru"):
        html = client.get(f"/{lang}/checker/").content.decode()
        for asks in re.findall(r'<p class="asks">[^:<]+:([^<]+)</p>', html):
            questions = [q.strip() for q in asks.split(";")]
            assert len(questions) == len(set(questions)), asks
