"""The odds of a tabletop answer on the checker page: charge, charge after a Flee (with bounds when the corpus
cannot place some Flee rolls) and pursuit, in both languages."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def facts(html: str) -> dict[str, str]:
    return {re.sub(r"\s+", " ", k): re.sub(r"\s+", " ", v) for k, v in
            re.findall(r"<div><dt>(.*?)</dt><dd>(.*?)</dd></div>", html, re.S)}


def test_charge_and_flee_odds_are_shown_exactly_and_as_percentages(client):
    html = client.get("/en/checker/t9a/examples/reactions-all-three/?q=charge-reactions"
                      "&p-charger=knights&p-target=archers").content.decode()
    shown = facts(html)
    assert shown["Distance between the Unit Boundaries"] == "12″"
    assert shown["Chance the charge reaches if the target stays"] == "7/12 (58.3%)"
    assert shown["Chance the charge still reaches if the target Flees"] == "35/1296 (2.7%)"
    assert 'class="flee-at"' in html  # the Flee positions for 2, 7 and 12 inches are drawn


def test_flee_odds_are_bounds_where_the_corpus_cannot_place_the_flee(client):
    html = client.get("/ru/checker/t9a/examples/reactions-flee-towards-board-edge/?q=charge-reactions"
                      "&p-charger=knights&p-target=archers").content.decode()
    shown = facts(html)
    flee = next(v for k, v in shown.items() if "Отступ" in k)
    assert flee.startswith("от 50,2 % до 91,9 %"), flee
    assert 'class="flee-at open-end"' in html


def test_pursuit_catch_odds_are_shown(client):
    html = client.get("/en/checker/t9a/examples/pursuit-full-distance/?q=pursuit").content.decode()
    assert facts(html)["Chance a pursuit roll catches the fleeing unit"] == "721/1296 (55.6%)"
