"""The benchmark cannot rot: ``bench/run.py --smoke`` runs every area's module at the least work that still takes
every path of it, and must print well-formed lines with every figure ``--quick`` prints (at the smoke run's sizes).
Only the form is checked, never a figure (the machine is shared; the lead takes the figures on a quiet one)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
import run  # noqa: E402

LINE_RE = re.compile(r"^(?P<name>[A-Za-z0-9_.\-]+) (?P<value>-?[0-9.]+(?:e[+-]?\d+)?|nan|inf) (?P<unit>\S+)"
                     r"(?: (?P<target>(?:<=|>=|<|>|==) ?-?\d+(?:\.\d+)?))?$")
CHROMIUM = os.environ.get("RULESREF_CHROMIUM", "/usr/bin/chromium")

# Every figure of ``--quick``, as ``--smoke`` names it: ``{db}`` stands for each database measured (sqlite, postgres),
# and the sizes in the names are the smoke run's (search 40 sections, history, writes and rulings 30, word diff
# 20 KB; the memory's figures end in ``_smoke`` where the quick run's end in ``_quick``).
MPBS_QUESTIONS = ("advance", "can-intercept", "facing-cost", "interception-chance", "mandatory-rally",
                  "orders-change", "reactions", "retreat")
T9A_QUESTIONS = ("can_charge", "can_charge_blocked", "charge_reactions", "pursuit_3_pursuers")
RETREAT_SEARCH = ("engine.p50", "engine_search_only.p50", "expanded", "networkx_astar.p50", "networkx_dijkstra.p50",
                  "speedup_vs_networkx_astar", "speedup_vs_networkx_astar_cold", "speedup_vs_networkx_dijkstra")
FIGURES = {
    "search": [
        "search.corpus_40.generate_s", "search.{db}.real_corpus.p50",
        *(f"search.{{db}}.40.{name}" for name in (
            "loadrules_s", "first_search_after_loadrules", "p50", "http_minus_static.p50",
            "page_http_minus_static.p50", "raw_index_query.p50", "view.p50", "view_to_raw_query",
            "view_to_raw_query_min", "view_to_raw_query_max"))],
    "web": [
        "web.{db}.section_page.cached.server_time.p50", "web.{db}.gunicorn.section_page_rate",
        "web.{db}.gunicorn.static_same_size_rate", "web.{db}.gunicorn.page_to_static_rate",
        "web.{db}.gunicorn.page_to_static_rate_min", "web.{db}.gunicorn.page_to_static_rate_max",
        "web.wire.section_page", "web.wire.hex_checker_with_answer", "web.wire.t9a_board_with_answer"],
    "pages": [f"reference.section_page.{name}" for name in (
        "server_time.p50", "server_time_uncached.p50", "cpu_time_uncached.p50",
        "server_time_uncached.every_section.p50", "server_time_parallel_uncached.p50",
        "server_time_first_render.p50", "cpu_time_first_render.p50", "server_time_first_render.every_section.p50")]
        + ["reference.term.html_per_further_occurrence"],
    "engine_mpbs": [
        "engine.mpbs.load_scenario.40x30.p50",
        *(f"engine.mpbs.{kind}.{question}.40x30.p50" for kind in ("api", "fresh") for question in MPBS_QUESTIONS),
        *(f"engine.mpbs.retreat_search.{size}.{name}" for size in ("20x15", "40x30") for name in RETREAT_SEARCH),
        *(f"engine.mpbs.worst.{case}.cpu" for case in (
            "load_largest", "broken_megabyte", "can_intercept_far", "can_intercept_blocked", "reactions_crowd",
            "reactions_widest_withdraw", "retreat_open", "retreat_wall", "retreat_maze", "retreat_roads_maze"))],
    "engine_t9a": [
        "engine.t9a.load_scenario_40_units.p50",
        *(f"engine.t9a.{kind}.{question}.p50" for kind in ("api", "fresh") for question in T9A_QUESTIONS),
        *(f"engine.t9a.worst.{case}.cpu" for case in (
            "load_largest", "broken_board", "can_charge_across_the_board", "can_charge_through_terrain",
            "charge_reactions_through_terrain", "pursuit_ten_blocked"))],
    "checker": [
        *(f"checker.api.ruling.{name}" for name in ("engine_p50", "p50", "overhead_p50")),
        *(f"checker.api.examples_end_to_end.{name}" for name in (
            "minus_static.p50", "minus_static_min", "minus_static_max", "to_static", "to_static_min",
            "to_static_max")),
        "checker.editor_40x30.render.p50", "checker.editor.compressed_weight", "checker.board.compressed_weight",
        "checker.editor_40x30.compressed_weight", "checker.editor.external_requests",
        *(f"checker.{kind}.{name}" for kind in ("largest_map", "largest_board") for name in (
            "render.p50", "html_size", "answered.render.p50", "answered.html_size")),
        *(f"checker.board_drag.{name}.p50" for name in ("round_trip", "engine_reading", "engine_answer", "rest"))],
    "memory": [f"memory_{name}_smoke" for name in (
        "entries", "fill", "match_p50", "match_p95", "match_vs_pk_lookup", "near_match_found")],
    "offline": [
        "offline.index.build_both_books", "offline.copy.build_both_books", "offline.copy.info_both_books",
        "offline.copy.mpbs.transferred", "offline.copy.t9a.transferred", "offline.copy.both_books.transferred",
        "offline.version_check.bytes"],
    "offline_browser": ["offline.keep.mpbs", "offline.keep.t9a", "offline.keep.both_books",
                        "offline.search.browser.p50"],
    "security": [
        "security.upload.largest.bytes", "security.upload.largest.cpu",
        *(f"security.api.{name}_1mb.cpu" for name in ("deep_nesting", "nul_strings", "surrogate_keys", "short_strings")),
        "security.form.nul_1mb.cpu", "security.form.many_fields.cpu", "security.search.200_chars.cpu",
        "security.sign_in.wrong_password.cpu", "security.sign_in.locked_out.cpu", "security.edge.text_check.overhead"],
    "history": [f"history.30.{name}" for name in (
        "compare_unchanged", "reload_unchanged_s", "reload_one_change_s", "version_rows_per_text", "section_history",
        "changes_since_1", "feed")],
    "writes": ["writes.textdiff.worst_20kb.cpu", *(f"writes.{{db}}.30.{name}" for name in (
        "sync_after_load_s", "approval.cpu_max", "approval.wall_p50", "editor.cpu_p50", "dashboard.cpu_p50",
        "sitemap.book_file_cold.cpu", "sitemap.addresses_per_file_max"))],
    "rulings": [f"rulings.{{db}}.30.{name}" for name in (
        "import_s", "faq.server_time.p50", "faq.server_time_uncached.p50", "faq.html_bytes",
        "section_page.server_time_uncached.p50", "section_page.server_time_first_render.p50",
        "ruling_page.server_time_uncached.p50", "search.server_time.p50")],
}


def service(available: bool, what: str) -> bool:
    """Whether a service the benchmark uses is here; in CI (RULESREF_REQUIRE_SERVICES=1) it must be."""
    if not available and os.environ.get("RULESREF_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{what} is required in CI (RULESREF_REQUIRE_SERVICES=1) but is not available")
    return available


def expected_names(databases: list[str], browser: bool) -> set[str]:
    names = set()
    for area, templates in FIGURES.items():
        if area == "offline_browser" and not browser:
            continue
        names |= {template.format(db=db) for template in templates for db in databases}
    return names


@pytest.mark.own_databases  # run.py makes its own, and measures both databases whatever the suite's
def test_run_smoke_prints_every_figure_well_formed_and_a_count_of_targets_met():
    databases = ["sqlite"] + (["postgres"] if service(harness.postgres_available(), "PostgreSQL") else [])
    browser = service(Path(CHROMIUM).exists(), f"Chromium at {CHROMIUM}")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    done = subprocess.run([sys.executable, "bench/run.py", "--smoke"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = [line for line in done.stdout.splitlines() if line and not line.startswith("#")]
    *figures, last = lines
    malformed = [line for line in figures if not LINE_RE.match(line)]
    assert malformed == []
    names = [LINE_RE.match(line).group("name") for line in figures]
    assert len(names) == len(set(names)), "each figure once"
    expected = expected_names(databases, browser)
    assert sorted(expected - set(names)) == [], "figures the smoke run left out"
    assert sorted(set(names) - expected) == [], "figures not listed here (add them to FIGURES)"
    for module, _ in run.MODULES:
        assert f"# bench/{module}.py: " in done.stdout, module
    with_target = [line for line in figures if LINE_RE.match(line).group("target")]
    met = re.fullmatch(r"targets met: (\d+) of (\d+)", last)
    assert met and int(met.group(2)) == len(with_target) and int(met.group(1)) <= len(with_target)


def test_the_scales_pick_their_own_values_and_name_themselves_to_a_worker():
    assert [s.pick(8, 2) for s in (harness.FULL, harness.QUICK, harness.SMOKE)] == [8, 2, 1]
    assert harness.SMOKE.pick((2000, 20000), (2000,), (40,)) == (40,)
    assert [s.argv for s in (harness.FULL, harness.QUICK, harness.SMOKE)] == [[], ["--quick"], ["--smoke"]]
    for scale in (harness.FULL, harness.QUICK, harness.SMOKE):
        assert harness.Scale.from_argv(["bench/x.py", *scale.argv]) == scale


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
