"""The tabletop editor's side-panel forms: a unit's properties, a new terrain piece and an existing one's corners,
a declared charge, the pursuit's fled units, pursuers and melee.

Each form checks its own fields; applying it gives new scenario data (:mod:`.edits`) that the engine validates
as a whole, and the engine's problems come back to the fields they concern (``PATHS``).
"""
from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from .. import words
from ..editing import EditError, copied as _copy, unit_index
from .edits import (
    ID_RE,
    LIMITS,
    STATES,
    add_charge,
    add_fled,
    add_pursuer,
    add_terrain,
    normal_facing,
    number,
    parse_advance_rate,
    parse_polygon,
    parse_roll,
    polygon_text,
    rectangle,
    rename_references,
    set_flags,
    set_melee,
    sides,
    terrain_index,
    advance_rate_text,
)

class IdField(forms.CharField):
    """An id a unit or terrain piece is named by in the scenario: letters, digits, _ . and - (at most 40)."""

    def __init__(self, **kwargs):
        super().__init__(max_length=40, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        if not ID_RE.match(value):
            raise forms.ValidationError(_("Use letters, digits, _ . and - only."))
        return value


MISSILE_CHOICES = [("", gettext_lazy("not known")), ("yes", gettext_lazy("yes")), ("no", gettext_lazy("no"))]
STATE_CHOICES = words.choices(words.STATE_NAMES, STATES)


def side_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The sides a unit may take: the board's and the two players', each by its name in the reader's language."""
    return [(s, words.side(s)) for s in sides(data)]


def missile_value(choice: str) -> bool | None:
    return {"yes": True, "no": False}.get(choice)


class BoardUnitForm(forms.Form):
    """A t9a unit's properties; the engine's problems with the unit land next to these fields."""

    id = IdField(label=gettext_lazy("Id"))
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    side = forms.ChoiceField(label=gettext_lazy("Side"))
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

    PATHS: ClassVar[dict[str, str]] = {
        "id": "id", "name": "name", "side": "side", "centre": "x", "facing": "facing", "width": "width",
        "depth": "depth", "base_mm": "width", "files": "width", "ranks": "depth",
        "advance_rate": "advance_rate", "missile_weapons": "missile_weapons", "state": "state"}

    def __init__(self, *args, sides: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = sides

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
        unit["side"] = c["side"]
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
            rename_references(out, unit_id, new_id)
        return out, new_id


# --- forms for terrain, declared charges and the pursuit -----------------------------------------------------------


class _RollField(forms.CharField):
    def __init__(self, *, required: bool, **kwargs):
        super().__init__(max_length=20, required=required, widget=forms.TextInput(attrs={"size": 6}), **kwargs)

    def clean(self, value):
        value = super().clean(value)
        try:
            return parse_roll(value, required=self.required)
        except EditError as exc:
            raise forms.ValidationError(str(exc)) from None


class NewTerrainForm(forms.Form):
    """A rectangular terrain piece: its centre, size and turn (its corners can be edited afterwards)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    x = forms.FloatField(label=gettext_lazy("Centre x (inches)"),
                         widget=forms.NumberInput(attrs={"step": "any", "data-board": "x"}))
    y = forms.FloatField(label=gettext_lazy("Centre y (inches)"),
                         widget=forms.NumberInput(attrs={"step": "any", "data-board": "y"}))
    width = forms.FloatField(label=gettext_lazy("Width (inches)"), min_value=0.1, max_value=LIMITS["board_width"])
    depth = forms.FloatField(label=gettext_lazy("Depth (inches)"), min_value=0.1, max_value=LIMITS["board_depth"])
    rotation = forms.FloatField(label=gettext_lazy("Rotation (degrees clockwise)"), required=False)
    impassable = forms.BooleanField(label=gettext_lazy("Impassable terrain"), required=False)
    obscuring = forms.BooleanField(label=gettext_lazy("Obscuring terrain"), required=False)

    PATHS: ClassVar[dict[str, str]] = {"polygon": "x", "name": "name", "impassable": "impassable",
                                       "obscuring": "obscuring"}

    def apply(self, data: dict[str, Any]) -> tuple[dict[str, Any], str]:
        c = self.cleaned_data
        polygon = rectangle(c["x"], c["y"], c["width"], c["depth"], c["rotation"] or 0)
        return add_terrain(data, polygon, c["name"], c["impassable"], c["obscuring"])


class TerrainForm(forms.Form):
    """A terrain piece's id, name, flags and corners."""

    id = IdField(label=gettext_lazy("Id"))
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    impassable = forms.BooleanField(label=gettext_lazy("Impassable terrain"), required=False)
    obscuring = forms.BooleanField(label=gettext_lazy("Obscuring terrain"), required=False)
    polygon = forms.CharField(label=gettext_lazy("Corners (inches)"), max_length=8000,
                              widget=forms.Textarea(attrs={"rows": 5, "cols": 16, "spellcheck": "false"}),
                              help_text=gettext_lazy("one corner a line: x, y"))

    PATHS: ClassVar[dict[str, str]] = {"id": "id", "name": "name", "polygon": "polygon", "impassable": "impassable",
                                       "obscuring": "obscuring"}

    @staticmethod
    def initial_for(piece: dict[str, Any]) -> dict[str, Any]:
        return {"id": piece.get("id", ""), "name": piece.get("name", ""), "impassable": bool(piece.get("impassable")),
                "obscuring": bool(piece.get("obscuring")), "polygon": polygon_text(piece.get("polygon"))}

    def clean_polygon(self):
        try:
            return parse_polygon(self.cleaned_data["polygon"])
        except EditError as exc:
            raise forms.ValidationError(str(exc)) from None

    def apply(self, data: dict[str, Any], terrain_id: str) -> tuple[dict[str, Any], str]:
        """The scenario with the piece changed; its (new) id."""
        c = self.cleaned_data
        i = terrain_index(data, terrain_id)
        out = _copy(data)
        piece = out["terrain"][i]
        if c["id"] != terrain_id and any(isinstance(t, dict) and t.get("id") == c["id"] for t in out["terrain"]):
            self.add_error("id", _("There is already a terrain piece %(id)s.") % {"id": c["id"]})
            raise EditError(_("Check the terrain piece's fields."))
        piece["id"] = c["id"]
        piece["polygon"] = c["polygon"]
        set_flags(piece, c["name"], c["impassable"], c["obscuring"])
        return out, c["id"]


class ChargeForm(forms.Form):
    charger = forms.ChoiceField(label=gettext_lazy("Charger"))
    target = forms.ChoiceField(label=gettext_lazy("Target"))

    PATHS: ClassVar[dict[str, str]] = {"charger": "charger", "target": "target"}

    def __init__(self, *args, units: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["charger"].choices = self.fields["target"].choices = units

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        try:
            return add_charge(data, self.cleaned_data["charger"], self.cleaned_data["target"])
        except EditError as exc:
            self.add_error("target", str(exc))
            raise


class FledForm(forms.Form):
    unit = forms.ChoiceField(label=gettext_lazy("Fleeing unit"))
    roll = _RollField(label=gettext_lazy("Flee roll"), required=False,
                      help_text=gettext_lazy("a total, or two dice: 3 5; empty if not known"))
    destroyed = forms.ChoiceField(label=gettext_lazy("Caught?"), required=False, choices=[
        ("", gettext_lazy("the pursuers' rolls decide")), ("yes", gettext_lazy("caught and destroyed")),
        ("no", gettext_lazy("escaped"))])

    PATHS: ClassVar[dict[str, str]] = {"unit": "unit", "roll": "roll", "destroyed": "destroyed"}

    def __init__(self, *args, units: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = units

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        c = self.cleaned_data
        try:
            return add_fled(data, c["unit"], c["roll"], {"yes": True, "no": False}.get(c["destroyed"]))
        except EditError as exc:
            self.add_error("unit", str(exc))
            raise


class PursuerForm(forms.Form):
    unit = forms.ChoiceField(label=gettext_lazy("Pursuer"))
    pursues = forms.ChoiceField(label=gettext_lazy("Pursues"))
    roll = _RollField(label=gettext_lazy("Pursuit roll"), required=True,
                      help_text=gettext_lazy("a total, or two dice: 3 5"))

    PATHS: ClassVar[dict[str, str]] = {"unit": "unit", "pursues": "pursues", "roll": "roll"}

    def __init__(self, *args, units: list[tuple[str, str]], fled: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = units
        self.fields["pursues"].choices = fled

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        c = self.cleaned_data
        try:
            return add_pursuer(data, c["unit"], c["pursues"], c["roll"])
        except EditError as exc:
            self.add_error(None, str(exc))
            raise


class MeleeForm(forms.Form):
    melee = forms.MultipleChoiceField(label=gettext_lazy("Other units in the melee"), required=False,
                                      widget=forms.CheckboxSelectMultiple)

    PATHS: ClassVar[dict[str, str]] = {"melee": "melee"}

    def __init__(self, *args, units: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["melee"].choices = units

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        try:
            return set_melee(data, self.cleaned_data["melee"])
        except EditError as exc:
            self.add_error(None, str(exc))
            raise
