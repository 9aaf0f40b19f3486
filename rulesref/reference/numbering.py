"""The one grammar of rule numbers: how a number is written, read, normalised, continued and referred to.

Every part of the site that reads a rule number reads it here: the importer (a label at the start of a line), the
reference finder (``refs.find_references``), search (a number typed in the box), the section addresses (an id and
its parent) and the offline search, which receives this grammar as data (``browser_grammar``), never as a copy.

- **Counters**: Arabic numbers (``9``), Roman numerals (``XIII``, also with the Cyrillic look-alikes Х, І, С), Latin
  or Cyrillic capital letters (``A``, ``О``), and small letters as a last part (``3.1a``, ``3.1е``).
- **Separators**: a dot, with or without spaces around it (``11. 4. 5``); a book's own forms may use ``-``, ``/``
  or ``:`` (``§ 4-2``, book.toml ``[numbering] patterns``).
- **A label** at the start of a line: a number, bare or in brackets or parentheses (``[8.11]``, ``(3.1)``), or after
  a word that announces one (Article, Rule, Case, Section, Law, Chapter, Part, Art., §, Статья, Правило, Раздел,
  Глава, Часть, п.), followed by a period, a colon, a parenthesis, a dash or a space (``read_label``).
- **Canonical form** (the id, and so the public address): parts joined by dots, spaces dropped, Cyrillic letters in
  Latin (look-alikes by shape: ``О`` → ``O``, ``Х`` → ``X``; the others transliterated), ``N.0`` as chapter N.
- **Relations**: the parent of an id (``9.3.1`` → ``9.3``), and whether one label continues another (``follows``): a
  successor at some level (3.1 → 3.2, 3.1.4 → 3.2, II → III, B → C, 3.1a → 3.1b) or a first child (3.1 → 3.1.1,
  3 → 3.1), or a skip forward (3.1 → 3.3).
- **References**: the forms running text cites a number in (``REFERENCE_PATTERNS``, used by ``refs``), and the
  forms a reader types a number in (``number_query``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

# ---------------------------------------------------------------- counters and separators

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
PREFIX_CHARS = "A-ZА-ЯЁІЈЅ"  # capital letters: a prefix (O22.3, A.3.1) or a part (XIII.7.C)
SUFFIX_CHARS = "a-z" + "".join(CYRILLIC_SMALL)  # a clause letter after the number (3.1a)
ROMAN_CHARS = "IVXLCХІС"  # with the Cyrillic look-alikes of X, I and C
ROMAN_RE = re.compile(r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
ARABIC = r"\d{1,3}"
SPACE = "[ \u00a0]"
SEP = rf"{SPACE}?\.{SPACE}?"  # between the parts of a number in running text: "11. 4. 5"
OWN_SEPARATORS_RE = re.compile(r"\s*[-/:–]\s*")  # between the parts of a book's own form: "§ 4-2"
DOTS_RE = re.compile(r"\s*\.\s*")
DIGIT_RE = re.compile(r"\d")
LETTERS_RE = re.compile(r"[^\W\d_]")

# Words that announce a number. Each use takes its own set: a heading may start "Статья 5", a reference reads
# "глава 13", a reader types "п. 3.1e".
HEADING_WORDS = (r"глава|chapter|раздел|часть|part|статья|ст\.|article|art\.|правило|rule|case|section|law|"
                 r"пункт|п\.|§")
CHAPTER_WORDS = "глава|chapter|раздел|часть|part"  # a bare number after them is a chapter
REFERENCE_WORDS = r"глав[аеуыойм]*|chapters?|раздел[аеуом]*|section|стать[яиеюй]|articles?|laws?"
QUERY_WORDS = (r"пп?\.|пункт[а-я]*|правил[а-я]*|rules?|see|см\.|раздел[а-я]*|section|глав[а-я]*|chapter|"
               r"стать[а-яи]*|ст\.|article|art\.|law|case|part|част[а-я]*|§")

# ---------------------------------------------------------------- ids


# A rule number as an id: dotted parts after an optional letter or Roman prefix (9.3.1, XIII.7.C, O22.3, A.3.1,
# 11.2.F).
ID_RE = re.compile(r"^(?:[A-Z]{1,8}\d{0,3}|\d{1,3})(?:\.(?:\d{1,3}|[A-Z]))*$")
# A letter prefix written with or without its dot: A.3.1 / A3.1.
PREFIX_VARIANT_RE = re.compile(r"^([A-Za-z]{1,3})(\.?)(\d.*)$")


def is_numbered(section_id: str) -> bool:
    return bool(ID_RE.match(section_id))


def numeric_parent(section_id: str) -> str | None:
    """The id a numbered section must sit under (9.3.1 -> 9.3, XIII.7.C -> XIII.7, A.3 -> A); None for top level
    or slugs."""
    if not is_numbered(section_id) or "." not in section_id:
        return None
    return section_id.rsplit(".", 1)[0]


def is_roman(text: str) -> bool:
    return bool(text) and bool(ROMAN_RE.fullmatch(text))


def latinise(text: str) -> str:
    """The Cyrillic letters of a rule number in Latin: ``О22.3`` -> ``O22.3``, ``3.1е`` -> ``3.1e``."""
    return "".join(CYRILLIC_CAPITALS.get(ch, CYRILLIC_SMALL.get(ch, ch)) for ch in text)


def normalise(raw: str) -> str:
    """A printed number as an id: ``11. 4. 5`` -> ``11.4.5``, ``XIII .7. C`` -> ``XIII.7.C``, ``О22.3`` -> ``O22.3``.
    Text without a digit is returned without its Cyrillic letters changed (it is a slug or a word)."""
    text = DOTS_RE.sub(".", raw.replace("\u00a0", " ")).strip(".").strip()
    return latinise(text) if DIGIT_RE.search(text) else text


def chapter_of(number: str) -> str:
    """``12.0`` and ``9. 0`` name a whole chapter: ``12``, ``9``; other numbers are returned as they are."""
    return number[:-2] if number.endswith(".0") and number[:-2] else number


def pattern_number(raw: str) -> str:
    """The id a book pattern's ``num`` group names: its parts separated by any of ``. - / :`` become dotted."""
    return normalise(OWN_SEPARATORS_RE.sub(".", raw.strip()))


def clause_letter(letter: str) -> str | None:
    """The Latin clause letter a Cyrillic clause label stands for, by its place in the list: ``а`` -> ``a``,
    ``б`` -> ``b``, ``в`` -> ``c`` (so the clauses of a Russian text and of its translation carry one address,
    3.1a–3.1c); None for a letter no list uses."""
    place = CYRILLIC_CLAUSE_LETTERS.find(letter) if len(letter) == 1 else -1
    return chr(ord("a") + place) if place >= 0 else None


def section_part(target: str) -> tuple[str, str]:
    """``10.9.3b`` -> (``10.9.3``, ``b``); other ids -> (id, "")."""
    if len(target) > 1 and target[-1].islower() and target[-2].isdigit():
        return target[:-1], target[-1]
    return target, ""


def number_variants(number: str) -> list[str]:
    """Spellings of one number that name the same section: a letter prefix with or without its dot
    (``A.3.1`` / ``A3.1``)."""
    variants = [number]
    m = PREFIX_VARIANT_RE.match(number)
    if m:
        variants.append(m.group(1) + ("" if m.group(2) else ".") + m.group(3))
    return variants


def looks_numbered(raw: str) -> bool:
    """Whether an address names a number (a digit beside a dot: ``11. 4. 5``), not a slug."""
    return bool(re.search(r"\d\s*\.|\.\s*\d", raw))


# ---------------------------------------------------------------- counters and their order


@dataclass(frozen=True)
class Counter:
    """One part of a number: its kind ("arabic", "roman", "letter", "prefixed") and its value in its sequence."""

    kind: str
    value: int
    prefix: str = ""  # the letters before the digits of a prefixed part (O22 -> "O")


def counter(part: str, roman: bool = False) -> Counter:
    """A part of an id as a counter; ``roman``: read Roman numerals as such (XIII: 13) rather than as letters."""
    if part.isdigit():
        return Counter("arabic", int(part))
    m = re.fullmatch(r"([A-Z]+)(\d+)", part)
    if m:
        return Counter("prefixed", int(m.group(2)), m.group(1))
    if (roman or len(part) > 1) and is_roman(part):
        return Counter("roman", roman_value(part))
    if len(part) == 1 and part.isalpha():
        return Counter("letter", ord(part.upper()) - ord("A") + 1)
    return Counter("other", 0, part)


def roman_value(text: str) -> int:
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(text):
        value = values[ch]
        total += -value if i + 1 < len(text) and values[text[i + 1]] > value else value
    return total


def counters(number: str, roman_first: bool = False) -> list[Counter]:
    """The counters of an id (a clause letter is a last counter of its own): ``XIII.7.C`` -> roman 13, arabic 7,
    letter 3; ``3.1a`` -> 3, 1, letter 1."""
    base, letter = section_part(number)
    parts = base.split(".")
    out = [counter(p, roman=roman_first and i == 0) for i, p in enumerate(parts)]
    if letter:
        out.append(Counter("letter", ord(letter) - ord("a") + 1))
    return out


def _first(c: Counter) -> bool:
    return c.value in (0, 1) or c.kind == "roman" and c.value == 1


def _next(a: Counter, b: Counter) -> int | None:
    """How far ``b`` is past ``a`` in one sequence (1: its successor), or None when they are of two sequences."""
    if a.kind != b.kind or a.prefix != b.prefix:
        return None
    return b.value - a.value


def _decimal_cases(previous: str, current: str) -> bool:
    """Cases numbered as decimals (SPI's 5.1, 5.11, 5.12, 5.2): the second is further on as a decimal number. A
    part printed with a trailing zero (3.10) is no decimal (it would be 3.1): the text counts in whole numbers, and
    3.2 after 3.10 goes backwards."""
    a, b = previous.split("."), current.split(".")
    if len(a) != 2 or len(b) != 2 or a[0] != b[0] or not (a[1] + b[1]).isdigit() or a[1].endswith("0"):
        return False
    return float("0." + b[1]) > float("0." + a[1])


def counts_past_nine(previous: str, current: str) -> bool:
    """Whether ``current`` continues ``previous`` by counting in whole numbers where decimals would go backwards
    (3.9 -> 3.10): a text that does so numbers no cases as decimals."""
    a, b = previous.split("."), current.split(".")
    return len(a) == len(b) and a[:-1] == b[:-1] and (a[-1] + b[-1]).isdigit() and len(b[-1]) > len(a[-1]) \
        and int(b[-1]) == int(a[-1]) + 1


def _roman_first(previous: str, current: str) -> bool:
    """Whether the first parts of two ids are Roman numerals (II -> III), not letters (C -> D): both are, and one
    has more than one letter."""
    first, second = previous.split(".")[0], current.split(".")[0]
    return is_roman(first) and is_roman(second) and (len(first) > 1 or len(second) > 1)


def _common(a: list[Counter], b: list[Counter]) -> int:
    """How many leading counters two numbers share."""
    common = 0
    while common < min(len(a), len(b)) and a[common] == b[common]:
        common += 1
    return common


def _deeper(b: list[Counter], common: int) -> str:
    """``b`` goes below the previous number: a first child (3.1 -> 3.1.1) or past missing ones (3.1 -> 3.1.2)."""
    return "child" if all(_first(c) for c in b[common:]) else "skip"


def follows(previous: str, current: str, decimals: bool = True) -> str | None:
    """How ``current`` continues ``previous`` in a text's numbering: ``"next"`` (a successor at some level, deeper
    parts first ones: 3.1 -> 3.2, 3.1.4 -> 3.2, 3.2 -> 4.1, II -> III, 3.1a -> 3.1b), ``"child"`` (a first child:
    3.1 -> 3.1.1, 3 -> 3.1, 3.1 -> 3.1a), ``"skip"`` (forward past missing numbers: 3.1 -> 3.3, 3.1 -> 3.1.2; with
    ``decimals``, cases numbered as decimals: 5.11 -> 5.2), or None (backwards, such as 3.2 after 3.10, or another
    sequence: a quantity, a year, a restart)."""
    roman = _roman_first(previous, current)
    a, b = counters(previous, roman), counters(current, roman)
    common = _common(a, b)
    if common == len(a) and len(b) > len(a):
        return _deeper(b, common)
    if common >= len(b) or common >= len(a):
        return None  # the same number, or an ancestor of the previous one
    step = _next(a[common], b[common])
    if step is None or step <= 0:
        return "skip" if decimals and _decimal_cases(previous, current) else None
    if step == 1 and all(_first(c) for c in b[common + 1:]):
        return "next"
    return "skip"


# ---------------------------------------------------------------- labels at the start of a line

HEAD_RE = re.compile(
    r"^(?P<marker>>\s?>\s*)?"
    r"(?P<num>"
    rf"(?:(?P<prefix>[{ROMAN_CHARS}]{{1,7}}|[{PREFIX_CHARS}]{{1,3}})(?P<pdot>\s*\.\s*)?)?(?P<first>\d{{1,3}})(?P<parts>(?:\s*\.\s*\d{{1,3}}){{0,4}})"
    rf"(?P<upper>\s*\.\s*[A-ZА-ЯЁ])?(?P<suffix>[{SUFFIX_CHARS}](?![{SUFFIX_CHARS}]))?"
    rf"|(?P<roman>[{ROMAN_CHARS}]+)(?=\s*\.)|(?P<letter>[{PREFIX_CHARS}])(?=\s*\.)"
    r")"
    r"(?P<dot>\s*\.)?(?:\s+(?P<rest>\S.*))?$")
# A number after a word that announces it: "Глава 3", "Article 5:", "Статья 12.", "Rule 3.1", "§ 4", "LAW 2 –".
WORD_HEAD_RE = re.compile(
    rf"^(?P<marker>>\s?>\s*)?(?P<word>{HEADING_WORDS})\s*"
    rf"(?P<num>\d{{1,3}}(?:\.\d{{1,3}})*(?:[a-z](?![a-z]))?|[{ROMAN_CHARS}]+\b|[A-Z]\b)(?!\.\d)"
    r"\s*[.:—–-]?\s*(?P<rest>.*)$", re.IGNORECASE)
# A number in brackets or parentheses: "[8.11] Procedure", "(3.1) Movement".
BRACKET_HEAD_RE = re.compile(
    rf"^(?P<marker>>\s?>\s*)?[\[(](?P<num>(?:[{PREFIX_CHARS}]{{1,3}}\.?)?\d{{1,3}}(?:\s*\.\s*\d{{1,3}})*"
    rf"(?:[{SUFFIX_CHARS}])?)[\])]\s*[.:]?\s*(?P<rest>.*)$")
# A label that numbers an item within a section: "a) ", "1) ", "(a) ", "а) " (Cyrillic).
CLAUSE_LABEL_RE = re.compile(r"^[a-zа-я1-9]\)\s")
PAREN_CLAUSE_RE = re.compile(r"^\((?P<letter>[a-z])\)\s+(?=\S)")
# A clause lettered in Cyrillic: "а) ", "(б) ".
CYRILLIC_CLAUSE_RE = re.compile(r"^\(?(?P<letter>[а-я])\)\s+(?=\S)")
# The small Cyrillic letters in the order a list of clauses uses them (а), б), в)… without ё, й, ъ, ы, ь), each
# standing for the Latin clause letter of the same place: а) б) в) are the clauses a, b, c of their section.
CYRILLIC_CLAUSE_LETTERS = "абвгдежзиклмнопрстуфхцчшщэ"
ITEM_LABEL_RE = re.compile(r"^(?:\d{1,2}[.)]|[a-zа-я][.)]|\([a-zа-я0-9]{1,3}\))\s")
# A page title that lists several headings: "5.7. Изменение приказов. 5.8. Обязательное …"
HEADING_IN_TEXT_RE = re.compile(r"\d+(?:\s*\.\s*\d+)+\.?\s+[А-ЯЁA-Z]")
# A clause's address: a number and its letter (9.3.1c).
CLAUSE_ID_RE = re.compile(r"^\d+(\.\d+)*[a-z]$")
# "example of 9.3.7", "example after 11.4.2b": the clause a worked example belongs to.
EXAMPLE_OF_RE = re.compile(r"example (?:after|of|in) ([0-9]+(?:\.[0-9]+)*[a-z]?)", re.I)
# A word that is a Roman numeral written in Latin capitals (XII), as a translation check meets it.
ROMAN_WORD_RE = re.compile(r"^[IVXLC]+$")
# A heading of the corpus files: its clause paragraphs "a) …".
CORPUS_CLAUSE_RE = re.compile(r"^([a-z])\) ")


# A number glued to its title: "1.1.The game", "1.Цели и задачи".
GLUED_RE = re.compile(r"^((?:>\s?>\s*)?\d{1,3}(?:\.\d{1,3})*\.)(?=[A-ZА-ЯЁ][a-zа-яё])")


def unglue(line: str) -> str:
    """A label glued to the title after it, spaced apart: ``1.1.The game`` -> ``1.1. The game``."""
    return GLUED_RE.sub(r"\1 ", line, count=1)


def word_form(word: str) -> str:
    """A book's own form for a word that announces its headings (``importtext --hint Параграф``)."""
    return rf"(?i:{re.escape(word)})\s*(?P<num>\d{{1,3}}(?:\.\d{{1,3}})*)"


def word_kind(word: str) -> str:
    """What a heading word introduces: "chapter" (Глава, Chapter, Part…) or "article" (Article, Rule, §…)."""
    return "chapter" if re.fullmatch(CHAPTER_WORDS, word, re.IGNORECASE) else "article"


# ---------------------------------------------------------------- references in running text

NUMBER_REF_RE = re.compile(
    r"(?:(?<![\w.])|(?<=п\.)|(?<=пп\.)|(?<=см\.))"  # "п.3.1" is written without a space too
    rf"(?P<num>(?:(?P<prefix>[{PREFIX_CHARS}]{{1,3}})(?P<pdot>\.)?)?\d{{1,2}}(?P<parts>(?:{SEP}\d{{1,2}}){{0,3}}))"
    rf"(?:(?P<letter>[{SUFFIX_CHARS}])(?![\w])|{SEP}(?P<upper>[A-F])(?!\w)|(?![\w]))"
)
ROMAN_REF_RE = re.compile(
    rf"(?<![\w.])(?P<num>[{ROMAN_CHARS}]+(?:{SEP}\d{{1,2}})(?:{SEP}[A-ZА-Я])?)(?![\w])")
BRACKET_REF_RE = re.compile(rf"\[(?P<num>(?:[{PREFIX_CHARS}]{{1,3}}\.?)?\d{{1,2}})\]")
CHAPTER_REF_RE = re.compile(
    rf"(?<![\w])(?i:{REFERENCE_WORDS})[ \u00a0]+"
    rf"(?P<num>\d{{1,2}}|[{ROMAN_CHARS}]+)(?![\w]|\.\w)")
LETTER_RANGE_RE = re.compile(r"[ \u00a0]?[–—-][ \u00a0]?(?P<letter>[a-z])(?![\w])")

# ---------------------------------------------------------------- numbers typed as a query

QUERY_WORDS_RE = re.compile(rf"^(?:{QUERY_WORDS})\s*", re.IGNORECASE)
NUMBER_QUERY_RE = re.compile(
    rf"^(?:(?:[{PREFIX_CHARS}]{{1,3}}\s*\.?\s*)?\d{{1,3}}(?:\s*\.\s*(?:\d{{1,3}}|[A-Z]))*\s*\.?\s*[{SUFFIX_CHARS}]?"
    rf"|[{ROMAN_CHARS}]+(?:\s*\.\s*(?:\d{{1,2}}|[A-Z]))*)$", re.IGNORECASE)
ROMAN_QUERY_RE = re.compile(rf"[{ROMAN_CHARS}]+")
SMALL_PREFIX_RE = re.compile(r"^[а-яё]+")


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


def number_query(query: str, patterns: Iterable[str] = ()) -> str | None:
    """The id a search query names when it is a rule number in any printed form (``9. 3. 1``, ``О22.3``,
    ``п. 3.1e``, ``[13]``, ``Article 5``, ``Статья 5``, a book's own form), else None. The id is normalised but its
    case is as typed."""
    text = query.strip()
    for regex in compile_patterns(tuple(patterns)):
        m = regex.fullmatch(text)
        if m and m.group("num"):
            return pattern_number(m.group("num"))
    text = QUERY_WORDS_RE.sub("", text).strip()
    if len(text) > 2 and text[0] + text[-1] in ("[]", "()"):
        text = text[1:-1].strip()
    text = SMALL_PREFIX_RE.sub(lambda m: m.group().upper(), text)  # a prefix typed in small letters: "о22.3"
    if ROMAN_QUERY_RE.fullmatch(text) and text.isupper():
        return latinise(text)  # "XII": a Roman chapter, typed in capitals (a word in small letters stays a word)
    if not NUMBER_QUERY_RE.match(text) or not DIGIT_RE.search(text):
        return None
    return chapter_of(normalise(text))


# ---------------------------------------------------------------- for the browser


def browser_grammar(own_forms: list[str], js_regex) -> dict:
    """How the server reads a number typed as a query (``number_query``), as data for the offline search: the
    book's own forms and the grammar's patterns in JavaScript's syntax (``js_regex`` translates), the Roman
    numerals, and the Cyrillic letters of a number in Latin."""
    return {"patterns": own_forms, "words": js_regex(QUERY_WORDS_RE.pattern),
            "number": js_regex(NUMBER_QUERY_RE.pattern), "roman": ROMAN_CHARS,
            "latin": {**CYRILLIC_CAPITALS, **CYRILLIC_SMALL},
            "dots": js_regex(DOTS_RE.pattern), "ownSeparators": js_regex(OWN_SEPARATORS_RE.pattern),
            "digit": js_regex(DIGIT_RE.pattern), "smallPrefix": js_regex(SMALL_PREFIX_RE.pattern),
            "prefixVariant": js_regex(PREFIX_VARIANT_RE.pattern)}
