"""Import a numbered rules text as pasted from a web page or a PDF (docs/corpus-format.md).

Laid out as python-markdown's block processors are: each step is a small module, and where a step has kinds
(page furniture, line joins) each kind is a small class in a registry, tried in order of priority.

- ``lines``: the text's lines, numbered; the configuration's errata corrected (``prepare``).
- ``furniture``: page furniture dropped: lines of ``|``, site footers, web chrome, page numbers, table-of-contents
  lines, page titles listing headings, headers and footers repeated on each page (``FURNITURE``).
- ``tables``: tables pasted one cell per line or with tabs or bars.
- ``labels``: the label a line starts with, read by the grammar of rule numbers (``numbering.py``).
- ``scheme``: which labels may begin a heading, from the labels of the whole text.
- ``joins``: the lines a paste broke, joined (``JOINS``): a number then its title, a number alone on its line,
  a label such as ``ПРИМЕР:`` alone, a paragraph wrapped mid-sentence, a word broken by a hyphen.
- ``outline``: the sections, keeping the labels that continue the numbering (a successor at some level or a first
  child) and rejecting, with the reason, those that merely begin with a number; a text without numbers imports by
  its headings (capitals, Markdown ``#``) or says why it cannot.
- ``merge``: the sections merged into the corpus; ``service``: the whole import of a file, as ``importtext`` runs it.

Every step writes to one report (``ImportResult``): what it dropped, guessed, rejected or could not place.
"""
from __future__ import annotations

from ..corpus import SectionDoc
from ..numbering import normalise as normalise_number  # noqa: F401
from ..numbering import word_form
from .config import ImportConfig
from .decode import decode_text  # noqa: F401
from .furniture import mark_furniture, mark_page_furniture
from .joins import logical_lines
from .labels import Head, parse_head
from .lexicon import sentence_case  # noqa: F401
from .lines import prepare
from .merge import merge_into, new_chapters  # noqa: F401
from .outline import Builder
from .report import Dropped, ImportResult, Note  # noqa: F401
from .scheme import infer_scheme
from .tables import find_tables
from rulesref.text import slugify  # noqa: F401


def import_text(text: str, lang: str, config: ImportConfig, filename: str = "", patterns: tuple[str, ...] = (),
                source: list[SectionDoc] | None = None,
                existing: dict[str, SectionDoc] | None = None) -> ImportResult:
    """Parse raw rule text into sections (in reading order, parents not yet included).

    ``patterns``: the book's own number forms (book.toml); ``source``: the source language's sections when this
    text is a translation (its unnumbered headings then take the ids of the source's, by position); ``existing``:
    the sections this language already has (other files, an earlier import of this one)."""
    result = ImportResult(sections=[])
    patterns, hint = with_hint(tuple(patterns), config.hint)
    lines = prepare(text, config, lang)
    mark_furniture(lines, config, result, patterns)
    tables = find_tables(lines, config, result, patterns)
    mark_page_furniture(lines, patterns)
    known = set(existing or {}) | {s.id for s in source or []}
    scheme = infer_scheme(lines, patterns, known, hint)
    result.scheme = scheme.describe()
    items = logical_lines(lines, tables, scheme, result, patterns)
    for line in lines:
        if line.junk:
            result.dropped.append(Dropped(line.number, line.junk, line.raw))
    Builder(result, config, lang, filename, scheme, source, existing or {}).build(items)
    result.guesses.sort(key=lambda g: g.line)
    return result




def with_hint(patterns: tuple[str, ...], hint: str) -> tuple[tuple[str, ...], Head | None]:
    """The book's number forms and the label a hint names: an example label (``Article 1``, ``§ 1``, ``1)``) makes
    labels of its shape begin headings; a word alone (``Параграф``) becomes a form of its own, a number after it."""
    hint = hint.strip()
    if not hint:
        return patterns, None
    head = parse_head(hint, patterns)
    if head is not None:
        return patterns, head
    return patterns + (word_form(hint),), None
