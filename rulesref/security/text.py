"""What text the site can store, and a JSON reader that says where a string it cannot store is.

Two kinds of character cannot be stored: NUL (U+0000: PostgreSQL's text and jsonb refuse it) and lone surrogates
(U+D800–U+DFFF: they are not Unicode scalar values, so they have no UTF-8 form; JSON's ``"\\ud800"`` escape is the
only way in, and SQLite stored them only to fail on every page that read them back). Everything else is text.

This module is the one place that decides. The edge middleware applies it to the address, query and form fields
(``rulesref.security.middleware``), :func:`loads` to JSON bodies and uploaded files, and the models that store
scenarios call :func:`check` before they write, as the last line of defence.

It is also the one place that bounds how deeply a JSON text from a user may nest (:func:`check_depth`, which
:func:`loads` applies before parsing): Python's JSON reader recurses once per level, so a few thousand ``[`` would
end in a RecursionError deep in the reader (or, under its limit, in whatever walks the data next). The scan is
linear, outside strings, and costs a few C-speed passes; real scenario files nest at most 9 levels, 12 with an
expected answer copied whole from the engine (docs/scenario-format.md), far below :data:`MAX_JSON_DEPTH`.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from django.utils.translation import gettext as _

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MAX_PROBLEMS = 20  # a file full of NULs gets the first few places, not a million of them
MAX_JSON_DEPTH = 64  # levels of arrays and objects; the deepest example scenario file has 9 (docs/scenario-format.md)
# A JSON string (an unterminated one runs to the end: it always matches, so a scan never backtracks), or a bracket.
JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
NOT_BRACKET = re.compile(r"[^\[\]{}]+")
JSON_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{},]', re.S)
BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
SHOWN_PATH_PARTS = 8  # a path deeper than this is shown as its first parts and "…"


class UnstorableText(ValueError):
    """Strings that cannot be stored, each as ``(path, message)``; ``path`` as the engine writes it."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__("; ".join(f"{p or '(root)'}: {m}" for p, m in problems))
        self.problems = problems


class NotJSON(ValueError):
    """Text that is not JSON; ``line`` and ``column`` are 1-based, or 0 when the reader could not say."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


class TooDeep(NotJSON):
    """JSON text nested deeper than the site reads: where (``line``, ``column``), and the ``path`` of the value
    that opens one level too many (its first :data:`SHOWN_PATH_PARTS` parts), as the engine writes paths."""

    def __init__(self, limit: int, path: str, line: int, column: int):
        super().__init__(_("nested too deeply (more than %(limit)s levels) at line %(line)s, column %(column)s") % {
            "limit": limit, "line": line, "column": column}, line, column)
        self.limit, self.path = limit, path


def first_unstorable(text: str) -> int | None:
    match = UNSTORABLE.search(text)
    return match.start() if match else None


def shown(text: str) -> str:
    """``text`` with every unstorable character written as ``\\uXXXX``, so it can be shown and stored."""
    return UNSTORABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def describe(text: str, index: int) -> str:
    """What is wrong with ``text`` at ``index``, in the reader's language."""
    code = ord(text[index])
    what = _("a NUL character") if code == 0 else _("a lone surrogate")
    return _("contains %(what)s (U+%(code)04X) at character %(n)s: this is not text that can be stored") % {
        "what": what, "code": code, "n": index + 1}


def problem(text: str) -> str | None:
    """The message for ``text`` if it cannot be stored, else None."""
    index = first_unstorable(text)
    return None if index is None else describe(text, index)


def child_path(parent: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    key = shown(key)
    return f"{parent}.{key}" if parent else key


def problems(data: Any, root: str = "") -> list[tuple[str, str]]:
    """Every string in ``data`` (keys included) that cannot be stored, by path; at most MAX_PROBLEMS.

    Iterative, so any depth the JSON reader accepted is walked without recursion; in document order."""
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [(root, data)]
    while stack and len(found) < MAX_PROBLEMS:
        path, value = stack.pop()
        if isinstance(value, str):
            message = problem(value)
            if message:
                found.append((path, message))
        elif isinstance(value, dict):
            items = list(value.items())
            for key in (k for k, _v in items if UNSTORABLE.search(k)):
                if len(found) == MAX_PROBLEMS:
                    break
                found.append((child_path(path, key), _("its name %(problem)s") % {"problem": problem(key)}))
            stack.extend((child_path(path, key), item) for key, item in reversed(items))
        elif isinstance(value, list):
            stack.extend((child_path(path, i), item) for i, item in reversed(list(enumerate(value))))
    return found[:MAX_PROBLEMS]


def dumps(data: Any, root: str = "") -> bytes:
    """``data`` (JSON-like) as compact UTF-8 JSON, what a database stores of it; :class:`UnstorableText` naming each
    string that cannot be stored. One pass at C speed: strings are walked only when the encoding fails (a lone
    surrogate) or holds a NUL's escape (which may also be the text ``\\u0000``)."""
    try:
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        encoded = b""
    if encoded and b"\\u0000" not in encoded:
        return encoded
    found = problems(data, root)
    if found:
        raise UnstorableText(found)
    return encoded


def check(data: Any, root: str = "") -> None:
    """Raise :class:`UnstorableText` if any string in ``data`` cannot be stored."""
    dumps(data, root)


def check_depth(text: str, limit: int = MAX_JSON_DEPTH, root: str = "") -> None:
    """Raise :class:`TooDeep` if the JSON ``text`` opens more than ``limit`` arrays or objects inside one another.

    The one bound of every JSON text the site reads from a user, applied before it is parsed: a linear scan of the
    brackets outside strings. What is not JSON at all is left to the parser (which stops at its first error)."""
    if text.count("[") + text.count("{") <= limit:
        return
    brackets = NOT_BRACKET.sub("", JSON_STRING.sub("", text))
    if max(accumulate(map(BRACKET_STEP.__getitem__, brackets)), default=0) <= limit:
        return
    offset, parts = _too_deep_at(text, limit)
    line = text.count("\n", 0, offset) + 1
    raise TooDeep(limit, _shown_path(root, parts), line, offset - text.rfind("\n", 0, offset))


def _shown_path(root: str, parts: list[str | int | None]) -> str:
    """The path of ``parts`` under ``root``: its first SHOWN_PATH_PARTS parts, up to the first that is not known
    (an object's member before its key: ``{{``), then "…" if any are left out."""
    known = parts[:SHOWN_PATH_PARTS]
    if None in known:
        known = known[:known.index(None)]
    path = root
    for part in known:
        path = child_path(path, part)
    return path + "…" if known and len(known) < len(parts) else path


def _too_deep_at(text: str, limit: int) -> tuple[int, list[str | int | None]]:
    """Where the first bracket that opens level ``limit + 1`` is, and the keys and indexes that lead to it.

    Only for a text known to be too deep: one pass over its strings, brackets and commas."""
    open_: list[list] = []  # per open array or object: [its bracket, the index or key of the member being read]
    for match in JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            if len(open_) == limit:
                return match.start(), [member for _bracket, member in open_]
            open_.append([token, 0 if token == "[" else None])
        elif token in "]}":
            if open_:
                open_.pop()
        elif open_:
            _member_read(open_[-1], token)
    return len(text), []  # (not reached for a text that is too deep)


def _member_read(container: list, token: str) -> None:
    """Follow which member of an open array or object is being read: a comma moves to the next; in an object, the
    first string after ``{`` or a comma is the key."""
    bracket, member = container
    if token == ",":
        container[1] = member + 1 if bracket == "[" else None
    elif bracket == "{" and member is None:
        try:
            container[1] = json.loads(token)
        except ValueError:
            container[1] = token.strip('"')


def _reject_constant(name: str) -> Any:
    raise NotJSON(_("%(name)s is not a JSON number") % {"name": name})


def loads(text: str, root: str = "") -> Any:
    """Parse JSON text that the site may store: :class:`NotJSON` for what is not JSON (NaN and Infinity included),
    :class:`TooDeep` (a NotJSON) for nesting deeper than :data:`MAX_JSON_DEPTH`, found before parsing,
    :class:`UnstorableText` naming the path of each string that cannot be stored."""
    check_depth(text, root=root)
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise NotJSON(exc.msg, exc.lineno, exc.colno) from None
    except RecursionError:
        raise NotJSON(_("it is nested too deeply")) from None
    check(data, root)
    return data
