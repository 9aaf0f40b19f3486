"""Large but valid scenarios, for tests of what anonymous storage accepts: the schema bounds every text field (a
description holds at most 4,000 characters), so size comes the way a real large map brings it, a terrain entry per
hex."""
from __future__ import annotations

import copy
import json


def grown(base: dict, tag: str, side: int = 99) -> dict:
    """``base`` (an mpbs scenario) on a ``side`` × ``side`` map with every hex's terrain listed (about 170 KB of JSON
    at 99), told apart from others by ``tag`` in its description."""
    data = copy.deepcopy(base)
    data["description"] = tag
    data["map"] = {**data["map"], "columns": side, "rows": side,
                   "terrain": {f"{c:02d}{r:02d}": "clear" for c in range(1, side + 1) for r in range(1, side + 1)}}
    return data


def size(data: dict) -> int:
    return len(json.dumps(data).encode())
