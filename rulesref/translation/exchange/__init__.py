"""Exchange with CAT tools: PO (through Babel's catalog support) and XLIFF 2.0, one unit per title or paragraph.

Both formats go through the same steps: ``export_units`` gives the units to write; a reader turns a file into
``FileEntry`` rows; ``plan_import`` validates every entry against the workspace (unknown contexts, source changed
since export, changed in the workspace since export, broken structure, QA errors) and ``apply_import`` writes the
clean ones as revisions, all or nothing unless partial.
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
