"""What anonymous storage accepts: storable text, at most ``RULESREF_SCENARIO_MAX_BYTES`` of JSON, within the client's
storage limit (``RULESREF_RATE_LIMITS["storage"]``, bytes per window).

The checker's models call :func:`admit` before they store a scenario and :func:`charge` when they write a new row
(an identical scenario already kept costs nothing); the edge middleware answers what they raise.
"""
from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from . import limits, text

DEFAULT_MAX_BYTES = 512 * 1024


class TooLarge(ValueError):
    pass


def max_bytes() -> int:
    return int(getattr(settings, "RULESREF_SCENARIO_MAX_BYTES", DEFAULT_MAX_BYTES))


def admit(data: Any) -> int:
    """``data``'s size as compact JSON if it may be stored; :class:`~rulesref.security.text.UnstorableText` or
    :class:`TooLarge`."""
    size = len(text.dumps(data))
    limit = max_bytes()
    if size > limit:
        raise TooLarge(_("This scenario takes %(size)s KB; the checker keeps scenarios of up to %(limit)s KB.") % {
            "size": -(-size // 1024), "limit": limit // 1024})
    return size


def charge(size: int) -> None:
    """Count ``size`` new bytes against the storage limit of the client being answered."""
    limits.spend("storage", size)
