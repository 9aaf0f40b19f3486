"""The hex map on the editor page: the engine's one hex drawing (:mod:`rulesref.engine.hexsvg`) with the words in
the reader's language, each hex a link that chooses it, and what the answer and the measure tool draw on it."""
from __future__ import annotations

from typing import Any, Mapping

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _, pgettext

from rulesref.engine.hexsvg import MapWords, Mark, render_map

from .. import words
from ..page import Page
from ..state import link_prefix
from .answers import adjacent_sectors



class PageWords(MapWords):
    """The map's words in the reader's language (the catalog's), each looked up once per page."""

    def __init__(self) -> None:
        self.map_name = _("Map")
        self.words = {"dead": _("dead zone"), "los": _("blocks line of sight"),
                      "facing": pgettext("a unit's facing", "facing %(vertex)s"), "morale": _("morale %(rating)s")}
        self.types = {k: str(v) for k, v in words.UNIT_TYPE_NAMES.items()}
        self.orders = {k: str(v) for k, v in words.ORDER_NAMES.items()}
        self.order_letters = {k: str(v) for k, v in words.ORDER_LETTERS.items()}
        self.morale_letters = {k: str(v) for k, v in words.MORALE_LETTERS.items()}
        self.morale_names = {k: str(words.MORALE_NAMES[k]) for k in ("shaken", "broken")}
        self.disordered = str(words.DISORDERED_LETTER)
        self.sides: dict[Any, str] = {}
        self.terrain: dict[str, str] = {}

    def side(self, side: Any) -> str:
        if side not in self.sides:
            self.sides[side] = words.side(side)
        return self.sides[side]

    def hex_title(self, label: str, terrain: str, dead: bool, los: bool) -> str:
        if terrain not in self.terrain:
            self.terrain[terrain] = words.terrain(terrain)
        parts = [self.terrain[terrain]] + [self.words["dead"]] * dead + [self.words["los"]] * los
        return f"{label}: {', '.join(parts)}"

    def edge_title(self, side: str) -> str:
        return _("Friendly map edge of %(side)s") % {"side": self.side(side)}

    def unit_title(self, unit: Mapping[str, Any], order: str | None) -> str:
        """``CAV-1, “Horse”, cavalry, red, 0708, facing N, Charge, Morale Shaken, morale 8``."""
        morale = unit.get("morale") or {}
        bits = [str(unit.get("id", "")), f"“{unit['name']}”" if unit.get("name") else "",
                self.types.get(unit.get("type"), str(unit.get("type", ""))), self.side(unit.get("side")),
                "–".join(map(str, unit.get("hexes") or [])),
                self.words["facing"] % {"vertex": words.compass(unit["facing"])} if unit.get("facing") else "",
                self.orders.get(order, "") if order else "", self.morale_names.get(morale.get("state"), ""),
                self.words["morale"] % {"rating": morale["rating"]} if isinstance(morale.get("rating"), int) else ""]
        return ", ".join(b for b in bits if b)

    def counter_info(self, unit: Mapping[str, Any], order: str | None) -> str:
        """The letters on a counter: its order, Morale Shaken or Broken, disordered, and its morale rating (the
        legend under the map explains them)."""
        morale = unit.get("morale") or {}
        bits = [self.order_letters.get(order, "") if order else "", self.morale_letters.get(morale.get("state"), ""),
                self.disordered if (unit.get("formation") or {}).get("state") == "disordered" else "",
                str(morale["rating"]) if isinstance(morale.get("rating"), int) else ""]
        return " ".join(b for b in bits if b)


def legend() -> list[tuple[str, str]]:
    """What the letters on a counter mean ("Ат 8": the order Charge, morale rating 8)."""
    items = [(str(words.ORDER_LETTERS[o]), str(words.ORDER_NAMES[o])) for o in words.ORDER_LETTERS]
    items += [(str(words.MORALE_LETTERS[m]), str(words.MORALE_NAMES[m])) for m in words.MORALE_LETTERS]
    items.append((str(words.DISORDERED_LETTER), str(words.FORMATION_STATE_NAMES["disordered"])))
    items.append(("8", _("morale rating")))
    return items


def measure_marks(measure) -> list[Mark]:
    """The measure tool's line between its picks and the hexes its line of sight crosses."""
    if measure is None or not measure.drawing:
        return []
    line, sight = measure.drawing.get("line") or [], measure.drawing.get("sight") or []
    marks = [Mark("measure", line=line, title=_("Measured"))] if len(line) == 2 else []
    if len(sight) >= 2:
        marks.append(Mark("measuresight", hexes=sight[1:-1], line=[[sight[0]], [sight[-1]]], title=_("Line of sight")))
    return marks


def drawing(page: Page) -> SafeString:
    view, answer, selected = page.view, page.answer, page.selected
    sectors = answer.sectors if answer is not None and answer.sectors else {}
    if not sectors and selected and selected.get("facing"):
        sectors = adjacent_sectors(page.data, selected)
    marks = list(answer.marks if answer is not None else ()) + measure_marks(page.measure)
    focus = view.hex or ((selected.get("hexes") or [""])[0] if selected else "")
    if view.tool == "measure":
        prefix = link_prefix(page.source, view, page.lang, "pick", hex="") + "h:"
    else:
        prefix = link_prefix(page.source, view, page.lang, "hex")
    return mark_safe(render_map(page.data, words=PageWords(), href_prefix=prefix, selected=view.sel or None,
                                focus=focus, marks=marks, sectors=sectors))
