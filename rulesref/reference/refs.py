"""Find the section references in rule text, in every form the corpus prints them.

``(6.2.1)``, ``9.2.2 – 9.2.4`` (each end), ``11. 4. 5`` with spaces, lettered cases ``10.9.3b``, chapters ``(12.0)``,
``см. 11.7``, ``правило 11. 4. 5``, ``XIII.7.C``, ``11. 2. F``, and pages ``на странице 58`` / ``on page 58``.
Die ranges (``0-5``), distances (``1.5 inches``), movement points and step numbers (``шагу 2.3``) are not
references. Pure Python: the loader stores what it finds, the renderer links it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER_REF_RE = re.compile(
    r"(?<![\w.])"
    r"(?P<num>\d{1,2}(?:[ \u00a0]?\.[ \u00a0]?\d{1,2}){1,3})"
    r"(?:(?P<letter>[a-z])(?![\w])|[ \u00a0]?\.[ \u00a0]?(?P<upper>[A-F])(?!\w)|(?![\w]))"
)
ROMAN_REF_RE = re.compile(r"(?<![\w.])(?P<num>[IVXLC]+(?:[ \u00a0]?\.[ \u00a0]?\d{1,2})(?:[ \u00a0]?\.[ \u00a0]?[A-Z])?)(?![\w])")
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


def normalise(raw: str) -> str:
    return re.sub(r"\s*\.\s*", ".", raw.replace("\u00a0", " ")).strip(".")


def find_references(text: str) -> list[FoundReference]:
    found: list[FoundReference] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, target: str, kind: str) -> None:
        if any(start < e and end > s for s, e in taken):
            return
        taken.append((start, end))
        found.append(FoundReference(start, end, text[start:end], target, kind))

    for m in PAGE_REF_RE.finditer(text):
        add(m.start(), m.end(), m.group("page"), "page")
    for m in ROMAN_REF_RE.finditer(text):
        add(m.start(), m.end(), normalise(m.group("num")), "section")
    for m in NUMBER_REF_RE.finditer(text):
        if UNIT_AFTER_RE.match(text[m.end():m.end() + 12]) or STEP_BEFORE_RE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        target = normalise(m.group("num"))
        if m.group("letter"):
            target += m.group("letter")
        elif m.group("upper"):
            target += "." + m.group("upper")
        elif target.endswith(".0"):
            target = target[:-2]  # (12.0) and (9. 0) name a whole chapter
        add(m.start(), m.end(), target, "section")
    found.sort(key=lambda r: r.start)
    return found


def section_part(target: str) -> tuple[str, str]:
    """``10.9.3b`` -> (``10.9.3``, ``b``); other ids -> (id, "")."""
    if len(target) > 1 and target[-1].islower() and target[-2].isdigit():
        return target[:-1], target[-1]
    return target, ""
