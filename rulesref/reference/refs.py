"""Rule numbers and the section references in rule text, in every form the corpora print them.

One grammar of rule numbers serves the importer (headings), the reference finder (links) and search (a number
typed in the box): dotted numbers with or without spaces (``9.3.1``, ``11. 4. 5``), letter suffixes (``10.9.3b``,
``3.1e``), letter or Roman prefixes in Latin or Cyrillic (``O22.3`` / ``О22.3``, ``A.3.1``, ``XIII.7.C``) and
capital-letter parts (``11. 2. F``). A number is normalised to one canonical id: spaces dropped, Cyrillic letters
written in Latin (look-alikes by shape: ``О`` → ``O``, ``Х`` → ``X``; the rest transliterated), so both spellings
find the same section.

References: ``(6.2.1)``, ``[3.2.5]``, ``[13]`` (a bare chapter in brackets), ``глава 13`` / ``chapter 13``,
``9.2.2 – 9.2.4`` and ``пп. 3.1a–3.1c`` / ``3.1a–c`` (each end), ``(12.0)`` (a chapter), ``см. п. 3.1e``,
``rule 3.1e``, ``see 3.1e``, ``O22.3`` / ``О22.3``, ``XIII.7.C``, ``11. 2. F``, and pages ``на странице 58`` /
``on page 58``. A book can add its own forms in ``book.toml`` (``[numbering] patterns``: regular expressions with a
group ``num``). Die ranges (``0-5``), distances (``1.5 inches``), movement points and step numbers (``шагу 2.3``)
are not references. Pure Python: the loader stores what it finds, the renderer links it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .numbering import (  # noqa: F401 (the grammar's names, read through this module too)
    BRACKET_REF_RE,
    CHAPTER_REF_RE,
    CYRILLIC_CAPITALS,
    CYRILLIC_SMALL,
    LETTER_RANGE_RE,
    NUMBER_QUERY_RE,
    NUMBER_REF_RE,
    PREFIX_CHARS,
    QUERY_WORDS_RE,
    ROMAN_CHARS,
    ROMAN_REF_RE,
    SUFFIX_CHARS,
    PatternError,
    chapter_of,
    compile_patterns,
    latinise,
    normalise,
    number_query,
    number_variants,
    pattern_number,
    section_part,
)

PAGE_REF_RE = re.compile(r"(?:(?<![\w])(?:на\s+)?(?:странице|стр\.)|(?<![\w])(?:on\s+)?page|(?<![\w])p\.)\s*(?P<page>\d{1,3})(?!\w)",
                         re.IGNORECASE)
# What a dotted number next to these words is: a quantity or a step, not a section.
UNIT_AFTER_RE = re.compile(r"^\s*(?:\"|”|''|дюйм|inch|in\.|ПД|MP|гекс|hex|%|см\b|cm\b|мм\b|mm\b|градус|degree|°)", re.I)
STEP_BEFORE_RE = re.compile(r"(?:шаг[а-я]*|step|steps|версия|version|v)\s*$", re.I)


@dataclass(frozen=True)
class FoundReference:
    start: int
    end: int
    anchor: str
    target: str  # normalised id ("11.4.5", "10.9.3b", "XIII.7.C", "12") or the page number for kind "page"
    kind: str  # "section" or "page"


# ---------------------------------------------------------------- references


def find_references(text: str, patterns: Iterable[str] = ()) -> list[FoundReference]:
    """Every reference in ``text``, in order; ``patterns`` are the book's own forms (``[numbering] patterns``). The
    forms are tried most specific first, and a span already taken by one is not read again by a later one."""
    found = _Found(text)
    for regex in compile_patterns(tuple(patterns)):
        for m in regex.finditer(text):
            if m.group("num"):
                found.add(m.start(), m.end(), pattern_number(m.group("num")))
    for m in PAGE_REF_RE.finditer(text):
        found.add(m.start(), m.end(), m.group("page"), "page")
    for regex in (BRACKET_REF_RE, CHAPTER_REF_RE):
        for m in regex.finditer(text):
            found.add(m.start("num"), m.end("num"), normalise(m.group("num")))
    for m in ROMAN_REF_RE.finditer(text):
        found.add(m.start(), m.end(), normalise(m.group("num")))
    for m in NUMBER_REF_RE.finditer(text):
        if _is_section_number(text, m):
            _add_number(found, text, m)
    return sorted(found.references, key=lambda r: r.start)


class _Found:
    """The references found so far in one text, and the spans they take."""

    def __init__(self, text: str):
        self.text = text
        self.references: list[FoundReference] = []
        self.taken: list[tuple[int, int]] = []

    def add(self, start: int, end: int, target: str, kind: str = "section") -> None:
        if any(start < e and end > s for s, e in self.taken):
            return
        self.taken.append((start, end))
        self.references.append(FoundReference(start, end, self.text[start:end], target, kind))


def _is_section_number(text: str, m) -> bool:
    """A bare number is a section reference when it has a dot ("12", "O22", "D6" are one only in brackets or after
    "глава") and is not a quantity ("3 гекса") or a step of a procedure."""
    if not m.group("parts") and not m.group("pdot"):
        return False
    return not (UNIT_AFTER_RE.match(text[m.end():m.end() + 12])
                or STEP_BEFORE_RE.search(text[max(0, m.start() - 12):m.start()]))


def _add_number(found: _Found, text: str, m) -> None:
    number = normalise(m.group("num"))
    if m.group("letter"):
        target = number + latinise(m.group("letter"))
        found.add(m.start(), m.end(), target)
        more = LETTER_RANGE_RE.match(text, m.end())
        if more and more.group("letter") > target[-1]:  # "3.1a–c": the other end is 3.1c
            found.add(more.start("letter"), more.end("letter"), number + more.group("letter"))
    elif m.group("upper"):
        found.add(m.start(), m.end(), number + "." + m.group("upper"))
    else:
        found.add(m.start(), m.end(), chapter_of(number))  # (12.0) and (9. 0) name a whole chapter
