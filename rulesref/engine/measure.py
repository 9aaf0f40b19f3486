"""The measure tool's answer: what lies between two picks on a board (two units, or a unit and a point), each
figure with the clause that uses it. Each rulebook package computes it in its own ``measure`` module.

A measurement is a figure (a distance: ``status`` None) or a yes/no reading (in a sector or arc, a clear line of
sight: ``status`` pass, fail or unknown), always with its :class:`Citation` and a :class:`Message`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .i18n import Message
from .ruling import Citation, Status


@dataclass(frozen=True)
class Measurement:
    what: str  # "distance", "sector", "arc", "line-of-sight"
    citation: Citation
    message: Message
    status: Status | None = None
    value: Any = None

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"what": self.what, "clause": str(self.citation),
                "status": None if self.status is None else self.status.value,
                "message": self.message.render(lang), "value": self.value}


@dataclass(frozen=True)
class Measure:
    """Every measurement between two picks, and what a drawing shows of them: ``line`` (the two points measured
    between) and ``sight`` (the line of sight traced), in the board's own terms (hex labels or inches)."""

    measurements: tuple[Measurement, ...]
    drawing: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"measurements": [m.to_dict(lang) for m in self.measurements], "drawing": self.drawing}
