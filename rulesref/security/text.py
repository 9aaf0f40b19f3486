"""What text the site can store, and a JSON reader that says where a string it cannot store is.

Two kinds of character cannot be stored: NUL (U+0000: PostgreSQL's text and jsonb refuse it) and lone surrogates
(U+D800–U+DFFF: they are not Unicode scalar values, so they have no UTF-8 form; JSON's ``"\\ud800"`` escape is the
only way in, and SQLite stored them only to fail on every page that read them back). Everything else is text.

This module is the one place that decides. The edge middleware applies it to the address, query and form fields
(``rulesref.security.middleware``), :func:`loads` to JSON bodies and uploaded files, and the models that store
scenarios call :func:`check` before they write, as the last line of defence.
"""
from __future__ import annotations

import json
import re
from typing import Any

from django.utils.translation import gettext as _

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MAX_PROBLEMS = 20  # a file full of NULs gets the first few places, not a million of them


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


def _reject_constant(name: str) -> Any:
    raise NotJSON(_("%(name)s is not a JSON number") % {"name": name})


def loads(text: str, root: str = "") -> Any:
    """Parse JSON text that the site may store: :class:`NotJSON` for what is not JSON (NaN and Infinity included,
    and nesting too deep to read), :class:`UnstorableText` naming the path of each string that cannot be stored."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise NotJSON(exc.msg, exc.lineno, exc.colno) from None
    except RecursionError:
        raise NotJSON(_("it is nested too deeply")) from None
    check(data, root)
    return data
