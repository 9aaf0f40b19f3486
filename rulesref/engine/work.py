"""A question's work budget: what it may compute before it answers "the position is too large to decide".

The scenario limits (the schemas) keep positions within what real games hold, and the questions stop as soon as
their answer is decided; within those limits, a search can still be asked to cover a whole map of roads, or a
maze. Each question therefore counts the units of work its searches do (placements expanded, positions sampled)
against a fixed limit, and a search that reaches it raises :class:`TooLarge`; the question turns that into an
*undetermined* finding of the clause it was deciding, with the message :func:`too_large` (the limit and what it
counts), rather than computing on. The limits are set well above what any example scenario or real position
needs, and low enough that the worst case stays within a fraction of a second (bench/engine_*.py measure both).
"""
from __future__ import annotations

from typing import Callable

from .i18n import Message, msg, nmsg


class TooLarge(Exception):
    """The question's work budget is spent: ``limit`` units of ``what`` (a plural message)."""

    def __init__(self, limit: int, what: str):
        super().__init__(f"the position is too large to decide (limit {limit} {what})")
        self.limit = limit
        self.what = what


# What a budget counts, by name: the count as a message with its plural forms.
KINDS: dict[str, Callable[[int], Message]] = {
    "placements": lambda n: nmsg("{n} placement expanded", "{n} placements expanded", n),
    "positions": lambda n: nmsg("{n} position tested", "{n} positions tested", n),
}


def too_large(error: TooLarge) -> Message:
    """"The position is too large to decide (limit: N …)", in the reader's language."""
    return msg("The position is too large to decide (limit: {limit}).", limit=KINDS[error.what](error.limit))


class Work:
    """A count of work against a limit; ``spend`` raises TooLarge once the count would pass it."""

    __slots__ = ("limit", "what", "done")

    def __init__(self, limit: int, what: str):
        if what not in KINDS:
            raise ValueError(f"unknown kind of work {what!r}")
        self.limit = limit
        self.what = what
        self.done = 0

    def spend(self, n: int = 1) -> None:
        self.done += n
        if self.done > self.limit:
            raise TooLarge(self.limit, self.what)


__all__ = ["Work", "TooLarge", "too_large", "KINDS"]
