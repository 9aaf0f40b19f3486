"""The benchmark cannot rot: ``bench/run.py --quick`` runs every area's module and prints well-formed lines. Only the
form is checked, never a figure (the machine is shared; the lead takes the figures on a quiet one)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402

LINE_RE = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+) (?P<value>-?[0-9.]+(?:e[+-]?\d+)?|nan|inf) (?P<unit>\S+)"
                     r"(?: (?P<target>(?:<=|>=|<|>|==) ?-?\d+(?:\.\d+)?))?$")


def test_run_quick_prints_well_formed_figures_and_a_count_of_targets_met(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    done = subprocess.run([sys.executable, "bench/run.py", "--quick"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line and not line.startswith("#")]
    *figures, last = lines
    assert figures, done.stdout
    malformed = [line for line in figures if not LINE_RE.match(line)]
    assert malformed == []
    names = [LINE_RE.match(line).group("name") for line in figures]
    assert len(names) == len(set(names)), "each figure once"
    with_target = [line for line in figures if LINE_RE.match(line).group("target")]
    met = re.fullmatch(r"targets met: (\d+) of (\d+)", last)
    assert met and int(met.group(2)) == len(with_target) and int(met.group(1)) <= len(with_target)
    assert any(n.startswith("search.sqlite.2000.") for n in names) and any(n.startswith("web.sqlite.") for n in names)


@pytest.mark.parametrize("item, problem", [
    (("a b", 1.0, "ms", ""), "letters, digits"), (("a", "1", "ms", ""), "not a number"), (("a", True, "ms", ""), "not a number"),
    (("a", 1.0, "m s", ""), "one word"), (("a", 1.0, "ms", "about 15"), "not like"), (("a", 1.0, "ms", "<=15 ms"), "not like"),
])
def test_the_contract_refuses_malformed_figures(item, problem):
    with pytest.raises(ValueError, match=problem):
        harness.figure(item)


@pytest.mark.parametrize("value, target, met", [
    (14.9, "<= 15", True), (15.0, "<= 15", True), (15.1, "<= 15", False), (0.5, ">= 0.5", True), (0.49, ">=0.5", False),
    (3, "< 3", False), (1, "", None),
])
def test_targets_are_judged_as_written(value, target, met):
    assert harness.figure(("x", value, "ms", target)).met() is met
