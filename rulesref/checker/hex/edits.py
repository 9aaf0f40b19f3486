"""Edits of a hex-map scenario (plain JSON data), one function per thing a player does in the editor.

Each edit takes the scenario data and returns new data (the input is never changed); it raises :class:`EditError`
with a message for the player when the edit makes no sense (no unit selected, a hex off the map). Whether the
result is a valid scenario is then the engine's call: the view validates every result with ``load_scenario`` and
keeps the old state, showing the problems, when it is not.
"""
from __future__ import annotations

import math
import re
from typing import Any

from django.utils.translation import gettext as _

from rulesref.engine.hexgrid import (
    DIRECTION_NAMES,
    VERTEX_NAMES,
    Hex,
    HexMap,
    MapEdge,
    direction_to,
    hex_add,
    hex_neighbor,
    hex_subtract,
    hex_to_pixel,
    vertex_point,
)
from rulesref.engine.mpbs.scenario import TWO_HEX_TYPES as ENGINE_TWO_HEX_TYPES, hexmap_of, sides_of
from rulesref.engine.mpbs import limits as mpbs_limits
from rulesref.engine.mpbs.terms import Order, UnitType

from ..editing import EditError, copied as _copy, unit_index

# The game's unit types, orders and map edges are the engine's; a new unit's id starts with its type's prefix.
UNIT_TYPES = tuple(t.value for t in UnitType)
TWO_HEX_TYPES = tuple(t.value for t in UnitType if t in ENGINE_TWO_HEX_TYPES)
ORDERS = tuple(o.value for o in Order)
EDGES = tuple(e.value for e in MapEdge)
TYPE_PREFIX = {"cavalry": "CAV", "light-infantry": "LI", "heavy-infantry": "HI", "artillery": "ART",
               "leader": "LDR", "wagon": "WAG"}
LIMITS = mpbs_limits()  # the most a scenario may hold, as the engine's schema writes it
MAX_COLUMNS, MAX_ROWS, MAX_UNITS = LIMITS["columns"], LIMITS["rows"], LIMITS["units"]


def blank(book: str = "mpbs") -> dict[str, Any]:
    """A new position: an empty 12 x 10 map, two sides with one wing each, their friendly edges south and north."""
    return {
        "book": book,
        "title": "",
        "map": {"columns": 12, "rows": 10, "layout": "pointy", "offset": "odd", "dead_zones": [],
                "friendly_edges": {"blue": ["south"], "red": ["north"]}},
        "wings": [{"id": "B1", "side": "blue", "order": "charge"}, {"id": "R1", "side": "red", "order": "charge"}],
        "units": [],
    }


def units_at(data: dict[str, Any], label: str) -> list[dict[str, Any]]:
    return [u for u in data.get("units") or [] if label in (u.get("hexes") or [])]


def _parse(hexmap, label: str) -> Hex:
    try:
        return hexmap.parse(label)
    except ValueError:
        raise EditError(_("Hex %(hex)s is not on this map.") % {"hex": label}) from None


def sides(data: dict[str, Any]) -> list[str]:
    """The scenario's sides (units, wings, friendly edges), or blue and red on a map that names none."""
    return sides_of(data) or ["blue", "red"]


def _angle_of_edge(edge: str) -> float:
    return {"north": -90.0, "south": 90.0, "west": 180.0, "east": 0.0}.get(edge, -90.0)


def default_facing(data: dict[str, Any], side: str) -> int:
    """The vertex pointing most nearly away from the side's friendly edge (toward the enemy)."""
    hexmap = hexmap_of(data)
    edges = ((data.get("map") or {}).get("friendly_edges") or {}).get(side) or []
    wanted = _angle_of_edge(edges[0]) + 180 if edges else (-90.0 if side != "red" else 90.0)
    angles = vertex_angles(hexmap.layout)

    def gap(v: int) -> float:
        return abs((angles[v] - wanted + 540) % 360 - 180)

    return min(range(6), key=gap)


def vertex_angles(layout: str) -> list[float]:
    """The angle (degrees, y down the page) from a hex's centre to each of its vertices, for a map layout."""
    pixels = HexMap(columns=2, rows=2, layout=layout).pixel_layout()
    centre = hex_to_pixel(pixels, Hex(0, 0))
    points = [vertex_point(pixels, Hex(0, 0), v) for v in range(6)]
    return [math.degrees(math.atan2(p.y - centre.y, p.x - centre.x)) for p in points]


def new_unit_id(data: dict[str, Any], kind: str) -> str:
    prefix = TYPE_PREFIX.get(kind, "U")
    taken = {u.get("id") for u in data.get("units") or []}
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def place_unit(data: dict[str, Any], label: str, side: str, kind: str, two_hex: bool = False) -> tuple[dict, str]:
    """A new unit of ``side`` and ``kind`` in hex ``label``, facing away from its friendly edge, in its side's
    first wing; its id."""
    if kind not in UNIT_TYPES:
        raise EditError(_("Choose a unit type."))
    side = (side or "").strip()
    if not side:
        raise EditError(_("Choose a side."))
    if len(data.get("units") or []) >= MAX_UNITS:
        raise EditError(_("A scenario holds at most %(n)s units.") % {"n": MAX_UNITS})
    hexmap = hexmap_of(data)
    first = _parse(hexmap, label)
    out = _copy(data)
    facing = default_facing(out, side)
    unit: dict[str, Any] = {"id": new_unit_id(out, kind), "side": side, "type": kind}
    wing = next((w["id"] for w in out.get("wings") or [] if w.get("side") == side), None)
    if wing:
        unit["wing"] = wing
    unit["hexes"] = [label] + ([_second_half(out, hexmap, first, facing)] if two_hex and kind in TWO_HEX_TYPES else [])
    if kind not in ("leader", "wagon"):
        unit["facing"] = hexmap.vertex_name(facing)
    out.setdefault("units", []).append(unit)
    return out, unit["id"]


def _second_half(data: dict[str, Any], hexmap: HexMap, first: Hex, facing: int) -> str:
    """Where the other half of a two-hex unit placed in ``first`` goes: the clicked hex is the left half as the
    unit faces, and the right half follows; the left when there is no room."""
    for step in (5, 2):
        second = hex_neighbor(first, facing + step)
        if second in hexmap and not units_at(data, hexmap.label(second)):
            return hexmap.label(second)
    raise EditError(_("There is no free neighbouring hex along the row for the second half of a two-hex unit."))


def move_unit(data: dict[str, Any], unit_id: str, label: str) -> dict[str, Any]:
    """The unit moved so that its first hex is ``label``; a two-hex unit keeps its shape and facing."""
    out = _copy(data)
    i = unit_index(out, unit_id)
    unit = out["units"][i]
    hexmap = hexmap_of(out)
    target = _parse(hexmap, label)
    hexes = [_parse(hexmap, label_) for label_ in unit.get("hexes") or []]
    if not hexes:
        unit["hexes"] = [label]
        for key in ("eliminated", "off_map", "off_map_pursuer", "reinforcement"):
            (unit.get("flags") or {}).pop(key, None)
        return out
    if target in hexes:
        return out
    delta = hex_subtract(target, hexes[0])
    moved = [hex_add(h, delta) for h in hexes]
    if any(h not in hexmap for h in moved):
        raise EditError(_("%(unit)s does not fit on the map there.") % {"unit": unit_id})
    unit["hexes"] = [hexmap.label(h) for h in moved]
    return out


def rotate_unit(data: dict[str, Any], unit_id: str, steps: int, pivot: str | None = None) -> dict[str, Any]:
    """Turn the unit's facing ``steps`` vertices (clockwise positive). A two-hex unit wheels: its pivot half
    (``pivot`` when it is one of its hexes, else its first hex) stays and the other half moves with the facing. A
    two-hex unit in column faces along its row: any turn sends it the other way."""
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    hexmap = hexmap_of(out)
    facing = str(unit.get("facing") or "").strip().upper()
    if not facing:
        raise EditError(_("%(unit)s has no facing to turn.") % {"unit": unit_id})
    hexes = [_parse(hexmap, label_) for label_ in unit.get("hexes") or []]
    if len(hexes) == 2 and str((unit.get("formation") or {}).get("name", "")).lower() == "column":
        dirs = DIRECTION_NAMES[hexmap.layout]
        current = dirs.index(facing) if facing in dirs else 0
        unit["facing"] = dirs[(current + 3) % 6] if steps % 6 else dirs[current]
        return out
    names = VERTEX_NAMES[hexmap.layout]
    # Clockwise on screen is the vertices' decreasing order (they run counter-clockwise from the east).
    new = ((names.index(facing) if facing in names else 0) - steps) % 6
    unit["facing"] = names[new]
    if len(hexes) == 2 and steps % 3:
        unit["hexes"] = _wheeled(hexmap, unit_id, unit["hexes"], hexes, new, pivot)
    return out


def _wheeled(hexmap: HexMap, unit_id: str, labels: list[str], hexes: list[Hex], facing: int,
             pivot: str | None) -> list[str]:
    """A two-hex unit's hexes after it wheels to ``facing`` about its pivot half: the other half lies along the
    row across the new facing, on the side nearest where it was."""
    keep = labels.index(pivot) if pivot in labels else 0
    anchor, other = hexes[keep], hexes[1 - keep]
    options = sorted([hex_neighbor(anchor, facing + 2), hex_neighbor(anchor, facing + 5)],
                     key=lambda h: _pixel_gap(h, other))
    placed = next((h for h in options if h in hexmap), None)
    if placed is None:
        raise EditError(_("%(unit)s cannot wheel there: the other half would leave the map.") % {"unit": unit_id})
    return [labels[keep], hexmap.label(placed)] if keep == 0 else [hexmap.label(placed), labels[keep]]


def _pixel_gap(a: Hex, b: Hex) -> float:
    return math.dist((a.q + a.r / 2, a.r * 0.866), (b.q + b.r / 2, b.r * 0.866))


def remove_unit(data: dict[str, Any], unit_id: str) -> dict[str, Any]:
    out = _copy(data)
    i = unit_index(out, unit_id)
    del out["units"][i]
    _forget_unit(out, unit_id)
    return out


def _forget_unit(out: dict[str, Any], unit_id: str) -> None:
    """Drop references to a removed unit, so removing a unit never leaves the scenario invalid."""
    moment = out.get("moment") or {}
    event = moment.get("event")
    if isinstance(event, dict):
        if event.get("unit") == unit_id:
            moment.pop("event")
        else:
            for key in ("reacted", "combatants"):
                if unit_id in event.get(key, []):
                    event[key] = [x for x in event[key] if x != unit_id]
    for w in out.get("wings") or []:
        if w.get("commander") == unit_id:
            w.pop("commander")


def rename_references(out: dict[str, Any], old: str, new: str) -> None:
    moment = out.get("moment") or {}
    event = moment.get("event")
    if isinstance(event, dict):
        if event.get("unit") == old:
            event["unit"] = new
        for key in ("reacted", "combatants"):
            if old in event.get(key, []):
                event[key] = [new if x == old else x for x in event[key]]
    for w in out.get("wings") or []:
        if w.get("commander") == old:
            w["commander"] = new


def paint_terrain(data: dict[str, Any], label: str, kind: str) -> dict[str, Any]:
    """Hex ``label`` gets terrain ``kind``; painting a hex with the terrain it has returns it to the default."""
    out = _copy(data)
    hexmap = hexmap_of(out)
    _parse(hexmap, label)
    kind = (kind or "").strip()
    if not kind:
        raise EditError(_("Choose a terrain type to paint."))
    m = out.setdefault("map", {})
    terrain = m.setdefault("terrain", {})
    default = m.get("terrain_default", "clear")
    if terrain.get(label) == kind or (label not in terrain and kind == default):
        terrain.pop(label, None)
    else:
        terrain[label] = kind
    if not terrain:
        m.pop("terrain")
    return out


def toggle_hex_list(data: dict[str, Any], label: str, key: str) -> dict[str, Any]:
    """Add or remove ``label`` in map.dead_zones or map.los_blocking."""
    out = _copy(data)
    hexmap = hexmap_of(out)
    _parse(hexmap, label)
    m = out.setdefault("map", {})
    items = list(m.get(key) or [])
    if label in items:
        items.remove(label)
    else:
        items.append(label)
        items.sort()
    if items or key == "dead_zones":
        m[key] = items
    else:
        m.pop(key, None)
    return out


def set_event(data: dict[str, Any], unit_id: str, action: str, from_hexes: list[str], mp: float | None) -> dict:
    """The triggering event: ``unit_id`` does ``action`` where it stands now; its side and wing become active."""
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    moment = out.setdefault("moment", {})
    event: dict[str, Any] = {"unit": unit_id, "action": action}
    if from_hexes:
        event["from"] = from_hexes
    if mp is not None:
        event["mp"] = mp
    moment["event"] = event
    moment["active_side"] = unit.get("side")
    if unit.get("wing"):
        moment["active_wing"] = unit["wing"]
    else:
        moment.pop("active_wing", None)
    moment.setdefault("phase", "actions")
    return out


def clear_event(data: dict[str, Any]) -> dict[str, Any]:
    out = _copy(data)
    (out.get("moment") or {}).pop("event", None)
    if out.get("moment") == {}:
        out.pop("moment")
    return out


def step_back(data: dict[str, Any], unit: dict[str, Any]) -> list[str]:
    """The hexes one step behind a unit (where it came from if it just moved straight ahead)."""
    hexmap = hexmap_of(data)
    try:
        hexes = [hexmap.parse(label_) for label_ in unit.get("hexes") or []]
        facing = hexmap.parse_vertex(unit["facing"])
    except (KeyError, ValueError, TypeError):
        return []
    back = (facing + 3) % 6
    moved = [hex_neighbor(h, back) for h in hexes]
    if any(h not in hexmap for h in moved):
        moved = [hex_neighbor(h, back + 1) for h in hexes]
    if any(h not in hexmap for h in moved):
        return []
    return [hexmap.label(h) for h in moved]


LABEL_LIST = re.compile(r"[\s,;]+")


def parse_labels(text: str) -> list[str]:
    return [t for t in LABEL_LIST.split(text or "") if t]


def valid_facings(data: dict[str, Any], unit: dict[str, Any]) -> list[str]:
    """The facings a unit may be given where it stands: every vertex, or for a two-hex unit the two across its row
    (along its row, as directions, in column)."""
    hexmap = hexmap_of(data)
    names = VERTEX_NAMES[hexmap.layout]
    hexes = unit.get("hexes") or []
    if len(hexes) != 2:
        return list(names)
    try:
        a, b = hexmap.parse(hexes[0]), hexmap.parse(hexes[1])
    except ValueError:
        return list(names)
    d = direction_to(a, b)
    if d is None:
        return list(names)
    if str((unit.get("formation") or {}).get("name", "")).lower() == "column":
        dirs = DIRECTION_NAMES[hexmap.layout]
        return [dirs[d], dirs[(d + 3) % 6]]
    return [names[v] for v in range(6) if v % 3 == (d - 2) % 3]


def add_wing(data: dict[str, Any], wing_id: str, side: str, order: str) -> dict[str, Any]:
    """A new wing of ``side`` under ``order``."""
    if any(isinstance(w, dict) and w.get("id") == wing_id for w in data.get("wings") or []):
        raise EditError(_("There is already a wing %(id)s.") % {"id": wing_id})
    out = _copy(data)
    out.setdefault("wings", []).append({"id": wing_id, "side": side, "order": order})
    return out


def set_wing_order(data: dict[str, Any], wing_id: str, order: str) -> dict[str, Any]:
    if order not in ORDERS:
        raise EditError(_("Choose an order."))
    out = _copy(data)
    for w in out.get("wings") or []:
        if w.get("id") == wing_id:
            w["order"] = order
            return out
    raise EditError(_("No wing %(id)s.") % {"id": wing_id})


def remove_wing(data: dict[str, Any], wing_id: str) -> dict[str, Any]:
    """The scenario without the wing; its units belong to no wing, and it is no longer the active wing."""
    out = _copy(data)
    wings = [w for w in out.get("wings") or [] if w.get("id") != wing_id]
    if len(wings) == len(out.get("wings") or []):
        raise EditError(_("No wing %(id)s.") % {"id": wing_id})
    out["wings"] = wings
    for u in out.get("units") or []:
        if u.get("wing") == wing_id:
            u.pop("wing")
    if (out.get("moment") or {}).get("active_wing") == wing_id:
        out["moment"].pop("active_wing")
    return out


def set_moment(data: dict[str, Any], phase: str, wing_has_acted: bool = False, extended_activation: bool = False,
               wing_passes: bool = False) -> dict[str, Any]:
    """The phase of play, whether the active wing has acted, whether its activation was extended (9.3.1 note: a new
    activation) and whether the active player passes (5.8); the format leaves out what is not said."""
    out = _copy(data)
    moment = out.setdefault("moment", {})
    for key, value in (("phase", phase), ("wing_has_acted", bool(wing_has_acted)),
                       ("extended_activation", bool(extended_activation)), ("wing_passes", bool(wing_passes))):
        if value:
            moment[key] = value
        else:
            moment.pop(key, None)
    if not moment:
        out.pop("moment")
    return out
