"""The one text normalisation of the site: folding, word splitting, transliteration and stems.

Search (the database index and the query), the glossary's term matcher, the translation memory, the QA checks, the
importer and the offline index all read words through this module, so a word is the same word everywhere; the
browser's offline search receives the tables below as data (``browser_tables``), never copies of them.

- **Folding**: ``fold`` (lower case, ё as е: how words are compared; keeps the length, so offsets into the folded
  text are offsets into the text), ``fold_word`` (also ’ as '), ``fold_key`` (case-folded, ё as е, runs of white
  space as one space: how whole lines and paragraphs are compared), ``sort_key`` (alphabetical order in either
  script, quotes ignored).
- **Words**: ``WORD_RE`` (runs of letters and digits: the search index's words), ``TERM_WORD_RE`` (with an
  apostrophe inside: the glossary's and the memory's words, "don't" one word), ``COUNTED_WORD_RE`` (hyphenated and
  elided words as one: the translators' word counts), ``LETTER_WORD_RE`` (letters only, hyphenated compounds as one:
  number words such as "two-hex").
- **Transliteration**: one table each way. Russian to Latin spells as an English reader would (й → y, х → h,
  ю → yu, я → ya): it serves "did you mean" across scripts, where a Russian spelling of an English word must come
  out near the English word (хеджхог → hedgehog, йомен → yeoman), and the readable ids of unnumbered headings
  (``slugify``). Latin to Russian reads both spellings of х (kh and h). Ids already in a corpus never change with
  the table: the importer keeps the id of a heading it has imported before (same title, same parent).
- **Stems**: Snowball (PyStemmer), each word in the stemmer of its own script, as PostgreSQL's configurations do.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import Stemmer

STEMMER_NAMES = {"ru": "russian", "en": "english"}

WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)
TERM_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
COUNTED_WORD_RE = re.compile(r"[^\W_]+(?:[-'’][^\W_]+)*")
LETTER_WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
CYRILLIC_RE = re.compile(r"[а-яё]", re.I)
SPACE_RE = re.compile(r"\s+")
QUOTES_RE = re.compile(r"[«»“”\"'()]")

RUSSIAN_ALPHABET = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя"
TO_LATIN = dict(zip(RUSSIAN_ALPHABET,
                    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
                     "t", "u", "f", "h", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"], strict=True))
TO_LATIN_PAIRS = {"дж": "dg"}  # an English j or g spelt in Cyrillic (хеджхог: hedgehog)
TO_CYRILLIC = [("shch", "щ"), ("zh", "ж"), ("kh", "х"), ("ts", "ц"), ("ch", "ч"), ("sh", "ш"), ("yu", "ю"),
               ("ya", "я"), ("a", "а"), ("b", "б"), ("v", "в"), ("g", "г"), ("d", "д"), ("e", "е"), ("z", "з"),
               ("i", "и"), ("y", "й"), ("k", "к"), ("l", "л"), ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"),
               ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"), ("f", "ф"), ("h", "х"), ("c", "к"), ("w", "в"),
               ("x", "кс"), ("q", "к"), ("j", "дж")]
FOLDS = {"ё": "е"}


# ---------------------------------------------------------------- folding


def fold(text: str) -> str:
    """The text as words are compared: lower case, ё as е (the length is kept)."""
    text = text.lower()
    for letter, replacement in FOLDS.items():
        text = text.replace(letter, replacement)
    return text


def fold_word(word: str) -> str:
    """A word as the glossary compares it: folded, the typographic apostrophe as the plain one."""
    return fold(word).replace("’", "'")


def fold_key(text: str) -> str:
    """A line or paragraph as it is compared whole: case-folded, ё as е, runs of white space as one space."""
    text = SPACE_RE.sub(" ", text).strip().casefold()
    for letter, replacement in FOLDS.items():
        text = text.replace(letter, replacement)
    return text


def sort_key(text: str) -> str:
    """Alphabetical order in either script (ё sorts with е; quotes and case ignored)."""
    return fold_key(QUOTES_RE.sub("", text))


# ---------------------------------------------------------------- words


def words(text: str) -> list[str]:
    """The words of a folded text as the search index holds them."""
    return WORD_RE.findall(text)


def term_words(text: str) -> list[tuple[int, int, str]]:
    """The words of a text with their offsets, as the glossary and the memory read them."""
    return [(m.start(), m.end(), m.group()) for m in TERM_WORD_RE.finditer(text)]


def word_count(text: str) -> int:
    """The words of a text as the translators' progress counts them (a hyphenated or elided word is one)."""
    return len(COUNTED_WORD_RE.findall(text))


def script_of(word: str) -> str:
    return "ru" if CYRILLIC_RE.search(word) else "en"


# ---------------------------------------------------------------- transliteration


def to_latin(word: str) -> str:
    for pair, latin in TO_LATIN_PAIRS.items():
        word = word.replace(pair, latin)
    return "".join(TO_LATIN.get(ch, ch) for ch in word)


def to_cyrillic(word: str) -> str:
    out, i = [], 0
    while i < len(word):
        for latin, cyrillic in TO_CYRILLIC:
            if word.startswith(latin, i):
                out.append(cyrillic)
                i += len(latin)
                break
        else:
            out.append(word[i])
            i += 1
    return "".join(out)


def slugify(text: str) -> str:
    """A readable id for a heading without a number: its words in Latin letters, joined by hyphens."""
    out = to_latin(unicodedata.normalize("NFKC", text).lower())
    out = re.sub(r"[^a-z0-9]+", "-", out).strip("-")
    if out and not out[0].isalpha():
        out = "s-" + out
    return out[:60].rstrip("-") or "section"


# ---------------------------------------------------------------- stems


@lru_cache(maxsize=None)
def stemmer(lang: str) -> Stemmer.Stemmer:
    return Stemmer.Stemmer(STEMMER_NAMES[lang])


@lru_cache(maxsize=200_000)
def stem_word(word: str) -> str:
    """A word's Snowball stem, in the stemmer of its own script (the word already folded)."""
    return stemmer(script_of(word)).stemWord(word)


def word_stems(text: str) -> list[str]:
    """The stems of a text's words, as the search index holds them."""
    return [stem_word(w) for w in WORD_RE.findall(fold(text))]


def term_stems(text: str, lang: str) -> list[str]:
    """The stems of a text's words in one language's stemmer, as the glossary matches them."""
    return stemmer(lang).stemWords([fold_word(w) for _, _, w in term_words(text)])


# ---------------------------------------------------------------- for the browser


def browser_tables() -> dict:
    """What the offline search needs of this module, as data: the folds, the two transliteration tables and the
    words' pattern (in JavaScript's syntax: letters and digits)."""
    return {"folds": dict(FOLDS), "toLatin": dict(TO_LATIN), "toLatinPairs": dict(TO_LATIN_PAIRS),
            "toCyrillic": [list(pair) for pair in TO_CYRILLIC], "word": r"[\p{L}\p{N}]+",
            "cyrillic": "[а-яё]"}
