"""What every board kind's ask panel shares: the units a unit parameter may name, labelled in the reader's
language, where a target is never the unit that acts and a unit fought is always an enemy.

Which parameter names the enemy of which is a fact about the engine's questions (its ``PARAMS`` describe the
target as "the moving enemy unit", the units fought as "the enemy unit(s)"); the engine still checks every value.
"""
from __future__ import annotations

from typing import Any, Callable

#: parameter -> the parameters whose units it names an enemy of (the first one chosen counts)
ENEMY_OF = {"target": ("unit", "charger"), "fought": ("unit",), "winners": ("vacated",)}
#: the lists of enemies offered only once the units they are the enemies of are chosen (else every unit is listed)
AFTER_ACTOR = frozenset({"fought", "winners"})


def actor_of(param: str, chosen: dict[str, list[str]]) -> list[str]:
    """The units chosen for the parameter whose enemies ``param`` names (none when it names no enemy)."""
    for other in ENEMY_OF.get(param, ()):
        if chosen.get(other):
            return chosen[other]
    return []


def unit_options(units: list[dict[str, Any]], param: str, chosen: dict[str, list[str]],
                 label: Callable[[dict[str, Any]], str]) -> list[tuple[str, str]]:
    """(id, label) of the units ``param`` may name: the enemies of the acting unit(s) when it names an enemy,
    never one of those units itself; the units fought or the winners only once the units they fought are chosen."""
    acting = actor_of(param, chosen)
    if param in AFTER_ACTOR and not acting:
        return []
    sides = {u.get("side") for u in units if u.get("id") in acting}
    return [(str(u.get("id")), label(u)) for u in units
            if isinstance(u.get("id"), str) and u.get("id") not in acting
            and not (sides and u.get("side") in sides)]
