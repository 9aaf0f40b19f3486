"""The measure tool on the page: its two picks (``m=u:<unit id>``, ``m=h:<hex>``, ``m=p:<x>,<y>`` in the address)
and the engine's measurements between them, each with its clause linked into the reference.

Which picks a board takes and how they are measured is the board kind's (:meth:`BoardKind.measure`); the figures
and their clauses are the engine's (``rulesref.engine.<book>.measure``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .answer import STATUS_SIGNS, Clause, book_index_for, clause_view


@dataclass
class MeasureRow:
    what: str
    status: str  # pass | fail | unknown | "" (a figure)
    sign: str
    message: str
    clause: Clause


@dataclass
class MeasureView:
    picks: list[str]  # what was picked, as the page names it
    rows: list[MeasureRow] = field(default_factory=list)
    drawing: dict[str, Any] = field(default_factory=dict)


def rows(book: str, measure, lang: str) -> list[MeasureRow]:
    """The engine's measurements in the reader's language, their clauses looked up in the reference."""
    index = book_index_for(book)
    out = []
    for m in measure.measurements:
        status = "" if m.status is None else m.status.value
        out.append(MeasureRow(m.what, status, STATUS_SIGNS.get(status, "·"), m.message.render(lang),
                              clause_view(book, m.citation.clause, lang, index)))
    return out


def pick_value(pick: str) -> tuple[str, str]:
    """``u:CAV-1`` -> (``u``, ``CAV-1``); anything else -> ("", "")."""
    kind, sep, value = pick.partition(":")
    return (kind, value) if sep and kind in ("u", "h", "p") and value else ("", "")


def with_pick(view, pick: str):
    """The view after a click with the measure tool: the new pick and the one before it (a third click starts
    again from the second)."""
    picks = [p for p in view.measure if p != pick][-1:] + [pick[:80]]
    return view.with_(tool="measure", measure=tuple(picks))

