"""The tabletop board kind (``kind = "tabletop"``, t9a: units on rectangular bases, in inches): edits in
:mod:`.edits`, forms in :mod:`.forms`, POST handlers in :mod:`.actions`, the side panel in :mod:`.panels`, the
drawing in :mod:`.drawing` and an answer's figures in :mod:`.answers`."""
from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext as _, gettext_lazy

from rulesref.engine.t9a import measure as engine_measure
from rulesref.engine.t9a.text import inches

from .. import editing
from ..kinds import BoardKind
from ..measuring import MeasureView, pick_value, rows
from ..page import Page
from ..questions import unit_options
from . import actions as handlers, answers, drawing, edits, panels



def declared(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The declared charges as (charger, target), in the order they were declared."""
    return [(c["charger"], c["target"]) for c in data.get("declared_charges") or []
            if isinstance(c, dict) and isinstance(c.get("charger"), str) and isinstance(c.get("target"), str)]


class TabletopBoard(BoardKind):
    id = "tabletop"
    verbose_name = gettext_lazy("tabletop board")
    tools_template = "checker/tabletop/tools.html"
    selection_template = "checker/tabletop/selection.html"
    scenario_template = "checker/tabletop/scenario.html"
    help_template = "checker/tabletop/help.html"
    actions = handlers.ACTIONS
    loads_every_page = True  # the board is drawn from the engine's reading of the scenario

    def blank(self, book: str) -> dict[str, Any]:
        return edits.blank(book)

    def tools(self) -> list[tuple[str, str, str]]:
        return [("select", _("Select and drag"), "s"), ("place", _("Place units"), "p"),
                ("place-terrain", _("Place terrain"), "t"), ("measure", _("Measure"), "m")]

    def drawing(self, page: Page):
        return drawing.drawing(page)

    def panels(self, page: Page) -> dict[str, Any]:
        return panels.panels(page)

    def answer_extras(self, page: Page, answer) -> None:
        answers.answer_extras(answer, page.lang, {u["id"]: str(u.get("name") or u["id"]) for u in page.units
                                                  if isinstance(u.get("id"), str)})

    def question_defaults(self, page: Page, question: str) -> dict[str, list[str]]:
        """A charge question starts from the position: "may it charge?" of the selected unit if it has not declared
        a charge yet; "which reactions?" of a declared charge (the one the selected unit declared or received, else
        the last one)."""
        charges = declared(page.data)
        sel = page.selected["id"] if page.selected is not None else None
        if question == "can-charge":
            return {"charger": [sel]} if sel and sel not in {c for c, _t in charges} else {}
        if question != "charge-reactions":
            return {}
        chosen = next((c for c in reversed(charges) if sel in c), None) if sel else (charges or [None])[-1]
        if chosen is not None:
            return {"charger": [chosen[0]], "target": [chosen[1]]}
        return {"target": [sel]} if sel else {}

    def lacking(self, page: Page, question: str) -> str:
        """The pursuit needs its pursuers: with none, nothing moves and there is nothing to answer."""
        pursuit = page.data.get("pursuit") if isinstance(page.data.get("pursuit"), dict) else {}
        if question == "pursuit" and not pursuit.get("pursuers"):
            return _("No unit pursues yet: add the unit that fled and its pursuers on the Pursuit tab of the "
                     "scenario, then ask.")
        return ""

    def reading_for(self, page: Page, question: str, params: dict[str, Any]):
        """The reactions to a declared charge are declared as that charge is: the position as it was then, with
        the charges declared before it and not that one nor those after it (else the engine would read the charge
        asked about as one its charger had already declared)."""
        charges = declared(page.data)
        asked = (params.get("charger"), params.get("target"))
        if question != "charge-reactions" or asked not in charges:
            return page.loaded
        before = dict(page.data, declared_charges=page.data["declared_charges"][:charges.index(asked)])
        if not before["declared_charges"]:
            del before["declared_charges"]
        return editing.load(page.book, before)[0] or page.loaded

    def param_options(self, page: Page, question: str, param, chosen) -> list | None:
        if param.type in ("unit", "units"):
            return unit_options(page.units, param.name, chosen, edits.unit_label)
        return None

    def shortcuts(self, page: Page) -> list[dict[str, str]]:
        """Each declared charge, one click from the charged unit's reactions to it (units by their names)."""
        names = {u["id"]: u.get("name") or u["id"] for u in page.units if isinstance(u.get("id"), str)}
        return [{"label": _("Reactions of %(target)s to the charge of %(charger)s") % {
                    "target": names.get(t, t), "charger": names.get(c, c)},
                 "url": page.url(q="charge-reactions", params={"charger": [c], "target": [t]}, focus="")}
                for c, t in declared(page.data)]

    def measure(self, page: Page) -> MeasureView:
        """Between two units or a unit and a point: the distance, the arcs each is Located in, Line of Sight."""
        scenario = page.loaded
        picks = [p for p in (self._pick(scenario, pick, page.lang) for pick in page.view.measure) if p is not None]
        names = [name for name, _value in picks]
        if len(picks) < 2:
            return MeasureView(names)
        found = engine_measure.measure(scenario, picks[0][1], picks[1][1])
        return MeasureView(names, rows(page.book, found, page.lang), found.drawing)

    @staticmethod
    def _pick(scenario, pick: str, lang: str):
        kind, value = pick_value(pick)
        if kind == "u" and scenario.has_unit(value):
            return scenario.unit(value).label, scenario.unit(value)
        if kind == "p":
            try:
                x, y = (float(v) for v in value.split(",", 1))
            except ValueError:
                return None
            if not (math.isfinite(x) and math.isfinite(y)):
                return None
            return f"({inches(x).render(lang)}, {inches(y).render(lang)})", (x, y)
        return None

