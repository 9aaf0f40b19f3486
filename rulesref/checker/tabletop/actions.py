"""What a POST to the tabletop editor does, one handler per ``action``: place, drag, turn and edit units, the board's
size, terrain pieces, declared charges and the pursuit. Each takes (request, source, view) and returns (new data,
new view, message); :mod:`rulesref.checker.changes` checks and stores the result.

An edit of a unit is checked here with the unit blamed for what it shares with another (an overlap), so a refusal
is shown next to the x, y and facing inputs of the form that made it.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .. import forms as shared_forms
from ..editing import EditError, Rejected, blamed, message_for, unit_index
from . import edits, forms


def _inches(request, name: str, what: str):
    value = (request.POST.get(name) or "").strip()
    if not value:
        raise EditError(_("Give a number for %(what)s.") % {"what": what})
    return edits.number(value[:40], what)


def _checked(source, new: dict, unit_id: str, key: str, values: dict | None = None) -> dict:
    """``new`` if the engine takes it; else Rejected, with the problems of the unit's fields for the form ``key``
    (``errors``: field -> messages, shown next to the x, y and facing inputs) and the rest listed at the top."""
    problems = blamed(source.book, new, unit_id)
    if not problems:
        return new
    prefix = f"units[{unit_index(new, unit_id)}]"
    errors: dict[str, list[str]] = {}
    rest = []
    for path, message in problems:
        if path == prefix or path.startswith(prefix + "."):
            field = path[len(prefix):].lstrip(".").split(".")[0].split("[")[0] or "centre"
            errors.setdefault(field, []).append(message)
        else:
            rest.append((path, message))
    raise Rejected(message_for(problems), problems=rest, forms_={key: {**(values or {}), "errors": errors}})


def act_place(request, source, view):
    """Place a unit at the inch coordinates of a click (the script fills x and y) or of the panel's form."""
    p = request.POST
    side = (p.get("place_side") or view.side or edits.sides(source.data)[0]).strip()[:40]
    x, y = _inches(request, "x", "x"), _inches(request, "y", "y")
    new, uid = edits.place_unit(
        source.data, x, y, side, width=(p.get("place_width") or edits.DEFAULT_SIZE[0]),
        depth=(p.get("place_depth") or edits.DEFAULT_SIZE[1]),
        advance_rate=(p.get("place_ar") or "").strip()[:200] or edits.DEFAULT_ADVANCE_RATE,
        missile_weapons=forms.missile_value(p.get("place_missile") or ""), facing=p.get("place_facing") or None)
    values = {"x": x, "y": y, "width": p.get("place_width", "")[:40], "depth": p.get("place_depth", "")[:40],
              "advance_rate": p.get("place_ar", "")[:200], "missile": p.get("place_missile", "")}
    new = _checked(source, new, uid, "place", values)
    return new, view.with_(sel=uid, side=side), _("%(unit)s placed at (%(x)s, %(y)s).") % {"unit": uid, "x": x, "y": y}


def act_move(request, source, view):
    """Move the selected unit's centre to (x, y) and, when given, turn it to ``facing`` (a drop, or the form)."""
    x, y = _inches(request, "x", "x"), _inches(request, "y", "y")
    new = edits.move_unit(source.data, view.sel, x, y)
    if (request.POST.get("facing") or "").strip():
        new = edits.set_facing(new, view.sel, _inches(request, "facing", _("Facing")))
    new = _checked(source, new, view.sel, "move", {"x": x, "y": y, "facing": request.POST.get("facing", "")[:40]})
    return new, view, _("%(unit)s moved to (%(x)s, %(y)s).") % {"unit": view.sel, "x": x, "y": y}


def act_rotate(request, source, view):
    degrees = max(-360, min(360, _inches(request, "degrees", _("Turn"))))
    return _checked(source, edits.rotate_unit(source.data, view.sel, degrees), view.sel, "move"), view, ""


def act_remove(request, source, view):
    uid = view.sel
    return edits.remove_unit(source.data, uid), view.without_unit(uid), _("%(unit)s removed.") % {"unit": uid}


def act_unit(request, source, view):
    data = source.data
    unit_index(data, view.sel)
    form = forms.BoardUnitForm(request.POST, prefix="bu", sides=forms.side_choices(data))
    new, new_id = shared_forms.unit_edit(source.book, "bunit", form, data, view.sel)
    return new, view.renamed(view.sel, new_id), ""


def act_size(request, source, view):
    width, depth = _inches(request, "width", _("Width")), _inches(request, "depth", _("Depth"))
    return edits.set_board(source.data, width, depth), view, ""


def _last(*path: str):
    """The path of the last entry of the list at ``path`` in a scenario (the one an edit has just added)."""
    def where(new: dict[str, Any]) -> str:
        items = new
        for key in path:
            items = items[key]
        return f"{'.'.join(path)}[{len(items) - 1}]"
    return where


def _form(key: str, form, source, apply, where) -> dict[str, Any]:
    """A list form applied: every problem of the result is shown at that form, for this edit caused it."""
    return shared_forms.form_edit(source.book, key, form, apply, where, rest_at_form=True)


def act_terrain_add(request, source, view):
    """Add a rectangular terrain piece: from the terrain tab's form, or where the board was clicked."""
    form = forms.NewTerrainForm(request.POST, prefix="nt")
    new = _form("newterrain", form, source, lambda f: f.apply(source.data)[0], _last("terrain"))
    tid = new["terrain"][-1]["id"]
    return new, view.with_(terrain=tid, sel=""), _("%(terrain)s added.") % {"terrain": tid}


def act_terrain(request, source, view):
    """Change the selected terrain piece: its id, name, flags and corners."""
    index = edits.terrain_index(source.data, view.terrain)
    form = forms.TerrainForm(request.POST, prefix="te")
    new = _form("terrain", form, source, lambda f: f.apply(source.data, view.terrain)[0],
                lambda new: f"terrain[{index}]")
    return new, view.with_(terrain=form.cleaned_data["id"]), ""


def act_terrain_remove(request, source, view):
    tid = view.terrain
    return edits.remove_terrain(source.data, tid), view.with_(terrain=""), _("%(terrain)s removed.") % {"terrain": tid}


def act_charge_add(request, source, view):
    form = forms.ChargeForm(request.POST, prefix="ch", units=edits.unit_choices(source.data))
    new = _form("charge", form, source, lambda f: f.apply(source.data), _last("declared_charges"))
    return new, view.with_(panel="charges"), _("Charge declared: %(charger)s against %(target)s.") % {
        "charger": form.cleaned_data["charger"], "target": form.cleaned_data["target"]}


def act_charge_remove(request, source, view):
    return edits.remove_charge(source.data, request.POST.get("index")), view.with_(panel="charges"), ""


def act_charge_move(request, source, view):
    return edits.move_charge(source.data, request.POST.get("index"), request.POST.get("step", "")), \
        view.with_(panel="charges"), ""


def act_fled_add(request, source, view):
    form = forms.FledForm(request.POST, prefix="fl", units=edits.unit_choices(source.data))
    new = _form("fled", form, source, lambda f: f.apply(source.data), _last("pursuit", "fled"))
    return new, view.with_(panel="pursuit"), ""


def act_pursuer_add(request, source, view):
    form = forms.PursuerForm(request.POST, prefix="pu", units=edits.unit_choices(source.data),
                             fled=edits.fled_choices(source.data))
    new = _form("pursuer", form, source, lambda f: f.apply(source.data), _last("pursuit", "pursuers"))
    return new, view.with_(panel="pursuit"), ""


def act_melee(request, source, view):
    form = forms.MeleeForm(request.POST, prefix="me", units=edits.unit_choices(source.data))
    new = _form("melee", form, source, lambda f: f.apply(source.data), "pursuit")
    return new, view.with_(panel="pursuit"), ""


def act_pursuit_remove(request, source, view):
    """Remove a fled unit (with the pursuers that chased it) or a pursuer, by its place in its list."""
    remove = edits.remove_fled if request.POST.get("what") == "fled" else edits.remove_pursuer
    return remove(source.data, request.POST.get("index")), view.with_(panel="pursuit"), ""


def act_roll(request, source, view):
    """A new roll for a fled unit or a pursuer, by its place in its list."""
    what = "fled" if request.POST.get("what") == "fled" else "pursuer"
    return edits.set_roll(source.data, what, request.POST.get("index"), request.POST.get("roll", "")[:20]), \
        view.with_(panel="pursuit"), ""


def act_pursuer_move(request, source, view):
    return edits.move_pursuer(source.data, request.POST.get("index"), request.POST.get("step", "")), \
        view.with_(panel="pursuit"), ""


def act_pursuit_clear(request, source, view):
    return edits.clear_pursuit(source.data), view.with_(panel="pursuit"), _("The pursuit was cleared.")


ACTIONS = {
    "board-place": act_place, "board-move": act_move, "board-rotate": act_rotate, "board-remove": act_remove,
    "board-unit": act_unit, "board-size": act_size, "board-terrain-add": act_terrain_add,
    "board-terrain": act_terrain, "board-terrain-remove": act_terrain_remove, "board-charge-add": act_charge_add,
    "board-charge-remove": act_charge_remove, "board-charge-move": act_charge_move, "board-fled-add": act_fled_add,
    "board-pursuer-add": act_pursuer_add, "board-melee": act_melee, "board-pursuit-remove": act_pursuit_remove,
    "board-pursuer-move": act_pursuer_move, "board-pursuit-clear": act_pursuit_clear, "board-roll": act_roll,
}
