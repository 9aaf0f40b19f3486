"""What a POST to the hex editor does, one handler per ``action``: a click with the current tool, the side panel's
buttons and forms. Each takes (request, source, view) and returns (new data or None, new view, message); the
edits themselves are in :mod:`.edits`, and :mod:`rulesref.checker.changes` checks and stores the result.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from .. import forms as shared_forms
from ..editing import EditError, unit_index
from . import edits, forms


def _hex_from(request) -> str:
    label = (request.POST.get("at") or "").strip()
    if not label:
        raise EditError(_("Choose a hex first."))
    return label[:8]


def _placed(data, view, label: str, side: str, kind: str, two: bool):
    new, uid = edits.place_unit(data, label, side, kind, two)
    return new, view.with_(sel=uid, hex=label), _("%(unit)s placed in %(hex)s.") % {"unit": uid, "hex": label}


# --- a click on a hex, with each tool ------------------------------------------------------------------------------


def _click_place(data, view, label, here):
    if here:
        return None, view.with_(sel=here[-1]["id"], hex=label), ""
    return _placed(data, view, label, view.side or edits.sides(data)[0], view.kind, view.two)


def _click_terrain(data, view, label, here):
    return edits.paint_terrain(data, label, view.paint), view.with_(hex=label), ""


def _click_dead(data, view, label, here):
    return edits.toggle_hex_list(data, label, "dead_zones"), view.with_(hex=label), ""


def _click_los(data, view, label, here):
    return edits.toggle_hex_list(data, label, "los_blocking"), view.with_(hex=label), ""


def _click_erase(data, view, label, here):
    if not here:
        return None, view.with_(hex=label), ""
    uid = here[-1]["id"]
    return edits.remove_unit(data, uid), view.without_unit(uid).with_(hex=label), _("%(unit)s removed.") % {"unit": uid}


def _click_select(data, view, label, here):
    """Select the unit in the hex (again: the next of a stack), or move the selected unit to an empty hex."""
    ids = [u["id"] for u in here]
    if ids and view.sel not in ids:
        return None, view.with_(sel=ids[-1], hex=label), ""
    if ids:
        return None, view.with_(sel=ids[(ids.index(view.sel) + 1) % len(ids)], hex=label), ""
    if view.sel and any(u.get("id") == view.sel for u in data.get("units") or []):
        return edits.move_unit(data, view.sel, label), view.with_(hex=label), \
            _("%(unit)s moved to %(hex)s.") % {"unit": view.sel, "hex": label}
    return None, view.with_(hex=label), ""


CLICKS = {"place": _click_place, "terrain": _click_terrain, "dead": _click_dead, "los": _click_los,
          "erase": _click_erase}


def act_click(request, source, view):
    """A click on a hex with the current tool."""
    label = _hex_from(request)
    click = CLICKS.get(view.tool, _click_select)
    return click(source.data, view, label, edits.units_at(source.data, label))


# --- the side panel ---------------------------------------------------------------------------------------------


def act_place(request, source, view):
    p = request.POST
    side = (p.get("place_side") or view.side or edits.sides(source.data)[0]).strip()
    return _placed(source.data, view, _hex_from(request), side, p.get("place_kind") or view.kind,
                   p.get("place_two") in ("1", "on"))


def act_move(request, source, view):
    label = _hex_from(request)
    return edits.move_unit(source.data, view.sel, label), view.with_(hex=label), \
        _("%(unit)s moved to %(hex)s.") % {"unit": view.sel, "hex": label}


def act_paint(request, source, view):
    label = _hex_from(request)
    kind = (request.POST.get("paint") or view.paint).strip()[:40]
    return edits.paint_terrain(source.data, label, kind), view.with_(hex=label, paint=kind), ""


def act_toggle(request, source, view):
    label = _hex_from(request)
    key = "dead_zones" if request.POST.get("what") == "dead" else "los_blocking"
    return edits.toggle_hex_list(source.data, label, key), view.with_(hex=label), ""


def act_rotate(request, source, view):
    try:
        steps = max(-3, min(3, int(request.POST.get("steps", "1"))))
    except ValueError:
        steps = 1
    return edits.rotate_unit(source.data, view.sel, steps, view.hex or None), view, ""


def act_remove(request, source, view):
    uid = view.sel
    return edits.remove_unit(source.data, uid), view.without_unit(uid), _("%(unit)s removed.") % {"unit": uid}


def act_unit(request, source, view):
    data = source.data
    unit = data["units"][unit_index(data, view.sel)]
    form = forms.UnitForm(request.POST, prefix="u", scenario=data, unit=unit)
    new, new_id = shared_forms.unit_edit(source.book, "unit", form, data, view.sel)
    return new, view.renamed(view.sel, new_id), ""


def _scenario_form(key: str, make, prefix=""):
    """A handler that applies one of the scenario panel's forms."""

    def act(request, source, view):
        form = make(request, source)
        return shared_forms.form_edit(source.book, key, form, lambda f: f.apply(source.data), prefix), view, ""

    return act


act_map = _scenario_form("map", lambda request, source: forms.MapForm(request.POST, prefix="m"))
act_edges = _scenario_form("edges", lambda request, source: forms.EdgesForm(
    request.POST, prefix="e", sides=edits.sides(source.data)))
act_tables = _scenario_form("tables", lambda request, source: forms.TablesForm(request.POST, prefix="tb"))
act_rows = _scenario_form("rows", lambda request, source: forms.InterceptionRowsForm(request.POST, prefix="ir"))
act_moment = _scenario_form("moment", lambda request, source: forms.MomentForm(request.POST, prefix="mo"))
act_wing_add = _scenario_form("wing", lambda request, source: forms.WingForm(
    request.POST, prefix="w", sides=forms.side_choices(source.data)),
    lambda new: f"wings[{len(new['wings']) - 1}]")


def act_wing_order(request, source, view):
    return edits.set_wing_order(source.data, request.POST.get("wing", ""), request.POST.get("order", "")), view, ""


def act_wing_remove(request, source, view):
    return edits.remove_wing(source.data, request.POST.get("wing", "")), view, ""


def act_event(request, source, view):
    """The selected unit becomes the moving unit of the triggering event."""
    data = source.data
    unit = data["units"][unit_index(data, view.sel)]
    form = forms.EventForm(request.POST, prefix="ev")

    def apply(f):
        c = f.cleaned_data
        mp = None if c["mp"] is None else (int(c["mp"]) if float(c["mp"]).is_integer() else float(c["mp"]))
        return edits.set_event(data, unit["id"], c["action"], edits.parse_labels(c["from_hexes"]), mp)

    new = shared_forms.form_edit(source.book, "event", form, apply)
    return new, view, _("%(unit)s is now the moving unit.") % {"unit": unit["id"]}


def act_event_clear(request, source, view):
    return edits.clear_event(source.data), view, ""


ACTIONS = {
    "click": act_click, "place": act_place, "move": act_move, "paint": act_paint, "toggle": act_toggle,
    "rotate": act_rotate, "remove": act_remove, "unit": act_unit, "map": act_map, "edges": act_edges,
    "tables": act_tables, "rows": act_rows, "moment": act_moment, "wing-add": act_wing_add,
    "wing-order": act_wing_order, "wing-remove": act_wing_remove, "event": act_event, "event-clear": act_event_clear,
}
