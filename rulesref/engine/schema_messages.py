"""jsonschema's complaints about a scenario as engine messages, so that the reader gets them in his language.

jsonschema words its errors in English only ("'x' is not of type 'number'"). Each keyword the scenario schemas use
gets a message here, built from the error's instance and the keyword's value rather than from jsonschema's text;
a keyword without one keeps jsonschema's English. Shared by both engines (their schemas use the same keywords).
"""
from __future__ import annotations

import re
from typing import Any

import jsonschema

from .i18n import Message, msg, nmsg

TYPE_NAMES = {
    "object": msg("an object"), "array": msg("a list"), "string": msg("a text"), "number": msg("a number"),
    "integer": msg("a whole number"), "boolean": msg("true or false"), "null": msg("null"),
}
UNEXPECTED = re.compile(r"'([^']*)'")


def shown(value: Any) -> str:
    """A value as the message quotes it: JSON-like and short."""
    text = repr(value) if not isinstance(value, bool) else ("true" if value else "false")
    return text if len(text) <= 40 else text[:39] + "…"


def schema_message(error: jsonschema.ValidationError) -> Message | str:
    """The message for one jsonschema error (jsonschema's own English where no message fits)."""
    words = KEYWORD_MESSAGES.get(error.validator)
    if words is None:
        return error.message
    return words(error.instance, error.validator_value, error)


def _required(value: Any, limit: Any, error: jsonschema.ValidationError) -> Message | str:
    missing = [name for name in limit if isinstance(value, dict) and name not in value]
    return msg("{field} is required", field=", ".join(missing) or shown(limit))


def _additional_properties(value: Any, limit: Any, error: jsonschema.ValidationError) -> Message | str:
    extra = UNEXPECTED.findall(error.message.split("(", 1)[-1]) if "(" in error.message else []
    return nmsg("unknown field: {fields}", "unknown fields: {fields}", len(extra) or 1, fields=", ".join(extra))


def _type(value: Any, limit: Any, error: jsonschema.ValidationError) -> Message | str:
    names = [TYPE_NAMES.get(t, t) for t in (limit if isinstance(limit, list) else [limit])]
    return msg("{value} is not {type}", value=shown(value), type=names[0] if len(names) == 1 else names)


def _one_of(value: Any, limit: Any, error: jsonschema.ValidationError) -> Message | str:
    if not error.context:
        return error.message
    alternatives = {str(m): m for m in map(schema_message, error.context)}  # one of each, in English order
    return _either([alternatives[key] for key in sorted(alternatives)])


#: Each schema keyword the scenario schemas use, and its message from the error's instance (``value``), the
#: keyword's value (``limit``) and the error itself.
KEYWORD_MESSAGES = {
    "required": _required,
    "additionalProperties": _additional_properties,
    "type": _type,
    "minimum": lambda value, limit, _e: msg("{value} is below the least allowed, {limit}", value=shown(value),
                                            limit=limit),
    "exclusiveMinimum": lambda value, limit, _e: msg("{value} must be more than {limit}", value=shown(value),
                                                     limit=limit),
    "maximum": lambda value, limit, _e: msg("{value} is above the most allowed, {limit}", value=shown(value),
                                            limit=limit),
    "exclusiveMaximum": lambda value, limit, _e: msg("{value} must be less than {limit}", value=shown(value),
                                                     limit=limit),
    "enum": lambda value, limit, _e: msg("{value} is not one of: {choices}", value=shown(value),
                                         choices=", ".join(map(str, limit))),
    "const": lambda value, limit, _e: msg("must be {expected}", expected=shown(limit)),
    "pattern": lambda value, limit, _e: msg("{value} is not in the form required here ({pattern})",
                                            value=shown(value), pattern=limit),
    "minItems": lambda value, limit, _e: nmsg("needs at least {n} item", "needs at least {n} items", int(limit)),
    "maxItems": lambda value, limit, _e: nmsg("has more than {n} item", "has more than {n} items", int(limit)),
    "minLength": lambda value, limit, _e: nmsg("needs at least {n} character", "needs at least {n} characters",
                                               int(limit)),
    "maxLength": lambda value, limit, _e: nmsg("has more than {n} character", "has more than {n} characters",
                                               int(limit)),
    "maxProperties": lambda value, limit, _e: nmsg("has more than {n} entry", "has more than {n} entries",
                                                   int(limit)),
    "uniqueItems": lambda value, limit, _e: msg("has the same item twice"),
    "oneOf": _one_of,
}


def _either(messages: list[Message | str]) -> Message | str:
    """"a; or b; or c" in the reader's language."""
    if len(messages) == 1:
        return messages[0]
    return msg("{first}; or {rest}", first=messages[0], rest=_either(messages[1:]))
