#!/usr/bin/env python
"""Instructions per API call of each engine question, counted by valgrind's callgrind: a figure that does not swing
with a shared machine's load, for comparing two versions of the engine (the CPU-time figures of
bench/engine_mpbs.py and bench/engine_t9a.py are what the targets are about).

    python bench/instructions.py [--book mpbs|t9a] [QUESTION …] [--calls N]   # needs valgrind (apt-get install valgrind)

A call is what the JSON API pays: the JSON text read, the scenario loaded, the question asked, the ruling written
as JSON (``api_call`` of the book's benchmark module, on its benchmark scenario). Each question runs twice under
callgrind, with 0 and with N calls after the same warm-up; the difference over N is the cost of one call.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

QUESTIONS = {
    "mpbs": ("facing-cost", "orders-change", "mandatory-rally", "reactions", "can-intercept", "interception-chance",
             "retreat", "advance"),
    "t9a": ("can_charge", "can_charge_blocked", "charge_reactions", "pursuit_3_pursuers"),
}


def available() -> bool:
    return shutil.which("valgrind") is not None


def _call(book: str, question: str):
    """The benchmark's API call of one question, ready to run."""
    if book == "mpbs":
        import engine_mpbs as bench  # the benchmark modules import this one, so not at the top

        text = json.dumps(bench.make_scenario(40, 30))
        return lambda: bench.api_call(text, question, bench.PARAMS[question])
    import engine_t9a as bench

    text = json.dumps(bench.busy_board())
    _, name, params = next(q for q in bench.QUESTIONS if q[0] == question)
    return lambda: bench.api_call(text, name, params)


def child(book: str, question: str, calls: int) -> None:
    call = _call(book, question)
    for _ in range(20):
        call()
    for _ in range(calls):
        call()


def counted(book: str, question: str, calls: int) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
         "--child", "--book", book, question, "--calls", str(calls)], capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def per_call(book: str, question: str, calls: int = 30) -> float:
    """Instructions of one API call of ``question`` (valgrind must be installed)."""
    return (counted(book, question, calls) - counted(book, question, 0)) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", choices=sorted(QUESTIONS), default="mpbs")
    parser.add_argument("questions", nargs="*")
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    questions = args.questions or QUESTIONS[args.book]
    if args.child:
        return child(args.book, questions[0], args.calls)
    if not available():
        sys.exit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    for question in questions:
        print(f"engine.{args.book}.instructions.api.{question} {per_call(args.book, question, args.calls) / 1e6:.2f} "
              f"Minstr", flush=True)


if __name__ == "__main__":
    main()
