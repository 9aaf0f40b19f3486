"""The game's tables as data with provenance: fixtures/tables/mpbs/*.json, overridden row by row by a scenario.

Only what the corpus or TERMS.md gives is in the fixtures; every row says where it came from. Where a row is missing
the engine answers "undetermined" and names the row.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .terms import MOVEMENT_CLASSES, Order

TABLES_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "tables" / "mpbs"
SCENARIO_SOURCE = "scenario"


@dataclass(frozen=True)
class DieRange:
    """A printed die range ``low–high``; success on a roll within it or lower (TERMS.md)."""

    low: int
    high: int
    source: str = ""

    def __str__(self) -> str:
        return f"{self.low}–{self.high}"


def success_rolls(success: DieRange, modifier: int) -> tuple[int, ...]:
    """The natural rolls 0–9 of one ten-sided die that succeed: modified roll within the range or lower."""
    return tuple(roll for roll in range(10) if roll + modifier <= success.high)


@dataclass(frozen=True)
class Modifier:
    id: str
    value: Any
    source: str = ""
    clause: str = ""


@dataclass(frozen=True)
class FactorModifier:
    """A modifier read from a property of the unit (``morale_rating``): known values, and whether they are all."""

    factor: str
    values: Mapping[str, int]
    complete: bool
    source: str = ""


@dataclass(frozen=True)
class TerrainType:
    name: str
    cost: Mapping[str, float | None]  # per movement class; missing key: unknown; None: may not enter
    blocks_los: bool | None
    formation_hits: Mapping[str, int]  # per movement class; missing key: unknown
    source: str


@dataclass(frozen=True)
class Tables:
    interception_rows: Mapping[Order, DieRange | None]
    interception_modifiers: tuple[FactorModifier, ...]
    orders_change_rows: Mapping[tuple[Order, Order], DieRange | None]
    orders_change_modifiers: Mapping[str, Modifier]
    unable_to_retreat_rows: tuple[tuple[DieRange, str], ...]
    unable_to_retreat_modifiers: tuple[Modifier, ...]
    hedgehog_formations: frozenset[str] | None
    terrain: Mapping[str, TerrainType] = field(default_factory=dict)


@lru_cache(maxsize=None)
def _fixture(name: str) -> dict[str, Any]:
    with (TABLES_DIR / f"{name}.json").open(encoding="utf-8") as fh:
        return json.load(fh)


def _range(value: Any, source: str) -> DieRange | None:
    return None if value is None else DieRange(int(value[0]), int(value[1]), source)


def _terrain_types(overrides: Mapping[str, Any]) -> dict[str, TerrainType]:
    merged: dict[str, dict[str, Any]] = {
        name: json.loads(json.dumps(data)) for name, data in _fixture("terrain")["types"].items()
    }
    for name, data in overrides.items():
        base = merged.setdefault(name, {})
        for key in ("cost", "formation_hits"):
            if key in data:
                base[key] = {**base.get(key, {}), **data[key]}
        if "blocks_los" in data:
            base["blocks_los"] = data["blocks_los"]
        base["source"] = data.get("source", SCENARIO_SOURCE)
    return {
        name: TerrainType(
            name=name,
            cost=MappingProxyType({k: data.get("cost", {})[k] for k in MOVEMENT_CLASSES if k in data.get("cost", {})}),
            blocks_los=data.get("blocks_los"),
            formation_hits=MappingProxyType(dict(data.get("formation_hits", {}))),
            source=data.get("source", ""),
        )
        for name, data in merged.items()
    }


def build_tables(scenario_tables: Mapping[str, Any], terrain_overrides: Mapping[str, Any]) -> Tables:
    """The fixture tables with the scenario's rows laid over them (a scenario row replaces the row it names).

    Tables are immutable, so scenarios that give the same rows (most give none) share one."""
    return _tables_for(json.dumps([scenario_tables, terrain_overrides], sort_keys=True))


@lru_cache(maxsize=64)
def _tables_for(rows: str) -> Tables:
    scenario_tables, terrain_overrides = json.loads(rows)
    return _build_tables(scenario_tables, terrain_overrides)


def _build_tables(scenario_tables: Mapping[str, Any], terrain_overrides: Mapping[str, Any]) -> Tables:
    interception = _fixture("interception")
    orders = _fixture("orders_change")
    unable = _fixture("unable_to_retreat")
    hedgehog = _fixture("hedgehog_formations")
    own = {k: scenario_tables.get(k, {}) for k in ("interception", "orders_change", "unable_to_retreat")}

    interception_rows = {Order(r["order"]): _range(r["success"], r.get("source", "")) for r in interception["rows"]}
    interception_rows.update(
        {Order(r["order"]): _range(r["success"], r.get("source", SCENARIO_SOURCE)) for r in own["interception"].get("rows", [])}
    )
    factor_mods: dict[str, FactorModifier] = {}
    for m in [*interception["modifiers"], *own["interception"].get("modifiers", [])]:
        before = factor_mods.get(m["factor"])
        values = {**(before.values if before else {}), **{str(k): int(v) for k, v in m["values"].items()}}
        factor_mods[m["factor"]] = FactorModifier(
            m["factor"], MappingProxyType(values), bool(m.get("complete", False)), m.get("source", SCENARIO_SOURCE)
        )

    orders_rows = {(Order(r["from"]), Order(r["to"])): _range(r["success"], r.get("source", "")) for r in orders["rows"]}
    orders_rows.update(
        {
            (Order(r["from"]), Order(r["to"])): _range(r["success"], r.get("source", SCENARIO_SOURCE))
            for r in own["orders_change"].get("rows", [])
        }
    )
    orders_mods = {m["id"]: Modifier(m["id"], m["value"], m.get("source", ""), m.get("clause", "")) for m in orders["modifiers"]}
    orders_mods.update(
        {
            m["id"]: Modifier(m["id"], m["value"], m.get("source", SCENARIO_SOURCE), m.get("clause", ""))
            for m in own["orders_change"].get("modifiers", [])
        }
    )

    unable_rows = [*unable["rows"], *own["unable_to_retreat"].get("rows", [])]
    hedgehog_formations = scenario_tables.get("hedgehog_formations", hedgehog["formations"])
    return Tables(
        interception_rows=MappingProxyType(interception_rows),
        interception_modifiers=tuple(factor_mods.values()),
        orders_change_rows=MappingProxyType(orders_rows),
        orders_change_modifiers=MappingProxyType(orders_mods),
        unable_to_retreat_rows=tuple(
            (DieRange(int(r["roll"][0]), int(r["roll"][1]), r.get("source", SCENARIO_SOURCE)), str(r["result"]).lower())
            for r in unable_rows
        ),
        unable_to_retreat_modifiers=tuple(
            Modifier(m["id"], int(m["value"]), m.get("source", SCENARIO_SOURCE))
            for m in [*unable["modifiers"], *own["unable_to_retreat"].get("modifiers", [])]
        ),
        hedgehog_formations=None if hedgehog_formations is None else frozenset(f.lower() for f in hedgehog_formations),
        terrain=MappingProxyType(_terrain_types(terrain_overrides)),
    )


def terrain_kinds(terrain_overrides: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """The terrain types a scenario can name: the documented defaults (fixtures/tables/mpbs/terrain.json) and the
    scenario's own ``terrain_types``, in that order."""
    own = terrain_overrides if isinstance(terrain_overrides, Mapping) else {}
    return tuple(dict.fromkeys([*_fixture("terrain")["types"], *own]))
