from ._exchange import ExportCommand


class Command(ExportCommand):
    help = "Export a rulebook's translation as PO (one unit per title or paragraph) for a CAT tool."
    fmt = "po"
