"""The checker's shape: one registry of board kinds read from the book's kind; a book without a checker has no
pages and no links; the reference stands alone; no import cycle and no import inside a function without a reason
beside it (the complexity bound is the whole package's, tests/test_package_design.py); the questions start from the
position (a target is never the acting unit, units fought are enemies, charges from the declared ones)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulesref.checker import kinds
from rulesref.checker.links import section_links
from rulesref.checker.models import Draft
from rulesref.reference import pagecache
from rulesref.reference.models import Book

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "rulesref" / "checker"


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "migrations" not in p.parts)


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> set[str]:
    """The rulesref.checker modules a module imports (relative imports resolved), at any level of the file."""
    name = _module(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            # "from . import edits" imports the module edits; "from .edits import blank", the module edits
            targets = [f"{base}.{a.name}" for a in node.names] if not node.module else [base]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        found |= {t for t in targets if t.startswith("rulesref.checker")}
    return found


def test_the_checker_has_no_import_cycle():
    modules = {_module(p): p for p in sources(CHECKER)}
    graph = {m: {t for t in _imports(p) if t in modules and t != m} for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(trail[trail.index(t):] + [t]))
            if t not in state:
                visit(t, trail + [t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])


# The JSON API and the models are the edge's files (rulesref/checker/api*.py, openapi.py, models.py).
NOT_MINE = {"api.py", "api_urls.py", "openapi.py", "models.py"}


def test_no_import_inside_a_function_without_a_reason_beside_it():
    lacking = []
    for path in (p for p in sources(CHECKER) if p.name not in NOT_MINE or p.parent != CHECKER):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)) and "#" not in lines[inner.lineno - 1] \
                            and not lines[inner.lineno - 2].strip().startswith("#"):
                        lacking.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert lacking == []


def test_the_reference_imports_nothing_from_the_checker():
    for path in sources(ROOT / "rulesref" / "reference"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not [n for n in names if "checker" in n], path


@pytest.mark.django_db
def test_section_pages_stand_without_the_checker(client, settings):
    settings.REFERENCE_SECTION_LINKS = []
    html = client.get("/en/rules/mpbs/9.3.7/").content.decode()
    assert "9.3.7" in html and "checker-link" not in html
    settings.REFERENCE_SECTION_LINKS = ["rulesref.checker.links.section_links"]
    pagecache.clear()
    assert "checker-link" in client.get("/en/rules/mpbs/9.3.7/").content.decode()


@pytest.mark.django_db
def test_the_board_kind_is_the_books_kind(client):
    assert isinstance(kinds.kind_of("mpbs"), kinds.registry()["hex"].__class__)
    assert kinds.kind_of("t9a").id == "tabletop"
    assert kinds.kind_of("chess") is None
    Book.objects.filter(slug="mpbs").update(kind="none")  # a book that is read, not played on a board
    assert kinds.kind_of("mpbs") is None
    assert client.get("/en/checker/mpbs/").status_code == 404
    assert client.get("/en/checker/mpbs/examples/interception-example-9.3/").status_code == 404
    gallery = client.get("/en/checker/").content.decode()
    assert "/en/checker/mpbs/" not in gallery and "/en/checker/t9a/" in gallery
    assert section_links("mpbs", "9.3.7", "en") == []
    Book.objects.filter(slug="mpbs").update(kind="tabletop")  # the editor is whichever the book's kind names
    response = client.get("/en/checker/mpbs/")
    assert response.status_code == 200 and "editor kind-tabletop" in response.content.decode()


@pytest.mark.django_db
def test_a_kind_left_out_of_the_settings_has_no_checker(client, settings):
    settings.CHECKER_BOARD_KINDS = ["rulesref.checker.tabletop.TabletopBoard"]
    assert client.get("/en/checker/mpbs/").status_code == 404
    assert client.get("/en/checker/t9a/").status_code == 200
    gallery = client.get("/en/checker/").content.decode()
    assert "/en/checker/mpbs/" not in gallery


@pytest.mark.django_db
def test_every_book_with_a_checker_has_a_new_position_in_the_gallery(client):
    gallery = client.get("/en/checker/").content.decode()
    for slug in ("mpbs", "t9a"):
        assert re.search(rf'class="button" href="/en/checker/{slug}/">New position', gallery), slug


def chosen(html: str, name: str) -> str | None:
    """The value selected in the ask form's menu for ``name``."""
    select = re.search(rf'<select name="{name}" id="f-{name}">(.*?)</select>', html, re.S).group(1)
    found = re.search(r'<option value="([^"]*)" selected>', select)
    return found.group(1) if found else None


def options(html: str, name: str) -> list[str]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S)
    if select:
        return [v for v in re.findall(r'<option value="([^"]*)"', select.group(1)) if v]
    return re.findall(rf'name="{name}" value="([^"]*)"', html)


@pytest.mark.django_db
def test_a_charge_question_is_never_asked_of_a_unit_about_itself(client):
    data = {"book": "t9a", "board": {"width": 48, "depth": 48}, "units": [
        {"id": "red-1", "side": "red", "centre": [14, 10], "facing": 0, "width": 5, "depth": 2, "advance_rate": 5},
        {"id": "red-2", "side": "red", "centre": [34, 10], "facing": 0, "width": 5, "depth": 2, "advance_rate": 5},
        {"id": "blue-1", "side": "blue", "centre": [24, 24], "facing": 180, "width": 6, "depth": 2, "advance_rate": 4}],
        "declared_charges": [{"charger": "red-1", "target": "blue-1"}]}
    key = Draft.make("t9a", data, None).key
    # "May this unit charge?" of the selected target: it is the charger, and its targets are its enemies only
    html = client.get(f"/en/checker/t9a/?d={key}&sel=blue-1&q=can-charge").content.decode()
    assert chosen(html, "p-charger") == "blue-1"
    assert options(html, "p-target") == ["red-1", "red-2"]
    # "Which reactions?" starts from the declared charge the selected unit received
    html = client.get(f"/en/checker/t9a/?d={key}&sel=blue-1&q=charge-reactions").content.decode()
    assert 'class="answer verdict-' in html
    assert chosen(html, "p-charger") == "red-1" and chosen(html, "p-target") == "blue-1"
    # a charger that has declared is not asked again whether it may: no default charger
    html = client.get(f"/en/checker/t9a/?d={key}&sel=red-1&q=can-charge").content.decode()
    assert chosen(html, "p-charger") is None


@pytest.mark.django_db
def test_the_retreat_question_offers_only_enemies_as_the_units_fought(client):
    html = client.get("/en/checker/mpbs/examples/interception-example-9.3/?q=retreat&p-unit=CAV-1").content.decode()
    assert options(html, "p-fought") == ["HI-1"]  # the enemy, never CAV-1 itself or its own side
    # before the retreating unit is chosen, no unit is offered as fought: the page says what to choose first
    html = client.get("/en/checker/mpbs/examples/interception-example-9.3/?q=retreat").content.decode()
    assert options(html, "p-fought") == [] and "Choose “Unit” first." in html
    html = client.get("/ru/checker/mpbs/examples/interception-example-9.3/?q=retreat&p-unit=CAV-1").content.decode()
    assert "HI-1 (синие, тяжёлая пехота)" in html  # named in the reader's language


@pytest.mark.django_db
def test_sides_are_chosen_from_the_scenarios_sides(client):
    html = client.get("/ru/checker/mpbs/?tool=place").content.decode()
    assert options(html, "side") == ["blue", "red"] and ">синие</option>" in html
    html = client.get("/ru/checker/t9a/").content.decode()
    assert options(html, "place_side") == ["red", "blue"] and ">красные</option>" in html
    assert not re.search(r'<input[^>]*name="(place_)?side"', html)


@pytest.mark.django_db
def test_the_counters_letters_are_explained_under_the_map(client):
    html = client.get("/ru/checker/mpbs/examples/interception-example-9.3/?q=can-intercept&p-unit=CAV-1").content.decode()
    legend = re.search(r'<p class="counter-legend">(.*?)</p>', html, re.S).group(1)
    assert "<b>Ат</b> Атаковать" in legend and "значение морали" in legend
    assert re.search(r'<text class="info"[^>]*>Ат 8</text>', html)  # the cavalry's counter: Charge, morale 8


@pytest.mark.django_db
def test_an_edit_is_read_by_the_engine_once(client, monkeypatch):
    """A drag on the board (an htmx POST of board-move, with a question asked): the engine reads the new scenario
    once, to check it, to store it and to show it with its answer; it used to read it three times."""
    from rulesref.engine import t9a

    data = {"book": "t9a", "board": {"width": 48, "depth": 48}, "units": [
        {"id": "red-1", "side": "red", "centre": [24, 8], "facing": 0, "width": 5, "depth": 2, "advance_rate": 5},
        {"id": "blue-1", "side": "blue", "centre": [24, 30], "facing": 180, "width": 5, "depth": 2,
         "advance_rate": 4, "missile_weapons": True}]}
    key = Draft.make("t9a", data, None).key
    real = t9a.load_scenario
    read = []

    def counting(scenario):
        if isinstance(scenario, dict):
            read.append(scenario.get("units", [{}])[0].get("centre"))
        return real(scenario)

    monkeypatch.setattr(t9a, "load_scenario", counting)
    r = client.post(f"/en/checker/t9a/?d={key}", {
        "d": key, "sel": "red-1", "action": "board-move", "x": 24, "y": 12, "facing": "",
        "q": "charge-reactions", "p-charger": "red-1", "p-target": "blue-1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and 'class="answer verdict-' in r.content.decode()
    assert read == [[24, 12]]


@pytest.mark.django_db
def test_a_hex_typed_in_go_to_hex_is_picked_by_the_measure_tool(client):
    r = client.get("/en/checker/mpbs/examples/interception-example-9.3/?q=can-intercept&p-unit=CAV-1&tool=measure"
                   "&m=u:CAV-1&pick=0110")
    assert r.status_code == 303 and "m=u%3ACAV-1&m=h%3A0110" in r["Location"]
    # a hex holding a unit picks the unit
    r = client.get("/en/checker/mpbs/examples/interception-example-9.3/?q=can-intercept&p-unit=CAV-1&tool=measure"
                   "&m=u:CAV-1&pick=h:0405")
    assert "m=u%3ACAV-1&m=u%3AHI-1" in r["Location"]
