"""Timing helpers shared by bench/engine_mpbs.py and bench/engine_t9a.py: CPU time, interleaved rounds.

Times are the process's CPU time (``time.process_time``): other processes on a shared machine do not count in it,
though they still slow it through the caches. Calls that are compared are measured in rounds that take turns, so
a slow spell of the machine falls on each of them alike.
"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable

CLOCK = time.process_time


def cpu_ms(call: Callable[[], Any], setup: Callable[[], Any] | None = None) -> float:
    """Milliseconds of CPU one call takes; ``setup`` runs untimed first and its value is passed in."""
    arg = setup() if setup else None
    start = CLOCK()
    call(arg) if setup else call()
    return (CLOCK() - start) * 1000


def interleaved(calls: dict[str, tuple[Callable, Callable | None]], rounds: int, repeat: int,
                warmup: int = 3) -> dict[str, list[float]]:
    """CPU milliseconds of each named ``(call, setup)``, ``repeat`` calls per round, the calls taking turns in
    each of ``rounds`` rounds (in reversed order every other round)."""
    names = list(calls)
    for name in names:
        for _ in range(warmup):
            cpu_ms(*calls[name])
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            times[name].extend(cpu_ms(*calls[name]) for _ in range(repeat))
    return times


def p50(values: list[float]) -> float:
    return statistics.median(values)


def worst_ms(call: Callable[[], Any], runs: int) -> float:
    """The most CPU milliseconds a call takes over ``runs`` runs (its worst case measured as the worst)."""
    return max(cpu_ms(call) for _ in range(runs))
