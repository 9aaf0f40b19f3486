"""Edits of a tabletop scenario (t9a: units on rectangular bases, in inches), one function per thing a player does.

Each edit takes the scenario data and returns new data (the input is never changed); it raises
:class:`~rulesref.checker.editing.EditError` when the edit makes no sense (no unit selected, a number that is not a
number). Whether the result is a valid scenario (on the board, not overlapping, …) is the engine's call.
"""
from __future__ import annotations

import math
import re
from typing import Any

from django.utils.translation import gettext as _

from rulesref.engine.t9a import limits as t9a_limits
from rulesref.engine.t9a.geometry import UnitBoundary
from rulesref.engine.t9a.scenario import UnitState

from .. import words
from ..editing import EditError, copied as _copy, unit_index

LIMITS = t9a_limits()  # the most a scenario may hold, as the engine's schema writes it
MAX_UNITS = LIMITS["units"]
DEFAULT_BOARD = (48, 48)
DEFAULT_SIZE = (5, 2)
DEFAULT_ADVANCE_RATE = 5
STATES = tuple(s.value for s in UnitState)
DEFAULT_SIDES = ("red", "blue")
ID_RE = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def blank(book: str = "t9a") -> dict[str, Any]:
    """A new position: an empty 48 × 48 inch board."""
    return {"book": book, "title": "", "board": {"width": DEFAULT_BOARD[0], "depth": DEFAULT_BOARD[1]}, "units": []}


def number(value: Any, what: str = "") -> float | int:
    """A finite number from a form or script value, rounded to a hundredth of an inch (ints stay ints)."""
    try:
        x = float(str(value).strip().replace(",", ".").replace("−", "-"))
    except (TypeError, ValueError):
        raise EditError(_("%(what)s is not a number.") % {"what": what or str(value)[:20]}) from None
    if not math.isfinite(x):
        raise EditError(_("%(what)s is not a number.") % {"what": what or str(value)[:20]})
    x = round(x, 2)
    return int(x) if x.is_integer() else x


def sides(data: dict[str, Any]) -> list[str]:
    """The sides of the units on the board, in the order they first appear, and red and blue (the two players)."""
    found = [str(u.get("side")) for u in data.get("units") or [] if isinstance(u, dict) and u.get("side")]
    return list(dict.fromkeys(found + list(DEFAULT_SIDES)))


def new_unit_id(data: dict[str, Any], side: str) -> str:
    prefix = re.sub(r"[^A-Za-z0-9_.-]", "", side)[:20] or "unit"
    taken = {u.get("id") for u in data.get("units") or [] if isinstance(u, dict)}
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def default_facing(data: dict[str, Any], y: float) -> int:
    """A new unit faces the middle of the board: away from the near edge if it stands in the near half."""
    depth = (data.get("board") or {}).get("depth") or DEFAULT_BOARD[1]
    return 0 if y < depth / 2 else 180


def normal_facing(angle: float) -> float | int:
    a = round(float(angle) % 360, 2)
    if a >= 360:
        a = 0
    return int(a) if float(a).is_integer() else a


def place_unit(data: dict[str, Any], x: Any, y: Any, side: str, width: Any = DEFAULT_SIZE[0],
               depth: Any = DEFAULT_SIZE[1], advance_rate: Any = DEFAULT_ADVANCE_RATE,
               missile_weapons: bool | None = None, facing: Any = None) -> tuple[dict[str, Any], str]:
    """A new unit of ``side`` centred on (x, y), facing the middle of the board; its id."""
    side = (side or "").strip()
    if not side:
        raise EditError(_("Choose a side."))
    if len(data.get("units") or []) >= MAX_UNITS:
        raise EditError(_("A scenario holds at most %(n)s units.") % {"n": MAX_UNITS})
    x, y = number(x, "x"), number(y, "y")
    out = _copy(data)
    unit: dict[str, Any] = {
        "id": new_unit_id(out, side), "side": side, "centre": [x, y],
        "facing": normal_facing(number(facing, _("Facing"))) if facing not in (None, "") else default_facing(out, y),
        "width": number(width, _("Width")), "depth": number(depth, _("Depth")),
        "advance_rate": parse_advance_rate(advance_rate),
    }
    if missile_weapons is not None:
        unit["missile_weapons"] = bool(missile_weapons)
    out.setdefault("units", []).append(unit)
    return out, unit["id"]


def move_unit(data: dict[str, Any], unit_id: str, x: Any, y: Any) -> dict[str, Any]:
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    unit["centre"] = [number(x, "x"), number(y, "y")]
    return out


def rotate_unit(data: dict[str, Any], unit_id: str, degrees: Any) -> dict[str, Any]:
    """Turn the unit about its centre, clockwise for positive ``degrees``."""
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    unit["facing"] = normal_facing(float(unit.get("facing") or 0) + float(number(degrees, _("Turn"))))
    return out


def set_facing(data: dict[str, Any], unit_id: str, degrees: Any) -> dict[str, Any]:
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    unit["facing"] = normal_facing(number(degrees, _("Facing")))
    return out


def remove_unit(data: dict[str, Any], unit_id: str) -> dict[str, Any]:
    """The scenario without the unit, and without the declared charges and pursuit entries that name it (and without
    the pursuit when no fled unit is left)."""
    out = _copy(data)
    del out["units"][unit_index(out, unit_id)]
    if "declared_charges" in out:
        out["declared_charges"] = _without(out["declared_charges"], ("charger", "target"), unit_id)
    pursuit = out.get("pursuit")
    if isinstance(pursuit, dict):
        pursuit["fled"] = _without(pursuit.get("fled"), ("unit",), unit_id)
        pursuit["pursuers"] = _without(pursuit.get("pursuers"), ("unit", "pursues"), unit_id)
        if "melee" in pursuit:
            pursuit["melee"] = [m for m in pursuit.get("melee") or [] if m != unit_id]
        if not pursuit["fled"]:  # a pursuit needs a fled unit: none is left
            del out["pursuit"]
    return out


def _without(items: Any, keys: tuple[str, ...], unit_id: str) -> list:
    """The entries of a list that name ``unit_id`` under none of ``keys``."""
    return [item for item in items or [] if not (isinstance(item, dict) and unit_id in (item.get(k) for k in keys))]


def set_board(data: dict[str, Any], width: Any, depth: Any) -> dict[str, Any]:
    out = _copy(data)
    out["board"] = {"width": number(width, _("Width")), "depth": number(depth, _("Depth"))}
    return out


def parse_advance_rate(value: Any) -> float | int | list:
    """``5``, or the models' rates as ``5, 4`` (a list; the lowest is the unit's)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    parts = [p for p in re.split(r"[\s;/]+|,\s+", str(value or "").strip()) if p]
    if not parts:
        raise EditError(_("Give the Advance Rate in inches."))
    rates = [number(p, _("Advance Rate")) for p in parts[:50]]
    return rates[0] if len(rates) == 1 else rates


def advance_rate_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def rename_references(data: dict[str, Any], old: str, new: str) -> None:
    """Unit ``old`` is called ``new`` wherever the declared charges and the pursuit name it (in place)."""
    pursuit = data.get("pursuit") if isinstance(data.get("pursuit"), dict) else {}
    entries = [(c, ("charger", "target")) for c in data.get("declared_charges") or []]
    entries += [(item, ("unit", "pursues")) for item in (pursuit.get("fled") or []) + (pursuit.get("pursuers") or [])]
    for item, keys in entries:
        if isinstance(item, dict):
            item.update({k: new for k in keys if item.get(k) == old})
    if isinstance(pursuit.get("melee"), list):
        pursuit["melee"] = [new if m == old else m for m in pursuit["melee"]]


# --- terrain ------------------------------------------------------------------------------------------------------

MAX_TERRAIN = LIMITS["terrain"]
MAX_POLYGON_POINTS = LIMITS["polygon_vertices"]
DEFAULT_TERRAIN_SIZE = (6, 4)


def terrain_index(data: dict[str, Any], terrain_id: str | None) -> int:
    for i, t in enumerate(data.get("terrain") or []):
        if isinstance(t, dict) and t.get("id") == terrain_id:
            return i
    raise EditError(_("Select a terrain piece first."))


def new_terrain_id(data: dict[str, Any]) -> str:
    taken = {t.get("id") for t in data.get("terrain") or [] if isinstance(t, dict)}
    n = 1
    while f"terrain-{n}" in taken:
        n += 1
    return f"terrain-{n}"


def rectangle(x: Any, y: Any, width: Any, depth: Any, rotation: Any = 0) -> list[list[float | int]]:
    """The corners of a ``width`` × ``depth`` rectangle centred on (x, y), turned ``rotation`` degrees clockwise (as
    a unit's facing turns its base), to a hundredth of an inch."""
    width, depth = number(width, _("Width")), number(depth, _("Depth"))
    if width <= 0 or depth <= 0:
        raise EditError(_("Width and depth must be more than 0."))
    corners = UnitBoundary((float(number(x, "x")), float(number(y, "y"))), float(width), float(depth),
                           float(number(rotation, _("Rotation")))).corners
    return [[number(px), number(py)] for px, py in corners]


def parse_polygon(text: str) -> list[list[float | int]]:
    """Points of a polygon, one ``x, y`` a line (``x y`` and decimal commas too: ``1,5 2,5``)."""
    points = []
    for n, line in enumerate((text or "").splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        parts = [p for p in re.split(r"\s*;\s*|,\s+|\s+", line) if p]
        if len(parts) == 1 and parts[0].count(",") == 1:
            parts = parts[0].split(",")
        if len(parts) != 2:
            raise EditError(_("Line %(n)s: give x and y, as 12, 30.") % {"n": n})
        points.append([number(parts[0], f"x ({n})"), number(parts[1], f"y ({n})")])
        if len(points) > MAX_POLYGON_POINTS:
            raise EditError(_("A terrain piece has at most %(n)s corners.") % {"n": MAX_POLYGON_POINTS})
    if len(points) > 1 and points[0] == points[-1]:
        points.pop()  # a closed ring: the first corner again at the end
    if len(points) < 3:
        raise EditError(_("A terrain piece needs at least 3 corners."))
    return points


def polygon_text(polygon: Any) -> str:
    return "\n".join(f"{p[0]}, {p[1]}" for p in polygon or [] if isinstance(p, list) and len(p) == 2)


def set_flags(piece: dict[str, Any], name: str, impassable: bool, obscuring: bool) -> None:
    """Name and flags as the format writes them: absent when empty or false."""
    for key, value in (("name", (name or "").strip()), ("impassable", bool(impassable)),
                       ("obscuring", bool(obscuring))):
        if value:
            piece[key] = value
        else:
            piece.pop(key, None)


def add_terrain(data: dict[str, Any], polygon: list, name: str = "", impassable: bool = False,
                obscuring: bool = False) -> tuple[dict[str, Any], str]:
    """A new terrain piece with the outline ``polygon``; its id."""
    if len(data.get("terrain") or []) >= MAX_TERRAIN:
        raise EditError(_("A scenario holds at most %(n)s terrain pieces.") % {"n": MAX_TERRAIN})
    out = _copy(data)
    piece: dict[str, Any] = {"id": new_terrain_id(out), "polygon": [list(p) for p in polygon]}
    set_flags(piece, name, impassable, obscuring)
    out.setdefault("terrain", []).append(piece)
    return out, piece["id"]


def remove_terrain(data: dict[str, Any], terrain_id: str) -> dict[str, Any]:
    i = terrain_index(data, terrain_id)
    out = _copy(data)
    del out["terrain"][i]
    if not out["terrain"]:
        del out["terrain"]
    return out


# --- declared charges and the pursuit: lists in order ----------------------------------------------------------


def _position(items: list, index: Any) -> int:
    """``index`` (a form value) as a position in ``items``."""
    try:
        i = int(str(index).strip())
    except (TypeError, ValueError):
        i = -1
    if not 0 <= i < len(items):
        raise EditError(_("That entry is no longer in the list."))
    return i


def _shifted(items: list, index: Any, step: Any) -> list:
    """``items`` with the entry at ``index`` moved ``step`` places (−1 up, 1 down), kept inside the list."""
    i = _position(items, index)
    j = max(0, min(len(items) - 1, i + (-1 if str(step).strip().startswith("-") else 1)))
    out = list(items)
    out.insert(j, out.pop(i))
    return out


def _known_unit(data: dict[str, Any], unit_id: Any) -> str:
    if not any(isinstance(u, dict) and u.get("id") == unit_id for u in data.get("units") or []):
        raise EditError(_("No unit %(id)s.") % {"id": str(unit_id)[:60]})
    return unit_id


def add_charge(data: dict[str, Any], charger: str, target: str) -> dict[str, Any]:
    """The charge of ``charger`` against ``target`` declared after those already declared."""
    _known_unit(data, charger), _known_unit(data, target)
    if charger == target:
        raise EditError(_("A unit cannot charge itself."))
    out = _copy(data)
    out.setdefault("declared_charges", []).append({"charger": charger, "target": target})
    return out


def remove_charge(data: dict[str, Any], index: Any) -> dict[str, Any]:
    out = _copy(data)
    charges = out.get("declared_charges") or []
    del charges[_position(charges, index)]
    if not charges:
        out.pop("declared_charges", None)
    return out


def move_charge(data: dict[str, Any], index: Any, step: Any) -> dict[str, Any]:
    out = _copy(data)
    out["declared_charges"] = _shifted(out.get("declared_charges") or [], index, step)
    return out


def parse_roll(value: Any, required: bool = False) -> int | list[int] | None:
    """A 2D6 roll: the total (``8``) or the two dice (``3 5``, ``3+5``); ``None`` when empty and not required."""
    if isinstance(value, list):  # already read: check it again
        value = " ".join(map(str, value))
    parts = [p for p in re.split(r"[\s,;+]+", str("" if value is None else value).strip()) if p]
    if not parts:
        if required:
            raise EditError(_("Give the roll: the total, or the two dice as 3 5."))
        return None
    roll = _dice(parts)
    if roll is None:
        raise EditError(_("A roll is a total from 2 to 12, or two dice from 1 to 6 (3 5)."))
    return roll


def _dice(parts: list[str]) -> int | list[int] | None:
    """A total from 2 to 12, or two dice from 1 to 6; None for anything else."""
    if len(parts) > 2 or not all(p.isdigit() for p in parts):
        return None
    dice = [int(p) for p in parts]
    if len(dice) == 1:
        return dice[0] if 2 <= dice[0] <= 12 else None
    return dice if all(1 <= d <= 6 for d in dice) else None


def roll_text(roll: Any) -> str:
    if isinstance(roll, list):
        return " + ".join(str(d) for d in roll) + f" = {sum(roll)}"
    return "" if roll is None else str(roll)


def _pursuit_of(out: dict[str, Any]) -> dict[str, Any]:
    pursuit = out.get("pursuit")
    if not isinstance(pursuit, dict) or not pursuit.get("fled"):
        raise EditError(_("Add a fled unit first."))
    return pursuit


def add_fled(data: dict[str, Any], unit_id: str, roll: Any = None, destroyed: bool | None = None) -> dict[str, Any]:
    """A unit that fled from the melee, with its flee roll when known; ``destroyed`` True or False when it is known
    whether it was caught, None to let the pursuers' rolls decide."""
    _known_unit(data, unit_id)
    out = _copy(data)
    pursuit = out.get("pursuit") if isinstance(out.get("pursuit"), dict) else None
    if pursuit is None:
        pursuit = out["pursuit"] = {"fled": [], "pursuers": []}
    pursuit.setdefault("pursuers", [])
    fled = pursuit.setdefault("fled", [])
    if any(isinstance(f, dict) and f.get("unit") == unit_id for f in fled):
        raise EditError(_("%(unit)s has already fled.") % {"unit": unit_id})
    entry: dict[str, Any] = {"unit": unit_id}
    roll = parse_roll(roll)
    if roll is not None:
        entry["roll"] = roll
    if destroyed is not None:
        entry["destroyed"] = bool(destroyed)
    fled.append(entry)
    return out


def add_pursuer(data: dict[str, Any], unit_id: str, pursues: str, roll: Any) -> dict[str, Any]:
    """A pursuer of the fled unit ``pursues``, after those that rolled before it."""
    _known_unit(data, unit_id), _known_unit(data, pursues)
    out = _copy(data)
    pursuit = _pursuit_of(out)
    pursuit.setdefault("pursuers", []).append({"unit": unit_id, "pursues": pursues, "roll": parse_roll(roll, True)})
    return out


def set_melee(data: dict[str, Any], unit_ids: list[str]) -> dict[str, Any]:
    """The other units of the pursuit's melee (the pursuers and the fled are in it anyway)."""
    for unit_id in unit_ids:
        _known_unit(data, unit_id)
    out = _copy(data)
    pursuit = _pursuit_of(out)
    if unit_ids:
        pursuit["melee"] = list(dict.fromkeys(unit_ids))
    else:
        pursuit.pop("melee", None)
    return out


def remove_fled(data: dict[str, Any], index: Any) -> dict[str, Any]:
    """The pursuit without a fled unit and the pursuers that chased it; without the pursuit when none fled."""
    out = _copy(data)
    pursuit = _pursuit_of(out)
    gone = pursuit["fled"].pop(_position(pursuit["fled"], index))
    unit_id = gone.get("unit") if isinstance(gone, dict) else None
    pursuit["pursuers"] = [p for p in pursuit.get("pursuers") or []
                           if not (isinstance(p, dict) and p.get("pursues") == unit_id)]
    if not pursuit["fled"]:
        del out["pursuit"]
    return out


def remove_pursuer(data: dict[str, Any], index: Any) -> dict[str, Any]:
    out = _copy(data)
    pursuers = _pursuit_of(out).get("pursuers") or []
    del pursuers[_position(pursuers, index)]
    return out


def set_roll(data: dict[str, Any], what: str, index: Any, roll: Any) -> dict[str, Any]:
    """A new roll for a fled unit (``what`` "fled"; empty: not known) or a pursuer ("pursuer"; required)."""
    out = _copy(data)
    pursuit = _pursuit_of(out)
    key = "fled" if what == "fled" else "pursuers"
    entries = pursuit.get(key) or []
    entry = entries[_position(entries, index)]
    value = parse_roll(roll, required=key == "pursuers")
    if value is None:
        entry.pop("roll", None)
    else:
        entry["roll"] = value
    return out


def roll_input(roll: Any) -> str:
    """A roll as typed in its field: ``8`` or ``3 5``."""
    if isinstance(roll, list):
        return " ".join(str(d) for d in roll)
    return "" if roll is None else str(roll)


def move_pursuer(data: dict[str, Any], index: Any, step: Any) -> dict[str, Any]:
    out = _copy(data)
    pursuit = _pursuit_of(out)
    pursuit["pursuers"] = _shifted(pursuit.get("pursuers") or [], index, step)
    return out


def clear_pursuit(data: dict[str, Any]) -> dict[str, Any]:
    out = _copy(data)
    if out.pop("pursuit", None) is None:
        raise EditError(_("There is no pursuit to clear."))
    return out


def fled_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The units that fled, as a select's options labelled as ``unit_choices`` labels them."""
    pursuit = data.get("pursuit") if isinstance(data.get("pursuit"), dict) else {}
    labels = dict(unit_choices(data))
    return [(f["unit"], labels.get(f["unit"], f["unit"])) for f in pursuit.get("fled") or []
            if isinstance(f, dict) and isinstance(f.get("unit"), str)]


def pursuer_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The units that may pursue: enemies of a unit that fled, not fled themselves nor pursuing already."""
    pursuit = data.get("pursuit") if isinstance(data.get("pursuit"), dict) else {}
    sides = {u.get("id"): u.get("side") for u in data.get("units") or [] if isinstance(u, dict)}
    fled = {f.get("unit") for f in pursuit.get("fled") or [] if isinstance(f, dict)}
    taken = fled | {p.get("unit") for p in pursuit.get("pursuers") or [] if isinstance(p, dict)}
    fled_sides = {sides.get(f) for f in fled}
    return [(uid, label) for uid, label in unit_choices(data)
            if uid not in taken and fled_sides - {sides.get(uid)}]


def unit_label(unit: dict[str, Any]) -> str:
    """``Knights · knights (red)``: the name first when there is one, the side in the reader's language."""
    label = f"{unit['id']} ({words.side(unit.get('side', ''))})"
    return f"{unit['name']} · {label}" if unit.get("name") else label


def unit_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The units as a select's options (:func:`unit_label`)."""
    return [(u["id"], unit_label(u)) for u in data.get("units") or []
            if isinstance(u, dict) and isinstance(u.get("id"), str)]
