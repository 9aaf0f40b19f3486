"""Where the mpbs text does not decide, the answer offers every reading or says "undetermined"; what the text says
but the format could not (an extended activation, "may not pass", "becomes Fired", "never") is in the scenario
format and in the results (#16 point 5). Positions are reasoned from the rules text, not from the engine."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from rulesref.engine import ask
from rulesref.engine.ruling import Status, Verdict

SCENARIOS = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "mpbs"


def scenario(name: str) -> dict:
    data = json.loads((SCENARIOS / name).read_text(encoding="utf-8"))
    data.pop("questions", None)
    return data


def on(ruling, clause):
    return [f for f in ruling.findings if f.citation.clause == clause]


def retreat_between_two_edges() -> dict:
    # Red's friendly map edges are north and west; R stands at 0303, two hexes from each (rows 01-02 above it,
    # columns 01-02 beside it), and Blue's B attacked it from the south-east. 11.4.1: a Morale Broken unit
    # retreats two hexes "toward the nearest friendly map edge" — here there are two.
    return {"book": "mpbs", "map": {"columns": 10, "rows": 10, "friendly_edges": {"red": ["north", "west"],
                                                                                   "blue": ["south"]}},
            "wings": [{"id": "R1", "side": "red", "order": "charge"}, {"id": "B1", "side": "blue", "order": "charge"}],
            "units": [{"id": "R", "side": "red", "wing": "R1", "type": "heavy-infantry", "hexes": ["0303"],
                       "facing": "S"},
                      {"id": "B", "side": "blue", "wing": "B1", "type": "heavy-infantry", "hexes": ["0304"],
                       "facing": "N"}]}


def test_a_morale_broken_unit_equally_near_two_friendly_edges_is_offered_both():
    data = retreat_between_two_edges()
    both = ask("mpbs", "retreat", data, {"unit": "R", "result": "broken", "fought": "B"})
    assert set(both.result["edges_tied"]) == {"north", "west"}
    edges = {d["edge"] for d in both.result["destinations"]}
    assert edges == {"north", "west"}, both.result["destinations"]
    tie = [f for f in on(both, "11.4.1") if "equally near" in f.message.render("en")]
    assert tie and "одинаково близко" in tie[0].message.render("ru")
    # Each edge's own retreats are those of a map with only that friendly edge.
    for edge in ("north", "west"):
        alone = copy.deepcopy(data)
        alone["map"]["friendly_edges"]["red"] = [edge]
        one = ask("mpbs", "retreat", alone, {"unit": "R", "result": "broken", "fought": "B"})
        assert [d["hexes"] for d in both.result["destinations"] if d["edge"] == edge] == \
            [d["hexes"] for d in one.result["destinations"]]


def test_a_wing_forced_onto_rally_is_shown_no_orders_change_chance():
    # R3's cavalry and heavy infantry are all shaken, broken, disordered or gone: 5.8 puts its commander under
    # Rally "automatically, and the WC may not attempt an orders change in this activation".
    data = scenario("orders-change-battered-wing.json")
    forced = ask("mpbs", "mandatory-rally", data, {"wing": "R3"})
    assert forced.verdict is Verdict.YES and forced.result["may_attempt_orders_change"] is False
    assert forced.result["may_pass"] is False
    change = ask("mpbs", "orders-change", data, {"wing": "R3", "to": "make-ready"})
    assert change.verdict is Verdict.NO
    assert "chance" not in change.result and "succeeds_on" not in change.result
    assert change.result["rally_forced"] is True
    assert not on(change, "5.7.2") or all(f.status is not Status.PASS for f in on(change, "5.7.2"))


def test_a_wing_forced_onto_rally_may_not_pass():
    data = scenario("orders-change-battered-wing.json")
    data["moment"] = {**data["moment"], "active_wing": "R3", "wing_passes": True}
    ruling = ask("mpbs", "mandatory-rally", data, {"wing": "R3"})
    assert any(f.status is Status.FAIL and "may not pass" in f.message.render("en") for f in on(ruling, "5.8"))


def test_light_infantry_is_told_it_never_forms_hedgehog():
    # 9.2.3 is for heavy infantry; light infantry approached by enemy cavalry gets an explicit "never".
    data = scenario("reactions-cavalry.json")
    ruling = ask("mpbs", "reactions", data, {"unit": "RW"})
    never = [f for f in on(ruling, "9.2.3") if f.status is Status.FAIL]
    assert never and "never" in never[0].message.render("en") and "никогда" in never[0].message.render("ru")
    assert ruling.result["units"]["RW"]["hedgehog"] is False


def test_an_extended_activation_is_a_new_one_for_9_3_1f():
    # 9.3.1f: one attempt per enemy activation; the note: "Продление активации крыла считается новой активацией".
    data = scenario("interception-conditions.json")
    cav = next(u for u in data["units"] if u["id"] == "CAV-OK")
    cav["flags"] = {"interception_attempted_before_extension": True}
    same = ask("mpbs", "can-intercept", data, {"unit": "CAV-OK"})
    assert {f.status for f in on(same, "9.3.1f")} == {Status.FAIL}
    data["moment"] = {**data["moment"], "extended_activation": True}
    extended = ask("mpbs", "can-intercept", data, {"unit": "CAV-OK"})
    assert {f.status for f in on(extended, "9.3.1f")} == {Status.PASS}
    assert any("extended" in f.message.render("en") for f in on(extended, "9.3.1"))


def test_artillery_turning_instead_of_firing_becomes_fired_in_the_result():
    # 6.2.3: artillery not on its "Fired" side may turn instead of firing; it is then flipped to "Fired".
    data = scenario("facing-cost.json")
    turned = ask("mpbs", "facing-cost", data, {"unit": "GUNS", "facing": "S"})
    assert turned.result["becomes_fired"] is True and turned.result["instead_of_fire"] is True
