"""The editor's side-panel forms: a unit's properties, the map, the wings, the moment, the tables, an upload.

Each form checks its own fields (types, ranges); applying it to the scenario gives new data that the engine then
validates as a whole. The engine's problems come back by path (``units[2].morale.rating``) and are put next to the
field they concern with :func:`attach_problems`.
"""
from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from . import hexedit

UNIT_TYPE_CHOICES = [
    ("cavalry", gettext_lazy("cavalry")), ("light-infantry", gettext_lazy("light infantry")),
    ("heavy-infantry", gettext_lazy("heavy infantry")), ("artillery", gettext_lazy("artillery")),
    ("leader", gettext_lazy("leader")), ("wagon", gettext_lazy("wagons")),
]
ORDER_CHOICES = [
    ("charge", gettext_lazy("Charge")), ("make-ready", gettext_lazy("Make Ready")),
    ("receive-charge", gettext_lazy("Receive Charge")), ("rally", gettext_lazy("Rally")),
]
MORALE_CHOICES = [("normal", gettext_lazy("normal")), ("shaken", gettext_lazy("Morale Shaken")),
                  ("broken", gettext_lazy("Morale Broken"))]
FORMATION_STATE_CHOICES = [("normal", gettext_lazy("in good formation")), ("shaken", gettext_lazy("formation shaken")),
                           ("disordered", gettext_lazy("disordered"))]
EDGE_CHOICES = [("north", gettext_lazy("north")), ("south", gettext_lazy("south")), ("west", gettext_lazy("west")),
                ("east", gettext_lazy("east"))]
ACTION_CHOICES = [
    ("move", gettext_lazy("moves into a hex")), ("change-facing", gettext_lazy("changes facing")),
    ("change-formation", gettext_lazy("changes formation")), ("advance", gettext_lazy("advances after combat")),
    ("retreat", gettext_lazy("retreats after combat")), ("fire", gettext_lazy("fires")), ("other", gettext_lazy("acts")),
]
PHASE_CHOICES = [("", "—"), ("activation-start", gettext_lazy("start of activation")),
                 ("orders-change", gettext_lazy("orders change")), ("actions", gettext_lazy("actions")),
                 ("close-combat", gettext_lazy("close combat"))]
FLAG_FIELDS = [
    ("interception_attempted", gettext_lazy("has tried to intercept this activation")),
    ("withdrawn", gettext_lazy("has withdrawn this activation")),
    ("eliminated", gettext_lazy("eliminated")),
    ("off_map", gettext_lazy("off the map")),
    ("reinforcement", gettext_lazy("reinforcement not yet entered")),
]
ID_RE = re.compile(r"^\S.{0,39}$")


class UnitForm(forms.Form):
    id = forms.CharField(label=gettext_lazy("Id"), max_length=40)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80, required=False)
    side = forms.CharField(label=gettext_lazy("Side"), max_length=40)
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
        wings = [w for w in scenario.get("wings") or [] if isinstance(w, dict)]
        self.fields["wing"].choices = [("", "—")] + [(w["id"], f"{w['id']} ({w.get('side')})") for w in wings]
        self.fields["order"].choices = [("", _("the wing's order"))] + ORDER_CHOICES
        facings = hexedit.valid_facings(scenario, unit)
        if unit.get("facing") and unit["facing"] not in facings:
            facings.append(unit["facing"])
        self.fields["facing"].choices = [("", "—")] + [(f, f) for f in facings]

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
        out = hexedit._copy(data)
        i = hexedit.unit_index(out, unit_id)
        old = out["units"][i]
        c = self.cleaned_data
        new_id = c["id"].strip()
        unit: dict[str, Any] = {"id": new_id, "side": c["side"].strip(), "type": c["type"]}
        if c["name"].strip():
            unit["name"] = c["name"].strip()
        if c["wing"]:
            unit["wing"] = c["wing"]
        if old.get("hexes"):
            unit["hexes"] = list(old["hexes"])
        if c["facing"]:
            unit["facing"] = c["facing"]
        if c["order"]:
            unit["order"] = c["order"]
        morale = {}
        if c["morale_state"] != "normal":
            morale["state"] = c["morale_state"]
        if c["morale_rating"] is not None:
            morale["rating"] = c["morale_rating"]
        if morale:
            unit["morale"] = morale
        formation = {}
        if c["formation"].strip():
            formation["name"] = c["formation"].strip()
        if c["formation_state"] != "normal":
            formation["state"] = c["formation_state"]
        if c["formation_hits"]:
            formation["hits"] = c["formation_hits"]
        if c["hits_before_disorder"] is not None:
            formation["hits_before_disorder"] = c["hits_before_disorder"]
        if formation:
            unit["formation"] = formation
        movement = {}
        if c["allowance"] is not None:
            movement["allowance"] = _number(c["allowance"])
        if c["spent"]:
            movement["spent"] = _number(c["spent"])
        if movement:
            unit["movement"] = movement
        if c["type"] == "leader":
            if c["leadership"] is not None:
                unit["leadership"] = c["leadership"]
            if c["role"]:
                unit["role"] = c["role"]
        if c["type"] == "artillery":
            if c["limbered"]:
                unit["limbered"] = True
            if c["fired"]:
                unit["fired"] = True
        flags = {k: True for k in c["flags"]}
        for key in ("off_map_pursuer",):
            if (old.get("flags") or {}).get(key):
                flags[key] = True
        if flags:
            unit["flags"] = flags
        if c["type"] in ("leader", "wagon"):
            unit.pop("facing", None)
        out["units"][i] = unit
        if new_id != unit_id:
            hexedit.rename_references(out, unit_id, new_id)
        return out, new_id


def _number(value) -> float | int:
    f = float(value)
    return int(f) if f.is_integer() else f


class MapForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=200, required=False)
    description = forms.CharField(label=gettext_lazy("Description"), max_length=2000, required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    columns = forms.IntegerField(label=gettext_lazy("Columns"), min_value=1, max_value=hexedit.MAX_COLUMNS)
    rows = forms.IntegerField(label=gettext_lazy("Rows"), min_value=1, max_value=hexedit.MAX_ROWS)
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
        out = hexedit._copy(data)
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
                label=side, required=False, choices=EDGE_CHOICES, widget=forms.CheckboxSelectMultiple)

    @classmethod
    def initial_for(cls, data: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        edges = (data.get("map") or {}).get("friendly_edges") or {}
        return {f"edges_{i}": list(edges.get(side, [])) for i, side in enumerate(sides)}

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        out = hexedit._copy(data)
        m = out.setdefault("map", {})
        edges = {}
        for i, side in enumerate(self.sides):
            chosen = self.cleaned_data.get(f"edges_{i}") or []
            if chosen:
                edges[side] = [e for e in hexedit.EDGES if e in chosen]
        if edges:
            m["friendly_edges"] = edges
        else:
            m.pop("friendly_edges", None)
        return out


class WingForm(forms.Form):
    id = forms.CharField(label=gettext_lazy("Wing"), max_length=40)
    side = forms.CharField(label=gettext_lazy("Side"), max_length=40)
    order = forms.ChoiceField(label=gettext_lazy("Order"), choices=ORDER_CHOICES)
    PATHS = {"id": "id", "side": "side", "order": "order", "commander": "id"}


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
                                        required=False)
    PATHS = {"moment.phase": "phase", "moment.wing_has_acted": "wing_has_acted"}


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
            if not text:
                cleaned[key] = None
                continue
            try:
                value = json.loads(text)
            except ValueError as exc:
                self.add_error(key, _("Not JSON: %(error)s") % {"error": exc})
                continue
            if not isinstance(value, dict):
                self.add_error(key, _("Give a JSON object ({ … })."))
                continue
            cleaned[key] = value
        return cleaned

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        out = hexedit._copy(data)
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
        out = hexedit._copy(data)
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


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Scenario file (JSON)"))


def attach_problems(form: forms.Form, problems: list[tuple[str, str]], prefix: str = "") -> list[tuple[str, str]]:
    """Put each engine problem whose path (under ``prefix``) maps to a field of ``form`` next to that field; the
    problems of this part of the scenario that map to no field become the form's own errors. Returns the rest."""
    paths: dict[str, str] = getattr(form, "PATHS", {})
    rest = []
    for path, message in problems:
        if prefix and not (path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")):
            rest.append((path, message))
            continue
        local = path[len(prefix):].lstrip(".") if prefix else path
        key = local
        field = None
        while key:
            if key in paths:
                field = paths[key]
                break
            key = re.sub(r"(\[\d+\]|\.[^.\[]*)$", "", key)
        if field and field in form.fields:
            form.add_error(field, message)
        elif prefix:
            form.add_error(None, f"{local or path}: {message}" if local else message)
        else:
            rest.append((path, message))
    return rest
