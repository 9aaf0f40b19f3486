"""The whole package's shape (#31, item 1): no function of rulesref/ over cyclomatic complexity 15 as radon counts
it, and ruff's complexity rules in the project's own configuration, so that CI's lint holds every new function to
the same bound. Split by meaning, not by line count: a validation rule is a small function with data-only tests."""
from __future__ import annotations

import tomllib
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulesref"
MOST_COMPLEX = 15


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def test_no_function_of_the_package_is_over_complexity_15():
    over = [f"{path.relative_to(ROOT)}:{block.lineno} {block.fullname} ({block.complexity})"
            for path in sources() for block in cc_visit(path.read_text(encoding="utf-8"))
            if block.complexity > MOST_COMPLEX]
    assert len(sources()) > 200  # the whole package, not a corner of it
    assert over == [], "split these (radon cc -s -n C rulesref):\n" + "\n".join(over)


def test_ruff_checks_complexity_in_the_projects_configuration():
    """CI runs ``ruff check .`` with pyproject.toml: mccabe's C901 at 15 and pylint's too-many-returns, -branches
    and -statements are among its rules, at bounds the package meets."""
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]
    assert {"C901", "PLR0911", "PLR0912", "PLR0915"} <= set(lint["select"])
    assert lint["mccabe"]["max-complexity"] == MOST_COMPLEX
    assert lint["pylint"]["max-branches"] <= MOST_COMPLEX
