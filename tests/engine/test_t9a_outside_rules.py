"""Rules the t9a engine applies that the corpus does not contain are cited as such, and a scenario may replace
them; where a decision rests on data the scenario lacks, the answer is undetermined and names it (#16)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from rulesref.engine import InvalidScenarioError, ask
from rulesref.engine.ruling import Status, Verdict

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "t9a"


def scenario(name: str) -> dict:
    data = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    data.pop("questions", None)
    return data


# Knights (Advance Rate 7) and Goblins are 20" apart: beyond Advance Rate + 12 (19").
FAR = scenario("charge-out-of-range.json")
CHARGE = {"charger": "knights", "target": "goblins"}


def statuses(ruling, clause: str) -> set[Status]:
    return {f.status for f in ruling.findings if str(f.citation) == clause}


def test_the_charge_range_is_cited_as_a_rule_outside_the_corpus():
    ruling = ask("t9a", "can-charge", FAR, CHARGE)
    assert ruling.verdict is Verdict.NO
    outside = [f for f in ruling.findings if f.citation.outside]
    assert [str(f.citation) for f in outside] == ["t9a:outside:charge-range"]
    assert "2D6" in outside[0].message.render("en") and "2D6" in outside[0].message.render("ru")
    assert ruling.to_dict()["findings"][[f.citation for f in ruling.findings].index(outside[0].citation)][
        "clause"] == "t9a:outside:charge-range"


def test_a_scenario_may_add_a_die_to_the_charge_range():
    three_dice = {**FAR, "rules_outside_corpus": {"charge-range": {"dice": 3}}}
    ruling = ask("t9a", "can-charge", three_dice, CHARGE)
    assert ruling.result["max_charge_range"] == 7 + 18
    assert statuses(ruling, "t9a:declaring-charges") == {Status.PASS}
    odds = ask("t9a", "charge-reactions", three_dice, CHARGE).result["charge_odds"]
    # 20" with Advance Rate 7 needs 13 on 3D6: 56 of 216 outcomes (counted by hand: 13..18 → 21+15+10+6+3+1).
    assert str(odds["chance"]) == "7/27"


def test_an_override_outside_its_bounds_is_refused_at_its_path():
    bad = {**FAR, "rules_outside_corpus": {"charge-range": {"dice": 9}, "pursuit-catches": {"on": "sometimes"}}}
    try:
        ask("t9a", "can-charge", bad, CHARGE)
    except InvalidScenarioError as exc:
        paths = {p for p, _m in exc.problems}
    else:
        raise AssertionError("a charge range of 9D6 was accepted")
    assert "rules_outside_corpus.charge-range.dice" in paths
    assert "rules_outside_corpus.pursuit-catches.on" in paths


def test_charge_reactions_against_a_charge_that_cannot_be_declared_say_so_and_why():
    # XIII "declaring-charges": a charge is declared only on a target within the charger's maximum possible
    # charge range; a unit reacts to a charge declared on it ("charge-reactions"). 20" > 19": nothing to react to.
    ruling = ask("t9a", "charge-reactions", FAR, CHARGE)
    assert ruling.verdict is Verdict.NO
    assert ruling.result["allowed"] == []
    assert statuses(ruling, "t9a:declaring-charges") == {Status.FAIL}
    assert Status.FAIL in statuses(ruling, "t9a:charge-reactions")
    assert any("cannot declare a charge" in f.message.render("en") for f in ruling.findings)
    assert any("не может объявить нападение" in f.message.render("ru") for f in ruling.findings)


# Goblins fled (roll 5 in the example) and Knights pursues with a roll of 8.
CAUGHT = scenario("pursuit-fled-unit-caught.json")


def test_a_fled_unit_with_neither_roll_nor_outcome_is_undetermined_naming_the_roll():
    data = copy.deepcopy(CAUGHT)
    data["pursuit"]["fled"][0].pop("roll")
    data["pursuit"]["fled"][0].pop("destroyed", None)
    ruling = ask("t9a", "pursuit", data, {})
    assert ruling.verdict is Verdict.UNDETERMINED
    unknown = [f for f in ruling.findings if f.status is Status.UNKNOWN]
    # The roll is named in words for the player; the field to fill in is data beside them (#30 item 5).
    named = [f for f in unknown if str(f.citation) == "t9a:outside:pursuit-catches"]
    assert [f.field for f in named] == ["pursuit.fled[0].roll"]
    assert "flee roll" in named[0].message.render("en") and "броска" in named[0].message.render("ru")
    assert "pursuit.fled" not in named[0].message.render("en") + named[0].message.render("ru")
    assert named[0].to_dict("ru", details=True)["field"] == "pursuit.fled[0].roll"


def test_the_catch_on_a_tie_is_a_rule_outside_the_corpus_a_scenario_may_change():
    tie = copy.deepcopy(CAUGHT)
    tie["pursuit"]["fled"][0]["roll"] = 8  # the pursuit roll is 8 too
    tie["pursuit"]["fled"][0].pop("destroyed", None)
    default = ask("t9a", "pursuit", tie, {})
    assert default.result["fled"][0]["destroyed"] is True
    assert statuses(default, "t9a:outside:pursuit-catches") == {Status.PASS}
    strict = ask("t9a", "pursuit", {**tie, "rules_outside_corpus": {"pursuit-catches": {"on": "higher"}}}, {})
    assert strict.result["fled"][0]["destroyed"] is False
    assert str(strict.result["catch_odds"]) == "575/1296"  # P(2D6 > 2D6) = (1296 - 146) / 2 / 1296
