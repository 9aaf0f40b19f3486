"""The scenario: a position on the hex map and the moment of play, read from plain JSON data and validated.

``load_scenario(data)`` checks the data against scenario.schema.json and then against the map and itself (labels on
the map, unit ids, two-hex units on neighbouring hexes facing a vertex across their row, …). Every problem is
reported with its path (``units[3].facing: …``) in one :class:`InvalidScenarioError`; nothing is half-loaded.

The loaded :class:`Scenario` is immutable. Units are kept sorted by id, so no answer depends on the order in which a
scenario lists them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from ..hexgrid import (
    Hex,
    HexMap,
    MapEdge,
    adjacent_hexes,
    canonical_two_hex,
    direction_to,
    hex_map,
    is_valid_two_hex_facing,
    reason,
)
from ..i18n import Message, msg
from ..ruling import InvalidScenarioError, Problem
from ..validation import Validator, schema_values
from .tables import Tables, TerrainType, build_tables
from .terms import (
    COLUMN,
    HEDGEHOG,
    Action,
    FormationState,
    LeaderRole,
    Morale,
    Order,
    UnitType,
    UNIT_TYPE_NAMES,
)

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
NO_FACING_TYPES = frozenset({UnitType.LEADER, UnitType.WAGON})
TWO_HEX_TYPES = frozenset({UnitType.CAVALRY, UnitType.LIGHT_INFANTRY, UnitType.HEAVY_INFANTRY})


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    with SCHEMA_PATH.open(encoding="utf-8") as fh:
        return json.load(fh)


@lru_cache(maxsize=1)
def validator() -> Validator:
    return Validator(schema())


# Where each limit is written in the schema (docs/scenario-format-mpbs.md, "Limits", gives the reasons).
_LIMITS = {
    "columns": ("$defs", "map", "properties", "columns", "maximum"),
    "rows": ("$defs", "map", "properties", "rows", "maximum"),
    "units": ("properties", "units", "maxItems"),
    "wings": ("properties", "wings", "maxItems"),
    "movement_allowance": ("$defs", "mp", "maximum"),
    "terrain_cost_least": ("$defs", "terrain_type", "properties", "cost", "additionalProperties", "minimum"),
    "terrain_cost_most": ("$defs", "terrain_type", "properties", "cost", "additionalProperties", "maximum"),
    "terrain_types": ("properties", "terrain_types", "maxProperties"),
    "id_length": ("$defs", "id", "maxLength"),
}


@lru_cache(maxsize=1)
def limits() -> dict[str, Any]:
    """The most (or least) a scenario may hold, by name, read from the schema: the one place the limits are written."""
    return schema_values(schema(), _LIMITS)


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    type: UnitType
    hexes: tuple[Hex, ...] = ()
    facing: int | None = None  # the vertex it faces (6.1); None: none given or none to have
    column_heading: int | None = None  # a two-hex unit in column: the direction of its head (6.3.4)
    wing: str | None = None
    order: Order | None = None
    morale: Morale = Morale.NORMAL
    morale_rating: int | None = None
    formation: str | None = None
    formation_state: FormationState = FormationState.NORMAL
    formation_hits: int = 0
    hits_before_disorder: int | None = None
    movement_allowance: float | None = None
    mp_spent: float = 0
    leadership: int | None = None
    role: LeaderRole | None = None
    limbered: bool = False
    fired: bool = False
    interception_attempted: bool = False
    interception_attempted_before_extension: bool = False
    withdrawn: bool = False
    reinforcement: bool = False
    off_map_pursuer: bool = False
    off_map: bool = False
    eliminated: bool = False
    name: str = ""

    @property
    def size(self) -> int:
        return len(self.hexes) or 1

    @property
    def is_two_hex(self) -> bool:
        return len(self.hexes) == 2

    @property
    def on_map(self) -> bool:
        return bool(self.hexes) and not (self.eliminated or self.off_map or self.off_map_pursuer or self.reinforcement)

    @property
    def has_facing(self) -> bool:
        """6.1: leaders, limbered guns, wagons and Morale Broken units have no facing."""
        return has_facing(self.type, self.limbered, self.morale)

    @property
    def in_column(self) -> bool:
        return (self.formation or "").lower() == COLUMN

    @property
    def in_hedgehog(self) -> bool:
        return (self.formation or "").lower() == HEDGEHOG

    @property
    def movement_class(self) -> str:
        if self.type is UnitType.ARTILLERY and self.limbered:
            return "limbered-artillery"
        return self.type.value

    @property
    def movement_left(self) -> float | None:
        if self.movement_allowance is None:
            return None
        return max(self.movement_allowance - self.mp_spent, 0)


def has_facing(kind: UnitType, limbered: bool, morale: Morale) -> bool:
    """6.1: leaders, limbered guns, wagons and Morale Broken units have no facing."""
    return not (kind in NO_FACING_TYPES or (kind is UnitType.ARTILLERY and limbered) or morale is Morale.BROKEN)


@dataclass(frozen=True)
class Wing:
    id: str
    side: str
    order: Order
    commander: str | None = None


@dataclass(frozen=True)
class Event:
    """The triggering event: ``unit`` does ``action`` where it now stands (its hexes in the scenario)."""

    unit: str
    action: Action
    from_hexes: tuple[Hex, ...] = ()
    mp: float | None = None
    movement_trigger: bool | None = None
    reacted: frozenset[str] = frozenset()
    combatants: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Moment:
    active_side: str | None = None
    active_wing: str | None = None
    phase: str | None = None
    wing_has_acted: bool | None = None
    event: Event | None = None
    extended_activation: bool = False  # an extended activation counts as a new one (9.3.1 note)
    wing_passes: bool = False  # the active player passes this activation (5.8)


@dataclass(frozen=True)
class Scenario:
    hexmap: HexMap
    terrain: Mapping[Hex, str]
    terrain_default: str
    los_blocking_hexes: frozenset[Hex]
    dead_zones: frozenset[Hex] | None
    friendly_edges: Mapping[str, tuple[MapEdge, ...]]
    tables: Tables
    units: tuple[Unit, ...]
    wings: Mapping[str, Wing]
    moment: Moment
    title: str = ""
    questions: tuple[Mapping[str, Any], ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # --- lookups -------------------------------------------------------------------------------------------------

    @cached_property
    def by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def unit(self, unit_id: str) -> Unit:
        return self.by_id[unit_id]

    @cached_property
    def occupants(self) -> dict[Hex, tuple[Unit, ...]]:
        """The units standing in each hex (units off the map, eliminated or not yet entered stand nowhere)."""
        result: dict[Hex, list[Unit]] = {}
        for u in self.units:
            if u.on_map:
                for h in u.hexes:
                    result.setdefault(h, []).append(u)
        return {h: tuple(us) for h, us in result.items()}

    def units_in(self, h: Hex) -> tuple[Unit, ...]:
        return self.occupants.get(h, ())

    @cached_property
    def _per_side(self) -> dict[tuple[str, str], frozenset[Hex]]:
        return {}

    def enemy_hexes(self, side: str) -> frozenset[Hex]:
        """Every hex that holds a unit of another side."""
        key = ("enemy", side)
        if key not in self._per_side:
            self._per_side[key] = frozenset(h for u in self.units if u.on_map and u.side != side for h in u.hexes)
        return self._per_side[key]

    def hexes_adjacent_to_enemy(self, side: str) -> frozenset[Hex]:
        """Every hex next to a unit of another side (the enemy's own hexes among them when enemies stand together)."""
        key = ("adjacent", side)
        if key not in self._per_side:
            adjacent: set[Hex] = set()
            for u in self.units:
                if u.side != side and u.on_map:
                    adjacent.update(adjacent_hexes(u.hexes))
            self._per_side[key] = frozenset(adjacent)
        return self._per_side[key]

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(sorted({u.side for u in self.units} | {w.side for w in self.wings.values()} | set(self.friendly_edges)))

    def enemies_of(self, unit: Unit) -> Iterator[Unit]:
        return (u for u in self.units if u.side != unit.side and u.on_map)

    def wing_units(self, wing_id: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.wing == wing_id)

    def order_of(self, unit: Unit) -> Order | None:
        if unit.order is not None:
            return unit.order
        wing = self.wings.get(unit.wing or "")
        return wing.order if wing else None

    def terrain_at(self, h: Hex) -> str:
        return self.terrain.get(h, self.terrain_default)

    def terrain_type(self, h: Hex) -> TerrainType | None:
        return self.tables.terrain.get(self.terrain_at(h))

    def label(self, h: Hex) -> str:
        return self.hexmap.label(h)

    def labels(self, hexes: Iterable[Hex]) -> list[str]:
        return [self.hexmap.label(h) for h in hexes]

    def event_unit(self) -> Unit | None:
        event = self.moment.event
        return self.by_id.get(event.unit) if event else None


# --- loading and validation ---------------------------------------------------------------------------------------


class _Problems:
    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, path: str, message: Message | str, unit: str | None = None, others: tuple[str, ...] = ()) -> None:
        self.items.append(Problem(path, message, unit, others))

    def of_unit(self, unit: str) -> Callable[[str, Message | str], None]:
        """A way to add the problems of one unit's own fields."""
        return lambda path, message: self.add(path, message, unit)


def load_scenario(data: Any) -> Scenario:
    """A Scenario from JSON data (a dict, or JSON text); InvalidScenarioError lists every problem by its path."""
    if isinstance(data, Scenario):
        return data
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as exc:
            raise InvalidScenarioError([("", msg("not JSON: {error}", error=str(exc)))]) from None
    problems = validator().problems(data, units=unit_finder)
    if problems:
        raise InvalidScenarioError(problems)
    found = _Problems()
    scenario = _build(data, found)
    if found.items:
        raise InvalidScenarioError(found.items)
    return scenario


def unit_finder(data: Any) -> Callable[[list[Any]], str | None]:
    """``unit_at`` for this data, its units' ids gathered once."""
    ids = _unit_ids(data)
    return lambda parts: unit_at(data, parts, ids)


def unit_at(data: Any, parts: list[Any], ids: frozenset[str]) -> str | None:
    """The unit a problem at ``parts`` (a path into the data, possibly invalid data) concerns: a unit's own fields
    (``units[3]…``), the triggering event (its unit; an entry of ``reacted`` or ``combatants``: the unit it
    names), a wing's commander; None elsewhere, or when the id is not that of a unit the data lists (``ids``)."""
    if len(parts) >= 2 and parts[0] == "units" and isinstance(parts[1], int):
        return _id_in(_item(data.get("units"), parts[1]), ids)
    if parts[:2] == ["moment", "event"]:
        return _event_unit_at(data, parts, ids)
    if len(parts) >= 3 and parts[0] == "wings" and isinstance(parts[1], int) and parts[2] == "commander":
        return _known((_item(data.get("wings"), parts[1]) or {}).get("commander"), ids)
    return None


def _event_unit_at(data: Any, parts: list[Any], ids: frozenset[str]) -> str | None:
    """The unit a problem in the triggering event concerns: the unit an entry of ``reacted`` or ``combatants``
    names, else the event's own unit."""
    event = (data.get("moment") or {}).get("event") if isinstance(data.get("moment"), dict) else None
    if not isinstance(event, dict):
        return None
    if len(parts) >= 4 and parts[2] in ("reacted", "combatants") and isinstance(parts[3], int):
        return _known(_item(event.get(parts[2]), parts[3]), ids)
    return _known(event.get("unit"), ids)


def _known(named: Any, ids: frozenset[str]) -> str | None:
    """``named`` if it is the id of a unit the data lists."""
    return named if isinstance(named, str) and named in ids else None


def _unit_ids(data: Any) -> frozenset[str]:
    units = data.get("units") if isinstance(data, dict) else None
    if not isinstance(units, list):
        return frozenset()
    return frozenset(u["id"] for u in units if isinstance(u, dict) and isinstance(u.get("id"), str) and u["id"])


def _item(items: Any, index: int) -> Any:
    return items[index] if isinstance(items, list) and 0 <= index < len(items) else None


def _id_in(item: Any, ids: frozenset[str]) -> str | None:
    uid = item.get("id") if isinstance(item, dict) else None
    return uid if isinstance(uid, str) and uid in ids else None


def _build(data: Mapping[str, Any], problems: _Problems) -> Scenario:
    m = data["map"]
    hexmap = hex_map(int(m["columns"]), int(m["rows"]), m.get("layout", "pointy"), m.get("offset", "odd"),
                     int(m.get("first_column", 1)), int(m.get("first_row", 1)))

    def parse(label: str, path: str, unit: str | None = None) -> Hex | None:
        try:
            return hexmap.parse(label)
        except ValueError as exc:
            problems.add(path, reason(exc), unit)
            return None

    def parse_all(labels: Iterable[str], path: str, unit: str | None = None) -> list[Hex]:
        hexes = [parse(label, f"{path}[{i}]", unit) for i, label in enumerate(labels)]
        return [h for h in hexes if h is not None]

    # The problems are listed in the order the data gives them: the map's hexes, then the wings, units and moment.
    tables = build_tables(data.get("tables", {}), data.get("terrain_types", {}))
    terrain = _terrain(m, parse)
    los_blocking = frozenset(parse_all(m.get("los_blocking", []), "map.los_blocking"))
    dead_zones = frozenset(parse_all(m["dead_zones"], "map.dead_zones")) if "dead_zones" in m else None
    wings = _build_wings(data.get("wings", []), problems)
    units, seen = _build_units(data.get("units", []), hexmap, wings, parse, problems)
    _check_stacking(units, data.get("units", []), hexmap, problems)
    _commander_problems(data, seen, problems)
    friendly_edges = {side: tuple(MapEdge(e) for e in edges) for side, edges in m.get("friendly_edges", {}).items()}
    _edge_problems(friendly_edges, units, wings, problems)
    return Scenario(
        hexmap=hexmap,
        terrain=terrain,
        terrain_default=m.get("terrain_default", "clear"),
        los_blocking_hexes=los_blocking,
        dead_zones=dead_zones,
        friendly_edges=friendly_edges,
        tables=tables,
        units=tuple(sorted(units, key=lambda u: u.id)),
        wings=wings,
        moment=_build_moment(data.get("moment", {}), {u.id: u for u in units}, wings, parse_all, problems),
        title=data.get("title", ""),
        questions=tuple(data.get("questions", ())),
        raw=data,
    )


def _terrain(m: Mapping[str, Any], parse) -> dict[Hex, str]:
    """The map's terrain by hex, for the hexes whose labels read."""
    terrain: dict[Hex, str] = {}
    for label, kind in m.get("terrain", {}).items():
        h = parse(label, f"map.terrain.{label}")
        if h is not None:
            terrain[h] = kind
    return terrain


def _build_wings(raws: list[Mapping[str, Any]], problems: _Problems) -> dict[str, Wing]:
    """The wings by id; an id listed twice is a problem (the later one is kept)."""
    wings: dict[str, Wing] = {}
    for i, w in enumerate(raws):
        if w["id"] in wings:
            problems.add(f"wings[{i}].id", msg("wing {wing} is listed twice", wing=repr(w["id"])))
        wings[w["id"]] = Wing(w["id"], w["side"], Order(w["order"]), w.get("commander"))
    return wings


def _build_units(raws: list[Mapping[str, Any]], hexmap: HexMap, wings: Mapping[str, Wing], parse,
                 problems: _Problems) -> tuple[list[Unit], dict[str, int]]:
    """The units, and the index in ``units`` where each id is first listed; an id listed twice is a problem."""
    units: list[Unit] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(raws):
        unit = _build_unit(raw, f"units[{i}]", hexmap, wings, parse, problems)
        if raw["id"] in seen:
            problems.add(f"units[{i}].id", msg("unit {unit} is also {other}", unit=repr(raw["id"]),
                                               other=f"units[{seen[raw['id']]}]"), raw["id"])
        seen.setdefault(raw["id"], i)
        if unit is not None:
            units.append(unit)
    return units, seen


def _commander_problems(data: Mapping[str, Any], seen: Mapping[str, int], problems: _Problems) -> None:
    """A wing's commander is a leader unit of the scenario."""
    for i, w in enumerate(data.get("wings", [])):
        commander = w.get("commander")
        if commander is not None and (commander not in seen or data["units"][seen[commander]]["type"] != "leader"):
            problems.add(f"wings[{i}].commander", msg("{unit} is not a leader unit of this scenario",
                                                      unit=repr(commander)), commander if commander in seen else None)


def _edge_problems(friendly_edges: Mapping[str, Any], units: list[Unit], wings: Mapping[str, Wing],
                   problems: _Problems) -> None:
    """A friendly map edge belongs to a side some unit or wing of the scenario is on."""
    sides = {u.side for u in units} | {w.side for w in wings.values()}
    for side in friendly_edges:
        if side not in sides:
            problems.add(f"map.friendly_edges.{side}", msg("no unit or wing belongs to side {side}", side=repr(side)))


# The terms by the names scenarios give them (the schema has checked each is one of them): a lookup per field.
_UNIT_TYPES = {t.value: t for t in UnitType}
_MORALE = {m.value: m for m in Morale}
_ORDERS = {o.value: o for o in Order}
_FORMATION_STATES = {f.value: f for f in FormationState}


def _build_unit(raw, path, hexmap: HexMap, wings, parse, problems: _Problems) -> Unit | None:
    uid = raw["id"]
    unit_problem = problems.of_unit(uid)
    kind = _UNIT_TYPES[raw["type"]]
    flags = raw.get("flags", {})
    off_board = any(flags.get(k) for k in OFF_BOARD_FLAGS)
    hexes = tuple(h for h in (parse(label, f"{path}.hexes[{j}]", uid) for j, label in enumerate(raw.get("hexes", []))) if h)
    _placement_problems(raw, kind, hexes, off_board, path, unit_problem)
    _wing_problems(raw, wings, path, unit_problem)
    _type_field_problems(raw, kind, path, unit_problem)
    morale, formation = raw.get("morale", {}), raw.get("formation", {})
    morale_state = _MORALE[morale.get("state", "normal")]
    limbered = raw.get("limbered", False)
    on_map = bool(hexes) and not off_board
    in_column = (formation.get("name") or "").lower() == COLUMN
    facing, heading = _parse_facing(raw, uid, hexes, has_facing(kind, limbered, morale_state) and on_map,
                                    in_column, path, hexmap, problems)
    if len(hexes) == 2 and facing is not None:
        # Keep the hexes in the order the geometry uses: second = first + direction (facing + 2).
        hexes = canonical_two_hex(hexes, facing)
    return new_unit(
        id=uid, side=raw["side"], type=kind, hexes=hexes, facing=facing, column_heading=heading, wing=raw.get("wing"),
        morale=morale_state, limbered=limbered, fired=raw.get("fired", False), name=raw.get("name", ""),
        **_ratings(raw, morale, formation), **_flags(flags),
    )


#: The flags that take a unit off the map (it needs no hex then).
OFF_BOARD_FLAGS = ("eliminated", "off_map", "off_map_pursuer", "reinforcement")
_FLAGS = (*OFF_BOARD_FLAGS, "interception_attempted", "interception_attempted_before_extension", "withdrawn")


def _flags(flags: Mapping[str, Any]) -> dict[str, bool]:
    """The unit's flags (what has happened to it this turn), each false unless the scenario sets it."""
    return {name: flags.get(name, False) for name in _FLAGS}


def _ratings(raw: Mapping[str, Any], morale: Mapping[str, Any], formation: Mapping[str, Any]) -> dict[str, Any]:
    """The unit's orders, ratings, formation and movement, as the scenario gives them (None: not given)."""
    movement = raw.get("movement", {})
    return {
        "order": _ORDERS[raw["order"]] if "order" in raw else None,
        "morale_rating": _whole(morale.get("rating")),
        "formation": formation.get("name"),
        "formation_state": _FORMATION_STATES[formation.get("state", "normal")],
        "formation_hits": _whole(formation.get("hits", 0)),
        "hits_before_disorder": _whole(formation.get("hits_before_disorder")),
        "movement_allowance": movement.get("allowance"), "mp_spent": movement.get("spent", 0),
        "leadership": _whole(raw.get("leadership")), "role": LeaderRole(raw["role"]) if "role" in raw else None,
    }


def _placement_problems(raw, kind: UnitType, hexes: tuple[Hex, ...], off_board: bool, path: str, unit_problem) -> None:
    """A unit on the map stands in one hex, or two neighbouring ones if its type is a two-hex type."""
    if not raw.get("hexes") and not off_board:
        unit_problem(f"{path}.hexes", msg("a unit on the map needs its hex (or two hexes); flag it eliminated, "
                                          "off_map, off_map_pursuer or reinforcement otherwise"))
    if len(raw.get("hexes", [])) != 2:
        return
    if kind not in TWO_HEX_TYPES:
        unit_problem(f"{path}.hexes", msg("a unit of this type ({type}) occupies one hex", type=UNIT_TYPE_NAMES[kind]))
    if len(hexes) == 2 and direction_to(*hexes) is None:
        unit_problem(f"{path}.hexes", msg("the two hexes of a two-hex unit must be neighbours"))


def _wing_problems(raw, wings, path: str, unit_problem) -> None:
    """A unit's wing is one the scenario lists, of the unit's own side."""
    wing = raw.get("wing")
    if wing is not None and wings and wing not in wings:
        unit_problem(f"{path}.wing", msg("no wing {wing} in wings", wing=repr(wing)))
    elif wing in wings and wings[wing].side != raw["side"]:
        unit_problem(f"{path}.wing", msg("wing {wing} belongs to side {side}, the unit to {unit_side}", wing=repr(wing),
                                         side=repr(wings[wing].side), unit_side=repr(raw["side"])))


def _type_field_problems(raw, kind: UnitType, path: str, unit_problem) -> None:
    """Fields only one type of unit has: artillery is limbered or has fired, a leader has a rating and a role."""
    if kind is not UnitType.ARTILLERY and ("limbered" in raw or "fired" in raw):
        unit_problem(path, msg("only artillery is limbered or fired"))
    if kind is not UnitType.LEADER and ("leadership" in raw or "role" in raw):
        unit_problem(path, msg("only a leader has a leadership rating or a role"))


_UNIT_FIELDS = frozenset(f.name for f in fields(Unit))


def new_unit(**values: Any) -> Unit:
    """A unit from every one of its fields at once, as ``Unit(**values)`` makes it. A frozen dataclass's
    ``__init__`` sets its fields one ``object.__setattr__`` call at a time: for the 28 of a unit that was a fifth
    of loading a 60-unit scenario, the cost every API question pays first. Leaving a field out is an error here
    too (no defaults are filled in)."""
    if values.keys() != _UNIT_FIELDS:
        raise TypeError(f"new_unit: missing {sorted(_UNIT_FIELDS - values.keys())}, "
                        f"unknown {sorted(values.keys() - _UNIT_FIELDS)}")
    unit = object.__new__(Unit)
    unit.__dict__.update(values)
    return unit


def _whole(value: Any) -> int | None:
    """A whole number the schema let through as JSON may write it (``8`` or ``8.0``), as an int."""
    return None if value is None else int(value)


def _parse_facing(raw, uid: str, hexes: tuple[Hex, ...], needs_facing: bool, in_column: bool, path: str,
                  hexmap: HexMap, problems: _Problems) -> tuple[int | None, int | None]:
    """The vertex a unit faces (6.1), or the direction of a two-hex column's head (6.3.4); ``needs_facing``: the
    unit is on the map and has a facing."""
    name = raw.get("facing")
    two_hex = len(hexes) == 2
    unit_problem = problems.of_unit(uid)
    if name is None:
        if needs_facing:
            unit_problem(f"{path}.facing", msg("this unit has a facing (6.1): give the vertex it faces, one of {vertices}",
                                               vertices=", ".join(hexmap.vertex_name(v) for v in range(6))))
        return None, None
    if two_hex and in_column:
        try:
            heading = hexmap.parse_direction(name)
        except ValueError as exc:
            unit_problem(f"{path}.facing", msg("a two-hex unit in column faces along its row (6.3.4): {error}",
                                               error=reason(exc)))
            return None, None
        if direction_to(*hexes) is None or direction_to(*hexes) % 3 != heading % 3:
            unit_problem(f"{path}.facing", msg("a two-hex unit in column faces along the row of its two hexes"))
        return None, heading
    try:
        facing = hexmap.parse_vertex(name)
    except ValueError as exc:
        unit_problem(f"{path}.facing", msg("{error} (6.1: a unit faces a hex vertex)", error=reason(exc)))
        return None, None
    if two_hex and not is_valid_two_hex_facing(*hexes, facing):
        allowed = [hexmap.vertex_name(v) for v in range(6) if is_valid_two_hex_facing(*hexes, v)]
        if allowed:
            unit_problem(f"{path}.facing", msg("a two-hex unit faces a vertex across the row of its hexes: {vertices}",
                                               vertices=" / ".join(allowed)))
        else:
            unit_problem(f"{path}.facing", msg("a two-hex unit faces a vertex across the row of its hexes, and its "
                                               "hexes are not neighbours"))
    return facing, None


def _check_stacking(units: list[Unit], raws: list[Mapping[str, Any]], hexmap: HexMap, problems: _Problems) -> None:
    index = {raw["id"]: i for i, raw in enumerate(raws)}
    holder: dict[Hex, Unit] = {}
    for u in units:
        if not u.on_map:
            continue
        for h in u.hexes:
            other = holder.get(h)
            if other is not None and other.side != u.side:
                problems.add(f"units[{index[u.id]}].hexes", msg("hex {hex} also holds enemy unit {unit}",
                                                                hex=hexmap.label(h), unit=repr(other.id)),
                             u.id, (other.id,))
            holder.setdefault(h, u)


def _build_moment(raw, by_id: Mapping[str, Unit], wings: Mapping[str, Wing], parse_all, problems) -> Moment:
    active_side = _active_side(raw, wings, problems)
    event = _build_event(raw["event"], by_id, active_side, parse_all, problems) if "event" in raw else None
    return Moment(active_side, raw.get("active_wing"), raw.get("phase"), raw.get("wing_has_acted"), event,
                  raw.get("extended_activation", False), raw.get("wing_passes", False))


def _active_side(raw, wings: Mapping[str, Wing], problems) -> str | None:
    """The active side: as the scenario gives it, or the active wing's; the active wing must be one of the
    scenario's, on the active side."""
    active_side, active_wing = raw.get("active_side"), raw.get("active_wing")
    if active_wing is None:
        return active_side
    if active_wing not in wings:
        problems.add("moment.active_wing", msg("no wing {wing} in wings", wing=repr(active_wing)))
    elif active_side is not None and wings[active_wing].side != active_side:
        problems.add("moment.active_wing", msg("wing {wing} is not on the active side {side}",
                                               wing=repr(active_wing), side=repr(active_side)))
    elif active_side is None:
        return wings[active_wing].side
    return active_side


def _build_event(e, by_id: Mapping[str, Unit], active_side: str | None, parse_all, problems) -> Event:
    """The triggering event: a unit of the scenario, on the map and on the active side unless it retreats (or,
    on the active side, advances), and the units it names."""
    mover = by_id.get(e["unit"])
    if mover is None:
        problems.add("moment.event.unit", msg("no unit {unit}", unit=repr(e["unit"])))
    elif not mover.on_map and e["action"] != "retreat":
        problems.add("moment.event.unit", msg("unit {unit} is not on the map", unit=repr(e["unit"])), mover.id)
    elif active_side is not None and mover.side != active_side and e["action"] not in ("retreat", "advance"):
        problems.add("moment.event.unit", msg("unit {unit} is not on the active side {side}", unit=repr(e["unit"]),
                                              side=repr(active_side)), mover.id)
    for key in ("reacted", "combatants"):
        for j, uid in enumerate(e.get(key, [])):
            if uid not in by_id:
                problems.add(f"moment.event.{key}[{j}]", msg("no unit {unit}", unit=repr(uid)))
    return Event(
        unit=e["unit"], action=Action(e["action"]), from_hexes=tuple(parse_all(e.get("from", []), "moment.event.from", mover.id if mover else None)),
        mp=e.get("mp"), movement_trigger=e.get("movement_trigger"),
        reacted=frozenset(e.get("reacted", [])), combatants=frozenset(e.get("combatants", [])),
    )


def hexmap_of(data: Mapping[str, Any]) -> HexMap:
    """The map of a scenario's plain data, with the format's defaults (pointy hexes, odd rows shoved, labels from
    0101); only its shape is read, nothing is validated."""
    m = data.get("map") or {}
    return HexMap(columns=m.get("columns", 1), rows=m.get("rows", 1), layout=m.get("layout", "pointy"),
                  offset=m.get("offset", "odd"), first_column=m.get("first_column", 1),
                  first_row=m.get("first_row", 1))


def sides_of(data: Mapping[str, Any]) -> list[str]:
    """Every side a scenario's plain data names (its units, wings and friendly map edges), sorted."""
    found = {str(u.get("side", "")) for u in data.get("units") or [] if isinstance(u, dict)}
    found |= {str(w.get("side", "")) for w in data.get("wings") or [] if isinstance(w, dict)}
    found |= set((data.get("map") or {}).get("friendly_edges") or {})
    return sorted(s for s in found if s)
