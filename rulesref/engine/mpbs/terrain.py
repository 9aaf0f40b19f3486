"""Terrain as the rules use it: the movement-point cost of entering a hex, formation hits, line of sight.

The Terrain Effects Chart is not in the corpus: costs come from fixtures/tables/mpbs/terrain.json (documented
defaults) and the scenario's ``terrain_types``. A cost the data does not give is *unknown*: the lookup answers
``UNKNOWN`` and records what is missing, so a ruling can say exactly which row it lacks.
"""
from __future__ import annotations

from typing import Iterable

from ..hexgrid import Hex, hex_lines
from .scenario import Scenario


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False


UNKNOWN = _Unknown()


class TerrainCosts:
    """Entry costs and formation hits of one movement class on one scenario's map, memoised per hex."""

    def __init__(self, scenario: Scenario, movement_class: str):
        self.scenario = scenario
        self.movement_class = movement_class
        self.missing: set[str] = set()  # "terrain type / movement class" pairs the data lacks
        self._cost: dict[Hex, object] = {}
        self._cost_of_terrain: dict[str, object] = {}

    def cost(self, h: Hex) -> float | None | _Unknown:
        """MP to enter ``h``: a number, None if it may not be entered, UNKNOWN if the data does not say."""
        try:
            return self._cost[h]
        except KeyError:
            pass
        terrain = self.scenario.terrain_at(h)
        value = self.of_terrain(terrain)
        if value is UNKNOWN:
            self.missing.add(f"{terrain}/{self.movement_class}")
        self._cost[h] = value
        return value  # type: ignore[return-value]

    def of_terrain(self, terrain: str) -> float | None | _Unknown:
        """MP to enter a hex of this terrain type (as ``cost``, without recording what is missing)."""
        try:
            return self._cost_of_terrain[terrain]  # type: ignore[return-value]
        except KeyError:
            value = self._cost_of_terrain[terrain] = self._terrain_cost(terrain)
            return value  # type: ignore[return-value]

    def _terrain_cost(self, terrain: str) -> object:
        """MP to enter a hex of this terrain type: a number, None if it may not be entered, or UNKNOWN."""
        kind = self.scenario.tables.terrain.get(terrain)
        if kind is None or self.movement_class not in kind.cost:
            return UNKNOWN
        return kind.cost[self.movement_class]

    def formation_hits(self, h: Hex) -> int | _Unknown:
        kind = self.scenario.terrain_type(h)
        if kind is None or self.movement_class not in kind.formation_hits:
            return UNKNOWN
        return kind.formation_hits[self.movement_class]

    def hits_along(self, hexes: Iterable[Hex]) -> tuple[int, list[str]]:
        """Formation hits caused by entering ``hexes`` (11.4.10, 9.3.1e), and the terrain types whose hits are unknown."""
        total, unknown = 0, []
        for h in hexes:
            hits = self.formation_hits(h)
            if hits is UNKNOWN:
                unknown.append(self.scenario.terrain_at(h))
            else:
                total += hits  # type: ignore[operator]
        return total, sorted(set(unknown))

    @property
    def cheapest(self) -> float:
        """The least cost of entering any hex, for an admissible estimate of the cost still to pay."""
        costs = [
            t.cost[self.movement_class]
            for t in self.scenario.tables.terrain.values()
            if isinstance(t.cost.get(self.movement_class), (int, float))
        ]
        return min(costs, default=1)


def blocks_los(scenario: Scenario, h: Hex) -> bool | None:
    """Whether ``h`` blocks line of sight: listed in map.los_blocking, or its terrain type does; None if unknown."""
    if h in scenario.los_blocking_hexes:
        return True
    kind = scenario.terrain_type(h)
    return None if kind is None or kind.blocks_los is None else kind.blocks_los


def line_of_sight(scenario: Scenario, a: Hex, b: Hex) -> tuple[bool | None, list[Hex]]:
    """Whether the line from ``a`` to ``b`` is clear, and the line used.

    Only the hexes between the two ends can block. A line that runs exactly along hexsides is clear when either side
    of it is clear (docs/geometry-hex.md). Unknown terrain makes the answer None unless another line is clear.
    """
    verdicts = []
    for line in hex_lines(a, b):
        states = [blocks_los(scenario, h) for h in line[1:-1]]
        if True in states:
            verdicts.append((False, line))
        elif None in states:
            verdicts.append((None, line))
        else:
            return True, line
    if any(v is None for v, _ in verdicts):
        return None, next(line for v, line in verdicts if v is None)
    return False, verdicts[0][1]
