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
from functools import lru_cache
from typing import Iterable

# Cyrillic capitals in a rule number, in Latin: look-alikes by shape (a text may mix the two alphabets, and a
# reader types the Latin letter he sees), the others transliterated.
CYRILLIC_CAPITALS = {
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y",
    "Х": "X", "І": "I", "Ј": "J", "Ѕ": "S", "Ё": "E", "Б": "B", "Г": "G", "Д": "D", "Ж": "ZH", "З": "Z", "И": "I",
    "Й": "J", "Л": "L", "П": "P", "Ф": "F", "Ц": "TS", "Ч": "CH", "Ш": "SH", "Щ": "SHCH", "Ъ": "", "Ы": "Y",
    "Ь": "", "Э": "E", "Ю": "YU", "Я": "YA",
}
# Small Cyrillic letters that look like Latin clause letters (``3.1е`` typed with a Cyrillic е).
CYRILLIC_SMALL = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x"}
PREFIX_CHARS = "A-ZА-ЯЁІЈЅ"
SUFFIX_CHARS = "a-z" + "".join(CYRILLIC_SMALL)
ROMAN_CHARS = "IVXLCХІС"  # with the Cyrillic look-alikes of X, I and C

SEP = r"[ \u00a0]?\.[ \u00a0]?"
NUMBER_REF_RE = re.compile(
    r"(?:(?<![\w.])|(?<=п\.)|(?<=пп\.)|(?<=см\.))"  # "п.3.1" is written without a space too
    rf"(?P<num>(?:(?P<prefix>[{PREFIX_CHARS}]{{1,3}})(?P<pdot>\.)?)?\d{{1,2}}(?P<parts>(?:{SEP}\d{{1,2}}){{0,3}}))"
    rf"(?:(?P<letter>[{SUFFIX_CHARS}])(?![\w])|{SEP}(?P<upper>[A-F])(?!\w)|(?![\w]))"
)
ROMAN_REF_RE = re.compile(
    rf"(?<![\w.])(?P<num>[{ROMAN_CHARS}]+(?:{SEP}\d{{1,2}})(?:{SEP}[A-ZА-Я])?)(?![\w])")
BRACKET_REF_RE = re.compile(rf"\[(?P<num>(?:[{PREFIX_CHARS}]{{1,3}}\.?)?\d{{1,2}})\]")
CHAPTER_REF_RE = re.compile(
    r"(?<![\w])(?i:глав[аеуыойм]*|chapters?|раздел[аеуом]*|section)[ \u00a0]+"
    rf"(?P<num>\d{{1,2}}|[{ROMAN_CHARS}]+)(?![\w]|\.\w)")
LETTER_RANGE_RE = re.compile(r"[ \u00a0]?[–—-][ \u00a0]?(?P<letter>[a-z])(?![\w])")
PAGE_REF_RE = re.compile(r"(?:(?<![\w])(?:на\s+)?(?:странице|стр\.)|(?<![\w])(?:on\s+)?page|(?<![\w])p\.)\s*(?P<page>\d{1,3})(?!\w)",
                         re.IGNORECASE)
# What a dotted number next to these words is: a quantity or a step, not a section.
UNIT_AFTER_RE = re.compile(r"^\s*(?:\"|”|''|дюйм|inch|in\.|ПД|MP|гекс|hex|%|см\b|cm\b|мм\b|mm\b|градус|degree|°)", re.I)
STEP_BEFORE_RE = re.compile(r"(?:шаг[а-я]*|step|steps|версия|version|v)\s*$", re.I)

# A query that is a rule number: the number itself, optionally in brackets or after a word that announces one.
QUERY_WORDS_RE = re.compile(r"^(?:пп?\.|пункт[а-я]*|правил[а-я]*|rules?|see|см\.|раздел[а-я]*|section|глав[а-я]*|"
                            r"chapter|§)\s*", re.IGNORECASE)
NUMBER_QUERY_RE = re.compile(
    rf"^(?:(?:[{PREFIX_CHARS}]{{1,3}}\s*\.?\s*)?\d{{1,3}}(?:\s*\.\s*(?:\d{{1,3}}|[A-Z]))*\s*\.?\s*[{SUFFIX_CHARS}]?"
    rf"|[{ROMAN_CHARS}]+(?:\s*\.\s*(?:\d{{1,2}}|[A-Z]))*)$", re.IGNORECASE)


@dataclass(frozen=True)
class FoundReference:
    start: int
    end: int
    anchor: str
    target: str  # normalised id ("11.4.5", "10.9.3b", "XIII.7.C", "12") or the page number for kind "page"
    kind: str  # "section" or "page"


def latinise(text: str) -> str:
    """The Cyrillic letters of a rule number in Latin: ``О22.3`` -> ``O22.3``, ``3.1е`` -> ``3.1e``."""
    return "".join(CYRILLIC_CAPITALS.get(ch, CYRILLIC_SMALL.get(ch, ch)) for ch in text)


def normalise(raw: str) -> str:
    """A printed number as an id: ``11. 4. 5`` -> ``11.4.5``, ``XIII .7. C`` -> ``XIII.7.C``, ``О22.3`` -> ``O22.3``.
    Text without a digit is returned without its Cyrillic letters changed (it is a slug or a word)."""
    text = re.sub(r"\s*\.\s*", ".", raw.replace("\u00a0", " ")).strip(".").strip()
    return latinise(text) if re.search(r"\d", text) else text


def chapter_of(number: str) -> str:
    """``12.0`` and ``9. 0`` name a whole chapter: ``12``, ``9``; other numbers are returned as they are."""
    return number[:-2] if number.endswith(".0") and number[:-2] else number


# ---------------------------------------------------------------- per-book forms


class PatternError(ValueError):
    """A ``[numbering] patterns`` entry that cannot be used."""


@lru_cache(maxsize=64)
def compile_patterns(patterns: tuple[str, ...]) -> tuple[re.Pattern, ...]:
    """A book's own number forms, compiled; each must have a group ``num`` (the number, as printed)."""
    compiled = []
    for pattern in patterns:
        if not isinstance(pattern, str) or not pattern.strip():
            raise PatternError(f"{pattern!r}: a pattern is a non-empty string")
        if len(pattern) > 300:
            raise PatternError(f"{pattern[:40]!r}…: longer than 300 characters")
        try:
            regex = re.compile(pattern)
        except re.error as exc:
            raise PatternError(f"{pattern!r}: not a regular expression ({exc})") from None
        if "num" not in regex.groupindex:
            raise PatternError(f"{pattern!r}: has no group (?P<num>…) saying where the number is")
        if regex.search(""):
            raise PatternError(f"{pattern!r}: matches empty text")
        compiled.append(regex)
    return tuple(compiled)


def pattern_number(raw: str) -> str:
    """The id a book pattern's ``num`` group names: its parts separated by any of ``. - / :`` become dotted."""
    return normalise(re.sub(r"\s*[-/:–]\s*", ".", raw.strip()))


# ---------------------------------------------------------------- references


def find_references(text: str, patterns: Iterable[str] = ()) -> list[FoundReference]:
    """Every reference in ``text``, in order; ``patterns`` are the book's own forms (``[numbering] patterns``)."""
    found: list[FoundReference] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, target: str, kind: str = "section") -> None:
        if any(start < e and end > s for s, e in taken):
            return
        taken.append((start, end))
        found.append(FoundReference(start, end, text[start:end], target, kind))

    for regex in compile_patterns(tuple(patterns)):
        for m in regex.finditer(text):
            if m.group("num"):
                add(m.start(), m.end(), pattern_number(m.group("num")))
    for m in PAGE_REF_RE.finditer(text):
        add(m.start(), m.end(), m.group("page"), "page")
    for m in BRACKET_REF_RE.finditer(text):
        add(m.start("num"), m.end("num"), normalise(m.group("num")))
    for m in CHAPTER_REF_RE.finditer(text):
        add(m.start("num"), m.end("num"), normalise(m.group("num")))
    for m in ROMAN_REF_RE.finditer(text):
        add(m.start(), m.end(), normalise(m.group("num")))
    for m in NUMBER_REF_RE.finditer(text):
        if not m.group("parts") and not m.group("pdot"):
            continue  # "12", "O22", "D6": a number without a dot is a reference only in brackets or after "глава"
        if UNIT_AFTER_RE.match(text[m.end():m.end() + 12]) or STEP_BEFORE_RE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        number = normalise(m.group("num"))
        if m.group("letter"):
            target = number + latinise(m.group("letter"))
            add(m.start(), m.end(), target)
            more = LETTER_RANGE_RE.match(text, m.end())
            if more and more.group("letter") > target[-1]:  # "3.1a–c": the other end is 3.1c
                add(more.start("letter"), more.end("letter"), number + more.group("letter"))
        elif m.group("upper"):
            add(m.start(), m.end(), number + "." + m.group("upper"))
        else:
            add(m.start(), m.end(), chapter_of(number))  # (12.0) and (9. 0) name a whole chapter
    found.sort(key=lambda r: r.start)
    return found


def section_part(target: str) -> tuple[str, str]:
    """``10.9.3b`` -> (``10.9.3``, ``b``); other ids -> (id, "")."""
    if len(target) > 1 and target[-1].islower() and target[-2].isdigit():
        return target[:-1], target[-1]
    return target, ""


# ---------------------------------------------------------------- numbers typed as a query


def number_query(query: str, patterns: Iterable[str] = ()) -> str | None:
    """The id a search query names when it is a rule number in any printed form (``9. 3. 1``, ``О22.3``,
    ``п. 3.1e``, ``[13]``, a book's own form), else None. The id is normalised but its case is as typed."""
    text = query.strip()
    for regex in compile_patterns(tuple(patterns)):
        m = regex.fullmatch(text)
        if m and m.group("num"):
            return pattern_number(m.group("num"))
    text = QUERY_WORDS_RE.sub("", text).strip()
    if len(text) > 2 and text[0] + text[-1] in ("[]", "()"):
        text = text[1:-1].strip()
    text = re.sub(r"^[а-яё]+", lambda m: m.group().upper(), text)  # a prefix typed in small letters: "о22.3"
    if re.fullmatch(rf"[{ROMAN_CHARS}]+", text) and text.isupper():
        return latinise(text)  # "XII": a Roman chapter, typed in capitals (a word in small letters stays a word)
    if not NUMBER_QUERY_RE.match(text) or not re.search(r"\d", text):
        return None
    return chapter_of(normalise(text))


def number_variants(number: str) -> list[str]:
    """Spellings of one number that name the same section: a letter prefix with or without its dot
    (``A.3.1`` / ``A3.1``)."""
    variants = [number]
    m = re.match(r"^([A-Za-z]{1,3})(\.?)(\d.*)$", number)
    if m:
        variants.append(m.group(1) + ("" if m.group(2) else ".") + m.group(3))
    return variants
