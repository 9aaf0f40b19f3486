"""Metamorphic transformations of mpbs scenarios (plain JSON data) and the canonical form of mpbs answers.

Each transformation returns the new scenario data, the new question parameters, and a :class:`Back` that maps what
an answer to the new position names (hex labels, facings, unit ids, map edges) back to the original's names.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from rulesref.engine.hexgrid import HexMap, hex_add
from rulesref.engine.mpbs.params import PARAMS

from metamorphic import (
    MIRROR_LEFT_RIGHT,
    MIRROR_TOP_BOTTOM,
    Back,
    HexTransform,
    Names,
    deep_copy,
    fresh_ids,
    hexmap_of,
    map_data,
    rotation,
    swap_pairs,
)

Params = dict[str, Any]
Question = tuple[str, Params]


@dataclass
class Transformed:
    data: dict[str, Any]
    questions: list[Question]
    back: Back
    compare_findings_as_set: bool = False


# --- moving the hexes ---------------------------------------------------------------------------------------------


def _is_column_heading(unit: Mapping[str, Any]) -> bool:
    return len(unit.get("hexes", [])) == 2 and (unit.get("formation") or {}).get("name", "").lower() == "column"


def move_hexes(data: Mapping[str, Any], questions: list[Question], t: HexTransform) -> Transformed:
    """The position with every hex, facing and map edge moved by ``t``."""
    new = deep_copy(data)
    m = map_data(data, t.new)
    m["terrain"] = {t.label(k): v for k, v in (data["map"].get("terrain") or {}).items()}
    for key in ("los_blocking", "dead_zones"):
        if key in data["map"]:
            m[key] = [t.label(x) for x in data["map"][key]]
    if "friendly_edges" in data["map"]:
        # A turn by 60° has no image of a map edge: such a move is only made of positions no answer of which
        # depends on an edge, and the edges are kept.
        m["friendly_edges"] = {side: [t.edges[e] or e for e in edges]
                               for side, edges in data["map"]["friendly_edges"].items()}
    new["map"] = m
    for unit in new["units"]:
        heading = _is_column_heading(unit)
        if "hexes" in unit:
            unit["hexes"] = [t.label(x) for x in unit["hexes"]]
        if "facing" in unit:
            unit["facing"] = t.heading(unit["facing"]) if heading else t.facing(unit["facing"])
    event = (new.get("moment") or {}).get("event")
    if event and "from" in event:
        event["from"] = [t.label(x) for x in event["from"]]
    moved = [(q, _params(q, p, hexes=t.label, facing=t.facing)) for q, p in questions]
    # Answers name vertices (a column's heading is only read, never answered).
    back = Back(labels=Back.inverse(t.labels), facings=Back.inverse(t.vertices), edges=Back.inverse(t.edges),
                directions=Back.inverse(t.directions), turn_sign=-1.0 if t.mirrored else 1.0)
    return Transformed(new, moved, back)


def _params(question: str, params: Params, *, hexes: Callable[[str], str] = lambda x: x,
            facing: Callable[[str], str] = lambda x: x, names: Names | None = None,
            shuffle: random.Random | None = None) -> Params:
    out = dict(params)
    types = {p.name: p.type for p in PARAMS[question]}
    for name, value in params.items():
        kind = types.get(name)
        if value in (None, ""):
            continue
        if kind == "hex":
            out[name] = hexes(value)
        elif kind == "facing":
            out[name] = facing(value)
        elif kind == "unit" and names is not None:
            out[name] = names.unit(value)
        elif kind == "wing" and names is not None:
            out[name] = names.wing(value)
        elif kind == "units":
            items = value if isinstance(value, list) else [v.strip() for v in value.split(",") if v.strip()]
            if names is not None:
                items = [names.unit(v) for v in items]
            if shuffle is not None:
                items = shuffle.sample(items, len(items))
            out[name] = items
    return out


def hex_transforms(data: Mapping[str, Any]) -> dict[str, HexTransform]:
    """The isometries of a rectangular map onto a rectangular map: two mirrors, the half turn, a quarter turn each
    way (which changes the layout), and a shift of the labels (first column and row)."""
    old = hexmap_of(data)
    found = {
        "mirror-left-right": HexTransform.of("mirror-left-right", old, MIRROR_LEFT_RIGHT),
        "mirror-top-bottom": HexTransform.of("mirror-top-bottom", old, MIRROR_TOP_BOTTOM),
        "rotate-180": HexTransform.of("rotate-180", old, rotation(180)),
        "rotate-90": HexTransform.of("rotate-90", old, rotation(90)),
        "rotate-270": HexTransform.of("rotate-270", old, rotation(270)),
    }
    shifted = HexMap(old.columns, old.rows, old.layout, old.offset, old.first_column + 7, old.first_row + 93)
    found["relabel"] = HexTransform.of("relabel", old, (1.0, 0.0, 0.0, 1.0), new=shifted)
    return found


def open_ground_transforms(data: Mapping[str, Any], centre: str, radius: int) -> dict[str, HexTransform]:
    """Turns by 60° steps about ``centre`` and translations, inside one big map: for positions whose answers
    depend on no map edge (every hex they can reach lies well inside the map, before and after)."""
    old = hexmap_of(data)
    c = old.parse(centre)
    found = {}
    for k in (1, 2, 4, 5):
        found[f"rotate-{60 * k}"] = HexTransform.of(f"rotate-{60 * k}", old, rotation(60 * k), new=old,
                                                    anchor=(centre, centre), require_all=False)
    for name, (dq, dr) in {"translate-a": (3, -2), "translate-b": (-4, 1)}.items():
        target = old.label(hex_add(c, type(c)(dq, dr)))
        found[name] = HexTransform.of(name, old, (1.0, 0.0, 0.0, 1.0), new=old, anchor=(centre, target),
                                      require_all=False)
    return found


def within(data: Mapping[str, Any], t: HexTransform) -> bool:
    """Whether every hex the position names lands on the new map (open-ground transformations)."""
    named = set((data["map"].get("terrain") or {})) | set(data["map"].get("los_blocking", [])) | set(
        data["map"].get("dead_zones", []))
    for unit in data["units"]:
        named.update(unit.get("hexes", []))
    return all(label in t.labels for label in named)


# --- names, order, colours, a far unit ----------------------------------------------------------------------------


def rename(data: Mapping[str, Any], questions: list[Question], rnd: random.Random, *,
           swap_sides: bool = False, reorder: bool = True) -> Transformed:
    """Every unit and wing renamed (so that sorting by id reorders them), every list shuffled; with
    ``swap_sides`` only the sides' names change (blue plays red's part and red blue's)."""
    names = Names()
    if swap_sides:
        sides = [u["side"] for u in data["units"]] + [w["side"] for w in data.get("wings", [])] + list(
            (data["map"].get("friendly_edges") or {}))
        names.sides = swap_pairs(sides)
    else:
        names.units = fresh_ids([u["id"] for u in data["units"]], rnd, "u-")
        names.wings = fresh_ids([w["id"] for w in data.get("wings", [])], rnd, "w-")
    new = deep_copy(data)
    shuffle = rnd if reorder else None
    for unit in new["units"]:
        unit["id"] = names.unit(unit["id"])
        unit["side"] = names.side(unit["side"])
        if "wing" in unit:
            unit["wing"] = names.wing(unit["wing"])
    for wing in new.get("wings", []):
        wing["id"] = names.wing(wing["id"])
        wing["side"] = names.side(wing["side"])
        if wing.get("commander"):
            wing["commander"] = names.unit(wing["commander"])
    m = new["map"]
    if "friendly_edges" in m:
        m["friendly_edges"] = {names.side(s): list(e) for s, e in m["friendly_edges"].items()}
    moment = new.get("moment") or {}
    if "active_side" in moment:
        moment["active_side"] = names.side(moment["active_side"])
    if "active_wing" in moment:
        moment["active_wing"] = names.wing(moment["active_wing"])
    event = moment.get("event")
    if event:
        event["unit"] = names.unit(event["unit"])
        for key in ("reacted", "combatants"):
            if key in event:
                event[key] = [names.unit(x) for x in event[key]]
    if shuffle is not None:
        new["units"] = shuffle.sample(new["units"], len(new["units"]))
        if "wings" in new:
            new["wings"] = shuffle.sample(new["wings"], len(new["wings"]))
        m["terrain"] = dict(shuffle.sample(list((m.get("terrain") or {}).items()), len(m.get("terrain") or {})))
        for key in ("los_blocking", "dead_zones"):
            if key in m:
                m[key] = shuffle.sample(m[key], len(m[key]))
        if event:
            for key in ("reacted", "combatants", "from"):
                if key in event:
                    event[key] = shuffle.sample(event[key], len(event[key]))
    renamed = [(q, _params(q, p, names=names, shuffle=shuffle)) for q, p in questions]
    back = Back(ids={**Back.inverse(names.units), **Back.inverse(names.wings)})
    return Transformed(new, renamed, back)


def extended(data: Mapping[str, Any], questions: list[Question], extra: int = 30) -> Transformed | None:
    """The map widened (or lengthened) on a side no side calls friendly: the baseline for adding a far unit. The
    old hexes keep their place in the picture; an even count of new columns (rows) keeps their shove."""
    old = hexmap_of(data)
    edges = {e for es in (data["map"].get("friendly_edges") or {}).values() for e in es}
    side = next((e for e in ("east", "west", "south", "north") if e not in edges), None)
    if side is None:
        return None  # every edge is someone's friendly edge: no side to widen without changing an answer
    extra += extra % 2
    wide = side in ("east", "west")
    new = HexMap(old.columns + (extra if wide else 0), old.rows + (0 if wide else extra), old.layout, old.offset,
                 old.first_column, old.first_row)
    first = new.hex_at(extra if side == "west" else 0, extra if side == "north" else 0)
    t = HexTransform.of("extend", old, (1.0, 0.0, 0.0, 1.0), new=new,
                        anchor=(old.label(old.hex_at(0, 0)), new.label(first)))
    moved = move_hexes(data, questions, t)
    moved.data["far_side"] = side  # read and removed by with_far_unit
    return moved


def with_far_unit(base: Transformed, kind: str, rnd: random.Random) -> Transformed:
    """``base`` (an extended map) with one more unit at the far end of the added columns: on the active side (or
    the first side), in no wing, so that no rule counts it, beyond the reach of any move."""
    data = deep_copy(base.data)
    side = data.pop("far_side")
    base.data.pop("far_side", None)
    hexmap = hexmap_of(data)
    column = {"east": hexmap.columns - 1, "west": 0}.get(side, rnd.randrange(hexmap.columns))
    row = {"south": hexmap.rows - 1, "north": 0}.get(side, rnd.randrange(hexmap.rows))
    owner = (data.get("moment") or {}).get("active_side") or sorted(u["side"] for u in data["units"])[0]
    unit = {"id": "zz-far", "side": owner, "type": kind, "hexes": [hexmap.label(hexmap.hex_at(column, row))],
            "morale": {"rating": 6}, "movement": {"allowance": 4}}
    if kind not in ("leader", "wagon"):
        unit["facing"] = hexmap.vertex_name(rnd.randrange(6))
    data["units"].insert(rnd.randrange(len(data["units"]) + 1), unit)
    return Transformed(data, list(base.questions), Back(), compare_findings_as_set=False)


# --- the canonical answer -----------------------------------------------------------------------------------------

FACING_KEYS = frozenset({"facing", "facings", "to", "from"})
DIRECTION_KEYS = frozenset({"heading_from", "heading_to"})  # a column's heading (6.3.4): a direction
EDGE_KEYS = frozenset({"edge", "edges_tied"})
# Lists whose order means something: a path's placements in order.
ORDERED_KEYS = frozenset({"path", "steps"})
# What an answer draws as one of several equal choices, each of which it lists elsewhere with what it leads to
# (an interception's ``choices``, a withdraw's destinations with their costs and facings): the line of sight
# drawn (the verdict says whether some line is clear), the path drawn and where it ends.
REPRESENTATIVE_KEYS = {
    "can-intercept": frozenset({"line_of_sight", "path", "steps", "end"}),
    "interception-chance": frozenset({"line_of_sight", "path", "steps", "end"}),
    "reactions": frozenset({"path"}),
}


def canonical(answer: Mapping[str, Any], back: Back | None = None) -> dict[str, Any]:
    """The answer with every name mapped back and every unordered list sorted: verdict, the findings' clauses and
    statuses (a multiset), and the result without what it draws as one of several equal choices."""
    back = back or Back()
    skip = REPRESENTATIVE_KEYS.get(answer.get("question", ""), frozenset())
    return {
        "verdict": answer["verdict"],
        "findings": sorted((f["clause"], f["status"]) for f in answer["findings"]),
        "result": _walk(answer["result"], back, None, skip),
    }


def _name(value: str, back: Back, key: str | None) -> str:
    if key in FACING_KEYS and value in back.facings:
        return back.facings[value]
    if key in DIRECTION_KEYS and value in back.directions:
        return back.directions[value]
    if key in EDGE_KEYS and value in back.edges:
        return back.edges[value]
    if value in back.labels:
        return back.labels[value]
    return back.ids.get(value, value)


# Signed turns (a reaction's vertices: negative anticlockwise), which a mirror turns the other way.
SIGNED_TURN_KEYS = frozenset({"vertices"})


def _walk(value: Any, back: Back, key: str | None, skip: frozenset[str] = frozenset()) -> Any:
    if isinstance(value, str):
        return _name(value, back, key)
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in skip:
                continue
            name = back.edges.get(k, k) if key == "by_edge" else back.ids.get(k, k)
            if k in SIGNED_TURN_KEYS and key == "facing_change" and isinstance(v, (int, float)):
                out[name] = v * back.turn_sign
                continue
            out[name] = _walk(v, back, k, skip)
        return out
    if isinstance(value, list):
        items = [_walk(v, back, key if key in FACING_KEYS | EDGE_KEYS | {"facing_change"} else None, skip)
                 for v in value]
        if key in ORDERED_KEYS:
            return items
        return sorted(items, key=repr)
    return value


# --- generated positions ------------------------------------------------------------------------------------------

TYPES = ("cavalry", "cavalry", "light-infantry", "heavy-infantry", "heavy-infantry", "artillery", "leader", "wagon")
ORDERS = ("charge", "make-ready", "receive-charge", "rally")
TERRAIN = ("clear",) * 6 + ("woods", "rough", "rough", "water", "marsh")
TERRAIN_TYPES = {  # formation hits for the generated ground, so that paths differ in them
    "rough": {"formation_hits": {"cavalry": 1, "light-infantry": 0, "heavy-infantry": 1, "artillery": 0,
                                 "limbered-artillery": 0, "leader": 0, "wagon": 0}, "source": "test"},
    "woods": {"formation_hits": {"cavalry": 1, "light-infantry": 0, "heavy-infantry": 1, "artillery": 0,
                                 "limbered-artillery": 0, "leader": 0, "wagon": 0}, "source": "test"},
    "marsh": {"formation_hits": {"cavalry": 2, "light-infantry": 1, "heavy-infantry": 2, "artillery": 0,
                                 "limbered-artillery": 0, "leader": 0, "wagon": 0}, "source": "test"},
}
INTERCEPTION_ROWS = [{"order": "make-ready", "success": [0, 3]}, {"order": "receive-charge", "success": [0, 4]},
                     {"order": "rally", "success": None}]
QUESTION_NAMES = ("facing-cost", "orders-change", "mandatory-rally", "reactions", "can-intercept",
                  "interception-chance", "retreat", "advance")
OPEN_MAP = 30  # columns and rows of the open-ground map
OPEN_RADIUS = 4  # its units stand within this many hexes of the centre, its terrain within OPEN_RADIUS + 2


def position(rnd: random.Random, open_ground: bool = False) -> tuple[dict[str, Any], list[Question], str | None]:
    """A random position (plain data), a question of each kind about it, and (open ground) its centre hex.

    Units stand close together, so that reactions, interceptions, retreats and advances arise; the ground mixes
    clear hexes with terrain that costs more, causes formation hits, blocks sight or cannot be entered.
    """
    from rulesref.engine.hexgrid import adjacent_hexes, hex_distance, hex_neighbor, two_hex_axis

    layout, offset = rnd.choice(("pointy", "flat")), rnd.choice(("odd", "even"))
    if open_ground:
        columns = rows = OPEN_MAP
    else:
        columns, rows = rnd.randint(5, 9), rnd.randint(5, 9)
    hexmap = HexMap(columns, rows, layout, offset)
    centre = hexmap.hex_at(columns // 2, rows // 2)
    spot = [h for h in hexmap.hexes() if not open_ground or hex_distance(h, centre) <= OPEN_RADIUS]
    ground = [h for h in hexmap.hexes() if not open_ground or hex_distance(h, centre) <= OPEN_RADIUS + 2]
    terrain = {hexmap.label(h): kind for h in ground if (kind := rnd.choice(TERRAIN)) != "clear"}
    free = set(spot)
    units: list[dict[str, Any]] = []
    for i in range(rnd.randint(2, 7)):
        side = "blue" if i % 2 == 0 else "red"
        kind = rnd.choice(TYPES)
        facing = rnd.randrange(6)
        if not free:
            break
        anchor = rnd.choice(sorted(free, key=hexmap.label))
        cells = [anchor]
        if kind in ("cavalry", "light-infantry", "heavy-infantry") and rnd.random() < 0.35:
            second = hex_neighbor(anchor, two_hex_axis(facing))
            if second in free:
                cells.append(second)
        free -= set(cells)
        for h in cells:
            terrain.pop(hexmap.label(h), None) if terrain.get(hexmap.label(h)) == "water" else None
        unit: dict[str, Any] = {
            "id": f"{side[0].upper()}{i}", "side": side, "wing": f"W-{side}", "type": kind,
            "hexes": [hexmap.label(h) for h in cells],
            "morale": {"state": rnd.choice(("normal", "normal", "normal", "shaken", "broken")),
                       "rating": rnd.randint(5, 9)},
            "formation": {"name": rnd.choice(("line", "line", "column")) if len(cells) == 1 else "line",
                          "state": rnd.choice(("normal", "normal", "shaken", "disordered")),
                          "hits_before_disorder": rnd.randint(0, 2)},
            "movement": {"allowance": rnd.randint(2, 7), "spent": rnd.choice((0, 0, 1, 2))},
        }
        if kind not in ("leader", "wagon"):
            unit["facing"] = hexmap.vertex_name(facing)
        if kind == "artillery":
            unit["limbered"] = rnd.random() < 0.2
            unit["fired"] = rnd.random() < 0.2
        if kind == "leader":
            unit["leadership"] = rnd.randint(0, 3)
            unit["wing"] = f"W-{side}"
        if kind == "cavalry" and rnd.random() < 0.1:
            unit["flags"] = {"interception_attempted": True}
        if rnd.random() < 0.15:
            unit["order"] = rnd.choice(ORDERS)
        units.append(unit)
    blue = [u for u in units if u["side"] == "blue"]
    red = [u for u in units if u["side"] == "red"]
    edges = ("north", "south", "west", "east")
    data: dict[str, Any] = {
        "book": "mpbs",
        "map": {"columns": columns, "rows": rows, "layout": layout, "offset": offset, "terrain": terrain,
                "dead_zones": [hexmap.label(h) for h in ground if rnd.random() < 0.03] if rnd.random() < 0.8 else [],
                "friendly_edges": {"blue": [rnd.choice(edges)], "red": rnd.sample(edges, rnd.choice((1, 1, 2)))}},
        "terrain_types": TERRAIN_TYPES,
        "tables": {"hedgehog_formations": ["line"], "interception": {"rows": INTERCEPTION_ROWS}},
        "wings": [{"id": "W-blue", "side": "blue", "order": rnd.choice(ORDERS)},
                  {"id": "W-red", "side": "red", "order": rnd.choice(ORDERS)}],
        "units": units,
        "moment": {"active_side": "blue", "active_wing": "W-blue",
                   "phase": rnd.choice(("orders-change", "actions", "actions"))},
    }
    if rnd.random() < 0.3:
        del data["map"]["dead_zones"]
    leaders = [u for u in blue if u["type"] == "leader"]
    if leaders:
        data["wings"][0]["commander"] = leaders[0]["id"]
    movers = [u for u in blue if u["type"] not in ("leader", "wagon")] or blue
    if movers:
        mover = rnd.choice(movers)
        action = rnd.choice(("move", "move", "move", "change-facing", "advance", "fire", "retreat"))
        event: dict[str, Any] = {"unit": mover["id"], "action": action, "mp": 1}
        there = [hexmap.parse(x) for x in mover["hexes"]]
        step = rnd.randrange(6)
        came = [hex_neighbor(h, step) for h in there]
        if all(h in hexmap for h in came) and action in ("move", "advance"):
            event["from"] = [hexmap.label(h) for h in came]
        data["moment"]["event"] = event

    def pick(pool):
        return rnd.choice(pool)["id"] if pool else rnd.choice(units)["id"]

    def adjacent_pair():
        pairs = [(r, b) for r in red for b in blue
                 if set(adjacent_hexes([hexmap.parse(x) for x in r["hexes"]])) & {hexmap.parse(x) for x in b["hexes"]}]
        return rnd.choice(pairs) if pairs else (rnd.choice(units), rnd.choice(units))

    cavalry = [u for u in red if u["type"] == "cavalry"]
    loser, winner = adjacent_pair()
    winners = [b for b in blue if set(adjacent_hexes([hexmap.parse(x) for x in b["hexes"]]))
               & {hexmap.parse(x) for x in loser["hexes"]}] or [winner]
    facer = rnd.choice(units)
    facing_params: Params = {"unit": facer["id"], "facing": hexmap.vertex_name(rnd.randrange(6))}
    if len(facer.get("hexes", [])) == 2 and rnd.random() < 0.5:
        facing_params["pivot"] = rnd.choice(facer["hexes"])
    questions: list[Question] = [
        ("facing-cost", facing_params),
        ("orders-change", {"to": rnd.choice(ORDERS)}),
        ("mandatory-rally", {"wing": rnd.choice(("W-blue", "W-red"))}),
        ("reactions", {} if rnd.random() < 0.5 else {"unit": pick(red)}),
        ("can-intercept", {"unit": pick(cavalry)}),
        ("interception-chance", {"unit": pick(cavalry)}),
        ("retreat", {"unit": loser["id"], "result": rnd.choice(("broken", "shaken", "shaken")),
                     "fought": winner["id"], "hexes": rnd.choice((1, 2))}),
        ("advance", {"vacated": [loser["id"]], "winners": [w["id"] for w in winners],
                     "role": rnd.choice(("attacker", "defender"))}),
    ]
    return data, questions, (hexmap.label(centre) if open_ground else None)
