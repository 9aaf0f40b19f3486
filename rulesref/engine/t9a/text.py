"""Words the t9a engine puts into its messages: arcs, reactions, measurements.

Every English text here is a msgid of locale/ru/LC_MESSAGES/engine_t9a.po.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from babel import Locale
from babel.numbers import NumberPattern, parse_pattern

from ..i18n import Message, msg
from ..ruling import Citation
from .geometry import Arc

BOOK = "t9a"


def cite(clause: str, term: str = "") -> Citation:
    """A clause cited for ``term``, what its Russian text says (a finding citing it for something narrower names
    that with ``.on(term)``)."""
    return Citation(BOOK, clause, term=term)


DECLARING_CHARGES = cite("declaring-charges", "объявить")
CHARGE_REACTIONS = cite("charge-reactions", "подвергается нападению")
HOLD = cite("hold", "Держать позицию")
STAND_AND_SHOOT = cite("stand-and-shoot", "Стоять и Стрелять")
FLEE = cite("flee", "Отступать")
PURSUIT = cite("XIII.7.C", "Движение Преследования")
PURSUIT_PIVOT = cite("pursuit-pivot", "поворачивается")
PURSUIT_STRAIGHT_FORWARD = cite("pursuit-straight-forward", "полную дистанцию преследования")
PURSUIT_BOARD_EDGE = cite("pursuit-board-edge", "Край Стола")
PURSUIT_ENEMY_UNIT = cite("pursuit-enemy-unit", "базовый контакт")
PURSUING_OFF_THE_BOARD = cite("pursuing-off-the-board")  # not in the corpus: cited only to say so


def local_number(value: float, pattern: str, lang: str) -> str:
    """``value`` in the reader's number format (Babel's ``format_decimal``, with the pattern and the locale read
    once: a ruling writes a dozen lengths and angles, and reading them each time was most of the cost)."""
    number_pattern, locale = _number_format(pattern, lang)
    return number_pattern.apply(value if value else 0.0, locale)  # no "-0″" for a length rounded to nothing


@lru_cache(maxsize=32)
def _number_format(pattern: str, lang: str) -> tuple[NumberPattern, Locale]:
    return parse_pattern(pattern), Locale.parse(lang)


@dataclass(frozen=True)
class Inches(Message):
    """A length in inches, written with the reader's decimal sign: 2.5″ / 2,5″."""

    value: float = 0.0

    def render(self, lang: str = "en") -> str:
        return local_number(round(self.value, 2), "#,##0.##", lang) + "″"


def inches(value: float) -> Inches:
    return Inches("", value=float(value))


@dataclass(frozen=True)
class Degrees(Message):
    value: float = 0.0

    def render(self, lang: str = "en") -> str:
        return local_number(round(self.value, 1), "#,##0.#", lang) + "°"


def degrees(value: float) -> Degrees:
    return Degrees("", value=float(value))


def arc_name(arc: Arc | None) -> Message:
    if arc is None:
        return msg("no arc (inside the Unit Boundary)")
    return {
        Arc.FRONT: msg("Front Arc"),
        Arc.REAR: msg("Rear Arc"),
        Arc.LEFT_FLANK: msg("Left Flank Arc"),
        Arc.RIGHT_FLANK: msg("Right Flank Arc"),
    }[arc]


REACTION_NAMES = {
    "hold": msg("Hold"),
    "stand-and-shoot": msg("Stand and Shoot"),
    "flee": msg("Flee"),
}
