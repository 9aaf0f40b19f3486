"""The clauses the mpbs engine can cite, and the one way it makes a Finding."""
from __future__ import annotations

from ..i18n import Message, msg
from ..ruling import Citation, Finding, Status

BOOK = "mpbs"

# Every clause id a Finding of this engine can carry; each exists as a section (or lettered paragraph) of the corpus.
CITABLE_CLAUSES: tuple[str, ...] = (
    "5.7.1", "5.7.2", "5.7.3", "5.8",
    "6.1", "6.2.1", "6.2.2", "6.2.3", "6.2.4",
    "9.2.1", "9.2.2", "9.2.2a", "9.2.2b", "9.2.3", "9.2.4",
    "9.3.1", "9.3.1a", "9.3.1b", "9.3.1c", "9.3.1d", "9.3.1e", "9.3.1f", "9.3.1g",
    "9.3.2", "9.3.3", "9.3.7",
    "11.4.1", "11.4.2", "11.4.3", "11.4.4", "11.4.5", "11.4.6", "11.4.7", "11.4.8", "11.4.9", "11.4.10",
)
_CITABLE = frozenset(CITABLE_CLAUSES)
# The key term of each clause: what its Russian text says that a finding citing it applies (a test checks that
# the text contains it).
CLAUSE_TERMS: dict[str, str] = {
    "5.7.1": "Только активированное крыло",
    "5.7.2": "таблицей «Изменение приказов»",
    "5.7.3": "модификатор",
    "5.8": "приказ «Сбор»",
    "6.1": "угол гекса",
    "6.2.1": "пункты движения",
    "6.2.2": "180 градусов",
    "6.2.3": "«Fired»",
    "6.2.4": "ответный огонь",
    "9.2.1": "ответное движение",
    "9.2.2": "гексу фланга или тыла",
    "9.2.2a": "до двух углов",
    "9.2.2b": "захождение",
    "9.2.3": "«ёж»",
    "9.2.4": "в пределах двух гексов",
    "9.3.1": "перехватить",
    "9.3.1a": "в пределах четырех гексов",
    "9.3.1b": "фронтальном или фланговых секторах",
    "9.3.1c": "не рассеяно",
    "9.3.1d": "свободную ЛВ",
    "9.3.1e": "достаточно ПД",
    "9.3.1f": "еще не пыталось",
    "9.3.1g": "потенциал движения",
    "9.3.2": "таблицей «Перехват»",
    "9.3.3": "на 1 гекс ближе",
    "9.3.7": "артиллерийские подразделения",
    "11.4.1": "таблицей «Ближний бой»",
    "11.4.2": "приоритетам",
    "11.4.3": "дружественные подразделения",
    "11.4.4": "Обе половины",
    "11.4.5": "не может отступить",
    "11.4.6": "продвижение",
    "11.4.7": "в любом направлении",
    "11.4.8": "обе его половины",
    "11.4.9": "инициируют ответное действие",
    "11.4.10": "хиту построения",
}

# What several clauses need from a scenario, the corpus lacking it (for rulesref.engine.coverage).
TERRAIN_HITS = msg("the formation hits caused by entering each terrain, which the corpus does not list "
                   "(terrain_types.*.formation_hits)")


def finding(clause: str, status: Status, message: Message, term: str = "", field: str = "", source: str = "") -> Finding:
    """A finding on ``clause``, cited for ``term`` (what its text says; by default the clause's key term);
    ``field`` and ``source`` as :class:`Finding` has them."""
    if clause not in _CITABLE:
        raise ValueError(f"mpbs:{clause} is not a citable clause; add it to CITABLE_CLAUSES if the corpus has it")
    return Finding(Citation(BOOK, clause, term=term or CLAUSE_TERMS[clause]), status, message, field, source)


def passed(clause: str, message: Message, term: str = "", source: str = "") -> Finding:
    return finding(clause, Status.PASS, message, term, source=source)


def failed(clause: str, message: Message, term: str = "", field: str = "") -> Finding:
    return finding(clause, Status.FAIL, message, term, field=field)


def unknown(clause: str, message: Message, field: str = "") -> Finding:
    """A clause the scenario leaves open; ``field`` is what the player may fill in to decide it."""
    return finding(clause, Status.UNKNOWN, message, field=field)


def checked(clause: str, ok: bool | None, if_pass: Message, if_fail: Message, if_unknown: Message | None = None,
            field: str = "") -> Finding:
    """A finding from a three-valued check: True passes, False fails, None is unknown (``field`` would decide it)."""
    if ok is None:
        return unknown(clause, if_unknown or if_fail, field)
    return passed(clause, if_pass) if ok else failed(clause, if_fail)
