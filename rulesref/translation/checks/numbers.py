"""Numbers: digits, die ranges (``0-5``) and number words (``четырех`` / ``four``) must agree between the texts.

A number may be written as digits in one text and as a word in the other ("2 гекса" / "two hexes"). Section
references are left to the references check. "One" and its Russian forms are also a pronoun or an article ("the one
it fought", "одно из"), so a 1 written only as a word is not required of the other text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from rulesref.reference.refs import find_references
from rulesref.text import LETTER_WORD_RE

from .base import Check, CheckContext, Problem, quoted

RANGE_RE = re.compile(r"(?<![\w.])(\d{1,3})\s*(?:[-–—]|\.\.|(?:to|through|до)\s)\s*(\d{1,3})(?![\w])", re.I)
RANGE_FROM_RE = re.compile(r"(?:\bfrom|\bот)\s+$", re.I)
DIGITS_RE = re.compile(r"(?:(?<![\w])[-+−](?=\d))?(?<![\w.,])\d+(?:[.,]\d+)?(?![\w])")
WORD_RE = LETTER_WORD_RE  # a hyphenated compound ("two-hex") is one word

NUMBER_WORDS = {
    "en": {
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
        "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20,
    },
    "ru": {
        **dict.fromkeys(("один", "одна", "одно", "одного", "одной", "одному", "одним", "одну", "одною", "одном"), 1),
        **dict.fromkeys(("два", "две", "двух", "двум", "двумя"), 2),
        **dict.fromkeys(("три", "трех", "трёх", "трем", "трём", "тремя"), 3),
        **dict.fromkeys(("четыре", "четырех", "четырёх", "четырем", "четырём", "четырьмя"), 4),
        **dict.fromkeys(("пять", "пяти", "пятью"), 5),
        **dict.fromkeys(("шесть", "шести", "шестью"), 6),
        **dict.fromkeys(("семь", "семи"), 7),
        **dict.fromkeys(("восемь", "восьми", "восемью", "восьмью"), 8),
        **dict.fromkeys(("девять", "девяти", "девятью"), 9),
        **dict.fromkeys(("десять", "десяти", "десятью"), 10),
        **dict.fromkeys(("одиннадцать", "одиннадцати"), 11),
        **dict.fromkeys(("двенадцать", "двенадцати"), 12),
        **dict.fromkeys(("двадцать", "двадцати"), 20),
    },
}
WEAK_WORD_VALUES = {1}


@dataclass
class Numbers:
    strong: set[str]  # values that must be in the other text: digits, ranges, number words other than "one"
    weak: set[str]  # values present only as a weak word ("one"): they satisfy the other text, are not required

    def present(self) -> set[str]:
        return self.strong | self.weak


def _value(raw: str) -> str:
    raw = raw.replace(",", ".").replace("−", "-")
    if raw[0] in "+-":
        return raw[0] + _value(raw[1:])
    return raw.lstrip("0") or "0" if "." not in raw else raw


def extract_numbers(text: str, lang: str, patterns: Iterable[str] = ()) -> Numbers:
    """The numbers of a text, its section references (in the seeds' forms and the book's own, ``patterns``) left
    out: those are the references check's."""
    blanked = list(text)

    def blank(start: int, end: int) -> None:
        blanked[start:end] = " " * (end - start)

    for ref in find_references(text, patterns):
        blank(ref.start, ref.end)
    strong: set[str] = set()
    weak: set[str] = set()
    current = "".join(blanked)
    for m in RANGE_RE.finditer(current):
        separator = current[m.end(1):m.start(2)].strip().lower()
        if separator in ("to", "through", "до") and not RANGE_FROM_RE.search(current[:m.start()]):
            continue  # "up to 5", "до 5": only "from 0 to 5" / "от 0 до 5" is a range
        strong.add(f"{_value(m.group(1))}–{_value(m.group(2))}")
        blank(m.start(), m.end())
    current = "".join(blanked)
    for m in DIGITS_RE.finditer(current):
        strong.add(_value(m.group()))
    words = NUMBER_WORDS.get(lang, {})
    for m in WORD_RE.finditer(current):
        value = words.get(m.group().lower())
        if value is not None:
            (weak if value in WEAK_WORD_VALUES else strong).add(str(value))
    return Numbers(strong, weak - strong)


class NumbersCheck(Check):
    check_id = "numbers"
    name = _("Numbers")
    description = _("Digits, die ranges and number words must be the same in the source and the translation.")

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        src = extract_numbers(source, context.source_language, context.patterns)
        tgt = extract_numbers(target, context.target_language, context.patterns)
        problems = []
        missing = sorted(src.strong - tgt.present(), key=_sort_key)
        extra = sorted(tgt.strong - src.present(), key=_sort_key)
        if missing:
            problems.append(self.problem(context, gettext_noop("%(numbers)s in the source, not in the translation"),
                                         numbers=quoted(missing)))
        if extra:
            problems.append(self.problem(context, gettext_noop("%(numbers)s in the translation, not in the source"),
                                         numbers=quoted(extra)))
        return problems


def _sort_key(value: str):
    head = value.split("–")[0]
    try:
        return (float(head), value)
    except ValueError:
        return (float("inf"), value)
