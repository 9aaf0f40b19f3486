"""The tabletop editor's side panel: the selected unit (position, turns, properties), the selected terrain piece,
"Place a unit", the board's size, and the scenario tabs (terrain pieces, declared charges, the pursuit), of which
only the open one builds its forms. With the place-terrain tool the terrain tab is open, for its form takes the
board's clicks."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from .. import words
from ..page import Page
from ..state import link_prefix
from . import edits, forms


ROTATIONS = ((-90, ""), (-15, "rotate-back"), (15, "rotate"), (90, ""))


def scenario_tabs() -> list[tuple[str, str]]:
    return [("terrain", _("Terrain pieces")), ("charges", _("Declared charges")), ("pursuit", _("Pursuit"))]


def panels(page: Page) -> dict[str, Any]:
    data, view, made = page.data, page.view, page.forms
    sides = edits.sides(data)
    board = data.get("board") or {}
    place = made.get("place") or {}
    out: dict[str, Any] = {
        "sides": [(s, words.side(s)) for s in sides], "place_side": view.side if view.side in sides else sides[0],
        "place_form": place or {"x": "", "y": "", "width": edits.DEFAULT_SIZE[0], "depth": edits.DEFAULT_SIZE[1],
                                "advance_rate": edits.DEFAULT_ADVANCE_RATE, "missile": ""},
        "place_errors": place.get("errors") or {}, "missile_choices": forms.MISSILE_CHOICES,
        "board_width": board.get("width", ""), "board_depth": board.get("depth", ""),
        "board_most": (edits.LIMITS["board_width"], edits.LIMITS["board_depth"]),
        "rotations": [(d, ("⟲ " if d < 0 else "⟳ ") + f"{abs(d)}°", key,
                       (_("Turn %(n)s° back") if d < 0 else _("Turn %(n)s° clockwise")) % {"n": abs(d)})
                      for d, key in ROTATIONS],
    }
    move = made.get("move") or {}
    out["move_errors"] = move.get("errors") or {}
    if page.selected is not None:
        selected = page.selected
        out["bunit_form"] = made.get("bunit") or forms.BoardUnitForm(
            prefix="bu", sides=forms.side_choices(data), initial=forms.BoardUnitForm.initial_for(selected))
        centre = selected.get("centre") or [0, 0]
        out["sel_x"], out["sel_y"] = move.get("x", centre[0]), move.get("y", centre[1])
        out["sel_facing"] = move.get("facing", selected.get("facing", 0))
    out.update(_scenario_panel(page))
    return out


def _scenario_panel(page: Page) -> dict[str, Any]:
    data, view = page.data, page.view
    panel = "terrain" if view.tool == "place-terrain" else view.panel
    tab_view = view.with_(tool="select") if view.tool == "place-terrain" else view
    out: dict[str, Any] = {"board_panel": panel, "board_tabs": [
        (key, label, page.url(**{"tool": tab_view.tool, "panel": "" if panel == key else key}))
        for key, label in scenario_tabs()]}
    pieces = [t for t in data.get("terrain") or [] if isinstance(t, dict)]
    piece = next((t for t in pieces if t.get("id") == view.terrain), None)
    if piece is not None:
        out["sel_terrain"] = piece
        out["terrain_form"] = page.forms.get("terrain") or forms.TerrainForm(
            prefix="te", initial=forms.TerrainForm.initial_for(piece))
    build = {"terrain": _terrain_tab, "charges": _charges_tab, "pursuit": _pursuit_tab}.get(panel)
    if build is not None:
        out.update(build(page, pieces, piece))
    return out


def _terrain_tab(page: Page, pieces: list[dict[str, Any]], piece) -> dict[str, Any]:
    board = page.data.get("board") or {}
    select = link_prefix(page.source, page.view, page.lang, "terrain", sel="")
    return {
        "pieces": [{"id": t.get("id"), "name": t.get("name", ""), "impassable": t.get("impassable"),
                    "obscuring": t.get("obscuring"), "url": select + str(t.get("id")), "selected": t is piece}
                   for t in pieces],
        "new_terrain_form": page.forms.get("newterrain") or forms.NewTerrainForm(prefix="nt", initial={
            "x": edits.number((board.get("width") or 0) / 2), "y": edits.number((board.get("depth") or 0) / 2),
            "width": edits.DEFAULT_TERRAIN_SIZE[0], "depth": edits.DEFAULT_TERRAIN_SIZE[1], "rotation": 0}),
    }


def _charges_tab(page: Page, pieces, piece) -> dict[str, Any]:
    units = edits.unit_choices(page.data)
    labels = dict(units)
    charges = [c for c in page.data.get("declared_charges") or [] if isinstance(c, dict)]
    return {"charges": [{"charger": labels.get(c.get("charger"), c.get("charger")),
                         "target": labels.get(c.get("target"), c.get("target"))} for c in charges],
            "charge_form": page.forms.get("charge") or forms.ChargeForm(
                prefix="ch", units=units, initial=charge_initial(page.units, {c.get("charger") for c in charges}, page.view.sel))}


def charge_initial(units: list[dict[str, Any]], declared: set[str], selected: str) -> dict[str, str]:
    """The charge the form offers first: of the selected unit (else the first that has not declared one yet)
    against its first enemy, never against itself."""
    chargers = [u for u in units if u.get("id") == selected] + [u for u in units if u.get("id") not in declared]
    if not chargers:
        return {}
    charger = chargers[0]
    enemies = [u.get("id") for u in units if u.get("side") != charger.get("side")]
    return {"charger": charger.get("id"), "target": (enemies or [""])[0]}


def _pursuit_tab(page: Page, pieces, piece) -> dict[str, Any]:
    data, made = page.data, page.forms
    units = edits.unit_choices(data)
    labels = dict(units)
    pursuit = data.get("pursuit") if isinstance(data.get("pursuit"), dict) else {}
    fled = [f for f in pursuit.get("fled") or [] if isinstance(f, dict)]
    out: dict[str, Any] = {
        "fled": [{"unit": labels.get(f.get("unit"), f.get("unit")), "roll": edits.roll_text(f.get("roll")),
                  "roll_input": edits.roll_input(f.get("roll")), "destroyed": f.get("destroyed")} for f in fled],
        "pursuers": [{"unit": labels.get(p.get("unit"), p.get("unit")),
                      "pursues": labels.get(p.get("pursues"), p.get("pursues")),
                      "roll": edits.roll_text(p.get("roll")), "roll_input": edits.roll_input(p.get("roll"))}
                     for p in pursuit.get("pursuers") or [] if isinstance(p, dict)],
        "has_pursuit": bool(pursuit), "fled_form": made.get("fled") or forms.FledForm(prefix="fl", units=units),
    }
    if fled:
        out["pursuer_form"] = made.get("pursuer") or forms.PursuerForm(prefix="pu", units=edits.pursuer_choices(data),
                                                                        fled=edits.fled_choices(data))
        out["melee_form"] = made.get("melee") or forms.MeleeForm(
            prefix="me", units=units, initial={"melee": list(pursuit.get("melee") or [])})
    return out
