"""The figures of a tabletop answer worth a line of their own: the gap, the charge range, and the odds (as the
engine's exact chances, or bounds where some dice outcomes are not placed by the corpus). Distances are written
by the engine's own formatting of inches."""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from rulesref.engine.t9a.text import inches

from .. import words
from ..answer import AnswerView, percent
from .drawing import legend


def _chance(value: dict[str, Any], lang: str) -> str:
    return f"{value['fraction']} ({percent(value.get('float', 0), lang)})"


def facts(result: dict[str, Any], lang: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if isinstance(result.get("distance"), (int, float)):
        out.append((_("Distance between the Unit Boundaries"), inches(result["distance"]).render(lang)))
    if isinstance(result.get("max_charge_range"), (int, float)):
        most = 6 * int(result.get("charge_dice") or 2)  # Advance Rate + 2D6 unless the scenario says otherwise
        out.append((_("Longest possible charge (Advance Rate + %(most)s)") % {"most": most},
                    inches(result["max_charge_range"]).render(lang)))
    charge = (result.get("charge_odds") or {}).get("chance")
    if isinstance(charge, dict) and "fraction" in charge:
        out.append((_("Chance the charge reaches if the target stays"), _chance(charge, lang)))
    flee = result.get("flee_odds")
    if isinstance(flee, dict) and isinstance(flee.get("chance"), dict):
        low, open_ = flee["chance"], flee.get("undetermined") or {}
        label = _("Chance the charge still reaches if the target Flees")
        if open_.get("float"):
            out.append((label, _("from %(low)s to %(high)s (some Flee rolls end where the corpus does not say)") % {
                "low": percent(low.get("float", 0), lang), "high": percent(low.get("float", 0) + open_["float"], lang)}))
        elif "fraction" in low:
            out.append((label, _chance(low, lang)))
    catch = result.get("catch_odds")
    if isinstance(catch, dict) and isinstance(catch.get("fraction"), str):
        out.append((_("Chance a pursuit roll catches the fleeing unit"), _chance(catch, lang)))
    return out


def answer_extras(answer: AnswerView, lang: str, names: dict[str, str]) -> None:
    answer.facts = facts(answer.result, lang)
    answer.legend = legend(answer)
    if answer.question == "charge-reactions" and answer.verdict != "no":
        answer.headline = reactions_words(answer.result, names)


def _either(items: list[str]) -> str:
    return items[0] if len(items) == 1 else _("%(some)s or %(last)s") % {"some": ", ".join(items[:-1]),
                                                                        "last": items[-1]}


def reactions_words(result: dict[str, Any], names: dict[str, str]) -> str:
    """Which reactions the charged unit may declare, in a sentence: those open, and those the corpus leaves open."""
    reactions = result.get("reactions") if isinstance(result.get("reactions"), dict) else {}
    target = names.get(result.get("target"), str(result.get("target") or ""))
    by = {verdict: [words.reaction(name) for name, r in reactions.items()
                    if isinstance(r, dict) and r.get("allowed") == verdict] for verdict in ("yes", "undetermined")}
    said = []
    if by["yes"]:
        said.append(_("%(unit)s may declare %(reactions)s.") % {"unit": target, "reactions": _either(by["yes"])})
    else:
        said.append(_("%(unit)s may declare no reaction for certain.") % {"unit": target})
    if by["undetermined"]:
        said.append(_("Whether it may declare %(reactions)s is undetermined.") % {"reactions": _either(by["undetermined"])})
    return " ".join(said)
