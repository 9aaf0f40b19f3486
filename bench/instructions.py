#!/usr/bin/env python
"""Instructions per call of each t9a benchmark question, counted by valgrind's callgrind: a figure that does not
swing with a shared machine's load, for comparing two versions of the engine (the clock figures of
bench/engine_t9a.py are what the targets are about).

    python bench/instructions.py [QUESTION …] [--calls N]     # needs valgrind (apt-get install valgrind)

Each question runs twice under callgrind, with 0 and with N calls after the same warm-up; the difference over N is
the cost of one call.
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def child(question: str, calls: int) -> None:
    from engine_t9a import QUESTIONS, busy_board

    from rulesref.engine import ask
    from rulesref.engine.t9a.scenario import load_scenario

    scenario = load_scenario(busy_board())
    _, name, params = next(q for q in QUESTIONS if q[0] == question)
    for _ in range(20):
        ask("t9a", name, scenario, params)
    for _ in range(calls):
        ask("t9a", name, scenario, params)


def counted(question: str, calls: int) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__,
         "--child", question, "--calls", str(calls)], capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main() -> None:
    from engine_t9a import QUESTIONS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("questions", nargs="*", default=[q[0] for q in QUESTIONS])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.questions[0], args.calls)
    if shutil.which("valgrind") is None:
        sys.exit("bench/instructions.py needs valgrind (apt-get install valgrind)")
    for question in args.questions:
        per_call = (counted(question, args.calls) - counted(question, 0)) / args.calls
        print(f"engine.t9a.{question}.instructions {per_call / 1e6:.2f} M", flush=True)


if __name__ == "__main__":
    main()
