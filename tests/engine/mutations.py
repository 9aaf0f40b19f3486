"""Random damage to scenario data, for tests that check what the engine does with broken input."""
from __future__ import annotations

import copy
import random

# Values that probe each keyword's edges: types jsonschema tells apart (bool is not an integer, 1.0 is), bounds,
# patterns, strings of enums, containers.
PROBES = [None, True, False, 0, 1, -1, 2, 3, 7, 12, 13, 60, 360, 1000, 1001, -1000.5, 0.0, 1.0, 2.5, 1e9, -0.0,
          "", "x", "0504", "05041", "0a04", "A", "a b", "north", "charge", "rally", "cavalry", "fleeing", "t9a",
          "mpbs", "line", "S", "NE", [], [1], [1, 2], [1.5, 2.5], [2, 3], [1, 2, 3], ["north", "north"],
          ["north", "south"], [0, 1], [[0, 0], [1, 0], [1, 1]], {}, {"x": 1}, {"0504": "woods"}]


def all_paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from all_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from all_paths(v, path + (i,))


def mutate(data, rnd: random.Random):
    data = copy.deepcopy(data)
    paths = [p for p in all_paths(data) if p]
    for _ in range(rnd.choice([1, 1, 1, 2, 3])):
        path = rnd.choice(paths)
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            key = path[-1]
            action = rnd.random()
            if action < 0.6:
                parent[key] = rnd.choice(PROBES)
            elif action < 0.75 and isinstance(parent, dict):
                del parent[key]
            elif action < 0.9 and isinstance(parent, dict):
                parent[rnd.choice(["extra", "id", "facing", "width", "roll", "0101", "9999"])] = rnd.choice(PROBES)
            elif isinstance(parent, list):
                parent.append(copy.deepcopy(parent[key]))
        except (KeyError, IndexError, TypeError):
            pass
    return data
