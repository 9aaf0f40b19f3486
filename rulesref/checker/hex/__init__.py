"""The hex map board kind (``kind = "hex"``, mpbs): edits in :mod:`.edits`, forms in :mod:`.forms`, POST
handlers in :mod:`.actions`, the side panel in :mod:`.panels`, the drawing in :mod:`.drawing` and what an answer
draws in :mod:`.answers`."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _, gettext_lazy

from rulesref.engine.hexgrid import VERTEX_NAMES, footprint_distance
from rulesref.engine.mpbs import measure as engine_measure
from rulesref.engine.mpbs.interception import INTERCEPTION_RANGE
from rulesref.engine.mpbs.scenario import hexmap_of
from rulesref.engine.mpbs.terms import UnitType

from .. import words
from ..kinds import BoardKind
from ..measuring import MeasureView, pick_value, rows
from ..page import Page
from ..questions import unit_options
from ..state import LABEL_RE
from . import actions as handlers, answers, drawing, edits, panels


# The question a selected unit is the subject of, where it is not the first unit parameter.
INTERCEPTION_QUESTIONS = ("can-intercept", "interception-chance")


def unit_label(unit: dict[str, Any]) -> str:
    """``CAV-1 (red, cavalry)``, in the reader's language."""
    return f"{unit.get('id')} ({words.side(unit.get('side'))}, {words.unit_type(unit.get('type'))})"


def _within(hexmap, unit: dict[str, Any], other: dict[str, Any], reach: int) -> bool:
    """Whether two units on the map stand within ``reach`` hexes of each other (between their nearest hexes)."""
    try:
        a, b = ([hexmap.parse(h) for h in u.get("hexes") or []] for u in (unit, other))
    except ValueError:
        return False
    return bool(a and b) and footprint_distance(a, b) <= reach


class HexBoard(BoardKind):
    id = "hex"
    verbose_name = gettext_lazy("hex map")
    tools_template = "checker/hex/tools.html"
    selection_template = "checker/hex/selection.html"
    scenario_template = "checker/hex/scenario.html"
    help_template = "checker/hex/help.html"
    actions = handlers.ACTIONS

    def blank(self, book: str) -> dict[str, Any]:
        return edits.blank(book)

    def tools(self) -> list[tuple[str, str, str]]:
        return [("select", _("Select and move"), "s"), ("place", _("Place units"), "p"),
                ("terrain", _("Paint terrain"), "t"), ("dead", _("Dead zones"), "z"),
                ("los", _("Blocks line of sight"), "l"), ("erase", _("Remove units"), "x"),
                ("measure", _("Measure"), "m")]

    def unit_types(self) -> tuple[str, ...]:
        return ("heavy-infantry",) + tuple(t for t in edits.UNIT_TYPES if t != "heavy-infantry")

    def drawing(self, page: Page):
        return drawing.drawing(page)

    def panels(self, page: Page) -> dict[str, Any]:
        return panels.panels(page)

    def answer_extras(self, page: Page, answer) -> None:
        answers.answer_extras(answer, page.view.ask_params(page.book), page.loaded)

    def question_defaults(self, page: Page, question: str) -> dict[str, list[str]]:
        """The selected unit is the unit asked about; the moving unit of the triggering event is the target, and
        the active wing the wing."""
        data, defaults = page.data, {}
        moment = data.get("moment") or {}
        mover = (moment.get("event") or {}).get("unit")
        if page.selected is not None and question not in ("orders-change", "mandatory-rally", "advance"):
            defaults["unit"] = [page.selected["id"]]
        if question == "retreat" and mover:
            # Who retreats is the one who lost the close combat, which the position does not say; the moving unit
            # (the attacker) is not offered as its own default, and it is the unit the one asked about fought.
            if defaults.get("unit") == [mover]:
                del defaults["unit"]
            elif defaults.get("unit") and self._enemies(page, defaults["unit"][0], mover):
                defaults["fought"] = [mover]
        if question in INTERCEPTION_QUESTIONS and (moment.get("event") or {}).get("unit"):
            defaults["target"] = [moment["event"]["unit"]]
        if question in ("orders-change", "mandatory-rally") and moment.get("active_wing"):
            defaults["wing"] = [moment["active_wing"]]
        return defaults

    @staticmethod
    def _enemies(page: Page, a: str, b: str) -> bool:
        sides = {u.get("id"): u.get("side") for u in page.units}
        return a in sides and b in sides and sides[a] != sides[b]

    def param_options(self, page: Page, question: str, param, chosen) -> list | None:
        if param.type in ("unit", "units"):
            return unit_options(page.units, param.name, chosen, unit_label)
        if param.type == "wing":
            return [(w["id"], f"{w['id']} ({words.side(w.get('side'))})") for w in page.data.get("wings") or []
                    if isinstance(w, dict) and isinstance(w.get("id"), str)]
        if param.type == "facing":
            return [(n, words.compass(n)) for n in VERTEX_NAMES[hexmap_of(page.data).layout]]
        return None

    def shortcuts(self, page: Page) -> list[dict[str, str]]:
        """With a moving unit: "Can CAV-1 intercept?" for each enemy cavalry unit within the interception range."""
        event = (page.data.get("moment") or {}).get("event") or {}
        mover = next((u for u in page.units if u.get("id") == event.get("unit")), None)
        if mover is None:
            return []
        hexmap = hexmap_of(page.data)
        return [{"label": _("Can %(unit)s intercept %(target)s?") % {"unit": u["id"], "target": mover["id"]},
                 "url": page.url(q="can-intercept", params={"unit": [u["id"]], "target": [mover["id"]]})}
                for u in page.units if u.get("type") == UnitType.CAVALRY.value and u.get("side") != mover.get("side")
                and _within(hexmap, u, mover, INTERCEPTION_RANGE)]

    def measure(self, page: Page) -> MeasureView:
        """Between two units or hexes: the distance in hexes, each unit's sector the other is in, line of sight."""
        scenario = page.loaded
        picks = [p for p in (self._pick(scenario, pick) for pick in page.view.measure) if p is not None]
        names = [name for name, _value in picks]
        if len(picks) < 2:
            return MeasureView(names)
        found = engine_measure.measure(scenario, picks[0][1], picks[1][1])
        return MeasureView(names, rows(page.book, found, page.lang), found.drawing)

    def pick(self, data: dict[str, Any], value: str) -> str:
        if LABEL_RE.match(value):  # a hex label as typed in "Go to hex"
            value = f"h:{value}"
        kind, label = pick_value(value)
        here = edits.units_at(data, label) if kind == "h" else []
        return f"u:{here[-1]['id']}" if here else value

    @staticmethod
    def _pick(scenario, pick: str):
        kind, value = pick_value(pick)
        if kind == "u" and value in scenario.by_id and scenario.by_id[value].on_map:
            return value, scenario.by_id[value]
        if kind == "h":
            try:
                return _("hex %(hex)s") % {"hex": value}, scenario.hexmap.parse(value)
            except ValueError:
                return None
        return None

