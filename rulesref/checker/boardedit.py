"""Edits of a tabletop scenario (t9a: units on rectangular bases, in inches), the analogue of ``hexedit``.

Each edit takes the scenario data and returns new data (the input is never changed); it raises
:class:`~rulesref.checker.hexedit.EditError` when the edit makes no sense (no unit selected, a number that is not a
number). Whether the result is a valid scenario (on the board, not overlapping, …) is the engine's call: the view
validates every result with ``load_scenario`` and keeps the old state, showing the problems, when it is not.
"""
from __future__ import annotations

import copy
import math
import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from .hexedit import EditError

MAX_UNITS = 400
MAX_BOARD = 1000
DEFAULT_BOARD = (48, 48)
DEFAULT_SIZE = (5, 2)
DEFAULT_ADVANCE_RATE = 5
STATES = ("fleeing", "engaged", "stood-and-shot")
ID_RE = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def blank(book: str = "t9a") -> dict[str, Any]:
    """A new position: an empty 48 × 48 inch board."""
    return {"book": book, "title": "", "board": {"width": DEFAULT_BOARD[0], "depth": DEFAULT_BOARD[1]}, "units": []}


def _copy(data: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(data)


def number(value: Any, what: str = "") -> float | int:
    """A finite number from a form or script value, rounded to a hundredth of an inch (ints stay ints)."""
    try:
        x = float(str(value).strip().replace(",", ".").replace("−", "-"))
    except (TypeError, ValueError):
        raise EditError(_("%(what)s is not a number.") % {"what": what or str(value)[:20]}) from None
    if not math.isfinite(x):
        raise EditError(_("%(what)s is not a number.") % {"what": what or str(value)[:20]})
    x = round(x, 2)
    return int(x) if x.is_integer() else x


def unit_index(data: dict[str, Any], unit_id: str | None) -> int:
    for i, u in enumerate(data.get("units") or []):
        if isinstance(u, dict) and u.get("id") == unit_id:
            return i
    raise EditError(_("Select a unit first."))


def sides(data: dict[str, Any]) -> list[str]:
    found = [str(u.get("side")) for u in data.get("units") or [] if isinstance(u, dict) and u.get("side")]
    out = list(dict.fromkeys(found))
    for default in ("red", "blue"):
        if default not in out:
            out.append(default)
    return out


def new_unit_id(data: dict[str, Any], side: str) -> str:
    prefix = re.sub(r"[^A-Za-z0-9_.-]", "", side)[:20] or "unit"
    taken = {u.get("id") for u in data.get("units") or [] if isinstance(u, dict)}
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def default_facing(data: dict[str, Any], y: float) -> int:
    """A new unit faces the middle of the board: away from the near edge if it stands in the near half."""
    depth = (data.get("board") or {}).get("depth") or DEFAULT_BOARD[1]
    return 0 if y < depth / 2 else 180


def normal_facing(angle: float) -> float | int:
    a = round(float(angle) % 360, 2)
    if a >= 360:
        a = 0
    return int(a) if float(a).is_integer() else a


def place_unit(data: dict[str, Any], x: Any, y: Any, side: str, width: Any = DEFAULT_SIZE[0],
               depth: Any = DEFAULT_SIZE[1], advance_rate: Any = DEFAULT_ADVANCE_RATE,
               missile_weapons: bool | None = None, facing: Any = None) -> tuple[dict[str, Any], str]:
    """A new unit of ``side`` centred on (x, y), facing the middle of the board; its id."""
    side = (side or "").strip()
    if not side:
        raise EditError(_("Choose a side."))
    if len(data.get("units") or []) >= MAX_UNITS:
        raise EditError(_("A scenario holds at most %(n)s units.") % {"n": MAX_UNITS})
    x, y = number(x, "x"), number(y, "y")
    out = _copy(data)
    unit: dict[str, Any] = {
        "id": new_unit_id(out, side), "side": side, "centre": [x, y],
        "facing": normal_facing(number(facing, _("Facing"))) if facing not in (None, "") else default_facing(out, y),
        "width": number(width, _("Width")), "depth": number(depth, _("Depth")),
        "advance_rate": parse_advance_rate(advance_rate),
    }
    if missile_weapons is not None:
        unit["missile_weapons"] = bool(missile_weapons)
    out.setdefault("units", []).append(unit)
    return out, unit["id"]


def move_unit(data: dict[str, Any], unit_id: str, x: Any, y: Any) -> dict[str, Any]:
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    unit["centre"] = [number(x, "x"), number(y, "y")]
    return out


def rotate_unit(data: dict[str, Any], unit_id: str, degrees: Any) -> dict[str, Any]:
    """Turn the unit about its centre, clockwise for positive ``degrees``."""
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    unit["facing"] = normal_facing(float(unit.get("facing") or 0) + float(number(degrees, _("Turn"))))
    return out


def set_facing(data: dict[str, Any], unit_id: str, degrees: Any) -> dict[str, Any]:
    out = _copy(data)
    unit = out["units"][unit_index(out, unit_id)]
    unit["facing"] = normal_facing(number(degrees, _("Facing")))
    return out


def remove_unit(data: dict[str, Any], unit_id: str) -> dict[str, Any]:
    """The scenario without the unit, and without the declared charges and pursuit entries that name it."""
    out = _copy(data)
    del out["units"][unit_index(out, unit_id)]
    if "declared_charges" in out:
        out["declared_charges"] = [c for c in out["declared_charges"] or []
                                   if not (isinstance(c, dict) and unit_id in (c.get("charger"), c.get("target")))]
    pursuit = out.get("pursuit")
    if isinstance(pursuit, dict):
        pursuit["fled"] = [f for f in pursuit.get("fled") or [] if not (isinstance(f, dict) and f.get("unit") == unit_id)]
        pursuit["pursuers"] = [p for p in pursuit.get("pursuers") or []
                               if not (isinstance(p, dict) and unit_id in (p.get("unit"), p.get("pursues")))]
        if "melee" in pursuit:
            pursuit["melee"] = [m for m in pursuit.get("melee") or [] if m != unit_id]
    return out


def set_board(data: dict[str, Any], width: Any, depth: Any) -> dict[str, Any]:
    out = _copy(data)
    out["board"] = {"width": number(width, _("Width")), "depth": number(depth, _("Depth"))}
    return out


def parse_advance_rate(value: Any) -> float | int | list:
    """``5``, or the models' rates as ``5, 4`` (a list; the lowest is the unit's)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return number(value)
    parts = [p for p in re.split(r"[\s;/]+|,\s+", str(value or "").strip()) if p]
    if not parts:
        raise EditError(_("Give the Advance Rate in inches."))
    rates = [number(p, _("Advance Rate")) for p in parts[:50]]
    return rates[0] if len(rates) == 1 else rates


def advance_rate_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


# --- forms --------------------------------------------------------------------------------------------------------

MISSILE_CHOICES = [("", gettext_lazy("not known")), ("yes", gettext_lazy("yes")), ("no", gettext_lazy("no"))]
STATE_CHOICES = [("fleeing", gettext_lazy("fleeing")), ("engaged", gettext_lazy("engaged")),
                 ("stood-and-shot", gettext_lazy("has stood and shot this turn"))]


def missile_value(choice: str) -> bool | None:
    return {"yes": True, "no": False}.get(choice)


class BoardUnitForm(forms.Form):
    """A t9a unit's properties; the engine's problems with the unit land next to these fields."""

    id = forms.CharField(label=gettext_lazy("Id"), max_length=40)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    side = forms.CharField(label=gettext_lazy("Side"), max_length=40)
    x = forms.FloatField(label=gettext_lazy("Centre x (inches)"))
    y = forms.FloatField(label=gettext_lazy("Centre y (inches)"))
    facing = forms.FloatField(label=gettext_lazy("Facing (degrees, 0 = towards the far edge)"))
    width = forms.FloatField(label=gettext_lazy("Width (inches)"))
    depth = forms.FloatField(label=gettext_lazy("Depth (inches)"))
    advance_rate = forms.CharField(label=gettext_lazy("Advance Rate (inches)"), max_length=200,
                                   help_text=gettext_lazy("one number, or the models' rates: 5, 4"))
    missile_weapons = forms.ChoiceField(label=gettext_lazy("Missile weapons"), choices=MISSILE_CHOICES, required=False)
    state = forms.MultipleChoiceField(label=gettext_lazy("State"), required=False, choices=STATE_CHOICES,
                                      widget=forms.CheckboxSelectMultiple)

    PATHS = {"id": "id", "name": "name", "side": "side", "centre": "x", "facing": "facing", "width": "width",
             "depth": "depth", "base_mm": "width", "files": "width", "ranks": "depth",
             "advance_rate": "advance_rate", "missile_weapons": "missile_weapons", "state": "state"}

    @staticmethod
    def initial_for(unit: dict[str, Any]) -> dict[str, Any]:
        centre = unit.get("centre") or [0, 0]
        mw = unit.get("missile_weapons")
        return {"id": unit.get("id", ""), "name": unit.get("name", ""), "side": unit.get("side", ""),
                "x": centre[0] if len(centre) > 0 else 0, "y": centre[1] if len(centre) > 1 else 0,
                "facing": unit.get("facing", 0), "width": unit.get("width", ""), "depth": unit.get("depth", ""),
                "advance_rate": advance_rate_text(unit.get("advance_rate")),
                "missile_weapons": "" if mw is None else ("yes" if mw else "no"),
                "state": list(unit.get("state") or [])}

    def clean_id(self):
        value = self.cleaned_data["id"].strip()
        if not ID_RE.match(value):
            raise forms.ValidationError(_("Use letters, digits, _ . and - only."))
        return value

    def clean_advance_rate(self):
        try:
            return parse_advance_rate(self.cleaned_data["advance_rate"])
        except EditError as exc:
            raise forms.ValidationError(str(exc)) from None

    def apply(self, data: dict[str, Any], unit_id: str) -> tuple[dict[str, Any], str]:
        """The scenario with the unit changed (a new id renames it wherever the scenario names it); its id."""
        c = self.cleaned_data
        out = _copy(data)
        unit = out["units"][unit_index(out, unit_id)]
        new_id = c["id"]
        if new_id != unit_id and any(u.get("id") == new_id for u in out["units"] if isinstance(u, dict)):
            self.add_error("id", _("There is already a unit %(id)s.") % {"id": new_id})
            raise EditError(_("Check the unit's fields."))
        unit["id"] = new_id
        if c["name"].strip():
            unit["name"] = c["name"].strip()
        else:
            unit.pop("name", None)
        unit["side"] = c["side"].strip()
        unit["centre"] = [number(c["x"]), number(c["y"])]
        unit["facing"] = normal_facing(c["facing"])
        for key in ("base_mm", "files", "ranks"):
            unit.pop(key, None)
        unit["width"], unit["depth"] = number(c["width"]), number(c["depth"])
        unit["advance_rate"] = c["advance_rate"]
        mw = missile_value(c["missile_weapons"])
        if mw is None:
            unit.pop("missile_weapons", None)
        else:
            unit["missile_weapons"] = mw
        if c["state"]:
            unit["state"] = [s for s in STATES if s in c["state"]]
        else:
            unit.pop("state", None)
        if new_id != unit_id:
            _rename(out, unit_id, new_id)
        return out, new_id


def _rename(data: dict[str, Any], old: str, new: str) -> None:
    for c in data.get("declared_charges") or []:
        if isinstance(c, dict):
            for k in ("charger", "target"):
                if c.get(k) == old:
                    c[k] = new
    pursuit = data.get("pursuit")
    if isinstance(pursuit, dict):
        for item in (pursuit.get("fled") or []) + (pursuit.get("pursuers") or []):
            if isinstance(item, dict):
                for k in ("unit", "pursues"):
                    if item.get(k) == old:
                        item[k] = new
        if isinstance(pursuit.get("melee"), list):
            pursuit["melee"] = [new if m == old else m for m in pursuit["melee"]]
