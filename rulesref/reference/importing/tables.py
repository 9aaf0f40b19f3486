"""Tables pasted one cell per line, or with tabs or bars between the cells."""
from __future__ import annotations

import re

from ..corpus import render_table  # noqa: F401
from ..numbering import CLAUSE_LABEL_RE
from .config import ImportConfig
from .labels import parse_head
from .lexicon import BULLET_RE, CAPTION_RE, LABEL_RE, MARKER_ONLY_RE, NUMERIC_CELL_RE
from .lines import Line, Table, content, mark
from .report import ImportResult, Note


def _cell_like(line: Line, patterns: tuple[str, ...], loose: bool = False) -> bool:
    """A line that can be one cell of a table pasted cell per line (``loose``: of a table the configuration names)."""
    text = line.text
    if line.keep or line.configured or line.junk or not text or not _short(text, loose):
        return False
    if BULLET_RE.match(text) or CLAUSE_LABEL_RE.match(text) or LABEL_RE.match(text) or CAPTION_RE.search(text):
        return False
    if text.endswith(":") or MARKER_ONLY_RE.match(text):
        return False
    head = parse_head(text, patterns)
    return not (head and head.rest and head.kind in ("dotted", "chapter"))


def _short(text: str, loose: bool) -> bool:
    return len(text) <= (120 if loose else 40) and (loose or len(text.split()) <= 5)


def _numeric(cell: str) -> bool:
    return bool(NUMERIC_CELL_RE.search(cell))


def _table_score(cells: list[str], columns: int) -> tuple[float, int] | None:
    """How well ``cells`` read as a header row and rows of ``columns`` cells: (column purity, rows), or None."""
    if columns < 2 or len(cells) % columns or len(cells) // columns < 3:
        return None
    header, rows = cells[:columns], [cells[i:i + columns] for i in range(columns, len(cells), columns)]
    if any(_numeric(h) for h in header):
        return None
    numeric_columns, purity = 0, 0.0
    for j in range(columns):
        values = [_numeric(r[j]) for r in rows]
        if all(values):
            numeric_columns += 1
        purity += max(values.count(True), values.count(False)) / len(values)
    if not numeric_columns:
        return None
    purity /= columns
    return (round(purity, 1), len(rows)) if purity >= 0.75 else None


def find_tables(lines: list[Line], config: ImportConfig, result: ImportResult,
                 patterns: tuple[str, ...]) -> list[Table]:
    tables: list[Table] = []
    order = content(lines)
    position = {k: n for n, k in enumerate(order)}
    i = 0
    while i < len(order):
        start = order[i]
        forced = config.table_at(lines[start].text)
        table = _delimited_table(lines, order, i) if forced is None else None
        if table is None:
            if forced is None and not _cell_like(lines[start], patterns):
                i += 1
                continue
            run = [start]
            while len(run) < 400 and i + len(run) < len(order) and \
                    _cell_like(lines[order[i + len(run)]], patterns, loose=forced is not None):
                run.append(order[i + len(run)])
            table = _cell_table(lines, run, forced)
            if table is None:
                i += len(run)  # each line is tried in one run only: the work stays linear in the text
                continue
        tables.append(table)
        for k in order[position[table.first]:position[table.last] + 1]:
            mark(lines, k, cell=len(tables) - 1)
        first, last = lines[table.first].number, lines[table.last].number
        if table.guessed:
            result.guesses.append(Note(first, f"lines {first}–{last} read as a table of {len(table.header)} columns "
                                              f"and {len(table.rows)} rows (header: {' | '.join(table.header)}); "
                                              f"if it is not, add [[table]] match = {lines[table.first].text!r} "
                                              f"columns = N (0: not a table) to the import configuration"))
        i = position[table.last] + 1
    return tables


def _delimited_table(lines: list[Line], order: list[int], i: int) -> Table | None:
    """Rows pasted with tabs or bars between the cells: two or more lines with the same number of cells."""
    def cells(text: str) -> list[str] | None:
        if "\t" in text:
            parts = [c.strip() for c in text.split("\t")]
        elif text.startswith("|") and text.endswith("|") and text.count("|") >= 3:
            parts = [c.strip() for c in text[1:-1].split("|")]
        else:
            return None
        return parts if len(parts) >= 2 and any(parts) else None

    rows: list[list[str]] = []
    k = i
    while k < len(order) and not lines[order[k]].keep and (row := cells(lines[order[k]].text)) is not None:
        if rows and len(row) != len(rows[0]):
            break
        if not all(re.fullmatch(r":?-{3,}:?", c) for c in row):  # a Markdown delimiter row
            rows.append(row)
        k += 1
    if len(rows) < 2:
        return None
    return Table(order[i], order[k - 1], rows[0], rows[1:])


def _cell_table(lines: list[Line], run: list[int], forced: dict | None) -> Table | None:
    cells = [lines[k].text for k in run]
    if forced is not None:
        columns = int(forced.get("columns", 0))
        if columns < 2:
            return None
        usable = len(cells) - len(cells) % columns
        if usable < 2 * columns:
            return None
        return Table(run[0], run[usable - 1], cells[:columns], [cells[j:j + columns] for j in
                                                               range(columns, usable, columns)], guessed=False)
    best: tuple | None = None
    for trim_start in range(0, 3):
        for trim_end in range(0, 3):
            part = cells[trim_start:len(cells) - trim_end]
            for columns in range(2, 9):
                score = _table_score(part, columns)
                if score is not None:
                    key = (score[0], -(trim_start + trim_end), score[1], -columns)  # all the lines if it can
                    if best is None or key > best[0]:
                        best = (key, trim_start, trim_end, columns)
    if best is None:
        return None
    _key, trim_start, trim_end, columns = best
    part = run[trim_start:len(run) - trim_end]
    values = cells[trim_start:len(cells) - trim_end]
    return Table(part[0], part[-1], values[:columns], [values[j:j + columns] for j in range(columns, len(values),
                                                                                           columns)])


