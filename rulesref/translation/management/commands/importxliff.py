from ._exchange import ImportCommand


class Command(ImportCommand):
    help = ("Import a XLIFF file into a rulebook's translation. Every entry is validated first; nothing is "
            "written unless all are clean (or --partial). Each changed section becomes a revision.")
    fmt = "xliff"
