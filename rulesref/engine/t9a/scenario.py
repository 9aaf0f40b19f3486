"""The t9a scenario: board, terrain, units, declared charges and a pursuit, read and validated.

``load_scenario(data)`` turns plain JSON data into a frozen :class:`Scenario` or raises
:class:`InvalidScenarioError` listing every problem by its path (``units[3].facing: …``).  The format is
documented in docs/scenario-format-t9a.md and shipped as ``scenario.schema.json``.
"""
from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Polygon

from ..i18n import Message, msg
from ..ruling import MAX_PROBLEMS, InvalidScenarioError, Problem
from ..validation import Validator, schema_values
from .geometry import EPS, Board, Motion, UnitBoundary, polygons_of, shrunk, shrunk_each, work_out_shapes
from .text import inches

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
MM_PER_INCH = 25.4


class UnitState(str, enum.Enum):
    FLEEING = "fleeing"
    ENGAGED = "engaged"
    STOOD_AND_SHOT = "stood-and-shot"


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    boundary: UnitBoundary
    advance_rates: tuple[float, ...]
    missile_weapons: bool | None = None
    state: frozenset[UnitState] = frozenset()
    name: str = ""

    @property
    def advance_rate(self) -> float:
        """The unit's Advance Rate: the lowest of its models' (``stand-and-shot``)."""
        return min(self.advance_rates)

    @property
    def is_fleeing(self) -> bool:
        return UnitState.FLEEING in self.state

    @property
    def is_engaged(self) -> bool:
        return UnitState.ENGAGED in self.state

    @property
    def has_stood_and_shot(self) -> bool:
        return UnitState.STOOD_AND_SHOT in self.state

    @property
    def label(self) -> str:
        return self.name or self.id

    def is_enemy_of(self, other: "Unit") -> bool:
        return self.side != other.side

    def moved_to(self, boundary: UnitBoundary) -> "Unit":
        return replace(self, boundary=boundary)


@dataclass(frozen=True)
class Terrain:
    id: str
    outline: Polygon
    impassable: bool = False
    obscuring: bool = False
    name: str = ""

    @cached_property
    def core(self):
        return shrunk(self.outline)

    @staticmethod
    def work_out_cores(pieces: Iterable["Terrain"]) -> None:
        """The cores of many pieces at once (one array call), as each would itself."""
        missing = [t for t in pieces if "core" not in t.__dict__]
        for piece, core in zip(missing, shrunk_each([t.outline for t in missing])):
            piece.__dict__["core"] = core

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class DeclaredCharge:
    charger: str
    target: str
    reaction: str | None = None  # the charge reaction the target declared to it: hold, stand-and-shoot, flee


@dataclass(frozen=True)
class FledUnit:
    unit: str
    destroyed: bool | None = False  # None: neither given nor decided by a flee roll
    roll: int | None = None
    given: bool = True  # ``destroyed`` was given by the scenario, not worked out from the rolls


@dataclass(frozen=True)
class Pursuer:
    unit: str
    pursues: str
    roll: int


@dataclass(frozen=True)
class Pursuit:
    """One melee's pursuit: who fled (placed where they ended, or would have), who pursues, in roll order."""

    fled: tuple[FledUnit, ...]
    pursuers: tuple[Pursuer, ...]
    melee: frozenset[str] = frozenset()

    def fled_unit(self, unit_id: str) -> FledUnit:
        return next(f for f in self.fled if f.unit == unit_id)

    @property
    def units_in_melee(self) -> frozenset[str]:
        return self.melee | {f.unit for f in self.fled} | {p.unit for p in self.pursuers}


@dataclass(frozen=True)
class RulesOutsideCorpus:
    """The values of the rules outside the corpus the engine applies (fixtures/tables/t9a/outside_corpus.json),
    as the scenario may replace them (``rules_outside_corpus``); ``overridden`` names those it replaced."""

    charge_dice: int = 2
    ties_catch: bool = True  # a pursuit roll equal to the flee roll catches
    overridden: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> "RulesOutsideCorpus":
        from ..outside import outside_rule

        charge = {**outside_rule("t9a", "charge-range").value, **data.get("charge-range", {})}
        catches = {**outside_rule("t9a", "pursuit-catches").value, **data.get("pursuit-catches", {})}
        return cls(int(charge["dice"]), catches["on"] == "equal-or-higher", frozenset(data))

    def catches(self, pursuit_roll: int, flee_roll: int) -> bool:
        return pursuit_roll >= flee_roll if self.ties_catch else pursuit_roll > flee_roll


@dataclass(frozen=True)
class Scenario:
    board: Board
    units: tuple[Unit, ...]
    terrain: tuple[Terrain, ...] = ()
    declared_charges: tuple[DeclaredCharge, ...] = ()
    pursuit: Pursuit | None = None
    title: str = ""
    rules: RulesOutsideCorpus = RulesOutsideCorpus()

    @cached_property
    def derived(self) -> dict[Any, Any]:
        """What the questions derive from this scenario alone (spatial indexes, the paths of declared charges), kept
        with it so that it is worked out once: the scenario is immutable, and a moved or rotated scenario is a new
        object with its own."""
        return {}

    @cached_property
    def _by_id(self) -> dict[str, Unit]:
        return {unit.id: unit for unit in self.units}

    @cached_property
    def unit_index(self) -> STRtree:
        """The units' boundaries (shrunk by EPS: touching is not overlapping), in scenario order."""
        return STRtree([unit.boundary.core for unit in self.units])

    def units_near(self, shape, distance: float = 0.0) -> tuple[Unit, ...]:
        """The units whose boundaries overlap ``shape`` or come within ``distance`` of it, in scenario order."""
        if distance > 0:
            hits = self.unit_index.query(shape, predicate="dwithin", distance=distance)
        else:
            hits = self.unit_index.query(shape, predicate="intersects")
        return tuple(self.units[i] for i in sorted(hits))

    def unit(self, unit_id: str) -> Unit:
        return self._by_id[unit_id]

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._by_id

    def others(self, *excluded: str) -> Iterator[Unit]:
        return (unit for unit in self.units if unit.id not in excluded)

    @property
    def impassable_terrain(self) -> tuple[Terrain, ...]:
        return tuple(t for t in self.terrain if t.impassable)

    @property
    def obscuring_terrain(self) -> tuple[Terrain, ...]:
        return tuple(t for t in self.terrain if t.obscuring)

    def reactions_declared_by(self, target_id: str, excluding: str = "") -> tuple[DeclaredCharge, ...]:
        """The charges on ``target_id`` (other than ``excluding``'s) to which it has declared a reaction."""
        return tuple(c for c in self.declared_charges
                     if c.target == target_id and c.charger != excluding and c.reaction is not None)

    def charge_declared_by(self, unit_id: str) -> DeclaredCharge | None:
        return next((c for c in self.declared_charges if c.charger == unit_id), None)

    def with_unit(self, unit: Unit) -> "Scenario":
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def transformed(self, motion: Motion) -> "Scenario":
        """The same scenario with the whole board moved by ``motion`` (turned, mirrored, shifted)."""
        return replace(
            self,
            board=self.board.transformed(motion),
            units=tuple(u.moved_to(u.boundary.transformed(motion)) for u in self.units),
            terrain=tuple(replace(t, outline=motion.geometry(t.outline)) for t in self.terrain),
        )


# --------------------------------------------------------------------------------------------------- loading

@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def load_scenario(data: Any) -> Scenario:
    """Read and validate a scenario; every problem is reported with its path."""
    if isinstance(data, Scenario):
        return data
    problems = validator().problems(data, units=unit_finder)
    if problems:
        raise InvalidScenarioError(problems)
    scenario = _build(data)
    problems = list(islice(_semantic_problems(scenario, data), MAX_PROBLEMS + 1))  # the rest are not listed
    if problems:
        raise InvalidScenarioError(problems)
    return scenario


@lru_cache(maxsize=1)
def validator() -> Validator:
    return Validator(schema())


# Where each limit is written in the schema (docs/scenario-format-t9a.md, "Limits", gives the reasons).
_LIMITS = {
    "board_width": ("properties", "board", "properties", "width", "maximum"),
    "board_depth": ("properties", "board", "properties", "depth", "maximum"),
    "units": ("properties", "units", "maxItems"),
    "unit_width": ("properties", "units", "items", "properties", "width", "maximum"),
    "unit_depth": ("properties", "units", "items", "properties", "depth", "maximum"),
    "terrain": ("properties", "terrain", "maxItems"),
    "polygon_vertices": ("properties", "terrain", "items", "properties", "polygon", "maxItems"),
    "declared_charges": ("properties", "declared_charges", "maxItems"),
    "fled": ("properties", "pursuit", "properties", "fled", "maxItems"),
    "pursuers": ("properties", "pursuit", "properties", "pursuers", "maxItems"),
    "id_length": ("$defs", "id", "maxLength"),
}


@lru_cache(maxsize=1)
def limits() -> dict[str, Any]:
    """The most a scenario may hold, by name, read from the schema: the one place the limits are written."""
    return schema_values(schema(), _LIMITS)


def unit_finder(data: Any) -> Callable[[list[Any]], str | None]:
    """``unit_at`` for this data, its units' ids gathered once."""
    ids = _unit_ids(data) if isinstance(data, dict) else frozenset()
    return lambda parts: unit_at(data, parts, ids)


def unit_at(data: Any, parts: list[Any], ids: frozenset[str]) -> str | None:
    """The unit a problem at ``parts`` (a path into the data, possibly invalid data) concerns: a unit's own fields
    (``units[3]…``), a declared charge (its charger, else its target), a fled unit or a pursuer, an entry of the
    melee; None elsewhere, or when the id is not that of a unit the data lists (``ids``)."""
    if not isinstance(data, dict) or len(parts) < 2 or not isinstance(parts[1 if parts[0] != "pursuit" else -1], (int, str)):
        return None

    def known(value: Any) -> str | None:
        return value if isinstance(value, str) and value in ids else None

    head, index = parts[0], parts[1]
    if head == "units" and isinstance(index, int):
        return known(_field(_item(data.get("units"), index), "id"))
    if head == "declared_charges" and isinstance(index, int):
        charge = _item(data.get("declared_charges"), index)
        return known(_field(charge, "charger")) or known(_field(charge, "target"))
    if head == "pursuit" and len(parts) >= 3 and index in ("fled", "pursuers", "melee") and isinstance(parts[2], int):
        entry = _item(_field(data.get("pursuit"), index), parts[2])
        return known(entry) if index == "melee" else known(_field(entry, "unit"))
    return None


def _unit_ids(data: Mapping[str, Any]) -> frozenset[str]:
    units = data.get("units")
    if not isinstance(units, list):
        return frozenset()
    return frozenset(u["id"] for u in units if isinstance(u, dict) and isinstance(u.get("id"), str) and u["id"])


def _item(items: Any, index: int) -> Any:
    return items[index] if isinstance(items, list) and 0 <= index < len(items) else None


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else None


def _roll(value: Any) -> int | None:
    if value is None:
        return None
    return int(sum(value)) if isinstance(value, list) else int(value)  # 7 or [3, 4], 7.0 as JSON may write it


def _build(data: Mapping[str, Any]) -> Scenario:
    board = Board.of_size(data["board"]["width"], data["board"]["depth"])
    pieces = data.get("terrain", [])
    terrain = tuple(
        Terrain(
            id=t["id"],
            outline=outline,
            impassable=t.get("impassable", False),
            obscuring=t.get("obscuring", False),
            name=t.get("name", ""),
        )
        for t, outline in zip(pieces, polygons_of([t["polygon"] for t in pieces]))
    )
    units = tuple(_build_unit(u) for u in data["units"])
    work_out_shapes([u.boundary for u in units])
    charges = tuple(DeclaredCharge(c["charger"], c["target"], c.get("reaction"))
                    for c in data.get("declared_charges", []))
    pursuit = None
    rules = RulesOutsideCorpus.of(data.get("rules_outside_corpus", {}))
    if "pursuit" in data:
        p = data["pursuit"]
        pursuers = tuple(Pursuer(q["unit"], q["pursues"], _roll(q["roll"])) for q in p["pursuers"])
        pursuit = Pursuit(
            fled=tuple(_fled_unit(f, pursuers, rules) for f in p["fled"]),
            pursuers=pursuers,
            melee=frozenset(p.get("melee", [])),
        )
    return Scenario(board, units, terrain, charges, pursuit, data.get("title", ""), rules)


def _fled_unit(data: Mapping[str, Any], pursuers: tuple[Pursuer, ...], rules: RulesOutsideCorpus) -> FledUnit:
    """A fled unit; unless ``destroyed`` is given, it is caught when a pursuit roll catches its flee roll
    (``pursuit-catches``, a rule outside the corpus). With neither, whether it was caught is unknown (None)."""
    roll = _roll(data.get("roll"))
    destroyed = data.get("destroyed")
    if destroyed is None and roll is not None:
        destroyed = any(rules.catches(p.roll, roll) for p in pursuers if p.pursues == data["unit"])
    return FledUnit(data["unit"], destroyed, roll, given=data.get("destroyed") is not None)


def _build_unit(u: Mapping[str, Any]) -> Unit:
    width, depth = _footprint(u)
    rates = u["advance_rate"]
    return Unit(
        id=u["id"],
        side=u["side"],
        boundary=UnitBoundary(tuple(map(float, u["centre"])), width, depth, float(u["facing"])),
        advance_rates=tuple(rates) if isinstance(rates, list) else (rates,),
        missile_weapons=u.get("missile_weapons"),
        state=frozenset(UnitState(s) for s in u.get("state", [])),
        name=u.get("name", ""),
    )


def _footprint(u: Mapping[str, Any]) -> tuple[float, float]:
    """Width and depth in inches, given directly or as models' bases (mm) times files and ranks."""
    if "width" in u and "depth" in u:
        return float(u["width"]), float(u["depth"])
    if "base_mm" in u and "files" in u and "ranks" in u:
        base_width, base_depth = u["base_mm"]
        return base_width * u["files"] / MM_PER_INCH, base_depth * u["ranks"] / MM_PER_INCH
    return 1.0, 1.0  # reported as a problem by _semantic_problems


def _semantic_problems(scenario: Scenario, data: Mapping[str, Any]) -> Iterator[Problem]:
    yield from _footprint_problems(data)
    yield from _id_problems(data)
    yield from _terrain_problems(scenario)
    yield from _placement_problems(scenario)
    yield from _state_problems(scenario)
    yield from _charge_problems(scenario)
    if scenario.pursuit is not None:
        yield from _pursuit_problems(scenario, data)


def _footprint_problems(data: Mapping[str, Any]) -> Iterator[Problem]:
    for i, u in enumerate(data["units"]):
        message = _footprint_message(u)
        if message is not None:
            yield Problem(f"units[{i}]", message, u["id"])


def _footprint_message(u: Mapping[str, Any]) -> Message | None:
    """What is wrong with how a unit gives its Unit Boundary's size: width and depth in inches, or its models'
    bases times files and ranks (bounded here, as the schema bounds inches); None when nothing is."""
    direct = [k for k in ("width", "depth") if k in u]
    by_base = [k for k in ("base_mm", "files", "ranks") if k in u]
    if direct and by_base:
        return msg("give either width and depth, or base_mm, files and ranks, not both")
    if len(by_base) == 3:
        return _base_size_message(*_footprint(u))
    if len(direct) == 2:
        return None
    if direct:
        return msg("width and depth go together; missing {field}", field=({"width", "depth"} - set(direct)).pop())
    if by_base:
        missing = ", ".join(k for k in ("base_mm", "files", "ranks") if k not in by_base)
        return msg("base_mm, files and ranks go together; missing {fields}", fields=missing)
    return msg("the Unit Boundary needs width and depth (inches) or base_mm, files and ranks")


def _base_size_message(width: float, depth: float) -> Message | None:
    widest, deepest = limits()["unit_width"], limits()["unit_depth"]
    if width > widest + EPS or depth > deepest + EPS:
        return msg("the Unit Boundary is {width} by {depth}; at most {most_width} by {most_depth}",
                   width=inches(width), depth=inches(depth), most_width=inches(widest), most_depth=inches(deepest))
    return None


def _id_problems(data: Mapping[str, Any]) -> Iterator[Problem]:
    for key in ("units", "terrain"):
        seen: dict[str, int] = {}
        for i, item in enumerate(data.get(key, [])):
            if item["id"] in seen:
                yield Problem(f"{key}[{i}].id", msg("{id} is already the id of {other}", id=repr(item["id"]),
                                                    other=f"{key}[{seen[item['id']]}]"),
                              item["id"] if key == "units" else None)
            seen.setdefault(item["id"], i)


def _terrain_problems(scenario: Scenario) -> Iterator[Problem]:
    for i, piece in enumerate(scenario.terrain):
        if not piece.outline.is_valid or piece.outline.area <= 0:
            yield Problem(f"terrain[{i}].polygon", msg("not a simple polygon ({reason})",
                                                       reason=shapely.is_valid_reason(piece.outline)))


def _placement_problems(scenario: Scenario) -> Iterator[Problem]:
    ghosts = {f.unit for f in scenario.pursuit.fled if f.destroyed} if scenario.pursuit else set()
    placed = [(i, u) for i, u in enumerate(scenario.units) if u.id not in ghosts]
    yield from _ground_problems(scenario, placed)
    yield from _overlap_problems(placed)


def _ground_problems(scenario: Scenario, placed: list[tuple[int, Unit]]) -> Iterator[Problem]:
    """Each placed unit's Unit Boundary is wholly on the board and outside impassable terrain."""
    impassable = [(j, piece) for j, piece in enumerate(scenario.terrain) if piece.impassable and piece.outline.is_valid]
    Terrain.work_out_cores(piece for _, piece in impassable)
    in_terrain = _overlapping_pairs([u.boundary.core for _, u in placed], [piece.core for _, piece in impassable])
    off_board = ~scenario.board.holds_each(np.array([u.boundary.polygon for _, u in placed], dtype=object))
    for n, (i, unit) in enumerate(placed):
        if off_board[n]:
            yield Problem(f"units[{i}].centre", msg("the Unit Boundary of {unit} is not wholly on the board",
                                                    unit=repr(unit.id)), unit.id)
        for k in in_terrain.get(n, ()):
            j, piece = impassable[k]
            yield Problem(f"units[{i}].centre", msg("{unit} stands in impassable terrain {terrain} ({path})",
                                                    unit=repr(unit.id), terrain=repr(piece.id),
                                                    path=f"terrain[{j}]"), unit.id)


def _overlap_problems(placed: list[tuple[int, Unit]]) -> Iterator[Problem]:
    """No two placed units overlap (touching is base contact): one problem for the pair, at the later unit; it
    concerns both."""
    cores = [u.boundary.core for _, u in placed]
    overlapping = _overlapping_pairs(cores, cores)
    for n, (i, unit) in enumerate(placed):
        for m in overlapping.get(n, ()):
            if m > n:
                j, other = placed[m]
                yield Problem(f"units[{j}].centre", msg("{unit} overlaps {other} ({path})", unit=repr(other.id),
                                                        other=repr(unit.id), path=f"units[{i}]"),
                              other.id, (unit.id,))


def _overlapping_pairs(shapes: list, others: list) -> dict[int, list[int]]:
    """For each shape (by index), the indexes of ``others`` whose interiors it overlaps (touching is not
    overlapping), in order: one spatial index query for the pairs that meet, one array test of which only touch."""
    if not shapes or not others:
        return {}
    near, far = STRtree(others).query(shapes, predicate="intersects")
    touching = shapely.touches(np.asarray(shapes, dtype=object)[near], np.asarray(others, dtype=object)[far])
    found: dict[int, list[int]] = {}
    for n, m in sorted(zip(near[~touching].tolist(), far[~touching].tolist())):
        found.setdefault(n, []).append(m)
    return found


def _state_problems(scenario: Scenario) -> Iterator[Problem]:
    for i, unit in enumerate(scenario.units):
        if unit.is_engaged and unit.is_fleeing:
            yield Problem(f"units[{i}].state", msg("{unit} cannot be both engaged and fleeing", unit=repr(unit.id)),
                          unit.id)


def _charge_problems(scenario: Scenario) -> Iterator[Problem]:
    chargers: set[str] = set()
    for i, charge in enumerate(scenario.declared_charges):
        path = f"declared_charges[{i}]"
        charger = charge.charger if scenario.has_unit(charge.charger) else None
        target = charge.target if scenario.has_unit(charge.target) else None
        # A charge is its charger's declaration; one whose charger is unknown is still about its target.
        if charger is None:
            yield Problem(f"{path}.charger", msg("no unit {unit}", unit=repr(charge.charger)), target)
        if target is None:
            yield Problem(f"{path}.target", msg("no unit {unit}", unit=repr(charge.target)), charger)
        if charger and target and not scenario.unit(charger).is_enemy_of(scenario.unit(target)):
            yield Problem(f"{path}.target", msg("{unit} is on the same side as {other}", unit=repr(target),
                                                other=repr(charger)), charger, (target,))
        if charge.charger in chargers:
            yield Problem(f"{path}.charger", msg("{unit} has already declared a charge", unit=repr(charge.charger)),
                          charger)
        chargers.add(charge.charger)


def _pursuit_problems(scenario: Scenario, data: Mapping[str, Any]) -> Iterator[Problem]:
    pursuit = scenario.pursuit
    assert pursuit is not None
    fled = set()
    for i, f in enumerate(pursuit.fled):
        if not scenario.has_unit(f.unit):
            yield Problem(f"pursuit.fled[{i}].unit", msg("no unit {unit}", unit=repr(f.unit)))
        fled.add(f.unit)
    for i, p in enumerate(pursuit.pursuers):
        yield from _pursuer_problems(scenario, p, f"pursuit.pursuers[{i}]", fled, pursuit.pursuers[:i])
    for i, unit_id in enumerate(data["pursuit"].get("melee", [])):
        if not scenario.has_unit(unit_id):
            yield Problem(f"pursuit.melee[{i}]", msg("no unit {unit}", unit=repr(unit_id)))


def _pursuer_problems(scenario: Scenario, p: Pursuer, path: str, fled: set[str],
                      earlier: tuple[Pursuer, ...]) -> Iterator[Problem]:
    """A pursuer is a unit of the scenario that did not flee, pursues an enemy that fled, and is listed once."""
    pursuer = p.unit if scenario.has_unit(p.unit) else None
    if pursuer is None:
        yield Problem(f"{path}.unit", msg("no unit {unit}", unit=repr(p.unit)))
    if p.pursues not in fled:
        yield Problem(f"{path}.pursues", msg("{unit} is not among the units that fled from this melee",
                                             unit=repr(p.pursues)), pursuer)
    elif pursuer and scenario.has_unit(p.pursues) and not scenario.unit(pursuer).is_enemy_of(scenario.unit(p.pursues)):
        yield Problem(f"{path}.pursues", msg("{unit} is on the same side as {other}", unit=repr(p.pursues),
                                             other=repr(pursuer)), pursuer, (p.pursues,))
    if p.unit in fled:
        yield Problem(f"{path}.unit", msg("{unit} fled from this melee and cannot pursue", unit=repr(p.unit)), pursuer)
    if p.unit in {q.unit for q in earlier}:
        yield Problem(f"{path}.unit", msg("{unit} is already a pursuer", unit=repr(p.unit)), pursuer)
