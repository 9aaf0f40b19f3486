"""What an answer draws on the hex map and which of its figures get a line of their own.

The drawing is read from the Ruling's ``result`` generically: keys the checker knows (``path``, ``end``,
``line_of_sight``, ``destinations``, ``excluded``, ``event``) get their own style; any other list of hex labels is
outlined, so a result field added to the engine later is still shown. The path and the end of an answer that is
"no" are not drawn: they are the engine's explanation of what would be needed, not a move the rules allow.
"""
from __future__ import annotations

import re
from typing import Any

from babel.numbers import format_percent
from django.utils.translation import gettext as _, ngettext

from rulesref.engine.hexgrid import adjacent_by_sector, hex_spiral, sector_of
from rulesref.engine.hexsvg import Mark
from rulesref.engine.mpbs.interception import INTERCEPTION_RANGE
from rulesref.engine.mpbs.scenario import hexmap_of
from rulesref.languages import current_language

from .. import words
from ..answer import AnswerView

LABEL_RE = re.compile(r"^[0-9]{4,8}$")
SECTOR_QUESTIONS = ("can-intercept", "interception-chance")  # 9.3.1b: sectors within the interception range
FACT_LABELS = {
    "distance": lambda: _("Distance in hexes"), "cost": lambda: _("Path cost in MP"),
    "mp_available": lambda: _("MP available"), "chance": lambda: _("Chance"),
    "success_range": lambda: _("Success on a roll of"), "modifier": lambda: _("Modifier"),
    "outcome": lambda: _("Outcome"), "edge": lambda: _("Toward the map edge"),
}


# What the other lists of hexes in an answer are (a key the engine adds later is shown by its name).
HEX_LIST_NAMES = {
    "vacated": lambda: _("Hexes left empty by the close combat"),
    "hexes": lambda: _("Where the unit stands after the facing change"),
}


def labels_in(value: Any) -> list[str] | None:
    if isinstance(value, list) and value and all(isinstance(v, str) and LABEL_RE.match(v) for v in value):
        return value
    return None


class Marks:
    """The marks and the legend of one answer, built key by key of its result."""

    def __init__(self, answer: AnswerView):
        self.answer = answer
        self.marks: list[Mark] = []
        self.legend: list[tuple[str, str]] = []
        self.handled: set[str] = set()

    def add(self, mark: Mark, legend: str = "", key: str = "") -> None:
        self.marks.append(mark)
        if legend and (mark.kind, legend) not in self.legend:
            self.legend.append((mark.kind, legend))
        if key:
            self.handled.add(key)

    def path(self, path: Any, cost: Any) -> None:
        if not (isinstance(path, list) and path and all(isinstance(p, dict) for p in path)):
            return
        steps = [p.get("hexes") or [] for p in path]
        n = max(len(steps) - 1, 0)
        title = ngettext("Path: %(n)s hex", "Path: %(n)s hexes", n) % {"n": n}
        if isinstance(cost, (int, float)):
            count = int(cost) if float(cost).is_integer() else 5  # a fraction takes the plural form of 5
            title += ", " + ngettext("%(mp)s MP", "%(mp)s MP", count) % {"mp": f"{cost:g}"}
        self.add(Mark("path", line=steps, arrow=True, title=title), title, "path")

    def end(self, end: Any) -> None:
        if isinstance(end, dict) and labels_in(end.get("hexes")):
            self.add(Mark("end", hexes=end["hexes"], title=_("Where the path ends")), _("Where the path ends"), "end")

    def sight(self, sight: list[str] | None) -> None:
        if sight:
            self.add(Mark("sight", line=[[sight[0]], [sight[-1]]], title=_("Line of sight")), _("Line of sight"),
                     "line_of_sight")
            self.add(Mark("sighthex", hexes=sight[1:-1], title=_("Line of sight")))

    def destinations(self, destinations: Any) -> None:
        if not (isinstance(destinations, list) and destinations):
            return
        for dest in destinations:
            if not isinstance(dest, dict):
                continue
            steps = [s for s in dest.get("path") or [] if labels_in(s)]
            if len(steps) >= 2:
                self.add(Mark("retreat", line=steps, arrow=True, title=_("Retreat path")), _("Retreat path"))
            if labels_in(dest.get("hexes")):
                self.add(Mark("legal", hexes=dest["hexes"], title=_("Legal retreat hex")), _("Legal retreat hexes"))
        self.handled.add("destinations")

    def rest(self, result: dict[str, Any]) -> None:
        excluded = labels_in(result.get("excluded"))
        if excluded:
            self.add(Mark("excluded", hexes=excluded, title=_("Hexes the retreat may not enter")),
                     _("Hexes the retreat may not enter"), "excluded")
        event = result.get("event")
        if isinstance(event, dict) and labels_in(event.get("hexes")):
            self.add(Mark("event", hexes=event["hexes"], title=_("The moving unit")), key="event")
        for key, value in result.items():
            found = labels_in(value)
            if key not in self.handled and found:
                name = HEX_LIST_NAMES[key]() if key in HEX_LIST_NAMES else key.replace("_", " ")
                self.add(Mark("hexes", hexes=found, title=name), name)


def answer_extras(answer: AnswerView, params: dict[str, Any], scenario) -> None:
    """The marks, the legend, the sectors and the key figures of a hex answer."""
    result = answer.result
    marks = Marks(answer)
    if answer.verdict != "no":
        marks.path(result.get("path"), result.get("cost"))
        marks.end(result.get("end"))
    marks.handled |= {"path", "end"}
    marks.sight(labels_in(result.get("line_of_sight")))
    marks.destinations(result.get("destinations"))
    marks.rest(result)
    actor = params.get("unit") or params.get("charger") or result.get("unit")
    target = params.get("target") or result.get("target")
    if isinstance(actor, str):
        marks.add(Mark("actor", units=[actor]))
    if isinstance(target, str):
        marks.add(Mark("target", units=[target]))
    if answer.question in SECTOR_QUESTIONS and isinstance(actor, str):
        answer.sectors = unit_sectors(scenario, actor, INTERCEPTION_RANGE, rear=False)
        if answer.sectors:
            marks.legend.append(("sec-front", ngettext("Front sector (within %(n)s hex)", "Front sector (within %(n)s hexes)",
                                                       INTERCEPTION_RANGE) % {"n": INTERCEPTION_RANGE}))
            marks.legend.append(("sec-flank", _("Flank sectors")))
    answer.marks, answer.legend = marks.marks, marks.legend
    answer.facts = facts(result)
    if answer.question == "retreat" and answer.verdict != "no":
        answer.verdict_label, answer.headline = retreat_words(result)


def facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for key, label in FACT_LABELS.items():
        value = result.get(key)
        if isinstance(value, (int, float, str)) and not isinstance(value, bool):
            out.append((label(), fact_text(key, value)))
    return out


def fact_text(key: str, value: Any) -> str:
    if key == "chance" and isinstance(value, (int, float)):
        return format_percent(value, locale=current_language())
    if key == "modifier" and isinstance(value, int):
        return f"{value:+d}".replace("-", "−")
    if key in ("outcome", "edge"):
        return words.edge(value) if key == "edge" else words.result_value(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def unit_sectors(scenario, unit_id: str, reach: int, rear: bool = True) -> dict[str, str]:
    """The sector (front, flank, rear) of each hex within ``reach`` of a unit that has a facing (hexgrid's rules)."""
    unit = scenario.by_id.get(unit_id) if scenario is not None else None
    if unit is None or unit.facing is None or not unit.hexes:
        return {}
    out = {}
    near = {h for centre in unit.hexes for h in hex_spiral(centre, reach)} - set(unit.hexes)
    for h in sorted(near):
        if h not in scenario.hexmap:
            continue
        sector = sector_of(unit.hexes, unit.facing, h)
        if sector is not None and (rear or sector.value != "rear"):
            out[scenario.hexmap.label(h)] = sector.value
    return out


def adjacent_sectors(data: dict[str, Any], unit: dict[str, Any]) -> dict[str, str]:
    """The front, flank and rear hexes next to a unit (6.1), read from the scenario data without loading it."""
    hexmap = hexmap_of(data)
    try:
        hexes = [hexmap.parse(label) for label in unit.get("hexes") or []]
        facing = hexmap.parse_vertex(unit.get("facing"))
    except (ValueError, TypeError):
        return {}
    if not hexes or (len(hexes) == 2 and str((unit.get("formation") or {}).get("name", "")).lower() == "column"):
        return {}
    return {hexmap.label(h): sector.value for sector, found in adjacent_by_sector(hexes, facing).items()
            for h in found if h in hexmap}


def _hexes(step: Any) -> str:
    """One hex of a path, or the two of a two-hex unit: ``0305`` / ``0305–0306``."""
    return "–".join(step) if isinstance(step, list) else str(step)


def _destination(dest: dict[str, Any]) -> str:
    """"to 0204 by 0305", "off the map (eliminated)"."""
    if dest.get("off_map"):
        return _("off the map (the unit is eliminated)")
    where = _hexes(dest.get("hexes") or [])
    steps = (dest.get("path") or [])[:-1]  # the path's last step is the destination itself
    if steps:
        return _("to %(hex)s by %(path)s") % {"hex": where, "path": " → ".join(_hexes(s) for s in steps)}
    return _("to %(hex)s") % {"hex": where}


def _destinations(destinations: list[dict[str, Any]]) -> str:
    """The places a retreat may end, each with its path, joined by "or"; the owning player picks one."""
    said = list(dict.fromkeys(_destination(d) for d in destinations if isinstance(d, dict)))
    text = _(", or ").join(said)
    if len(said) > 1:
        text = _("%(places)s (the owning player chooses)") % {"places": text}
    return text


def retreat_words(result: dict[str, Any]) -> tuple[str, str]:
    """Where a retreat goes, in words: the outcome's own name for the verdict, and a sentence with the distance,
    the map edge, each destination and its path (the map draws the same)."""
    unit, outcome = str(result.get("unit") or ""), result.get("outcome")
    label = words.result_value(outcome) if outcome else ""
    destinations = [d for d in result.get("destinations") or [] if isinstance(d, dict)]
    if outcome == "eliminated" and not destinations:
        return label, _("%(unit)s is eliminated: it is removed from the map.") % {"unit": unit}
    if outcome == "unable-to-retreat":
        return label, _short_retreat(unit, result, destinations)
    return label, _full_retreat(unit, result, destinations)


def _short_retreat(unit: str, result: dict[str, Any], destinations: list[dict[str, Any]]) -> str:
    made = result.get("retreated") or 0
    text = ngettext("%(unit)s can retreat only %(n)s hex of %(of)s.", "%(unit)s can retreat only %(n)s hexes of %(of)s.",
                    made) % {"unit": unit, "n": made, "of": result.get("distance")}
    if made and destinations:
        text += " " + _("It retreats %(places)s.") % {"places": _destinations(destinations)}
    return text


def _full_retreat(unit: str, result: dict[str, Any], destinations: list[dict[str, Any]]) -> str:
    distance = result.get("distance")
    if not destinations or not isinstance(distance, int):
        return ""
    by_edge: dict[str, list[dict[str, Any]]] = {}
    for d in destinations:  # toward either of two edges as near (retreat-edge-tie): each edge with its own places
        by_edge.setdefault(d.get("edge") or result.get("edge") or "", []).append(d)
    parts = [_("%(toward)s: %(places)s") % {"toward": words.edge_direction(edge), "places": _destinations(found)}
             if edge else _destinations(found) for edge, found in by_edge.items()]
    return ngettext("%(unit)s retreats %(n)s hex %(where)s.", "%(unit)s retreats %(n)s hexes %(where)s.",
                    distance) % {"unit": unit, "n": distance, "where": _("; or ").join(parts)}
