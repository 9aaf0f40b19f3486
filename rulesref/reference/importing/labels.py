"""The label a line starts with, read by the grammar of rule numbers (numbering.py).

``parse_head`` tries the readers in order — a book's own forms, a number after a word (``Article 5``, ``Статья 5``,
``LAW 2``, ``Глава 3``), a number in brackets (``[8.11]``), a number (``9.2.1.``, ``11. 4. 5``, ``О22.2``,
``XIII .7. C``, ``3.1a``, ``6.``, ``XII.``, ``B.``) — and says what it read; whether the line is a heading is the
scheme's and the outline's to decide.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..numbering import (
    BRACKET_HEAD_RE,
    chapter_of,
    HEAD_RE,
    WORD_HEAD_RE,
    compile_patterns,
    is_numbered,
    is_roman,
    latinise,
    normalise,
    pattern_number,
    unglue,
    word_kind,
)

CYRILLIC_LETTER_RE = re.compile("[А-ЯЁІЈЅа-я]")


@dataclass(frozen=True)
class Head:
    """A rule number at the start of a line, as printed and as an id."""

    number: str  # the id: "9.2.1", "O22.2", "A.3.1", "XIII.7.C", "3" (from "3.0"), clause base for a suffix
    kind: str  # "dotted", "bare" (6.), "prefixed" (O22), "roman" (XIII.), "letter" (A.), "chapter" (Глава 3)
    rest: str
    marker: bool
    letter: str = ""  # the clause letter of "3.1a"
    printed: str = ""
    cyrillic: bool = False
    spaced: bool = False
    zero: bool = False  # printed as N.0
    word: str = ""  # the word that announced it ("article", "глава"), lower-cased

    @property
    def chapter(self) -> str:
        return self.number.split(".", 1)[0] if self.kind == "dotted" and "." in self.number else self.number

    @property
    def shape(self) -> tuple[str, str]:
        """What a hint compares: the kind of label and the word that announces it."""
        return self.kind, self.word


@lru_cache(maxsize=4096)
def parse_head(line: str, patterns: tuple[str, ...] = ()) -> Head | None:
    """The rule number a line starts with, or None. Says nothing yet about whether the line is a heading.
    (Cached: each stage asks about the same lines.)"""
    line = unglue(line)
    for reader in (_own_form, _after_word, _in_brackets, _number):
        head = reader(line, patterns)
        if head is not None:
            return head if head.number else None
    return None


def _own_form(line: str, patterns: tuple[str, ...]) -> Head | None:
    for regex in compile_patterns(patterns):
        m = regex.match(line)
        if m and m.group("num") and m.start("num") < 40:
            rest = line[m.end():].strip(" .:—–-")
            number = pattern_number(m.group("num"))
            if is_numbered(number):
                return Head(number, "dotted" if "." in number else "bare", rest, False, printed=m.group())
    return None


def _after_word(line: str, patterns: tuple[str, ...]) -> Head | None:
    m = WORD_HEAD_RE.match(line)
    if not m:
        return None
    word = m.group("word").lower()
    number = normalise(m.group("num"))
    number = number if number[-1:].isdigit() or "." not in number else number
    letter = ""
    if number[-1:].islower() and number[:-1][-1:].isdigit():
        number, letter = number[:-1], number[-1]
    if not number[:1].isdigit():
        number = latinise(number.upper())
    kind = "dotted" if "." in number else "chapter"
    if kind == "chapter" and word_kind(word) != "chapter" and not number.isdigit() and not is_roman(number):
        return None  # "Section A of the rules…": a letter after a word is read only as a chapter's
    return Head(number, kind, m.group("rest").strip(), bool(m.group("marker")), letter=letter,
                printed=line[:m.start("rest")].strip(), cyrillic=bool(CYRILLIC_LETTER_RE.search(m.group("num"))),
                word=word)


def _in_brackets(line: str, patterns: tuple[str, ...]) -> Head | None:
    m = BRACKET_HEAD_RE.match(line)
    if not m:
        return None
    number = normalise(m.group("num"))
    letter = ""
    if number[-1:].islower():
        number, letter = number[:-1], number[-1]
    zero = number != chapter_of(number)
    number = chapter_of(number)  # "[5.0] COMBAT": chapter 5
    kind = "dotted" if "." in number else "bare"
    return Head(number, kind, m.group("rest").strip(), bool(m.group("marker")), letter=letter,
                printed=line[:m.start("rest")].strip(), word="[", zero=zero)


def _number(line: str, patterns: tuple[str, ...]) -> Head | None:
    m = HEAD_RE.match(line)
    if not m:
        return None
    printed = m.group("num")
    marker = bool(m.group("marker"))
    rest = (m.group("rest") or "").strip()
    cyrillic = bool(CYRILLIC_LETTER_RE.search(printed))
    if m.group("roman") or m.group("letter"):
        prefix = m.group("roman") or m.group("letter")
        return Head(latinise(prefix), "roman" if m.group("roman") else "letter", rest, marker, printed=printed,
                    cyrillic=cyrillic)
    prefix = latinise(m.group("prefix") or "")
    if prefix and not re.fullmatch("[A-Z]+", prefix):
        return Head("", "", "", False)  # a prefix no number takes: not a label, and no other reading either
    return _dotted(line, m, prefix, rest, marker, printed, cyrillic)


def _dotted(line: str, m: re.Match, prefix: str, rest: str, marker: bool, printed: str, cyrillic: bool) -> Head:
    upper, suffix = m.group("upper"), m.group("suffix") or ""
    if upper and rest and not (prefix and is_roman(prefix)):
        # "9.3.4. A unit may…", "2. На партию…": the capital begins the text (and the small letter after it is the
        # word's, no clause letter); it is not a part of the number (XIII .7. C is)
        rest, upper, suffix = line[m.start("upper"):].lstrip(" ."), None, ""
        printed = line[m.start("num"):m.start("upper")].rstrip(" .")
    parts = [m.group("first")] + re.findall(r"\d+", m.group("parts") or "")
    number = _id(prefix, bool(m.group("pdot")), parts, upper)
    zero = len(parts) == 2 and parts[1] == "0" and not upper
    if zero:
        number = number[:-2]
    dotted = len(parts) > 1 or bool(m.group("pdot")) or bool(upper)
    kind = "dotted" if dotted and not zero else "prefixed" if prefix else "bare"
    return Head(number, kind, rest, marker, letter=latinise(suffix), printed=printed,
                cyrillic=cyrillic, spaced=bool(re.search(r"\s", printed)), zero=zero)


def _id(prefix: str, dot: bool, parts: list[str], upper: str | None) -> str:
    number = (prefix + ("." if dot else "") if prefix else "") + ".".join(parts)
    return number + "." + latinise(upper.strip(" .")) if upper else number
