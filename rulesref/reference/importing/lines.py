"""The lines of a text, a table found among them, and the logical lines (items) built from them."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Mapping

from .config import ImportConfig
from .labels import Head
from .lexicon import MARKDOWN_HEADING_RE, MARKER_ONLY_RE


@dataclass(frozen=True)
class Line:
    """A line of the text as read (its number, the raw line, its text with the errata corrected). Immutable: a step
    that decides something about a line (junk and why, the table it is a cell of) puts a marked copy in its place
    (``mark``), so no step changes what another step was given."""

    number: int
    raw: str
    text: str
    fixed: tuple[Mapping, ...]  # the errata corrected in it, each read-only
    junk: str = ""
    cell: int = -1  # index of the table the line is a cell of
    keep: bool = False  # the configuration says: text
    configured: Mapping | None = None  # the configuration's [[heading]] for this line, read-only
    depth: int = 0  # the number of Markdown #s the line was marked with as a heading (its text has them not)


def mark(lines: list[Line], k: int, **decided) -> None:
    """Line ``k`` replaced by a copy marked with what a step decided (``junk=``, ``cell=``)."""
    lines[k] = replace(lines[k], **decided)


def frozen(mapping: dict | None) -> Mapping | None:
    """A read-only view of a configuration entry (an erratum, a [[heading]])."""
    return None if mapping is None else MappingProxyType(mapping)


@dataclass
class Table:
    first: int  # index into lines of the first cell
    last: int
    header: list[str]
    rows: list[list[str]]
    guessed: bool = True


@dataclass
class Item:
    """A logical line: one or more physical lines joined, or a table."""

    line: int
    text: str
    fixed: list[dict]
    head: Head | None = None
    table: Table | None = None
    last: int = 0  # the last line joined into it
    configured: dict | None = None
    keep: bool = False
    depth: int = 0  # a Markdown heading's number of #s
    label: Head | None = None  # the label the line starts with, whether or not it begins a heading


def prepare(text: str, config: ImportConfig, lang: str) -> list[Line]:
    errata = [(re.compile(rf"(?<!\w){re.escape(e['wrong'])}(?!\w)"), e) for e in config.errata
              if e.get("lang", "ru") == lang]
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.replace("\u00a0", " ").replace("\u00ad", "").strip()
        marked = MARKDOWN_HEADING_RE.match(line)
        if marked:
            line = line[marked.end():]
        fixed: list[Mapping] = []
        for pattern, erratum in errata:
            if pattern.search(line):
                line = pattern.sub(erratum["right"], line)
                fixed.append(frozen(erratum))
        lines.append(Line(number, raw, line, tuple(fixed), keep=bool(line) and config.is_text(line),
                          configured=frozen(config.heading_for(MARKER_ONLY_RE.sub("", line)) if line else None),
                          depth=len(marked.group(1)) if marked else 0))
    return lines


def content(lines: list[Line]) -> list[int]:
    return [i for i, line in enumerate(lines) if line.text and not line.junk]


