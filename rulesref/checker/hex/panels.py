"""The hex editor's side panel: the chosen hex, the selected unit, the scenario's parts (map, edges, wings, the
moment of play, tables), and the choices the tools offer. Only the open part of the scenario panel builds its
forms: forms are the slowest part of the page."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rulesref.engine.mpbs.tables import terrain_kinds

from .. import words
from ..page import Page
from ..state import url
from . import edits, forms
from .drawing import legend



def scenario_parts() -> list[tuple[str, str]]:
    return [("map", _("Map and title")), ("edges", _("Friendly map edges")), ("wings", _("Wings and orders")),
            ("moment", _("The moment of play")), ("tables", _("Table rows the corpus lacks"))]


def terrain_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The terrain types the engine knows for this scenario, and any the map paints, each by its name."""
    m = data.get("map") or {}
    known = list(terrain_kinds(data.get("terrain_types")))
    painted = sorted(set((m.get("terrain") or {}).values()) | {m.get("terrain_default", "clear")} - set(known))
    return [(t, words.terrain(t)) for t in known + painted]


def panels(page: Page) -> dict[str, Any]:
    data, view, selected = page.data, page.view, page.selected
    sides = edits.sides(data)
    out: dict[str, Any] = {
        "sides": [(s, words.side(s)) for s in sides], "place_side": view.side if view.side in sides else sides[0],
        "unit_types": forms.UNIT_TYPE_CHOICES, "order_choices": forms.ORDER_CHOICES,
        "terrain_choices": terrain_choices(data), "counter_legend": legend(),
        "panels": [(key, label, page.url(panel="" if view.panel == key else key)) for key, label in scenario_parts()],
    }
    moment = data.get("moment") or {}
    event = moment.get("event") if isinstance(moment.get("event"), dict) else {}
    out.update({"moment": moment, "moment_event_unit": event.get("unit", ""),
                "moment_event_action": words.action(event.get("action")),
                "moment_active_side": words.side(moment.get("active_side"))})
    if selected is not None:
        out.update(_unit_panel(page, selected))
    out.update(_open_part(page, sides))
    if view.hex:
        out.update(_hex_panel(page))
    return out


def _unit_panel(page: Page, selected: dict[str, Any]) -> dict[str, Any]:
    data = page.data
    event = (data.get("moment") or {}).get("event") or {}
    is_event = event.get("unit") == selected.get("id")
    return {
        "unit_form": page.forms.get("unit") or forms.UnitForm(prefix="u", scenario=data, unit=selected,
                                                              initial=forms.UnitForm.initial_for(selected)),
        "is_event_unit": is_event, "can_rotate": bool(selected.get("facing")),
        "event_form": page.forms.get("event") or forms.EventForm(prefix="ev", initial={
            "action": event.get("action", "move") if is_event else "move",
            "from_hexes": " ".join(event.get("from", []) if is_event else edits.step_back(data, selected)),
            "mp": event.get("mp", 1) if is_event else 1}),
    }


def _open_part(page: Page, sides: list[str]) -> dict[str, Any]:
    data, made = page.data, page.forms
    builders = {
        "map": lambda: {"map_form": made.get("map") or forms.MapForm(prefix="m",
                                                                      initial=forms.MapForm.initial_for(data))},
        "edges": lambda: {"edges_form": made.get("edges") or forms.EdgesForm(
            prefix="e", sides=sides, initial=forms.EdgesForm.initial_for(data, sides))},
        "wings": lambda: {"wings": [w for w in data.get("wings") or [] if isinstance(w, dict)],
                          "wing_form": made.get("wing") or forms.WingForm(
                              prefix="w", sides=forms.side_choices(data), initial={"side": sides[0],
                                                                                   "order": "charge"})},
        "moment": lambda: {"moment_form": made.get("moment") or forms.MomentForm(
            prefix="mo", initial=forms.MomentForm.initial_for(data))},
        "tables": lambda: {
            "rows_form": made.get("rows") or forms.InterceptionRowsForm(
                prefix="ir", initial=forms.InterceptionRowsForm.initial_for(data)),
            "tables_form": made.get("tables") or forms.TablesForm(prefix="tb",
                                                                  initial=forms.TablesForm.initial_for(data))},
    }
    build = builders.get(page.view.panel)
    return build() if build else {}


def _hex_panel(page: Page) -> dict[str, Any]:
    data, label = page.data, page.view.hex
    m = data.get("map") or {}
    terrain = (m.get("terrain") or {}).get(label, m.get("terrain_default", "clear"))
    return {
        "hex_units": [{"id": u.get("id"), "side": words.side(u.get("side")), "type": words.unit_type(u.get("type")),
                       "url": url(page.source, page.view.with_(sel=str(u.get("id"))), page.lang)}
                      for u in edits.units_at(data, label)],
        "hex_terrain": terrain, "hex_terrain_name": words.terrain(terrain),
        "hex_dead": label in (m.get("dead_zones") or []), "hex_los": label in (m.get("los_blocking") or []),
    }
