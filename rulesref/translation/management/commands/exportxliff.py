from ._exchange import ExportCommand


class Command(ExportCommand):
    help = ("Export a rulebook's translation as XLIFF 2.0, or 1.2 with --xliff-version 1.2 (one unit per title or "
            "paragraph), for a CAT tool.")
    fmt = "xliff"
    versions = {"2.0": "xliff", "1.2": "xliff12"}
