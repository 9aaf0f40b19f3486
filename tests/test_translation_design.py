"""The translation app's shape (#31; the complexity bound is the whole package's, tests/test_package_design.py): the
workspace's views by concern in one package, as Weblate's trans/views/; the memory-match presenter outside the
views, where the rulings' workspace imports it."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATION = ROOT / "rulesref" / "translation"


def test_the_workspace_views_are_one_module_per_concern():
    views = TRANSLATION / "views"
    assert not (TRANSLATION / "views.py").exists() and not (TRANSLATION / "report_views.py").exists()
    assert {p.stem for p in views.glob("*.py")} == {"__init__", "base", "dashboard", "editor", "review", "exchange",
                                                   "reports"}


def _imported_modules(path: Path) -> set[str]:
    """The modules a file imports from, relative ones resolved (``from ..views import x`` in translation/x/y.py)."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package if node.level else ""
            out.add(".".join(filter(None, (base, node.module or ""))))
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return out


def test_nothing_outside_the_views_imports_from_them():
    """The rulings' workspace shows memory matches with the presenter, not with a private helper of a view; only
    the URL configurations import the views."""
    views = "rulesref.translation.views"
    for path in sorted((ROOT / "rulesref").rglob("*.py")):
        if TRANSLATION / "views" in path.parents or path in (TRANSLATION / "urls.py", TRANSLATION / "report_urls.py"):
            continue
        assert not any(m == views or m.startswith(views + ".") for m in _imported_modules(path)), path
    assert "rulesref.translation.views" in _imported_modules(TRANSLATION / "urls.py")  # the resolution works
    assert "rulesref.translation.presenters" in _imported_modules(ROOT / "rulesref" / "rulings" / "workspace_views.py")
