"""Which engine decided a ruling: ``ENGINE_VERSION``, stated with every ruling (CLI, API, checker) beside the book
revision it was decided under.

It is the release (``ENGINE_RELEASE``, raised by hand when what the engine decides changes on purpose) followed by
a digest of everything the engine decides from: its own source files and scenario schemas, and the rule tables it
reads (``fixtures/tables``: interception, terrain, the rules outside the corpus…). So any change of what decides (a
rule function, the geometry, the scenario model, a table value) gives a new version without anyone having to
remember to bump it: ``1.0+3f2a9c1b7e``.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

ENGINE_RELEASE = "1.0"
ENGINE_DIR = Path(__file__).resolve().parent
TABLES_DIR = ENGINE_DIR.parents[1] / "fixtures" / "tables"


def source_digest(root: Path | None = None, tables: Path | None = None) -> str:
    """A digest of every Python and JSON file of the engine and every table it reads (each file's place and
    bytes), the same on every machine."""
    root, tables = root or ENGINE_DIR, tables or TABLES_DIR
    files = sorted((f"{part}/{path.relative_to(base).as_posix()}", path)
                   for part, base, pattern in (("engine", root, "*.py"), ("engine", root, "*.json"),
                                               ("tables", tables, "*.json"))
                   for path in base.rglob(pattern))
    h = hashlib.sha256()
    for name, path in files:
        h.update(name.encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:10]


ENGINE_VERSION = f"{ENGINE_RELEASE}+{source_digest()}"
