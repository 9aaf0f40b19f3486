"""What the editors of every board kind share: the errors an edit raises, copies of scenario data, finding a unit,
and the engine's reading of a result (its problems in the reader's language, and which unit they blame).

An edit is a pure function of plain JSON data: it returns new data and never changes its input, or raises
:class:`EditError` when it makes no sense (no unit selected, a hex off the map). Whether the result is a valid
scenario is then the engine's call (:func:`load`); a refusal reaches the page as :class:`Rejected`.
"""
from __future__ import annotations

import copy
import threading
from typing import Any

from django.utils.translation import gettext as _, ngettext

from rulesref.engine import InvalidScenarioError
from rulesref.engine.ruling import Problem
from rulesref.languages import current_language

from . import books


class EditError(ValueError):
    """An edit that makes no sense, with the message for the player."""


class Rejected(Exception):
    """An edit the engine (or a form) refused: the page is shown again with the problems, nothing is stored.

    ``forms`` maps the key of the form that made the edit to that form (bound, with its errors), so the page shows
    it as it was sent; ``problems`` are the (path, message) pairs no field took."""

    def __init__(self, message: str = "", problems=None, forms_=None, upload_report=None):
        super().__init__(message)
        self.message = message
        self.problems = problems or []
        self.forms = forms_ or {}
        self.upload_report = upload_report


def copied(data: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(data)


def units_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [u for u in data.get("units") or [] if isinstance(u, dict)]


def unit_index(data: dict[str, Any], unit_id: str | None) -> int:
    for i, u in enumerate(data.get("units") or []):
        if isinstance(u, dict) and u.get("id") == unit_id:
            return i
    raise EditError(_("Select a unit first."))


def message_for(problems: list[tuple[str, str]]) -> str:
    return ngettext("The change was not made: %(n)s problem.", "The change was not made: %(n)s problems.",
                    len(problems)) % {"n": len(problems)}


class _Recent(threading.local):
    """The last scenario read in this thread, with the engine's reading: an edit is checked, stored and shown in one
    request, and the engine reads it once."""

    def __init__(self) -> None:
        self.item: tuple[str, Any, tuple[Any, tuple[Problem, ...]]] | None = None


_recent = _Recent()


def _reading(book: str, data: Any) -> tuple[Any, tuple[Problem, ...]]:
    """(the loaded scenario, ()) or (None, the engine's problems with it)."""
    if _recent.item is not None and _recent.item[0] == book and _recent.item[1] is data:
        return _recent.item[2]
    try:
        result: tuple[Any, tuple[Problem, ...]] = books.engine(book).load_scenario(data), ()
    except InvalidScenarioError as exc:
        result = None, exc.items
    except RecursionError:
        result = None, (Problem("", _("The file is nested too deeply.")),)
    _recent.item = (book, data, result)
    return result


def load(book: str, data: Any) -> tuple[Any, list[tuple[str, str]]]:
    """The engine's reading of ``data``: (the loaded scenario, []) or (None, its problems in the reader's
    language)."""
    loaded, problems = _reading(book, data)
    lang = current_language()
    return loaded, [(p.path, p.render(lang)) for p in problems]


def validate(book: str, data: Any) -> list[tuple[str, str]]:
    """The engine's problems with ``data`` (none when it is a valid scenario)."""
    return load(book, data)[1]


def blamed(book: str, data: dict[str, Any], unit_id: str) -> list[tuple[str, str]]:
    """The engine's problems with ``data``, where the unit just edited is blamed for what it shares with another
    unit: the engine reports an overlap (or two enemies in one hex) at one of the two units and names the other
    (``Problem.others``); a problem that concerns the edited unit is shown at that unit's field."""
    problems = _reading(book, data)[1]
    if not problems:
        return []
    try:
        own = f"units[{unit_index(data, unit_id)}]"
    except EditError:
        own = ""
    lang = current_language()
    out = []
    for p in problems:
        path = p.path
        if own and p.unit != unit_id and p.concerns(unit_id) and path.startswith("units["):
            path = own + path[path.index("]") + 1:]
        out.append((path, p.render(lang)))
    return out
