"""Exchange with CAT tools: PO (through Babel's catalog support) and XLIFF 2.0 and 1.2, one unit per title or
paragraph, and the translation memory as TMX; each format a registered class (formats.py).

The unit formats go through the same steps: ``export_units`` gives the units to write; a reader turns a file into
``FileEntry`` rows; ``plan_import`` validates every entry against the workspace with the rules of rules.py (unknown
contexts, source changed since export, changed in the workspace since export, broken structure, QA errors) and
``apply_import`` writes the clean ones as revisions, all or nothing unless partial. Which characters no exchanged
text may carry is said once, in controls.py.
"""
from .units import (  # noqa: F401
    ExchangeError,
    ExportUnit,
    FileEntry,
    ImportPlan,
    ImportProblem,
    apply_import,
    export_units,
    plan_import,
)
