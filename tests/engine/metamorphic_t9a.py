"""Metamorphic transformations of t9a scenarios and the comparison of t9a answers.

The board is moved as a whole (turned by any angle, mirrored, shifted) on the loaded scenario
(:meth:`Scenario.transformed`); names, order, the sides' colours and a far unit are changed in the plain data. An
answer to the moved position is mapped back (points and bearings by the inverse motion, a mirrored unit's left
flank as its right, clockwise turns as anticlockwise, ids by their old names) and compared with the original's
within a tolerance far below anything measured at the table and far above floating-point noise.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from rulesref.engine.t9a.geometry import Motion, normalise_bearing, rotate_point

from metamorphic import Names, deep_copy, fresh_ids, swap_pairs

TOLERANCE = 2e-3  # inches and degrees: answers are rounded to 1e-4; a turned board adds noise far below that
POINT_KEYS = frozenset({"centre", "polygon", "front", "line", "through", "path"})
BEARING_KEYS = frozenset({"facing", "bearing"})
ARC_KEYS = frozenset({"charger_located_in", "charge_arc"})
ARC_NAMES = ("front", "rear", "left-flank", "right-flank")
# Lists whose order means nothing (what blocks a path, a polygon's corners, the fled units, ...).
SET_KEYS = frozenset({"blocked_by", "units_in_the_way", "terrain_crossed", "declared_paths", "polygon", "front",
                      "path", "fled", "declared_earlier", "interpretations", "met", "undetermined_rolls",
                      "reasons", "other_way_round", "ways", "allowed", "rear", "left-flank", "right-flank"})
# Drawn as one of several equally good choices (the sight line: some clear line is drawn, the verdict says whether
# one is), or drawn from what is compared already (a unit's four arcs, from its position).
REPRESENTATIVE_KEYS = frozenset({"sight_line", "arcs"})
WORDS_KEYS = frozenset({"message"})  # words, which name units and numbers in their own way
ORDERED_POINT_KEYS = frozenset({"line", "through"})  # a line from here to there


@dataclass
class BackT9a:
    """How an answer to a transformed position maps back: the inverse motion, ids."""

    motion: Motion = field(default_factory=Motion)
    ids: Mapping[str, str] = field(default_factory=dict)

    def point(self, p: list[float]) -> list[float]:
        m = self.motion
        x, y = rotate_point((p[0] - m.dx, p[1] - m.dy), (0.0, 0.0), -m.degrees_clockwise)
        return [-x if m.mirrored else x, y]

    def vector(self, v: list[float]) -> list[float]:
        x, y = rotate_point((v[0], v[1]), (0.0, 0.0), -self.motion.degrees_clockwise)
        return [-x if self.motion.mirrored else x, y]

    def bearing(self, b: float) -> float:
        turned = b - self.motion.degrees_clockwise
        return normalise_bearing(-turned if self.motion.mirrored else turned)

    def arc(self, name: str) -> str:
        if self.motion.mirrored:
            return {"left-flank": "right-flank", "right-flank": "left-flank"}.get(name, name)
        return name

    @property
    def turn_sign(self) -> float:
        return -1.0 if self.motion.mirrored else 1.0


def map_back(value: Any, back: BackT9a, key: str | None = None) -> Any:
    """An answer's result (or part of it) in the original position's frame."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k in REPRESENTATIVE_KEYS or k in WORDS_KEYS:
                continue
            if key == "arcs" and k in ARC_NAMES:
                # An arc is drawn reaching past the board by its diagonal: its facing is what it is.
                out[back.arc(k)] = map_back(v[:2], back, "polygon")
                continue
            out[back.ids.get(k, k)] = map_back(v, back, k)
        return out
    if isinstance(value, str):
        if key in ARC_KEYS:
            return back.arc(value)
        return back.ids.get(value, value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        if key in BEARING_KEYS:
            return back.bearing(value)
        if key == "turn":
            return value * back.turn_sign
        return value
    if isinstance(value, list):
        if key in POINT_KEYS and _is_point(value):
            return back.point(value)
        if key in POINT_KEYS and value and all(_is_point(p) for p in value):
            return [back.point(p) for p in value]
        if key == "vector" and _is_point(value):
            return back.vector(value)
        return [map_back(v, back, key if key in POINT_KEYS else None) for v in value]
    return value


def _is_point(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2 and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                                                               for c in value))


def differences(a: Any, b: Any, path: str = "", key: str | None = None) -> list[str]:
    """Where two answers (in the same frame) differ beyond TOLERANCE; lists under SET_KEYS in any order."""
    if a == b:
        return []
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None or isinstance(a, str):
        return [] if a == b else [f"{path}: {a!r:.120} != {b!r:.120}"]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if key in BEARING_KEYS:
            gap = abs((a - b + 180.0) % 360.0 - 180.0)
        elif key == "turn" and abs(abs(a) - 180.0) <= TOLERANCE and abs(abs(b) - 180.0) <= TOLERANCE:
            gap = 0.0  # a half turn that ends the same both ways round is written as 180° clockwise
        else:
            gap = abs(a - b)
        return [] if gap <= TOLERANCE else [f"{path}: {a!r} != {b!r}"]
    if isinstance(a, dict) and isinstance(b, dict):
        found = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                found.append(f"{path}.{k}: only in {'the transformed' if k not in a else 'the original'} answer")
            else:
                found.extend(differences(a[k], b[k], f"{path}.{k}", k))
        return found
    if isinstance(a, list) and isinstance(b, list):
        if key == "path" and len(a) >= 3 and all(_is_point(p) for p in a + b):
            return _same_area(a, b, path)
        if len(a) != len(b):
            return [f"{path}: {len(a)} items != {len(b)}: {a!r:.300} / {b!r:.300}"]
        if key in SET_KEYS:
            return _unordered(a, b, path, key)
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]", key)]
    return [] if a == b else [f"{path}: {a!r:.120} != {b!r:.120}"]


def _same_points(a: list, b: list, path: str) -> list[str]:
    """Each point of ``a`` matched with a distinct point of ``b`` within TOLERANCE (a polygon's corners in any
    order)."""
    left = list(b)
    for x, y in a:
        match = next((i for i, (u, v) in enumerate(left) if abs(x - u) <= TOLERANCE and abs(y - v) <= TOLERANCE),
                     None)
        if match is None:
            return [f"{path}: {[x, y]} has no match among {left!r:.300}"]
        left.pop(match)
    return []


def _same_area(a: list, b: list, path: str) -> list[str]:
    """Two outlines (a swept path: its corners may include a point or two on a straight side) cover the same
    ground."""
    from shapely.geometry import Polygon

    one, two = Polygon(a).buffer(0), Polygon(b).buffer(0)
    gap = one.symmetric_difference(two).area
    return [] if gap <= TOLERANCE * max(1.0, one.length) else [f"{path}: the outlines differ by {gap:.4g} sq in"]


def _unordered(a: list, b: list, path: str, key: str | None) -> list[str]:
    """Each item of ``a`` matched with a distinct item of ``b`` that does not differ from it."""
    if all(_is_point(p) for p in a + b):
        return _same_points(a, b, path)
    left = list(b)
    for x in a:
        match = next((i for i, y in enumerate(left) if not differences(x, y, "", key if _is_point(x) else None)), None)
        if match is None:
            return [f"{path}: {x!r:.160} has no match among {left!r:.300}"]
        left.pop(match)
    return []


def essentials(answer: Mapping[str, Any], back: BackT9a | None = None) -> dict[str, Any]:
    """Verdict, the findings' clauses and statuses (a multiset), and the result mapped back."""
    back = back or BackT9a()
    result = map_back(answer["result"], back)
    return {
        "verdict": answer["verdict"],
        "findings": sorted((f["clause"], f["status"]) for f in answer["findings"]),
        "result": result,
    }


# --- transformations of the plain data ---------------------------------------------------------------------------


@dataclass
class TransformedT9a:
    data: dict[str, Any]
    params: list[tuple[str, dict[str, Any]]]
    back: BackT9a
    motion: Motion | None = None  # applied to the loaded scenario


def rename(data: Mapping[str, Any], questions: list[tuple[str, dict]], rnd: random.Random, *,
           swap_sides: bool = False) -> TransformedT9a:
    """Every unit and terrain piece renamed (so that any order by id changes), every unordered list shuffled (the
    pursuers keep theirs: it is the order of their rolls); or, with ``swap_sides``, only the sides' names."""
    names = Names()
    if swap_sides:
        names.sides = swap_pairs([u["side"] for u in data["units"]])
    else:
        names.units = fresh_ids([u["id"] for u in data["units"]], rnd, "u-")
        names.terrain = fresh_ids([t["id"] for t in data.get("terrain", [])], rnd, "t-")
    new = deep_copy(data)
    for unit in new["units"]:
        unit["id"] = names.unit(unit["id"])
        unit["side"] = names.side(unit["side"])
    for piece in new.get("terrain", []):
        piece["id"] = names.terrain.get(piece["id"], piece["id"])
    for charge in new.get("declared_charges", []):
        charge["charger"], charge["target"] = names.unit(charge["charger"]), names.unit(charge["target"])
    pursuit = new.get("pursuit")
    if pursuit:
        for f in pursuit["fled"]:
            f["unit"] = names.unit(f["unit"])
        for p in pursuit["pursuers"]:
            p["unit"], p["pursues"] = names.unit(p["unit"]), names.unit(p["pursues"])
        pursuit["melee"] = [names.unit(u) for u in pursuit.get("melee", [])]
    if not swap_sides:
        new["units"] = rnd.sample(new["units"], len(new["units"]))
        if "terrain" in new:
            new["terrain"] = rnd.sample(new["terrain"], len(new["terrain"]))
        if "declared_charges" in new:
            new["declared_charges"] = rnd.sample(new["declared_charges"], len(new["declared_charges"]))
        if pursuit:
            pursuit["fled"] = rnd.sample(pursuit["fled"], len(pursuit["fled"]))
            pursuit["melee"] = rnd.sample(pursuit["melee"], len(pursuit["melee"]))
    params = [(q, {k: names.unit(v) if isinstance(v, str) else v for k, v in p.items()}) for q, p in questions]
    ids = {**{v: k for k, v in names.units.items()}, **{v: k for k, v in names.terrain.items()}}
    return TransformedT9a(new, params, BackT9a(ids=ids))


def extended(data: Mapping[str, Any], questions: list[tuple[str, dict]], inches: float = 70.0) -> TransformedT9a:
    """The board widened on the right (the baseline for a far unit)."""
    new = deep_copy(data)
    new["board"] = {**new["board"], "width": new["board"]["width"] + inches}
    return TransformedT9a(new, list(questions), BackT9a())


def with_far_unit(base: TransformedT9a, rnd: random.Random) -> TransformedT9a:
    """``base`` with one more unit at the right end of the widened board, beyond any charge, Flee or pursuit."""
    data = deep_copy(base.data)
    width, depth = data["board"]["width"], data["board"]["depth"]
    unit = {"id": "zz-far", "side": rnd.choice(sorted({u["side"] for u in data["units"]})),
            "centre": [width - 4, rnd.uniform(4, depth - 4)], "facing": rnd.choice([0, 90, 180, 270, 33.3]),
            "width": 4, "depth": 2, "advance_rate": rnd.choice([4, 5, 8]), "missile_weapons": rnd.random() < 0.5}
    data["units"].insert(rnd.randrange(len(data["units"]) + 1), unit)
    return TransformedT9a(data, list(base.params), BackT9a())


def motions(rnd: random.Random) -> dict[str, Motion]:
    """Turns by an awkward angle (37°, where exact ties of the original meet floating-point noise) and by a random
    one, a mirror (with and without a turn) and a shift."""
    return {
        "rotate-37": Motion(37.0, 3.0, -2.0),
        "rotate-any": Motion(rnd.uniform(0, 360), rnd.uniform(-50, 50), rnd.uniform(-50, 50)),
        "mirror": Motion(0.0, 100.0, 0.0, mirrored=True),
        "mirror-rotate": Motion(rnd.uniform(0, 360), rnd.uniform(-50, 50), 10.0, mirrored=True),
        "translate": Motion(0.0, rnd.uniform(-80, 80), rnd.uniform(-80, 80)),
    }


def angle_close(a: float, b: float) -> bool:
    return abs((a - b + 180.0) % 360.0 - 180.0) <= TOLERANCE


__all__ = ["BackT9a", "TransformedT9a", "essentials", "differences", "map_back", "rename", "extended",
           "with_far_unit", "motions", "angle_close", "math"]


# --- generated positions ------------------------------------------------------------------------------------------


def _unit(uid: str, side: str, centre, facing: float, width: float, depth: float, rnd: random.Random) -> dict:
    rates: Any = rnd.choice([3, 4, 5, 6, 8, 9])
    if rnd.random() < 0.2:
        rates = [rates, rates + rnd.choice([1, 2])]
    unit = {"id": uid, "side": side, "centre": [round(centre[0], 6), round(centre[1], 6)],
            "facing": normalise_bearing(round(facing, 6)) % 360.0, "width": width, "depth": depth,
            "advance_rate": rates}
    weapons = rnd.choice([True, True, False, None])
    if weapons is not None:
        unit["missile_weapons"] = weapons
    return unit


def _facing(rnd: random.Random) -> float:
    return rnd.choice([0.0, 90.0, 180.0, 270.0, 45.0, rnd.choice([15.0, 30.0, 60.0, 120.0, 225.0]),
                       rnd.uniform(0, 360)])


def _ahead(centre, facing: float, distance: float) -> tuple[float, float]:
    rad = math.radians(facing)
    return (centre[0] + math.sin(rad) * distance, centre[1] + math.cos(rad) * distance)


def _charger_at(rnd: random.Random, target: dict, advance_rate: float, width: float, depth: float) -> tuple:
    """A charger placed where a threshold of the rules falls: its gap to the target exactly its Advance Rate (Stand
    and Shoot), or exactly its longest charge (Advance Rate + 12), or its front centre on one of the target's arc
    lines (Located in: Flank), or anywhere near."""
    mode = rnd.choice(["advance-rate", "advance-rate", "max-range", "arc-line", "near", "near"])
    t_centre, t_facing = target["centre"], target["facing"]
    if mode in ("advance-rate", "max-range"):
        gap = advance_rate + (12 if mode == "max-range" else 0) + rnd.choice([0.0, 0.0, 0.0, 0.5, -0.5])
        side = rnd.choice([0.0, 0.0, 90.0, 180.0, 270.0])
        half_t = (target["depth"] if side in (0.0, 180.0) else target["width"]) / 2
        bearing = t_facing + side
        centre = _ahead(t_centre, bearing, half_t + gap + depth / 2)
        return centre, bearing + 180.0
    if mode == "arc-line":
        a, b = target["width"] / 2, target["depth"] / 2
        sx = rnd.choice([-1, 1])
        along = rnd.uniform(2, 8)
        # The corner's 135° line, in the target's own frame (u right, v forward), out to ``along``.
        u, v = sx * (a + along / math.sqrt(2)), b + along / math.sqrt(2)
        rad = math.radians(t_facing)
        fx, fy = math.sin(rad), math.cos(rad)
        rx, ry = fy, -fx
        front_centre = (t_centre[0] + u * rx + v * fx, t_centre[1] + u * ry + v * fy)
        facing = t_facing + 180.0 + rnd.choice([0.0, 0.0, 30.0, -45.0])
        return _ahead(front_centre, facing, -depth / 2), facing
    return (t_centre[0] + rnd.uniform(-16, 16), t_centre[1] + rnd.uniform(-16, 16)), _facing(rnd)


def position(rnd: random.Random) -> tuple[dict[str, Any], list[tuple[str, dict]]]:
    """A random charge position (a target, a charger placed at a threshold, other units, terrain, declared
    charges) and the questions about it; or a pursuit position."""
    if rnd.random() < 0.35:
        return pursuit_position(rnd)
    board = {"width": rnd.choice([48, 60]), "depth": 48}
    target = _unit("T", "blue", (rnd.uniform(16, board["width"] - 16), rnd.uniform(16, 32)), _facing(rnd),
                   rnd.choice([4, 5, 6, 8]), rnd.choice([1, 2, 3]), rnd)
    if rnd.random() < 0.15:
        target["state"] = [rnd.choice(["fleeing", "engaged", "stood-and-shot"])]
    width, depth = rnd.choice([4, 5, 6]), rnd.choice([1, 2])
    probe = _unit("C", "red", (0, 0), 0, width, depth, rnd)
    advance = min(probe["advance_rate"]) if isinstance(probe["advance_rate"], list) else probe["advance_rate"]
    centre, facing = _charger_at(rnd, target, advance, width, depth)
    charger = {**probe, "centre": [round(centre[0], 6), round(centre[1], 6)], "facing": normalise_bearing(facing)}
    units = [target, charger]
    for i in range(rnd.randint(0, 3)):
        around = rnd.choice([target, charger])
        spot = (around["centre"][0] + rnd.uniform(-10, 10), around["centre"][1] + rnd.uniform(-10, 10))
        units.append(_unit(f"X{i}", rnd.choice(["red", "blue"]), spot, _facing(rnd), rnd.choice([3, 4, 6]),
                           rnd.choice([1, 2]), rnd))
    terrain = []
    for i in range(rnd.randint(0, 2)):
        x, y = rnd.uniform(4, board["width"] - 8), rnd.uniform(4, board["depth"] - 8)
        w, d = rnd.uniform(2, 6), rnd.uniform(2, 6)
        kind = rnd.choice(["obscuring", "impassable", "passable"])
        piece = {"id": f"P{i}", "polygon": [[x, y], [x + w, y], [x + w, y + d], [x, y + d]]}
        if kind != "passable":
            piece[kind] = True
        terrain.append(piece)
    data: dict[str, Any] = {"book": "t9a", "board": board, "units": units, "terrain": terrain}
    others = [u for u in units[2:] if u["side"] == "red"]
    if others and rnd.random() < 0.5:
        data["declared_charges"] = [{"charger": others[0]["id"], "target": "T",
                                     "reaction": rnd.choice(["hold", "stand-and-shoot", "flee"])}]
    return data, [("can-charge", {"charger": "C", "target": "T"}),
                  ("charge-reactions", {"charger": "C", "target": "T"})]


def pursuit_position(rnd: random.Random) -> tuple[dict[str, Any], list[tuple[str, dict]]]:
    """A pursuer, the unit it pursues (fled facing away), and what its front may meet: an enemy, a friend, a
    piece of impassable terrain, the Board Edge — some of them placed exactly at a distance that decides."""
    board = {"width": rnd.choice([48, 60]), "depth": 48}
    centre = (rnd.uniform(10, board["width"] - 10), rnd.uniform(10, 38))
    pursuer = _unit("P", "red", centre, _facing(rnd), rnd.choice([4, 5, 6]), rnd.choice([1, 2]), rnd)
    flee_facing = pursuer["facing"] + rnd.choice([0.0, 90.0, -90.0, 180.0, 45.0, rnd.uniform(-180, 180)])
    fled = _unit("F", "blue", _ahead(centre, flee_facing, rnd.uniform(6, 14)), flee_facing, 4, 2, rnd)
    roll = rnd.randint(2, 12)
    units = [pursuer, fled]
    for i in range(rnd.randint(0, 3)):
        kind = rnd.choice(["ahead-exact", "near"])
        side = rnd.choice(["red", "blue", "blue"])
        if kind == "ahead-exact":
            # Straight ahead after the pivot, its near side exactly the pursuit roll from the front (or 1″ off).
            gap = roll + rnd.choice([0.0, 0.0, 1.0, -1.0])
            spot = _ahead(centre, flee_facing, pursuer["depth"] / 2 + gap + 1.0)
            units.append(_unit(f"X{i}", side, spot, flee_facing + rnd.choice([0.0, 180.0, 90.0]), 4, 2, rnd))
        else:
            spot = (centre[0] + rnd.uniform(-8, 8), centre[1] + rnd.uniform(-8, 8))
            units.append(_unit(f"X{i}", side, spot, _facing(rnd), rnd.choice([3, 4]), rnd.choice([1, 2]), rnd))
    fled_entry: dict[str, Any] = {"unit": "F", "roll": rnd.randint(2, 12)}
    if rnd.random() < 0.3:
        fled_entry["destroyed"] = rnd.random() < 0.5
    melee = [u["id"] for u in units[2:] if u["side"] == "red" and rnd.random() < 0.3]
    data = {"book": "t9a", "board": board, "units": units,
            "pursuit": {"fled": [fled_entry], "pursuers": [{"unit": "P", "pursues": "F", "roll": roll}],
                        "melee": melee}}
    if rnd.random() < 0.4:
        x, y = rnd.uniform(4, board["width"] - 10), rnd.uniform(4, board["depth"] - 10)
        data["terrain"] = [{"id": "rock", "polygon": [[x, y], [x + 4, y], [x + 4, y + 3], [x, y + 3]],
                            "impassable": True}]
    return data, [("pursuit", {})]
