"""The hex editor's side-panel forms: a unit's properties, the map, the friendly edges, the wings, the moment of
play, the tables the corpus lacks.

Each form checks its own fields (types, ranges, a side among the scenario's sides); applying it to the scenario
gives new data that the engine then validates as a whole, and the engine's problems come back to the fields they
concern (``PATHS``, :func:`rulesref.checker.forms.attach_problems`).
"""
from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from rulesref.security import text as storable

from .. import words
from ..editing import copied, unit_index
from . import edits

UNIT_TYPE_CHOICES = words.choices(words.UNIT_TYPE_NAMES, edits.UNIT_TYPES)
ORDER_CHOICES = words.choices(words.ORDER_NAMES, edits.ORDERS)
MORALE_CHOICES = words.choices(words.MORALE_NAMES)
FORMATION_STATE_CHOICES = words.choices(words.FORMATION_STATE_NAMES)
EDGE_CHOICES = words.choices(words.EDGE_NAMES, edits.EDGES)
ACTION_CHOICES = words.choices(words.ACTION_NAMES, ("move", "change-facing", "change-formation", "advance",
                                                    "retreat", "fire", "other"))
PHASE_CHOICES = [("", "—"), ("activation-start", gettext_lazy("start of activation")),
                 ("orders-change", gettext_lazy("orders change")), ("actions", gettext_lazy("actions")),
                 ("close-combat", gettext_lazy("close combat"))]
FLAG_FIELDS = [
    ("interception_attempted", gettext_lazy("has tried to intercept this activation")),
    ("interception_attempted_before_extension",
     gettext_lazy("tried to intercept before this activation was extended")),
    ("withdrawn", gettext_lazy("has withdrawn this activation")),
    ("eliminated", gettext_lazy("eliminated")),
    ("off_map", gettext_lazy("off the map")),
    ("off_map_pursuer", gettext_lazy("off the map as a pursuer")),
    ("reinforcement", gettext_lazy("reinforcement not yet entered")),
]


def side_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The scenario's sides for a menu, each by its name in the reader's language."""
    return [(s, words.side(s)) for s in edits.sides(data)]


def wing_choices(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The scenario's wings for a menu: ``B1 (blue)``, the side by its name in the reader's language."""
    return [(w["id"], f"{w['id']} ({words.side(w.get('side'))})") for w in data.get("wings") or []
            if isinstance(w, dict) and isinstance(w.get("id"), str)]


class UnitForm(forms.Form):
    id = forms.CharField(label=gettext_lazy("Id"), max_length=40)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    side = forms.ChoiceField(label=gettext_lazy("Side"))
    wing = forms.ChoiceField(label=gettext_lazy("Wing"), required=False)
    type = forms.ChoiceField(label=gettext_lazy("Type"), choices=UNIT_TYPE_CHOICES)
    facing = forms.ChoiceField(label=gettext_lazy("Facing"), required=False)
    order = forms.ChoiceField(label=gettext_lazy("Order"), required=False)
    morale_state = forms.ChoiceField(label=gettext_lazy("Morale"), choices=MORALE_CHOICES)
    morale_rating = forms.IntegerField(label=gettext_lazy("Morale rating"), required=False, min_value=0, max_value=12)
    formation = forms.CharField(label=gettext_lazy("Formation"), max_length=40, required=False,
                                help_text=gettext_lazy("line, column, hedgehog …"))
    formation_state = forms.ChoiceField(label=gettext_lazy("Formation state"), choices=FORMATION_STATE_CHOICES)
    formation_hits = forms.IntegerField(label=gettext_lazy("Formation hits"), required=False, min_value=0, max_value=99)
    hits_before_disorder = forms.IntegerField(label=gettext_lazy("Hits it can still take before disorder"),
                                              required=False, min_value=0, max_value=99)
    allowance = forms.DecimalField(label=gettext_lazy("Movement allowance (MP)"), required=False, min_value=0,
                                   max_value=99, decimal_places=1)
    spent = forms.DecimalField(label=gettext_lazy("MP spent"), required=False, min_value=0, max_value=99,
                               decimal_places=1)
    leadership = forms.IntegerField(label=gettext_lazy("Leadership rating"), required=False, min_value=0, max_value=9)
    role = forms.ChoiceField(label=gettext_lazy("Role"), required=False, choices=[
        ("", "—"), ("wing-commander", gettext_lazy("Wing Commander")), ("army-commander", gettext_lazy("Army Commander"))])
    limbered = forms.BooleanField(label=gettext_lazy("limbered"), required=False)
    fired = forms.BooleanField(label=gettext_lazy("“Fired” side up"), required=False)
    flags = forms.MultipleChoiceField(label=gettext_lazy("State"), required=False, choices=FLAG_FIELDS,
                                      widget=forms.CheckboxSelectMultiple)

    PATHS = {
        "id": "id", "name": "name", "side": "side", "wing": "wing", "type": "type", "facing": "facing",
        "hexes": "facing", "order": "order", "morale.state": "morale_state", "morale.rating": "morale_rating",
        "morale": "morale_rating", "formation.name": "formation", "formation.state": "formation_state",
        "formation.hits": "formation_hits", "formation.hits_before_disorder": "hits_before_disorder",
        "movement.allowance": "allowance", "movement.spent": "spent", "leadership": "leadership", "role": "role",
        "limbered": "limbered", "fired": "fired", "flags": "flags",
    }

    def __init__(self, *args, scenario: dict[str, Any], unit: dict[str, Any], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = side_choices(scenario)
        self.fields["wing"].choices = [("", "—")] + wing_choices(scenario)
        self.fields["order"].choices = [("", _("the wing's order"))] + ORDER_CHOICES
        facings = edits.valid_facings(scenario, unit)
        if unit.get("facing") and unit["facing"] not in facings:
            facings.append(unit["facing"])
        self.fields["facing"].choices = [("", "—")] + [(f, words.compass(f)) for f in facings]

    @classmethod
    def initial_for(cls, unit: dict[str, Any]) -> dict[str, Any]:
        morale = unit.get("morale") or {}
        formation = unit.get("formation") or {}
        movement = unit.get("movement") or {}
        flags = unit.get("flags") or {}
        return {
            "id": unit.get("id"), "name": unit.get("name", ""), "side": unit.get("side"), "wing": unit.get("wing", ""),
            "type": unit.get("type"), "facing": unit.get("facing", ""), "order": unit.get("order", ""),
            "morale_state": morale.get("state", "normal"), "morale_rating": morale.get("rating"),
            "formation": formation.get("name", ""), "formation_state": formation.get("state", "normal"),
            "formation_hits": formation.get("hits"), "hits_before_disorder": formation.get("hits_before_disorder"),
            "allowance": movement.get("allowance"), "spent": movement.get("spent"),
            "leadership": unit.get("leadership"), "role": unit.get("role", ""),
            "limbered": unit.get("limbered", False), "fired": unit.get("fired", False),
            "flags": [k for k, _label in FLAG_FIELDS if flags.get(k)],
        }

    def apply(self, data: dict[str, Any], unit_id: str) -> tuple[dict[str, Any], str]:
        """New scenario data with this unit's properties set from the form; the unit's (new) id."""
        out = copied(data)
        i = unit_index(out, unit_id)
        old = out["units"][i]
        c = self.cleaned_data
        new_id = c["id"].strip()
        unit: dict[str, Any] = {"id": new_id, "side": c["side"], "type": c["type"]}
        given = {"name": c["name"].strip(), "wing": c["wing"], "hexes": list(old.get("hexes") or []),
                 "facing": c["facing"] if c["type"] not in ("leader", "wagon") else "", "order": c["order"],
                 "morale": _present({"state": _not_normal(c["morale_state"]), "rating": c["morale_rating"]}),
                 "formation": _present({"name": c["formation"].strip(), "state": _not_normal(c["formation_state"]),
                                        "hits": c["formation_hits"] or None,
                                        "hits_before_disorder": c["hits_before_disorder"]}),
                 "movement": _present({"allowance": _number(c["allowance"]), "spent": _number(c["spent"]) or None}),
                 "flags": {k: True for k in c["flags"]} | {k: True for k in KEPT_FLAGS if (old.get("flags") or {}).get(k)}}
        if c["type"] == "leader":
            given |= {"leadership": c["leadership"], "role": c["role"]}
        if c["type"] == "artillery":
            given |= {"limbered": c["limbered"] or None, "fired": c["fired"] or None}
        unit.update(_present(given))
        out["units"][i] = unit
        if new_id != unit_id:
            edits.rename_references(out, unit_id, new_id)
        return out, new_id


KEPT_FLAGS = ("off_map_pursuer",)  # flags the form does not show, kept as they were


def _present(values: dict[str, Any]) -> dict[str, Any]:
    """The values that are given: the format leaves out what is empty, false or not known (a 0 is given)."""
    return {k: v for k, v in values.items()
            if not (v is None or v is False or (isinstance(v, (str, list, dict)) and not v))}


def _not_normal(state: str) -> str | None:
    return None if state == "normal" else state


def _number(value) -> float | int | None:
    if value is None:
        return None
    f = float(value)
    return int(f) if f.is_integer() else f


class MapForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=200, required=False)
    description = forms.CharField(label=gettext_lazy("Description"), max_length=2000, required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    columns = forms.IntegerField(label=gettext_lazy("Columns"), min_value=1, max_value=edits.MAX_COLUMNS)
    rows = forms.IntegerField(label=gettext_lazy("Rows"), min_value=1, max_value=edits.MAX_ROWS)
    layout = forms.ChoiceField(label=gettext_lazy("Hexes"), choices=[
        ("pointy", gettext_lazy("pointy-topped, in rows")), ("flat", gettext_lazy("flat-topped, in columns"))])
    offset = forms.ChoiceField(label=gettext_lazy("Shifted rows or columns"), choices=[
        ("odd", gettext_lazy("odd")), ("even", gettext_lazy("even"))])
    terrain_default = forms.CharField(label=gettext_lazy("Terrain of unpainted hexes"), max_length=40)
    dead_zones_known = forms.BooleanField(
        label=gettext_lazy("Dead zones are known (the marked hexes are all of them)"), required=False,
        help_text=gettext_lazy("10.9.3b is not in the corpus: unless you say which hexes are dead zones, answers "
                               "that depend on them stay undetermined."))

    PATHS = {"title": "title", "description": "description", "map.columns": "columns", "map.rows": "rows",
             "map.layout": "layout", "map.offset": "offset", "map.terrain_default": "terrain_default",
             "map.dead_zones": "dead_zones_known"}

    @classmethod
    def initial_for(cls, data: dict[str, Any]) -> dict[str, Any]:
        m = data.get("map") or {}
        title = data.get("title")
        description = data.get("description")
        return {"title": title if isinstance(title, str) else "", "columns": m.get("columns"), "rows": m.get("rows"),
                "description": description if isinstance(description, str) else "",
                "layout": m.get("layout", "pointy"), "offset": m.get("offset", "odd"),
                "terrain_default": m.get("terrain_default", "clear"), "dead_zones_known": "dead_zones" in m}

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        out = copied(data)
        c = self.cleaned_data
        for key in ("title", "description"):
            if c[key].strip():
                out[key] = c[key].strip()
            elif isinstance(out.get(key), str):
                out.pop(key)
        m = out.setdefault("map", {})
        m.update({"columns": c["columns"], "rows": c["rows"], "layout": c["layout"], "offset": c["offset"]})
        if c["terrain_default"].strip() and c["terrain_default"].strip() != "clear":
            m["terrain_default"] = c["terrain_default"].strip()
        else:
            m.pop("terrain_default", None)
        if c["dead_zones_known"]:
            m.setdefault("dead_zones", [])
        else:
            m.pop("dead_zones", None)
        return out


class EdgesForm(forms.Form):
    """Friendly map edges: one multiple choice per side (``edges-<side index>``)."""

    def __init__(self, *args, sides: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = sides
        for i, side in enumerate(sides):
            self.fields[f"edges_{i}"] = forms.MultipleChoiceField(
                label=words.side(side), required=False, choices=EDGE_CHOICES, widget=forms.CheckboxSelectMultiple)

    @classmethod
    def initial_for(cls, data: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        edges = (data.get("map") or {}).get("friendly_edges") or {}
        return {f"edges_{i}": list(edges.get(side, [])) for i, side in enumerate(sides)}

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        out = copied(data)
        m = out.setdefault("map", {})
        edges = {}
        for i, side in enumerate(self.sides):
            chosen = self.cleaned_data.get(f"edges_{i}") or []
            if chosen:
                edges[side] = [e for e in edits.EDGES if e in chosen]
        if edges:
            m["friendly_edges"] = edges
        else:
            m.pop("friendly_edges", None)
        return out


class WingForm(forms.Form):
    id = forms.CharField(label=gettext_lazy("Wing"), max_length=40)
    side = forms.ChoiceField(label=gettext_lazy("Side"))
    order = forms.ChoiceField(label=gettext_lazy("Order"), choices=ORDER_CHOICES)
    PATHS = {"id": "id", "side": "side", "order": "order", "commander": "id"}

    def __init__(self, *args, sides: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = sides

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        """The scenario with this wing added after the others."""
        try:
            return edits.add_wing(data, self.cleaned_data["id"].strip(), self.cleaned_data["side"],
                                  self.cleaned_data["order"])
        except edits.EditError as exc:
            self.add_error("id", str(exc))
            raise


class EventForm(forms.Form):
    action = forms.ChoiceField(label=gettext_lazy("It"), choices=ACTION_CHOICES)
    from_hexes = forms.CharField(label=gettext_lazy("coming from hex(es)"), max_length=40, required=False)
    mp = forms.DecimalField(label=gettext_lazy("spending MP"), required=False, min_value=0, max_value=99,
                            decimal_places=1)
    PATHS = {"moment.event.from": "from_hexes", "moment.event.mp": "mp", "moment.event.action": "action",
             "moment.event.unit": "action", "moment.active_side": "action", "moment.active_wing": "action"}


class MomentForm(forms.Form):
    phase = forms.ChoiceField(label=gettext_lazy("Phase"), choices=PHASE_CHOICES, required=False)
    wing_has_acted = forms.BooleanField(label=gettext_lazy("A unit of the active wing has already acted"),
                                        required=False, label_suffix="")
    extended_activation = forms.BooleanField(
        label=gettext_lazy("The active wing's activation has been extended (a new activation, 9.3.1)"), required=False,
        label_suffix="")
    wing_passes = forms.BooleanField(label=gettext_lazy("The active player passes this activation (5.8)"),
                                     required=False, label_suffix="")
    FLAGS = ("wing_has_acted", "extended_activation", "wing_passes")
    PATHS = {"moment.phase": "phase", **{f"moment.{flag}": flag for flag in FLAGS}}

    @classmethod
    def initial_for(cls, data: dict[str, Any]) -> dict[str, Any]:
        moment = data.get("moment") or {}
        return {"phase": moment.get("phase", ""), **{flag: bool(moment.get(flag, False)) for flag in cls.FLAGS}}

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        return edits.set_moment(data, self.cleaned_data["phase"],
                                **{flag: self.cleaned_data[flag] for flag in self.FLAGS})


class TablesForm(forms.Form):
    """The rows the corpus lacks, as the scenario's own data (JSON): tables and terrain types."""

    tables = forms.CharField(label=gettext_lazy("Tables (JSON)"), required=False,
                             widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))
    terrain_types = forms.CharField(label=gettext_lazy("Terrain types (JSON)"), required=False,
                                    widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))
    PATHS = {"tables": "tables", "terrain_types": "terrain_types"}

    @classmethod
    def initial_for(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {key: json.dumps(data[key], ensure_ascii=False, indent=1) if key in data else ""
                for key in ("tables", "terrain_types")}

    def clean(self):
        cleaned = super().clean()
        for key in ("tables", "terrain_types"):
            text = (cleaned.get(key) or "").strip()
            value = self._json_object(key, text) if text else None
            if key not in self.errors:
                cleaned[key] = value
        return cleaned

    def _json_object(self, key: str, text: str) -> dict[str, Any] | None:
        """The field's JSON object, or None with the field's error added. Read as every JSON text from a user is:
        bounded in depth before it is parsed (rulesref.security.text), and only strings that can be stored."""
        try:
            value = storable.loads(text)
        except storable.TooDeep as exc:
            self.add_error(key, _("This JSON cannot be read: %(error)s.") % {"error": exc.message})
            return None
        except storable.NotJSON as exc:
            where = f": line {exc.line} column {exc.column}" if exc.line else ""
            self.add_error(key, _("Not JSON: %(error)s") % {"error": exc.message + where})
            return None
        except storable.UnstorableText as exc:
            self.add_error(key, "; ".join(f"{path}: {message}" if path else message for path, message in exc.problems))
            return None
        if not isinstance(value, dict):
            self.add_error(key, _("Give a JSON object ({ … })."))
            return None
        return value

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        out = copied(data)
        for key in ("tables", "terrain_types"):
            if self.cleaned_data.get(key):
                out[key] = self.cleaned_data[key]
            else:
                out.pop(key, None)
        return out


class InterceptionRowsForm(forms.Form):
    """The Interception Table (9.3.2): the corpus gives only Charge 0–5; a player can fill in the other orders."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for order, label in ORDER_CHOICES:
            key = order.replace("-", "_")
            self.fields[f"{key}_high"] = forms.IntegerField(label=label, required=False, min_value=-1, max_value=9)

    @classmethod
    def initial_for(cls, data: dict[str, Any]) -> dict[str, Any]:
        rows = (((data.get("tables") or {}).get("interception") or {}).get("rows")) or []
        initial = {}
        for row in rows:
            if isinstance(row, dict) and isinstance(row.get("success"), list) and len(row["success"]) == 2:
                initial[f"{str(row.get('order')).replace('-', '_')}_high"] = row["success"][1]
        return initial

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        out = copied(data)
        tables = out.setdefault("tables", {})
        table = tables.setdefault("interception", {})
        rows = [r for r in table.get("rows") or [] if r.get("source") != "scenario-editor"]
        given = {r.get("order") for r in rows}
        for order, _label in ORDER_CHOICES:
            high = self.cleaned_data.get(f"{order.replace('-', '_')}_high")
            if high is None:
                continue
            rows = [r for r in rows if r.get("order") != order] if order in given else rows
            rows.append({"order": order, "success": [0, high], "source": "scenario-editor"})
        if rows:
            table["rows"] = rows
        else:
            table.pop("rows", None)
        if not table:
            tables.pop("interception")
        if not tables:
            out.pop("tables")
        return out
