"""What the editors of every board kind share: the errors an edit raises, copies of scenario data, finding a unit,
and the engine's reading of a result (its problems in the reader's language, and which unit they blame).

An edit is a pure function of plain JSON data: it returns new data and never changes its input, or raises
:class:`EditError` when it makes no sense (no unit selected, a hex off the map). Whether the result is a valid
scenario is then the engine's call (:func:`load`); a refusal reaches the page as :class:`Rejected`.
"""
from __future__ import annotations

import copy
import re
import threading
from typing import Any

from django.utils.translation import gettext as _, ngettext

from rulesref.engine import InvalidScenarioError
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
    """The last scenarios read in this thread, with the engine's readings: an edit is checked, stored and shown in
    one request, and the engine reads it once."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str, Any, tuple[Any, list[tuple[str, str]]]]] = []


_recent = _Recent()
RECENT = 2  # the edited scenario, and the same with the edited unit last (blamed)
UNIT_PATH = re.compile(r"\bunits\[(\d+)\]")


def load(book: str, data: Any) -> tuple[Any, list[tuple[str, str]]]:
    """The engine's reading of ``data``: (the loaded scenario, []) or (None, its problems in the reader's
    language)."""
    lang = current_language()
    for b, language, d, result in _recent.items:
        if d is data and b == book and language == lang:
            return result
    try:
        result = books.engine(book).load_scenario(data), []
    except InvalidScenarioError as exc:
        result = None, exc.in_language(lang)
    except RecursionError:
        result = None, [("", _("The file is nested too deeply."))]
    _recent.items = [(book, lang, data, result), *_recent.items[:RECENT - 1]]
    return result


def validate(book: str, data: Any) -> list[tuple[str, str]]:
    """The engine's problems with ``data`` (none when it is a valid scenario)."""
    return load(book, data)[1]


def blamed(book: str, data: dict[str, Any], unit_id: str) -> list[tuple[str, str]]:
    """The engine's problems with ``data``, where the unit just edited is blamed for what it shares with another
    unit (an overlap, a hex held by an enemy).

    The engine reports such a problem at the later of the two units: ask again with the edited unit last, so the
    problem lands at the unit the player just changed, and map the paths back."""
    problems = validate(book, data)
    if not problems:
        return problems
    try:
        index = unit_index(data, unit_id)
    except EditError:
        return problems
    units = data["units"]
    last = len(units) - 1
    again = validate(book, {**data, "units": units[:index] + units[index + 1:] + [units[index]]})

    def back(match: re.Match) -> str:
        k = int(match.group(1))
        return f"units[{index if k == last else (k if k < index else k + 1)}]"

    return [(UNIT_PATH.sub(back, path, count=1), UNIT_PATH.sub(back, message)) for path, message in again] or problems
