"""The game's terms as enums, each with its name as a translatable message (TERMS.md gives the English terms)."""
from __future__ import annotations

import enum

from ..i18n import Message, msg


class UnitType(str, enum.Enum):
    CAVALRY = "cavalry"
    LIGHT_INFANTRY = "light-infantry"
    HEAVY_INFANTRY = "heavy-infantry"
    ARTILLERY = "artillery"
    LEADER = "leader"
    WAGON = "wagon"


class Order(str, enum.Enum):
    CHARGE = "charge"
    MAKE_READY = "make-ready"
    RECEIVE_CHARGE = "receive-charge"
    RALLY = "rally"


class Morale(str, enum.Enum):
    NORMAL = "normal"
    SHAKEN = "shaken"
    BROKEN = "broken"


class FormationState(str, enum.Enum):
    NORMAL = "normal"
    SHAKEN = "shaken"  # колеблющееся построение (9.2.3, 11.4.1)
    DISORDERED = "disordered"  # рассеяны (9.3.1c, 5.8, 11.4.5)


class LeaderRole(str, enum.Enum):
    WING_COMMANDER = "wing-commander"
    ARMY_COMMANDER = "army-commander"


class Action(str, enum.Enum):
    """What the triggering unit is doing when it spends movement points (or otherwise acts)."""

    MOVE = "move"  # enters a hex
    CHANGE_FACING = "change-facing"
    CHANGE_FORMATION = "change-formation"
    ADVANCE = "advance"  # after close combat (11.4.9)
    RETREAT = "retreat"  # after close combat (11.4.1: triggers no reaction)
    INTERCEPTION = "interception"  # an intercepting cavalry unit's move (9.3.2: not intercepted)
    FIRE = "fire"
    OTHER = "other"


class CombatResult(str, enum.Enum):
    """The close combat results that move a unit (11.4.1)."""

    MORALE_BROKEN = "broken"
    MORALE_SHAKEN = "shaken"
    ELIMINATED = "eliminated"


HEDGEHOG = "hedgehog"
COLUMN = "column"

UNIT_TYPE_NAMES: dict[UnitType, Message] = {
    UnitType.CAVALRY: msg("cavalry"),
    UnitType.LIGHT_INFANTRY: msg("light infantry"),
    UnitType.HEAVY_INFANTRY: msg("heavy infantry"),
    UnitType.ARTILLERY: msg("artillery"),
    UnitType.LEADER: msg("leader"),
    UnitType.WAGON: msg("wagons"),
}

ORDER_NAMES: dict[Order, Message] = {
    Order.CHARGE: msg("Charge"),
    Order.MAKE_READY: msg("Make Ready"),
    Order.RECEIVE_CHARGE: msg("Receive Charge"),
    Order.RALLY: msg("Rally"),
}

MORALE_NAMES: dict[Morale, Message] = {
    Morale.NORMAL: msg("normal morale"),
    Morale.SHAKEN: msg("Morale Shaken"),
    Morale.BROKEN: msg("Morale Broken"),
}

FORMATION_STATE_NAMES: dict[FormationState, Message] = {
    FormationState.NORMAL: msg("in good formation"),
    FormationState.SHAKEN: msg("formation shaken"),
    FormationState.DISORDERED: msg("disordered"),
}

ACTION_NAMES: dict[Action, Message] = {
    Action.MOVE: msg("moves into a hex"),
    Action.CHANGE_FACING: msg("changes facing"),
    Action.CHANGE_FORMATION: msg("changes formation"),
    Action.ADVANCE: msg("advances after combat"),
    Action.RETREAT: msg("retreats after combat"),
    Action.INTERCEPTION: msg("intercepts"),
    Action.FIRE: msg("fires"),
    Action.OTHER: msg("acts"),
}

# Movement classes: the columns of a terrain cost table (the Terrain Effects Chart is not in the corpus).
MOVEMENT_CLASSES = (
    "cavalry", "light-infantry", "heavy-infantry", "artillery", "limbered-artillery", "leader", "wagon",
)
