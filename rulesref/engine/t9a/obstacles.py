"""What stands in a moving unit's way: unit footprints, impassable terrain, paths of declared charges.

An :class:`Obstacles` set is a view: ``in`` and ``overlapping(shape)`` ask it, iterating lists it.  Overlap means the
interiors overlap (each obstacle is kept with a core shrunk by EPS), so base contact is never a collision.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

import numpy as np
from shapely import STRtree
from shapely.geometry.base import BaseGeometry

from ..i18n import Message, msg
from .geometry import shrunk
from .scenario import Scenario, Terrain, Unit


class ObstacleKind(str, enum.Enum):
    ENEMY_UNIT = "enemy-unit"
    FRIENDLY_UNIT = "friendly-unit"
    IMPASSABLE_TERRAIN = "impassable-terrain"
    FLED_UNIT = "fled-unit"  # counts as Impassable Terrain during a pursuit (XIII.7.C)
    CHARGE_PATH = "charge-path"  # ground a unit that has already declared its charge will cross


@dataclass(frozen=True)
class Obstacle:
    kind: ObstacleKind
    id: str
    label: str
    shape: BaseGeometry
    core: BaseGeometry

    @classmethod
    def of_unit(cls, unit: Unit, kind: ObstacleKind) -> "Obstacle":
        return cls(kind, unit.id, unit.label, unit.boundary.polygon, unit.boundary.core)

    @classmethod
    def of_terrain(cls, terrain: Terrain) -> "Obstacle":
        return cls(ObstacleKind.IMPASSABLE_TERRAIN, terrain.id, terrain.label, terrain.outline, terrain.core)

    @classmethod
    def of_path(cls, charger: Unit, path: BaseGeometry, core: BaseGeometry | None = None) -> "Obstacle":
        """The ground a declared charge crosses; ``core``: the path shrunk by EPS, when already worked out."""
        return cls(ObstacleKind.CHARGE_PATH, charger.id, charger.label, path, shrunk(path) if core is None else core)

    def describe(self) -> Message:
        return {
            ObstacleKind.ENEMY_UNIT: msg("enemy unit {name}", name=self.label),
            ObstacleKind.FRIENDLY_UNIT: msg("friendly unit {name}", name=self.label),
            ObstacleKind.IMPASSABLE_TERRAIN: msg("impassable terrain {name}", name=self.label),
            ObstacleKind.FLED_UNIT: msg("fled unit {name} (counts as Impassable Terrain)", name=self.label),
            ObstacleKind.CHARGE_PATH: msg("the path of the charge declared by {name}", name=self.label),
        }[self.kind]

    def to_dict(self) -> dict:
        return {"kind": self.kind.value, "id": self.id}


class Obstacles:
    """A set of obstacles with a spatial index."""

    def __init__(self, obstacles: Iterable[Obstacle]):
        self._items = tuple(obstacles)
        self._tree = STRtree([o.core for o in self._items]) if self._items else None

    def __iter__(self) -> Iterator[Obstacle]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, shape: BaseGeometry) -> bool:
        return bool(self.overlapping(shape))

    def overlapping(self, shape: BaseGeometry) -> list[Obstacle]:
        """The obstacles whose interiors the shape overlaps, in the order they were given."""
        if self._tree is None:
            return []
        hits = self._tree.query(shape, predicate="intersects")
        return [self._items[i] for i in sorted(hits)]

    def overlapping_any(self, shapes: list[BaseGeometry]) -> list[tuple[int, Obstacle]]:
        """(shape index, obstacle) for every overlap between many shapes and the set, by shape index."""
        if self._tree is None or not shapes:
            return []
        shape_index, item_index = self._tree.query(np.asarray(shapes, dtype=object), predicate="intersects")
        order = np.lexsort((item_index, shape_index))
        return [(int(shape_index[k]), self._items[int(item_index[k])]) for k in order]

    def near(self, shape: BaseGeometry, distance: float) -> list[Obstacle]:
        if self._tree is None:
            return []
        hits = self._tree.query(shape, predicate="dwithin", distance=distance)
        return [self._items[i] for i in sorted(hits)]

    def without(self, *ids: str) -> "Obstacles":
        return Obstacles(o for o in self._items if o.id not in ids)


class UnitObstacles(Obstacles):
    """The scenario's units as obstacles, found through the scenario's own spatial index (built once when it is
    first needed) and made only when a query meets them: ``kind_of(unit)`` says what a unit is to the mover, or
    None when it is no obstacle.  ``then`` are further obstacles, after the units in every answer."""

    def __init__(self, scenario: Scenario, kind_of: Callable[[Unit], ObstacleKind | None],
                 then: Obstacles | None = None, excluded: frozenset[str] = frozenset()):
        self._scenario, self._kind_of, self._then, self._excluded = scenario, kind_of, then, excluded

    def _make(self, index: int) -> Obstacle | None:
        unit = self._scenario.units[index]
        kind = None if unit.id in self._excluded else self._kind_of(unit)
        return None if kind is None else Obstacle.of_unit(unit, kind)

    def _made(self, indexes) -> list[Obstacle]:
        return [o for o in map(self._make, indexes) if o is not None]

    def __iter__(self) -> Iterator[Obstacle]:
        yield from self._made(range(len(self._scenario.units)))
        if self._then is not None:
            yield from self._then

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def overlapping(self, shape: BaseGeometry) -> list[Obstacle]:
        hits = self._scenario.unit_index.query(shape, predicate="intersects")
        found = self._made(sorted(int(i) for i in hits))
        return found + (self._then.overlapping(shape) if self._then is not None else [])

    def overlapping_any(self, shapes: list[BaseGeometry]) -> list[tuple[int, Obstacle]]:
        if not shapes:
            return []
        shape_index, unit_index = self._scenario.unit_index.query(np.asarray(shapes, dtype=object),
                                                                  predicate="intersects")
        found = []
        for k in np.lexsort((unit_index, shape_index)):
            obstacle = self._make(int(unit_index[k]))
            if obstacle is not None:
                found.append((int(shape_index[k]), obstacle))
        if self._then is not None:
            found.extend(self._then.overlapping_any(shapes))
            found.sort(key=lambda hit: hit[0])  # stable: per shape, the units before the rest
        return found

    def near(self, shape: BaseGeometry, distance: float) -> list[Obstacle]:
        hits = self._scenario.unit_index.query(shape, predicate="dwithin", distance=distance)
        found = self._made(sorted(int(i) for i in hits))
        return found + (self._then.near(shape, distance) if self._then is not None else [])

    def without(self, *ids: str) -> "Obstacles":
        then = self._then.without(*ids) if self._then is not None else None
        return UnitObstacles(self._scenario, self._kind_of, then, self._excluded | frozenset(ids))


def terrain_obstacles(scenario: Scenario, *, obscuring: bool = False) -> Obstacles:
    """The scenario's impassable terrain (or, with ``obscuring``, its obscuring terrain, kept as the same kind of
    obstacle to sight lines) with its spatial index, built once per scenario."""
    key = ("obscuring-terrain" if obscuring else "impassable-terrain",)
    try:
        return scenario.derived[key]
    except KeyError:
        pieces = scenario.obscuring_terrain if obscuring else scenario.impassable_terrain
        Terrain.work_out_cores(pieces)
        found = scenario.derived[key] = Obstacles(Obstacle.of_terrain(t) for t in pieces)
        return found


__all__ = ["Obstacle", "ObstacleKind", "Obstacles", "UnitObstacles", "terrain_obstacles"]
