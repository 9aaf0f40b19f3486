"""Where the t9a text does not decide, the answer says "undetermined" or names the written interpretation it
follows (#16 point 5). The positions are built from the rules text (XIII.7.C "Поворот"), not from the engine."""
from __future__ import annotations

from rulesref.engine import ask
from rulesref.engine.ruling import Status, Verdict


def unit(uid, side, centre, facing, width=5, depth=2, **more):
    return {"id": uid, "side": side, "centre": list(centre), "facing": facing, "width": width, "depth": depth,
            "advance_rate": 5, **more}


def pursuit(units, fled_facing, pursuer_roll=6):
    """Knights pursue Goblins (fled with a roll of 8, so it escapes), which faces ``fled_facing``."""
    return {"book": "t9a", "board": {"width": 48, "depth": 48},
            "units": [*units, unit("goblins", "blue", (10, 40), fled_facing, 4, 2, state=["fleeing"])],
            "pursuit": {"fled": [{"unit": "goblins", "roll": 8}],
                        "pursuers": [{"unit": "knights", "pursues": "goblins", "roll": pursuer_roll}]}}


def pivot_findings(ruling):
    return [f for f in ruling.findings if f.citation.clause == "pursuit-pivot"]


def test_a_170_degree_pivot_that_ends_differently_each_way_is_undetermined():
    # Knights (5" × 2", centre 24,20) faces 0° and must come to face 170°. "Поворачивается так, чтобы быть
    # обращённым в том же направлении": the text does not say which way. Clockwise, its front's left corner
    # (2.69" from the centre) swings round past the right flank at bearing 85°, where a small enemy stands
    # 0.05" off that flank: "если при повороте фронт … оказывается поверх отпечатка подразделения противника" —
    # a charge. Anticlockwise the front swings through west and south and stops at 170° short of that enemy.
    data = pursuit([unit("knights", "red", (24, 20), 0),
                    unit("orcs", "blue", (27.05, 20.6), 0, 1, 0.8)], 170)
    ruling = ask("t9a", "pursuit", data, {})
    assert ruling.verdict is Verdict.UNDETERMINED
    unknown = [f for f in pivot_findings(ruling) if f.status is Status.UNKNOWN]
    assert unknown, [f.message.render("en") for f in ruling.findings]
    english = unknown[0].message.render("en")
    assert "which way" in english and "170°" in english and "190°" in english and "charge" in english
    assert "в какую сторону" in unknown[0].message.render("ru")
    assert len(ruling.result["pursuers"][0]["ways"]) == 2 and ruling.result["pursuers"][0]["final"] is None


def test_the_board_edge_counts_after_the_pivot_not_during_it():
    # A column 2" wide and 4" deep, centre 2" from the west Board Edge, faces 340° and must come to face 170°.
    # The shorter way, anticlockwise through 270°, its front corners (2.24" from the centre) swing past the edge;
    # after the pivot its front, now facing 170°, is well inside the board. "После поворота … если фронт
    # Преследующего подразделения соприкасается с Краем Стола": the Board Edge case is decided after the pivot,
    # so it does not arise; both ways end alike, and step 2 moves it its full distance.
    data = pursuit([unit("knights", "red", (2, 24), 340, 2, 4)], 170)
    ruling = ask("t9a", "pursuit", data, {})
    outcomes = ruling.result["outcomes"]["knights"]
    assert [str(getattr(o, "value", o)) for o in outcomes] == ["clear", "full-distance"], outcomes
    assert not any(f.citation.clause == "pursuing-off-the-board" for f in ruling.findings)
    assert ruling.result["pursuers"][0]["other_way_round"] == []


def test_the_board_edge_after_the_pivot_is_pursuit_off_the_board():
    # The same column turned to face 90°, straight at the east edge 1" away: after the pivot its front (2" from
    # its centre) is past the edge, so it has pursued off the board, whichever way it turned.
    data = pursuit([unit("knights", "red", (46, 24), 0, 2, 4)], 90)
    ruling = ask("t9a", "pursuit", data, {})
    assert [str(getattr(o, "value", o)) for o in ruling.result["outcomes"]["knights"]] == ["board-edge"]
    assert any("after the pivot" in f.message.render("en") for f in pivot_findings(ruling))


def test_the_shorter_turn_is_a_written_interpretation_named_in_the_answer():
    # A friendly unit 1.2" in front of Knights: whichever way it turns to face 90°, it stops 1" short after a few
    # degrees ("поворачивается как можно ближе к требуемой позиции и затем останавливается в 1 дюйме"), but at
    # a different angle each way. The engine takes the shorter turn and says so.
    data = pursuit([unit("knights", "red", (24, 20), 0), unit("militia", "red", (24, 23.2), 0, 2, 2)], 90)
    ruling = ask("t9a", "pursuit", data, {})
    assert ruling.verdict is Verdict.YES
    assert "pursuit-pivot-shorter-turn" in ruling.result["interpretations"]
    named = [f for f in pivot_findings(ruling) if "interpretation" in f.message.render("en")]
    assert named and "толкование" in named[0].message.render("ru")


def reactions_with_an_earlier_charge(reaction):
    """Knights charges Archers (which have a Shooting Weapon) from 12" in their Front Arc; Wolves charged them first,
    and Archers declared ``reaction`` to that charge."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "t9a" / "reactions-all-three.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("questions")
    archers = next(u for u in data["units"] if u["id"] == "archers")
    x, y = archers["centre"]
    data["units"].append(unit("wolves", "red", (x + 14, y), 270, 4, 2))
    data["declared_charges"] = [{"charger": "wolves", "target": "archers", "reaction": reaction}]
    return ask("t9a", "charge-reactions", data, {"charger": "knights", "target": "archers"})


def test_a_target_that_declared_hold_to_an_earlier_charge_reacts_anew():
    # "Подразделение, которое подвергается нападению, должно объявить свою реакцию на него": one per charge.
    ruling = reactions_with_an_earlier_charge("hold")
    assert set(ruling.result["allowed"]) == {"hold", "stand-and-shoot", "flee"}
    assert ruling.result["declared_earlier"] == [{"charger": "wolves", "reaction": "hold"}]
    assert any("anew" in f.message.render("en") for f in ruling.findings)


def test_stand_and_shoot_declared_to_an_earlier_charge_is_spent():
    # "Подразделение может выбрать эту реакцию лишь один раз в раунд".
    ruling = reactions_with_an_earlier_charge("stand-and-shoot")
    assert "stand-and-shoot" not in ruling.result["allowed"] and "hold" in ruling.result["allowed"]


def test_flee_declared_to_an_earlier_charge_means_it_must_flee():
    # "Уже Отступающее подразделение, которое подвергается нападению, должно автоматически объявить реакцию
    # Отступать".
    ruling = reactions_with_an_earlier_charge("flee")
    assert ruling.result["allowed"] == ["flee"]
