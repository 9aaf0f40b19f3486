"""Words of the game that the checker shows around a scenario, in the reader's language.

Scenario data names sides, terrain types, map edges and results by plain ids (``red``, ``woods``, ``north``,
``retreat``). The facts about them (which terrain types exist, what they cost, which edge a unit retreats to) come
from the engine; here is only what each id is called on the page. An id with no name here (a side a player called
"Swedes", a terrain type a scenario adds) is shown as it is.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _, pgettext_lazy

SIDE_NAMES = {
    "red": pgettext_lazy("side", "red"), "blue": pgettext_lazy("side", "blue"),
    "green": pgettext_lazy("side", "green"), "white": pgettext_lazy("side", "white"),
    "black": pgettext_lazy("side", "black"), "yellow": pgettext_lazy("side", "yellow"),
    "grey": pgettext_lazy("side", "grey"), "gray": pgettext_lazy("side", "grey"),
    "purple": pgettext_lazy("side", "purple"), "orange": pgettext_lazy("side", "orange"),
}
# The terrain types of the engine's documented defaults (fixtures/tables/mpbs/terrain.json) and the common names the
# map has colours for; a test checks that every type the engine knows is named here.
TERRAIN_NAMES = {
    "clear": pgettext_lazy("terrain", "clear"), "woods": pgettext_lazy("terrain", "woods"),
    "forest": pgettext_lazy("terrain", "forest"), "rough": pgettext_lazy("terrain", "rough"),
    "town": pgettext_lazy("terrain", "town"), "village": pgettext_lazy("terrain", "village"),
    "hill": pgettext_lazy("terrain", "hill"), "marsh": pgettext_lazy("terrain", "marsh"),
    "swamp": pgettext_lazy("terrain", "swamp"), "stream": pgettext_lazy("terrain", "stream"),
    "river": pgettext_lazy("terrain", "river"), "road": pgettext_lazy("terrain", "road"),
    "orchard": pgettext_lazy("terrain", "orchard"), "field": pgettext_lazy("terrain", "field"),
    "water": pgettext_lazy("terrain", "water"),
}
EDGE_NAMES = {"north": _("north"), "south": _("south"), "west": _("west"), "east": _("east")}
EDGE_TOWARD = {"north": _("the north edge"), "south": _("the south edge"), "west": _("the west edge"),
               "east": _("the east edge")}
EDGE_DIRECTION = {"north": _("toward the north edge"), "south": _("toward the south edge"),
                  "west": _("toward the west edge"), "east": _("toward the east edge")}
# The compass points a hex vertex or direction is named by (hexgrid's VERTEX_NAMES), as the reader writes them.
COMPASS = {"N": pgettext_lazy("compass", "N"), "NE": pgettext_lazy("compass", "NE"),
           "E": pgettext_lazy("compass", "E"), "SE": pgettext_lazy("compass", "SE"),
           "S": pgettext_lazy("compass", "S"), "SW": pgettext_lazy("compass", "SW"),
           "W": pgettext_lazy("compass", "W"), "NW": pgettext_lazy("compass", "NW")}
UNIT_TYPE_NAMES = {
    "cavalry": _("cavalry"), "light-infantry": _("light infantry"), "heavy-infantry": _("heavy infantry"),
    "artillery": _("artillery"), "leader": _("leader"), "wagon": _("wagons"),
}
ORDER_NAMES = {"charge": _("Charge"), "make-ready": _("Make Ready"), "receive-charge": _("Receive Charge"),
               "rally": _("Rally")}
# The letters a counter shows for its order, its morale and a disordered formation.
ORDER_LETTERS = {
    "charge": pgettext_lazy("order on a counter", "C"), "make-ready": pgettext_lazy("order on a counter", "MR"),
    "receive-charge": pgettext_lazy("order on a counter", "RC"), "rally": pgettext_lazy("order on a counter", "R"),
}
MORALE_LETTERS = {"shaken": pgettext_lazy("morale on a counter", "MS"),
                  "broken": pgettext_lazy("morale on a counter", "MB")}
DISORDERED_LETTER = pgettext_lazy("formation on a counter", "D")
MORALE_NAMES = {"normal": _("normal"), "shaken": _("Morale Shaken"), "broken": _("Morale Broken")}
FORMATION_STATE_NAMES = {"normal": _("in good formation"), "shaken": _("formation shaken"),
                         "disordered": _("disordered")}
# Values an answer's result takes that the page shows as words.
RESULT_VALUES = {
    "retreat": _("retreat"), "eliminated": _("eliminated"), "retreat-or-eliminated": _("retreat or elimination"),
    "unable-to-retreat": _("unable to retreat"), "stands": _("stands"),
    "front": _("front"), "flank": _("flank"), "rear": _("rear"),
}
ACTION_NAMES = {
    "move": _("moves into a hex"), "change-facing": _("changes facing"), "change-formation": _("changes formation"),
    "advance": _("advances after combat"), "retreat": _("retreats after combat"), "fire": _("fires"),
    "other": _("acts"), "interception": _("intercepts"),
}
REACTION_NAMES = {"hold": pgettext_lazy("charge reaction", "Hold"),
                  "stand-and-shoot": pgettext_lazy("charge reaction", "Stand and Shoot"),
                  "flee": pgettext_lazy("charge reaction", "Flee")}
STATE_NAMES = {"fleeing": _("fleeing"), "engaged": _("engaged"), "stood-and-shot": _("has stood and shot this turn")}


def _named(names: dict[str, Any], value: Any) -> str:
    return str(names.get(value, value if value is not None else ""))


def side(value: Any) -> str:
    """A side's name: ``red`` is "красные" on a Russian page; a side a player named otherwise stays as named."""
    text = "" if value is None else str(value)
    name = SIDE_NAMES.get(text.strip().lower())
    return text if name is None else str(name)


def terrain(value: Any) -> str:
    return _named(TERRAIN_NAMES, value)


def edge(value: Any) -> str:
    return _named(EDGE_NAMES, value)


def edge_direction(value: Any) -> str:
    """"toward the north edge" (the edge as a direction of movement)."""
    return _named(EDGE_DIRECTION, value)


def reaction(value: Any) -> str:
    return _named(REACTION_NAMES, value)


def compass(value: Any) -> str:
    """A vertex or direction of a hex, ``NW``, as the reader writes it (СЗ in Russian)."""
    return _named(COMPASS, str(value).upper() if isinstance(value, str) else value)


def unit_type(value: Any) -> str:
    return _named(UNIT_TYPE_NAMES, value)


def order(value: Any) -> str:
    return _named(ORDER_NAMES, value)


def action(value: Any) -> str:
    return _named(ACTION_NAMES, value)


def result_value(value: Any) -> str:
    if isinstance(value, str) and value in EDGE_NAMES:
        return str(EDGE_TOWARD[value])
    return _named(RESULT_VALUES, value)


def choices(names: dict[str, Any], values=None) -> list[tuple[str, str]]:
    """(id, name) pairs for a menu (the names stay lazy, translated when shown): of ``values`` in their order,
    else of every id named."""
    return [(v, names.get(v, v)) for v in (names if values is None else values)]
