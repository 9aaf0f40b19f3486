"""How the workspaces show what the translation memory offers: one presenter for the translator's editor and the
rulings' workspace (rulings/workspace_views.py), which both list memory matches the same way."""
from __future__ import annotations

from babel.numbers import format_percent
from django.utils.translation import gettext as _

from rulesref.languages import current_language

from . import memory


def match_row(match: memory.Match) -> dict:
    """A memory match as the _memory_match.html template shows it: the target, the source and its differences,
    where the entry came from (the rulebook and unit, or the note of an imported memory) and the percentage."""
    entry = match.entry
    if entry.origin == entry.Origin.TRANSLATION:
        where = " ".join(filter(None, (entry.book, entry.context.replace(":title", " · " + _("title")).replace(
            ":", " ¶"))))
    else:
        where = entry.note or entry.get_origin_display()
    return {"target": match.target, "source": match.source, "diff": match.diff, "where": where,
            "origin": entry.get_origin_display(),
            "percent": format_percent(match.percent / 100, locale=current_language()), "score": match.percent}
