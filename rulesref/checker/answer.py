"""An engine answer for the page: the verdict, each finding with its clause linked into the reference (title and
text in the reader's language), and what to draw on the map (paths, line of sight, sectors, legal hexes).

The drawing is read from the Ruling's ``result`` generically: keys the checker knows (``path``, ``end``,
``line_of_sight``, ``destinations``, ``excluded``, ``event``) get their own style; any other list of hex labels is
outlined, so a result field added to the engine later is still shown.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _, ngettext

from rulesref.reference.corpus import clause_label, split_blocks
from rulesref.reference.index import book_index
from rulesref.reference.models import Book
from rulesref.reference.render import section_url

from .svg import Mark

STATUS_SIGNS = {"pass": "✓", "fail": "✗", "unknown": "?"}
INTERCEPTION_RANGE = 4
LABEL_RE = re.compile(r"^[0-9]{4,8}$")


@dataclass
class Clause:
    clause: str  # "9.3.1c"
    section: str  # "9.3.1"
    letter: str  # "c"
    label: str  # "9.3.1c Eligibility"
    url: str | None
    text: str  # the clause's (or section's) text, plain, for the hover/focus card
    text_lang: str


@dataclass
class FindingView:
    status: str
    sign: str
    message: str
    clause: Clause


@dataclass
class AnswerView:
    question: str
    verdict: str
    findings: list[FindingView]
    summary: str
    result: dict[str, Any]
    marks: list[Mark] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)
    sectors: dict[str, str] = field(default_factory=dict)
    facts: list[tuple[str, str]] = field(default_factory=list)


def split_clause(book: str, clause: str) -> tuple[str, str]:
    """``9.3.1c`` -> (``9.3.1``, ``c``); t9a ids (``XIII.7.C``, ``hold``) have no letter part."""
    if re.match(r"^\d+(\.\d+)*[a-z]$", clause):
        return clause[:-1], clause[-1]
    return clause, ""


def clause_view(book: str, clause: str, lang: str, index=None) -> Clause:
    section, letter = split_clause(book, clause)
    entry = index.get(section) if index is not None else None
    if entry is None:
        return Clause(clause, section, letter, clause, None, "", lang)
    title = entry.title(lang)
    label = f"{entry.number}{letter} {title}".strip() if entry.number else (title or clause)
    body_lang = lang if entry.bodies.get(lang) else "ru"
    body = entry.bodies.get(body_lang, "")
    text = body
    if letter:
        for block in split_blocks(body):
            if clause_label(block) == letter:
                text = block
                break
    url = None if entry.absent else section_url(lang, book, section, letter)
    return Clause(clause, section, letter, label, url, _plain(text), body_lang)


def _plain(text: str, limit: int = 700) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def book_index_for(book: str):
    obj = Book.objects.filter(slug=book).first()
    return book_index(obj) if obj is not None else None


def summary(findings: list[FindingView]) -> str:
    counts = {s: sum(1 for f in findings if f.status == s) for s in ("pass", "fail", "unknown")}
    total = len(findings)
    parts = [ngettext("%(n)s clause checked", "%(n)s clauses checked", total) % {"n": total}]
    if counts["pass"]:
        parts.append(ngettext("%(n)s met", "%(n)s met", counts["pass"]) % {"n": counts["pass"]})
    if counts["fail"]:
        parts.append(ngettext("%(n)s not met", "%(n)s not met", counts["fail"]) % {"n": counts["fail"]})
    if counts["unknown"]:
        parts.append(ngettext("%(n)s undetermined", "%(n)s undetermined", counts["unknown"]) % {"n": counts["unknown"]})
    return ", ".join(parts)


def build(book: str, ruling: dict[str, Any], lang: str, params: dict[str, Any], scenario=None) -> AnswerView:
    index = book_index_for(book)
    cache: dict[str, Clause] = {}
    findings = []
    for f in ruling["findings"]:
        clause = f["clause"].split(":", 1)[-1]
        if clause not in cache:
            cache[clause] = clause_view(book, clause, lang, index)
        findings.append(FindingView(f["status"], STATUS_SIGNS.get(f["status"], "?"), f["message"], cache[clause]))
    view = AnswerView(ruling["question"], ruling["verdict"], findings, summary(findings), ruling.get("result") or {})
    if scenario is not None and book == "mpbs":
        _hex_marks(view, ruling, params, scenario)
    if book == "t9a":
        view.facts = board_facts(view.result)
    return view


def board_facts(result: dict[str, Any]) -> list[tuple[str, Any]]:
    """The figures of a tabletop answer worth a line of their own: the gap, the charge range, and the odds (as the
    engine's exact chances, or a (low, high) pair where some dice outcomes are not placed by the corpus)."""
    facts: list[tuple[str, Any]] = []
    if isinstance(result.get("distance"), (int, float)):
        facts.append(("distance_inches", result["distance"]))
    if isinstance(result.get("max_charge_range"), (int, float)):
        facts.append(("max_charge_range", result["max_charge_range"]))
    charge = (result.get("charge_odds") or {}).get("chance")
    if isinstance(charge, dict):
        facts.append(("charge_chance", charge))
    flee = result.get("flee_odds")
    if isinstance(flee, dict) and isinstance(flee.get("chance"), dict):
        low, open_ = flee["chance"], flee.get("undetermined") or {}
        if open_.get("float"):
            high = {"float": low.get("float", 0) + open_["float"]}
            facts.append(("flee_chance", (low, high)))
        else:
            facts.append(("flee_chance", low))
    catch = result.get("catch_odds")
    if isinstance(catch, dict) and isinstance(catch.get("fraction"), str):
        facts.append(("catch_chance", catch))
    return facts


def _labels(value: Any) -> list[str] | None:
    if isinstance(value, list) and value and all(isinstance(v, str) and LABEL_RE.match(v) for v in value):
        return value
    return None


def _hex_marks(view: AnswerView, ruling: dict[str, Any], params: dict[str, Any], scenario) -> None:
    result = ruling.get("result") or {}
    marks: list[Mark] = []
    legend: list[tuple[str, str]] = []
    handled = set()

    def add_legend(kind: str, text: str) -> None:
        if (kind, text) not in legend:
            legend.append((kind, text))

    path = result.get("path")
    if isinstance(path, list) and path and all(isinstance(p, dict) for p in path):
        steps = [p.get("hexes") or [] for p in path]
        n = max(len(steps) - 1, 0)
        cost = result.get("cost")
        title = ngettext("Path: %(n)s hex", "Path: %(n)s hexes", n) % {"n": n}
        if isinstance(cost, (int, float)):
            title += ", " + ngettext("%(mp)s MP", "%(mp)s MP", int(cost) if float(cost).is_integer() else 5) % {
                "mp": f"{cost:g}"}
        marks.append(Mark("path", line=steps, arrow=True, title=title))
        add_legend("path", title)
        handled.add("path")
    end = result.get("end")
    if isinstance(end, dict) and _labels(end.get("hexes")):
        marks.append(Mark("end", hexes=end["hexes"], title=_("Where the path ends")))
        add_legend("end", _("Where the path ends"))
        handled.add("end")
    sight = _labels(result.get("line_of_sight"))
    if sight:
        marks.append(Mark("sight", line=[[sight[0]], [sight[-1]]], title=_("Line of sight")))
        marks.append(Mark("sighthex", hexes=sight[1:-1], title=_("Line of sight")))
        add_legend("sight", _("Line of sight"))
        handled.add("line_of_sight")
    destinations = result.get("destinations")
    if isinstance(destinations, list) and destinations:
        for dest in destinations:
            if not isinstance(dest, dict):
                continue
            steps = [s for s in dest.get("path") or [] if _labels(s)]
            if len(steps) >= 2:
                marks.append(Mark("retreat", line=steps, arrow=True, title=_("Retreat path")))
            if _labels(dest.get("hexes")):
                marks.append(Mark("legal", hexes=dest["hexes"], title=_("Legal retreat hex")))
        add_legend("legal", _("Legal retreat hexes"))
        add_legend("retreat", _("Retreat path"))
        handled.add("destinations")
    excluded = _labels(result.get("excluded"))
    if excluded:
        marks.append(Mark("excluded", hexes=excluded, title=_("Hexes the retreat may not enter")))
        add_legend("excluded", _("Hexes the retreat may not enter"))
        handled.add("excluded")
    event = result.get("event")
    if isinstance(event, dict) and _labels(event.get("hexes")):
        marks.append(Mark("event", hexes=event["hexes"], title=_("The moving unit")))
        handled.add("event")
    for key, value in result.items():
        labels = _labels(value)
        if key not in handled and labels:
            marks.append(Mark("hexes", hexes=labels, title=key))
            add_legend("hexes", key.replace("_", " "))

    actor = params.get("unit") or params.get("charger") or result.get("unit")
    target = params.get("target") or result.get("target")
    if isinstance(actor, str):
        marks.append(Mark("actor", units=[actor]))
    if isinstance(target, str):
        marks.append(Mark("target", units=[target]))
    if view.question in ("can-intercept", "interception-chance") and isinstance(actor, str):
        view.sectors = unit_sectors(scenario, actor, INTERCEPTION_RANGE, rear=False)
        if view.sectors:
            add_legend("sec-front", _("Front sector (within 4 hexes)"))
            add_legend("sec-flank", _("Flank sectors"))
    view.marks = marks
    view.legend = legend
    facts = []
    for key in ("distance", "cost", "mp_available", "chance", "success_range", "modifier", "outcome", "edge"):
        if key in result and isinstance(result[key], (int, float, str)) and not isinstance(result[key], bool):
            facts.append((key, result[key]))
    view.facts = facts


def unit_sectors(scenario, unit_id: str, reach: int, rear: bool = True) -> dict[str, str]:
    """The sector (front, flank, rear) of each hex within ``reach`` of a unit that has a facing (hexgrid's rules)."""
    from rulesref.engine.hexgrid import footprint_distance, sector_of

    unit = scenario.by_id.get(unit_id) if hasattr(scenario, "by_id") else None
    if unit is None or unit.facing is None or not unit.hexes:
        return {}
    out = {}
    for h in scenario.hexmap.hexes():
        if h in unit.hexes or footprint_distance((h,), unit.hexes) > reach:
            continue
        sector = sector_of(unit.hexes, unit.facing, h)
        if sector is None or (sector.value == "rear" and not rear):
            continue
        out[scenario.hexmap.label(h)] = sector.value
    return out


def adjacent_sectors(data: dict[str, Any], unit: dict[str, Any]) -> dict[str, str]:
    """The front, flank and rear hexes next to a unit (6.1), read from the scenario data without loading it."""
    from rulesref.engine.hexgrid import adjacent_by_sector

    from .svg import hexmap_of

    hexmap = hexmap_of(data)
    try:
        hexes = [hexmap.parse(label) for label in unit.get("hexes") or []]
        facing = hexmap.parse_vertex(unit.get("facing"))
    except (ValueError, TypeError):
        return {}
    if not hexes or (len(hexes) == 2 and str((unit.get("formation") or {}).get("name", "")).lower() == "column"):
        return {}
    out = {}
    for sector, found in adjacent_by_sector(hexes, facing).items():
        for h in found:
            if h in hexmap:
                out[hexmap.label(h)] = sector.value
    return out
