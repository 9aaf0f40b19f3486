"""Which engine decided a ruling: ``ENGINE_VERSION``, stated with every ruling (CLI, API, checker) beside the book
revision it was decided under.

It is the release (``ENGINE_RELEASE``, raised by hand when what the engine decides changes on purpose) followed by
a digest of the engine's own source files, so any change of the code that decides (a rule function, the geometry,
the scenario model) gives a new version without anyone having to remember to bump it: ``1.0+3f2a9c1b7e``.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

ENGINE_RELEASE = "1.0"


def source_digest(root: Path | None = None) -> str:
    """A digest of every Python file of the engine (its path and bytes), the same on every machine."""
    root = root or Path(__file__).parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:10]


ENGINE_VERSION = f"{ENGINE_RELEASE}+{source_digest()}"
