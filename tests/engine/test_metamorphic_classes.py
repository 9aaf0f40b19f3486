"""Positions for the classes of issue 28, each reasoned from the Russian text (seeds 000–004) and written before
the engine was fixed: the metamorphic tests (test_metamorphic_*.py) found where an answer depended on orientation,
order or floating-point noise; these pin, position by position, what the text says there.

Classes: 1 full allowance against points left, 2 stacking in retreat, 3 exact ties at a threshold, 4 choices left
to a player, 5 ambiguity named, 6 partial answers, 7 words.
"""
from __future__ import annotations

import copy
import math

import pytest

from rulesref.engine import ask
from rulesref.engine.hexgrid import Hex, HexMap, hex_add, hex_lines
from rulesref.engine.t9a.geometry import Motion
from rulesref.engine.t9a.scenario import load_scenario as load_t9a


def statuses(ruling, clause: str) -> list[str]:
    return [f.status.value for f in ruling.findings if f.citation.clause == clause]


# --- mpbs positions -----------------------------------------------------------------------------------------------


def mpbs(units, terrain=None, event="T", **extra) -> dict:
    data = {"book": "mpbs",
            "map": {"columns": 10, "rows": 10, "terrain": terrain or {}, "dead_zones": [],
                    "friendly_edges": {"red": ["north"], "blue": ["south"]}},
            "terrain_types": {"scrub": {"cost": {"cavalry": 1}, "formation_hits": {"cavalry": 1},
                                        "blocks_los": False, "source": "test: costs as clear, disorders horse"},
                              "rough": {"formation_hits": {"heavy-infantry": 0}, "source": "test"}},
            "wings": [{"id": "B", "side": "blue", "order": "charge"}, {"id": "R", "side": "red", "order": "charge"}],
            "units": units,
            "moment": {"active_side": "blue", "active_wing": "B", "phase": "actions",
                       "event": {"unit": event, "action": "move", "mp": 1}}}
    data.update(extra)
    return data


def unit(uid, side, kind, hexes, facing=None, **extra) -> dict:
    found = {"id": uid, "side": side, "wing": "B" if side == "blue" else "R", "type": kind, "hexes": hexes,
             "movement": {"allowance": 6}, "morale": {"rating": 8},
             "formation": {"name": "line", "hits_before_disorder": 0}}
    if facing:
        found["facing"] = facing
    found.update(extra)
    return found


# Class 4, 9.3.3: «игрок должен переместить кавалерийское подразделение вплотную к подразделению, которое оно
# перехватывает. Каждый гекс, в который оно входит должен быть на 1 гекс ближе» — the player moves it; where it
# ends, among the hexes the rule allows, is the player's, and the sector it attacks (the 9.3 example: «атаковав его с
# тыла») follows from that choice.


def test_interception_lists_each_end_with_the_sector_it_attacks():
    """T faces NE at 0505; the cavalry two hexes south can end in 0406 (T's rear) or 0506 (its flank), 1 MP
    each. The answer is not one of them: both, each with its sector, and the choice named as the player's."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0505"], "NE"), unit("CAV", "red", "cavalry", ["0507"], "N")])
    ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV"})
    assert ruling.verdict.value == "yes"
    assert ruling.result["attack_sectors"] == ["flank", "rear"] and ruling.result["attacks_from"] is None
    ends = {(tuple(c["hexes"]), c["attacks_from"]) for c in ruling.result["choices"] if c["cost"] == 1}
    assert ends == {(("0406",), "rear"), (("0506",), "flank")}
    choice = [f.message.render("en") for f in ruling.findings if f.citation.term == "игрок должен переместить"]
    assert choice == ["Where CAV ends its move is the player's choice: 0406 (rear sector), 0506 (flank sector)."]


@pytest.mark.parametrize("scrub", ["0406", "0506"])
def test_interception_may_take_the_way_without_formation_hits(scrub):
    """9.3.1e «способно выдержать хиты построения, вызванные таким движением»: the cavalry can take no hit; one of
    its two 1-MP ways crosses scrub (a hit), the other clear ground. The player takes the clear one: the condition
    holds whichever side the scrub is on."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0505"], "S"), unit("CAV", "red", "cavalry", ["0507"], "N")],
                {scrub: "scrub"})
    ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV"})
    assert statuses(ruling, "9.3.1e") == ["pass", "pass"] and ruling.verdict.value == "yes"


@pytest.mark.parametrize("guns", ["0406", "0506"])
def test_interception_keeps_its_momentum_when_a_way_avoids_the_guns(guns):
    """9.3.7 «Кавалерия может осуществлять перехват через дружественные артиллерийские подразделения, но при этом
    она теряет воодушевление»: one of two equal ways passes its own guns; the momentum is lost only if the player
    takes that one, so it is not lost — and the answer says which way would lose it."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0504"], "S"), unit("CAV", "red", "cavalry", ["0507"], "N"),
                 unit("G", "red", "artillery", [guns], "N")])
    ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV"})
    assert ruling.result["momentum_lost"] is False
    assert any(c["through_artillery"] == ["G"] for c in ruling.result["choices"])
    assert any(c["through_artillery"] == [] for c in ruling.result["choices"])


def test_line_of_sight_along_hexsides_looks_down_both_sides_whatever_the_direction():
    """hex-line-of-sight (docs/geometry-hex.md): a line running along hexsides is clear if either side is. Red
    Blob's nudge pushes the line along itself when it runs in the cube direction (1, 1, -2), which left one side
    unseen: a woods hex there blocked the mirror image of a position whose line was clear."""
    a = Hex(0, 0)
    b = Hex(2, 2, -4)
    lines = hex_lines(a, b)
    assert len(lines) == 2
    assert {lines[0][1], lines[1][1]} == {Hex(1, 0, -1), Hex(0, 1, -1)}
    hexmap = HexMap(10, 10, "pointy", "odd")
    start = hexmap.hex_at(2, 2)
    for side in (Hex(1, 0, -1), Hex(0, 1, -1)):
        woods = {hexmap.label(hex_add(start, side)): "woods",
                 hexmap.label(hex_add(start, hex_add(side, Hex(1, 1, -2)))): "woods"}
        data = mpbs([unit("T", "blue", "heavy-infantry", [hexmap.label(hex_add(start, Hex(2, 2, -4)))], "N"),
                     unit("CAV", "red", "cavalry", [hexmap.label(start)], "SE")], woods)
        ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV"})
        assert statuses(ruling, "9.3.1d")[0] == "pass", woods


# Class 4 and 5, 11.4.2: «3) Подразделение должно двигаться по пути наименьшего сопротивления, то есть путем,
# ведущим к дружественному краю карты, который стоит наименьшего числа пунктов движения».


def test_no_way_on_to_the_edge_leaves_the_retreats_to_the_player():
    """A wall of water cuts the red unit off from its friendly (north) edge. Priority 3 measures the path that
    leads to that edge; none does, so it ranks nothing: both one-hex retreats that end nearer the edge (0404,
    clear, and 0504, rough) are the player's, not the cheaper one only. The answer names the reading."""
    wall = {f"{c:02d}02": "water" for c in range(1, 11)}
    data = mpbs([unit("R", "red", "heavy-infantry", ["0505"], "S"), unit("B", "blue", "heavy-infantry", ["0506"], "N")],
                {**wall, "0504": "rough"}, event="B")
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "shaken", "fought": "B", "hexes": 1})
    assert sorted(d["hexes"][0] for d in ruling.result["destinations"]) == ["0404", "0504"]
    assert ruling.verdict.value == "yes"
    assert "retreat-no-way-to-the-edge" in ruling.result["interpretations"]


def test_two_edges_equally_near_give_no_outcome_of_their_own():
    """11.4.1 «отступите на 2 гекса к ближайшему дружественному краю карты»: on a map three rows deep the red
    cavalry in the middle row is as near the north edge as the south. Toward the north it leaves the map
    (eliminated, 11.4.2 «Любое подразделение, которое отступило за край карты, считается уничтоженным»); toward
    the south water stops it and it retreats along its row. The answer gives each edge's outcome, and no outcome of
    its own (the first edge's would be one picked by the order of the edges)."""
    data = mpbs([unit("R", "red", "cavalry", ["0502"], "S"), unit("B", "blue", "heavy-infantry", ["0402"], "NE")],
                {f"{c:02d}03": "water" for c in range(1, 11)}, event="B")
    data["map"].update(rows=3, friendly_edges={"red": ["north", "south"], "blue": ["east"]})
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "broken", "fought": "B"})
    assert {edge: answer["outcome"] for edge, answer in ruling.result["by_edge"].items()} == {
        "north": "eliminated", "south": "retreat"}
    assert "outcome" not in ruling.result
    assert {"retreat-edge-tie", "retreat-no-way-to-the-edge"} <= set(ruling.result["interpretations"])
    off_the_map = [f.message.render("en") for f in ruling.findings if f.citation.clause == "11.4.10"
                   and "0601 → " in f.message.render("en")]
    assert "Retreat by 0601 → off the map: no formation hit on the way." in off_the_map


def test_hexes_the_retreat_may_not_enter_are_hexes_of_the_map():
    """The retreat's ``excluded`` hexes (priority 1) are drawn on the map: a label of a hex beyond the edge names
    nothing there."""
    data = mpbs([unit("R", "red", "heavy-infantry", ["0102"], "S"), unit("B", "blue", "heavy-infantry", ["0101"], "S")],
                event="B")
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "broken", "fought": "B"})
    hexmap = HexMap(10, 10, "pointy", "odd")
    assert ruling.result["excluded"] and all(hexmap.parse(label) for label in ruling.result["excluded"])


# --- t9a positions ------------------------------------------------------------------------------------------------


def knights_and_archers(gap: float) -> dict:
    """Knights (Advance Rate 5) head on to Archers, ``gap`` inches between their Unit Boundaries."""
    return {"book": "t9a", "board": {"width": 48, "depth": 48},
            "units": [{"id": "knights", "side": "red", "centre": [24, 8], "facing": 0, "width": 5, "depth": 2,
                       "advance_rate": 5},
                      {"id": "archers", "side": "blue", "centre": [24, 8 + 1 + gap + 1], "facing": 180, "width": 6,
                       "depth": 2, "advance_rate": 5, "missile_weapons": True}]}


@pytest.mark.parametrize("degrees", [float(d) for d in (*range(0, 360, 9), 37, 323)])
def test_stand_and_shoot_from_exactly_the_advance_rate_whatever_the_turn(degrees):
    """Class 3. «если нападение начинается с расстояния большего, чем показатель Движения нападающего
    подразделения»: from exactly 5″ the charge does not start farther than the Advance Rate of 5″ — turned by any
    angle, where the gap becomes 5 plus or minus floating-point noise."""
    scenario = load_t9a(knights_and_archers(5.0)).transformed(Motion(degrees, 3.0, -2.0))
    ruling = ask("t9a", "charge-reactions", scenario, {"charger": "knights", "target": "archers"})
    assert ruling.result["allowed"] == ["hold", "flee"]
    beyond = copy.deepcopy(knights_and_archers(5.01))
    ruling = ask("t9a", "charge-reactions", load_t9a(beyond).transformed(Motion(degrees)), {
        "charger": "knights", "target": "archers"})
    assert ruling.result["allowed"] == ["hold", "stand-and-shoot", "flee"]


def pursuit_up_to(ahead: float, kind: str) -> dict:
    """Knights pursues Goblins (destroyed, fled the way Knights faces: no pivot) with a roll of 6; an enemy unit or
    a piece of Impassable Terrain lies ``ahead`` inches in front of its Front Facing."""
    near = 11 + ahead  # Knights' front is at y = 11
    data = {"book": "t9a", "board": {"width": 48, "depth": 48},
            "units": [{"id": "knights", "side": "red", "centre": [24, 10], "facing": 0, "width": 5, "depth": 2,
                       "advance_rate": 7},
                      {"id": "goblins", "side": "blue", "centre": [10, 40], "facing": 0, "width": 4, "depth": 2,
                       "advance_rate": 4}],
            "pursuit": {"fled": [{"unit": "goblins", "destroyed": True}],
                        "pursuers": [{"unit": "knights", "pursues": "goblins", "roll": 6}]}}
    if kind == "enemy":
        data["units"].append({"id": "orcs", "side": "blue", "centre": [24, near + 1], "facing": 180, "width": 6,
                              "depth": 2, "advance_rate": 4})
    else:
        data["terrain"] = [{"id": "pond", "polygon": [[20, near], [28, near], [28, near + 3], [20, near + 3]],
                            "impassable": True}]
    return data


@pytest.mark.parametrize("degrees", [0.0, 37.0, 90.0, 323.0])
@pytest.mark.parametrize("kind,outcome", [("enemy", "enemy-unit"), ("impassable", "obstacle")])
def test_pursuit_meets_what_lies_exactly_the_roll_ahead(kind, outcome, degrees):
    """Class 3. XIII.7.C, step 2: «определите, что произойдет раньше: подразделение либо наткнется на какое-либо
    препятствие (а именно Край Стола, Ограничительный Контур подразделения или Непроходимый ландшафт), либо пройдет
    полную дистанцию преследования»; «Если движение преследования приводит подразделение в базовый контакт с
    подразделением противника, то это считается нападением». Exactly 6″ ahead with a roll of 6, the move ends in
    contact: it meets the enemy (a charge) or the terrain, as it meets the Board Edge at the same distance; a
    hundredth farther, it runs its full 6″."""
    scenario = load_t9a(pursuit_up_to(6.0, kind)).transformed(Motion(degrees, 5.0, 1.0))
    ruling = ask("t9a", "pursuit", scenario)
    assert ruling.result["outcomes"]["knights"] == ["clear", outcome]
    farther = load_t9a(pursuit_up_to(6.01, kind)).transformed(Motion(degrees, 5.0, 1.0))
    assert ask("t9a", "pursuit", farther).result["outcomes"]["knights"] == ["clear", "full-distance"]


# Class 1: 9.2.1 «При каждом ответном движении подразделение не должно превышать своего текущего потенциала
# движения»; 9.2.4 «может двинуться на расстояние вплоть до своего полного потенциала движения (учитывая эффекты
# хитов построения)». A reaction is bounded by the allowance, not by what is left of it after the unit's own
# activation (``movement.spent``).


def spent(allowance: int, used: int, **extra) -> dict:
    return {"movement": {"allowance": allowance, "spent": used}, **extra}


def test_a_reaction_facing_change_has_the_full_allowance():
    """One-hex heavy infantry, allowance 4, spent 3 in its own activation; enemy heavy infantry of the same
    allowance steps into its flank hex. 9.2.2a: up to two vertices, at 2 MP a vertex (6.2.1): both the one- and
    the two-vertex turns (2 and 4 MP) are within its allowance of 4."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0405"], "N", **spent(4, 1)),
                 unit("HI", "red", "heavy-infantry", ["0505"], "N", **spent(4, 3))])
    data["moment"]["event"]["from"] = ["0305"]
    ruling = ask("mpbs", "reactions", data, {"unit": "HI"})
    turns = sorted(option["vertices"] for option in ruling.result["units"]["HI"]["facing_change"])
    assert turns == [-2, -1, 1, 2]


def test_a_withdraw_runs_up_to_the_full_allowance():
    """Cavalry under Rally orders, allowance 4, all 4 spent in its own activation; an enemy moves within two
    hexes. 9.2.4: it may withdraw «вплоть до своего полного потенциала движения»: four hexes straight back."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0508"], "N", **spent(4, 1)),
                 unit("CAV", "red", "cavalry", ["0506"], "N", order="rally", **spent(4, 4))])
    ruling = ask("mpbs", "reactions", data, {"unit": "CAV"})
    destinations = ruling.result["units"]["CAV"]["withdraw"]
    assert destinations and max(d["cost"] for d in destinations) == 4


def test_an_interception_has_the_full_allowance():
    """Cavalry that spent its whole allowance (6) in its wing's own activation; 9.3.5 «Кавалерийские
    подразделения в крыле, которое завершило активацию, также может перехватывать», and an interception is a
    reaction (9.3.1 note), bounded by the allowance (9.2.1): 3 MP to come next to the enemy are within it. The
    answer names the reading («достаточно ПД»: the allowance, not what is left)."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0504"], "S", **spent(4, 1)),
                 unit("CAV", "red", "cavalry", ["0507"], "N", **spent(6, 6))])
    ruling = ask("mpbs", "can-intercept", data, {"unit": "CAV"})
    assert statuses(ruling, "9.3.1e")[0] == "pass" and ruling.verdict.value == "yes"
    assert "interception-full-allowance" in ruling.result["interpretations"]


# Class 2: 11.4.3 «Подразделения не могут отступить на или через дружественные подразделения. Исключение:
# Подразделение может отступить через артиллерийское подразделение … Подразделение легкой пехоты, которое
# отступает, может закончить свое отступление будучи сгруппировано с кавалерийским подразделением, и наоборот.
# Хотя, в этом случае, если подразделение не отступает на необходимую дистанцию, к ней применяется правило 11.4.5.
# Подразделение может отступить через гекс с повозками».


def corridor(mover: str, first: str | None, second: str | None, decoy: str | None = None) -> dict:
    """Red ``mover`` at 0506 after a close combat with blue heavy infantry at 0507 (south of it); the only ground
    left is a corridor north, 0505 then 0504, every other hex water; red's friendly edge is the north. ``first``
    and ``second`` are the red units standing in the corridor's hexes (or None), ``decoy`` a red heavy infantry
    unit in a dry pocket beside the start and the enemy (0406), where no retreat goes (priority 1)."""
    dry = {"0506", "0507", "0505", "0504"} | ({"0406"} if decoy else set())
    hexmap = HexMap(10, 8, "pointy", "odd")
    water = {hexmap.label(h): "water" for h in hexmap.hexes() if hexmap.label(h) not in dry}
    units = [unit("R", "red", mover, ["0506"], None if mover == "wagon" else "N"),
             unit("B", "blue", "heavy-infantry", ["0507"], "N")]
    for label, kind in (("0505", first), ("0504", second), ("0406", decoy)):
        if kind:
            units.append(unit(f"R-{label}", "red", kind, [label], None if kind == "wagon" else "N"))
    data = mpbs(units, water, event="B")
    data["map"]["rows"] = 8
    return data


def test_a_retreat_may_not_end_on_its_own_guns_and_says_they_block():
    """The one hex a Morale Shaken retreat of one hex can take holds its own guns: «через» artillery, not «на»
    it. 11.4.3 fails, naming the guns (R-0505) — not the heavy infantry standing beside the start, whose hex
    priority 1 forbids anyway (it is next to the enemy fought) — and 11.4.5 gives a casualty point."""
    data = corridor("heavy-infantry", "artillery", None, decoy="heavy-infantry")
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "shaken", "fought": "B", "hexes": 1})
    blocking = [f.message.render("en") for f in ruling.findings
                if f.citation.clause == "11.4.3" and f.status.value == "fail"]
    assert len(blocking) == 1 and "R-0505" in blocking[0] and "R-0406" not in blocking[0], blocking
    assert ruling.result["casualty_points"] == 1
    assert not any("R-0406" in f.message.render("en") for f in ruling.findings)


def test_light_infantry_may_end_with_cavalry_but_not_pass_it():
    """Morale Broken light infantry: cavalry of its own side stands in the corridor's first hex, the second is
    free. It may end its retreat stacked with the cavalry, not go through it: it retreats one hex of two, and
    11.4.5 applies (the Unable to Retreat Table); 11.4.3 says so, naming the cavalry."""
    data = corridor("light-infantry", "cavalry", None)
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "broken", "fought": "B"})
    assert ruling.result["retreated"] == 1 and ruling.result["outcome"] == "unable-to-retreat"
    assert [d["hexes"] for d in ruling.result["destinations"]] == [["0505"]]
    assert statuses(ruling, "11.4.5")[0] == "fail"
    stopped = [f.message.render("en") for f in ruling.findings
               if f.citation.clause == "11.4.3" and f.status.value == "fail"]
    assert stopped and "R-0505" in stopped[0]


def test_cavalry_ends_its_retreat_with_light_infantry_and_the_answer_says_so():
    """«… и наоборот»: Morale Broken cavalry retreats two hexes and ends stacked with its light infantry in the
    second; the answer names the clause and the unit it ends with."""
    data = corridor("cavalry", None, "light-infantry")
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "broken", "fought": "B"})
    assert ruling.result["retreated"] == 2 and [d["hexes"] for d in ruling.result["destinations"]] == [["0504"]]
    ends = [f.message.render("en") for f in ruling.findings
            if f.citation.clause == "11.4.3" and f.status.value == "pass" and "R-0504" in f.message.render("en")]
    assert ends, [f.message.render("en") for f in ruling.findings]


def test_heavy_infantry_may_not_end_on_light_infantry():
    """The licence is for light infantry with cavalry only: heavy infantry stops short of the light infantry in
    the corridor's second hex, one hex of two, and 11.4.3 names the light infantry."""
    data = corridor("heavy-infantry", None, "light-infantry")
    ruling = ask("mpbs", "retreat", data, {"unit": "R", "result": "broken", "fought": "B"})
    assert ruling.result["retreated"] == 1
    stopped = [f.message.render("en") for f in ruling.findings
               if f.citation.clause == "11.4.3" and f.status.value == "fail"]
    assert stopped and "R-0504" in stopped[0]


# Class 4 and 6 in a change of facing (6.2.1, 6.2.2): the way is the player's; what the text decides is given.


def test_a_counter_march_is_open_when_no_wheel_is():
    """Two-hex cavalry faces N with water in the front hex both halves share, so it can wheel neither way; 6.2.2
    «Подразделение может изменить ориентацию на 180 градусов, за стоимость в 2 ПД»: it turns about for 2 MP. The
    closed wheels do not forbid the change the Counter March makes."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0909"], "N"),
                 unit("C2", "red", "cavalry", ["0405", "0505"], "N")], {"0404": "water"})
    ruling = ask("mpbs", "facing-cost", data, {"unit": "C2", "facing": "S"})
    assert ruling.verdict.value == "yes" and ruling.result["cost"] == 2
    assert "fail" in statuses(ruling, "6.2.1") and statuses(ruling, "6.2.2") == ["pass", "pass"]


def test_a_wheel_on_one_half_is_enough():
    """6.2.1 «Половина подразделения остается в своем гексе, в то время как другая половина поворачивается вокруг
    неподвижного гекса»: which half stays is the player's. One vertex clockwise (N to NE) is one wheel on the
    east half into clear 0404 (1 + 1 = 2 MP); on the west half it would take five wheels, and the water at 0304
    stops them. The closed way does not forbid the open one: yes, 2 MP."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0909"], "N"),
                 unit("H2", "red", "heavy-infantry", ["0405", "0505"], "N")], {"0304": "water"})
    ruling = ask("mpbs", "facing-cost", data, {"unit": "H2", "facing": "NE"})
    assert ruling.verdict.value == "yes" and ruling.result["cost"] == 2
    assert sorted(w["cost"] is None for w in ruling.result["ways"]) == [False, True]


@pytest.mark.parametrize("used,verdict", [(0, "undetermined"), (3, "no")])
def test_a_column_turn_costs_two_mp_whatever_6_3_4_says(used, verdict):
    """Class 6. 6.2.1 «Тяжелая пехота в построении «колонна» платит 2 ПД за поворот на один угол гекса»: a two-hex
    heavy infantry column heading east turns its head one corner, to the north-east: 2 MP. Where its hexes then
    lie is 6.3.4, not in the corpus: undetermined when its 4 MP pay for the turn, but no when only 1 is left."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0909"], "N"),
                 unit("COL", "red", "heavy-infantry", ["0305", "0405"], "E", formation={"name": "column"},
                      movement={"allowance": 4, "spent": used})])
    ruling = ask("mpbs", "facing-cost", data, {"unit": "COL", "facing": "NE"})
    assert ruling.result["cost"] == 2 and ruling.verdict.value == verdict
    assert statuses(ruling, "6.2.1") == ["pass", "pass" if used == 0 else "fail"]
    east_to_west = ask("mpbs", "facing-cost", data, {"unit": "COL", "facing": "W"})
    assert east_to_west.result["cost"] == 6


def test_stand_and_shoot_ruled_out_whatever_the_weapon():
    """Class 6. «Эта реакция может быть использована, если подразделение имеет стрелковое оружие, нападение на него
    производится во фронтовой сектор, и если нападение начинается с расстояния большего, чем показатель Движения»:
    all three must hold. Archers whose Shooting Weapon is not given, charged from 4″ by Knights of Advance Rate 5
    (not farther than it), may not Stand and Shoot whatever their weapon: every reaction is decided."""
    data = knights_and_archers(4.0)
    del data["units"][1]["missile_weapons"]
    ruling = ask("t9a", "charge-reactions", data, {"charger": "knights", "target": "archers"})
    assert ruling.verdict.value == "yes" and ruling.result["allowed"] == ["hold", "flee"]
    assert ruling.result["reactions"]["stand-and-shoot"]["allowed"].value == "no"
    data = knights_and_archers(6.0)
    del data["units"][1]["missile_weapons"]
    ruling = ask("t9a", "charge-reactions", data, {"charger": "knights", "target": "archers"})
    assert ruling.verdict.value == "undetermined"  # from 6″ the weapon decides


def test_stand_and_shoot_is_once_per_round():
    """Class 7. «Подразделение может выбрать эту реакцию лишь один раз в раунд»: a round, not a turn."""
    data = knights_and_archers(8.0)
    data["units"][1]["state"] = ["stood-and-shot"]
    ruling = ask("t9a", "charge-reactions", data, {"charger": "knights", "target": "archers"})
    words = [f.message for f in ruling.findings if f.citation.clause == "stand-and-shoot" and f.status.value == "fail"]
    assert [m.render("en") for m in words] == ["Stand and Shoot: archers has already chosen Stand and Shoot this round"]
    assert "раунде" in words[0].render("ru")


def test_an_orders_change_out_of_its_step_gives_no_chance():
    """Class 7. 5.7.1 «Только активированное крыло может попытаться изменить свой приказ и только во время этапа
    изменения приказов»: in the actions step there is no attempt, so no chance of one either (the answer printed
    the table's chance beside the refusal)."""
    data = mpbs([unit("L", "blue", "leader", ["0101"], leadership=2), unit("H", "blue", "heavy-infantry", ["0505"], "N")],
                event="H")
    data["wings"][0]["commander"] = "L"
    data["tables"] = {"orders_change": {"rows": [{"from": "charge", "to": "rally", "success": [0, 6]}]}}
    refused = ask("mpbs", "orders-change", data, {"to": "rally"})
    assert refused.verdict.value == "no" and "chance" not in refused.result
    assert not any("%" in f.message.render("en") for f in refused.findings)
    data["moment"]["phase"] = "orders-change"
    allowed = ask("mpbs", "orders-change", data, {"to": "rally"})
    assert "chance" in allowed.result


def test_an_interception_the_rules_refuse_gives_no_table_chance():
    """Class 7: a disordered interceptor may not try (9.3.1c «не рассеяно»): its chance is 0, and the answer does
    not also print the table's chance of the attempt it may not make."""
    data = mpbs([unit("T", "blue", "heavy-infantry", ["0504"], "S"),
                 unit("CAV", "red", "cavalry", ["0507"], "N", formation={"name": "line", "state": "disordered"})])
    ruling = ask("mpbs", "interception-chance", data, {"unit": "CAV"})
    assert ruling.verdict.value == "no" and ruling.result["chance"] == 0.0
    assert not any(f.citation.clause == "9.3.2" for f in ruling.findings)


@pytest.mark.django_db  # the command states the book revision it decided under, read from the database
def test_the_russian_command_line_names_the_question_in_russian():
    """Class 7: the text output of ``manage.py ruling --lang ru`` begins with the question in Russian."""
    from django.core.management import call_command
    from io import StringIO
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios" / "mpbs" / "interception-example-9.3.json"
    out = StringIO()
    call_command("ruling", "mpbs", "can-intercept", str(example), "--param", "unit=CAV-1", "--lang", "ru",
                 "--format", "text", stdout=out)
    assert out.getvalue().startswith("Может ли эта кавалерия перехватить? (can-intercept): да")


# Class 5: where the text can be read two ways, the answer names the reading it follows (each in the registry,
# docs/geometry.md, with the other reading).


def named(ruling) -> list[str]:
    return ruling.result.get("interpretations", [])


def test_readings_of_mpbs_are_named_where_they_decide():
    two_attackers = mpbs([unit("D", "blue", "heavy-infantry", ["0505"], "N"),
                          unit("A1", "red", "heavy-infantry", ["0504"], "S", morale={"rating": 7}),
                          unit("A2", "red", "heavy-infantry", ["0605"], "SW", morale={"rating": 6})], event="D")
    ruling = ask("mpbs", "advance", two_attackers, {"vacated": "D", "winners": "A1,A2", "role": "attacker"})
    assert ruling.result["advancing"] == ["A1"] and "advance-morale-rating" in named(ruling)

    two_hex = mpbs([unit("LL", "blue", "heavy-infantry", ["0505", "0605"], "N"),
                    unit("WW", "red", "heavy-infantry", ["0504", "0604"], "S")], event="LL")
    ruling = ask("mpbs", "advance", two_hex, {"vacated": "LL", "winners": "WW", "role": "attacker"})
    assert "advance-two-hex-both-halves" in named(ruling)

    light = mpbs([unit("LI", "blue", "light-infantry", ["0505"], "N")], event="LI")
    ruling = ask("mpbs", "mandatory-rally", light, {"wing": "B"})
    assert ruling.result["forced"] is False and "rally-needs-horse-or-foot" in named(ruling)

    led = mpbs([unit("L", "blue", "leader", ["0101"], leadership=2), unit("H", "blue", "heavy-infantry", ["0505"], "N")],
               event="H")
    led["wings"][0]["commander"] = "L"
    led["moment"]["phase"] = "orders-change"
    assert "rally-modifier-without-leaders" in named(ask("mpbs", "orders-change", led, {"to": "rally"}))

    flank = mpbs([unit("T", "blue", "cavalry", ["0405"], "N", **spent(4, 1)),
                  unit("HI", "red", "heavy-infantry", ["0505"], "N", **spent(4, 0))])
    ruling = ask("mpbs", "reactions", flank, {"unit": "HI"})
    assert {"reaction-into-flank-or-rear-hex", "hedgehog-two-hexes-of-the-unit"} <= set(named(ruling))

    short = corridor("light-infantry", "cavalry", None)
    ruling = ask("mpbs", "retreat", short, {"unit": "R", "result": "broken", "fought": "B"})
    assert "unable-to-retreat-by-result" in named(ruling)


def pursuit_with(units: list[dict], fled_facing: float) -> dict:
    """Knights (5″ × 2″, centre 24,20, facing 0) pursues Goblins, destroyed, which fled facing ``fled_facing``."""
    return {"book": "t9a", "board": {"width": 48, "depth": 48},
            "units": [{"id": "knights", "side": "red", "centre": [24, 20], "facing": 0, "width": 5, "depth": 2,
                       "advance_rate": 7},
                      {"id": "goblins", "side": "blue", "centre": [8, 40], "facing": fled_facing, "width": 4,
                       "depth": 2, "advance_rate": 4}, *units],
            "pursuit": {"fled": [{"unit": "goblins", "destroyed": True}],
                        "pursuers": [{"unit": "knights", "pursues": "goblins", "roll": 5}]}}


def test_readings_of_the_pursuit_are_named_where_they_decide():
    """XIII.7.C: «подразделения, непроходимый ландшафт и край стола, которые соприкасаются с другими частями
    преследующего подразделения, игнорируются на шаге 1-3» — Militia touching Knights' rear is ignored, though the
    long way round brings the front over it (pursuit-touching-ignored): both ways run the full distance; «Если возникает более чем одна ситуация, используйте только один
    пункт, наивысший в списке» — turning clockwise 90°, the front sweeps over a friend and then an enemy
    (pursuit-highest-case)."""
    militia = {"id": "militia", "side": "red", "centre": [24, 18], "facing": 0, "width": 4, "depth": 2,
               "advance_rate": 4}
    ruling = ask("t9a", "pursuit", pursuit_with([militia], 20.0), {})
    assert "pursuit-touching-ignored" in named(ruling)
    assert ruling.verdict.value == "yes" and ruling.result["outcomes"]["knights"] == ["clear", "full-distance"]
    friend = {"id": "friend", "side": "red", "centre": [22.6, 21.8], "facing": 0, "width": 1, "depth": 1,
              "advance_rate": 4}
    enemy = {"id": "orcs", "side": "blue", "centre": [24.3, 22.2], "facing": 0, "width": 1, "depth": 1,
             "advance_rate": 4}
    ruling = ask("t9a", "pursuit", pursuit_with([friend, enemy], 90.0), {})
    assert ruling.result["outcomes"]["knights"][0] == "charge"
    assert "pursuit-highest-case" in named(ruling)


@pytest.mark.parametrize("motion", [Motion(), Motion(0.0, 100.0, 0.0, mirrored=True), Motion(37.0, 3.0, 4.0)])
def test_a_pursuer_placed_at_two_equally_near_places_is_the_players_choice(motion):
    """Class 4. XIII.7.C: «разместите его обратно, сохраняя центр подразделения как можно ближе к тому центру …, в
    базовом контакте … и максимизируя базовый контакт». A rock stands where Knights would go, straight in front of
    Wolves' middle; the two places beside it are equally near and give as much contact: the answer gives both,
    whichever way the board is turned or mirrored, and not one picked by the order it tried them in."""
    data = {"book": "t9a", "board": {"width": 48, "depth": 48}, "units": [
        {"id": "knights", "side": "red", "centre": [24, 20], "facing": 0, "width": 5, "depth": 2, "advance_rate": 7},
        {"id": "goblins", "side": "blue", "centre": [8, 40], "facing": 180, "width": 4, "depth": 2, "advance_rate": 4},
        {"id": "wolves", "side": "blue", "centre": [24, 22.9], "facing": 180, "width": 10, "depth": 1,
         "advance_rate": 4}],
        "terrain": [{"id": "rock", "polygon": [[23.9, 21.5], [24.1, 21.5], [24.1, 22.0], [23.9, 22.0]],
                     "impassable": True}],
        "pursuit": {"fled": [{"unit": "goblins", "destroyed": True}],
                    "pursuers": [{"unit": "knights", "pursues": "goblins", "roll": 5}]}}
    ruling = ask("t9a", "pursuit", load_t9a(data).transformed(motion), {})
    knights = ruling.to_dict()["result"]["pursuers"][0]
    assert ruling.verdict.value == "yes" and ruling.result["outcomes"]["knights"] == ["charge"]
    assert knights["final"] is None and len(knights["ways"]) == 2
    back = sorted(tuple(round(c, 3) for c in _unmoved(motion, way["final"]["centre"])) for way in knights["ways"])
    assert back == [(21.4, 21.4), (26.6, 21.4)]


def _unmoved(motion: Motion, point: list[float]) -> tuple[float, float]:
    """A point of a moved board back where it was."""
    x, y = point[0] - motion.dx, point[1] - motion.dy
    t = math.radians(-motion.degrees_clockwise)
    x, y = x * math.cos(t) + y * math.sin(t), -x * math.sin(t) + y * math.cos(t)
    return (-x if motion.mirrored else x, y)
