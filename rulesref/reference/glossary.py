"""The per-rulebook glossary and a term matcher that understands inflection.

Pure Python (no Django): the reference pages use it for term tooltips, the translation QA checks use it to find
source terms and their required translations, search uses its stemmer.

Matching works on words, never inside them: the text and every term form are split into words and each word is
reduced to its Snowball stem (PyStemmer; Russian and English), so "хиты построения", "хитов построения" and
"хиту построения" are one term, and "intercepting" matches "interception". Multi-word terms match as phrases
(words in order, separated only by spaces, quotes or hyphens). Abbreviations (ПД, MP, LOS) match exactly.
Where several terms start at one word, the longest wins.

An entry may name the *other senses* of its words that it does not cover (``en_other_senses``,
``ru_other_senses``): "pass through" is not the action of passing, "in advance" is not an advance after combat.
Each is matched like a term form (by stems, so "passes through" and "passing through" count too) and hides its
entry, and only its entry, wherever it matches. A one-word other sense whose stem is that of one of the entry's
own forms ("active" beside "activation", "moving" beside "move") is matched as written, case aside, since by
its stem it would hide the entry everywhere.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rulesref.text import TERM_WORD_RE as WORD_RE  # noqa: F401 (the name the checks read)
from rulesref.text import fold_word, sort_key, stemmer, term_stems, term_words  # noqa: F401

LANGUAGES = ("ru", "en")
# What may stand between two words of one term: spaces, quotes, hyphens (not sentence punctuation).
JOINER_RE = re.compile(r"^[\s«»“”„\"'‘’\-–—]*$")
REQUIRED = ("id", "en", "ru", "definition_en", "definition_ru", "confidence", "category")
LIST_KEYS = ("en_variants", "ru_variants", "ru_forbidden", "sections", "en_other_senses", "ru_other_senses")


class GlossaryError(ValueError):
    pass


@dataclass(frozen=True)
class Term:
    id: str
    en: str
    ru: str
    definition_en: str
    definition_ru: str
    confidence: str
    category: str
    en_variants: tuple[str, ...] = ()
    ru_variants: tuple[str, ...] = ()
    ru_forbidden: tuple[str, ...] = ()
    abbr_en: str = ""
    abbr_ru: str = ""
    sections: tuple[str, ...] = ()
    en_other_senses: tuple[str, ...] = ()
    ru_other_senses: tuple[str, ...] = ()

    def term(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en

    def definition(self, lang: str) -> str:
        return self.definition_ru if lang == "ru" else self.definition_en

    def abbreviation(self, lang: str) -> str:
        return self.abbr_ru if lang == "ru" else self.abbr_en

    def forms(self, lang: str) -> tuple[str, ...]:
        """Accepted written forms (the term and its variants; inflections are found by stemming)."""
        return (self.ru, *self.ru_variants) if lang == "ru" else (self.en, *self.en_variants)

    def forbidden(self, lang: str) -> tuple[str, ...]:
        return self.ru_forbidden if lang == "ru" else ()

    def other_senses(self, lang: str) -> tuple[str, ...]:
        """Phrases where the term's words mean something this entry does not cover."""
        return self.ru_other_senses if lang == "ru" else self.en_other_senses


@dataclass(frozen=True)
class TermMatch:
    start: int
    end: int
    term: Term
    form: str
    forbidden: bool = False
    abbreviation: bool = False


normalise_word = fold_word
words = term_words
stems = term_stems


def load_glossary(path: Path) -> list[Term]:
    """Read one book's glossary file; every problem names the file and the entry."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except tomllib.TOMLDecodeError as exc:
        raise GlossaryError(f"{path}: invalid TOML: {exc}") from None
    terms, seen = [], set()
    for index, entry in enumerate(data.get("term", [])):
        where = f"{path}: term[{index}]" + (f" ({entry['id']})" if "id" in entry else "")
        _check_entry(entry, where, seen)
        seen.add(entry["id"])
        terms.append(_term(entry))
    return terms


def _check_entry(entry: dict, where: str, seen: set[str]) -> None:
    """An entry has every required field, a new id, lists of non-empty strings, and no other sense that is also a
    form of the term."""
    missing = [k for k in REQUIRED if not isinstance(entry.get(k), str) or not entry.get(k)]
    if missing:
        raise GlossaryError(f"{where}: missing or empty {', '.join(missing)}")
    if entry["id"] in seen:
        raise GlossaryError(f"{where}: duplicate id")
    for key in LIST_KEYS:
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise GlossaryError(f"{where}: {key} must be a list of non-empty strings")
    for lang in LANGUAGES:
        own = {normalise_word(f) for f in [entry[lang], *entry.get(f"{lang}_variants", [])]}
        clash = own & {normalise_word(f) for f in entry.get(f"{lang}_other_senses", [])}
        if clash:
            raise GlossaryError(f"{where}: {', '.join(sorted(clash))} is both a form of the term and one of "
                                f"its other senses ({lang}_other_senses)")


def _term(entry: dict) -> Term:
    return Term(
        id=entry["id"], en=entry["en"], ru=entry["ru"], definition_en=entry["definition_en"],
        definition_ru=entry["definition_ru"], confidence=entry["confidence"], category=entry["category"],
        en_variants=tuple(entry.get("en_variants", [])), ru_variants=tuple(entry.get("ru_variants", [])),
        ru_forbidden=tuple(entry.get("ru_forbidden", [])), abbr_en=entry.get("abbr_en", ""),
        abbr_ru=entry.get("abbr_ru", ""), sections=tuple(entry.get("sections", [])),
        en_other_senses=tuple(entry.get("en_other_senses", [])),
        ru_other_senses=tuple(entry.get("ru_other_senses", [])),
    )


@dataclass
class TermMatcher:
    """Finds glossary terms in text of one language."""

    terms: list[Term]
    lang: str
    _phrases: dict[str, list[tuple[tuple[str, ...], Term, str, bool]]] = field(default_factory=dict, repr=False)
    _abbreviations: dict[str, Term] = field(default_factory=dict, repr=False)
    # first stem -> (stems of an other sense, the entry it hides, the written word it must be, if one word)
    _senses: dict[str, list[tuple[tuple[str, ...], str, str | None]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for term in self.terms:
            own_stems = set()
            for form, forbidden in [(f, False) for f in term.forms(self.lang)] + \
                                   [(f, True) for f in term.forbidden(self.lang)]:
                key = tuple(stems(form, self.lang))
                if key:
                    self._phrases.setdefault(key[0], []).append((key, term, form, forbidden))
                    own_stems.update(key)
            for sense in term.other_senses(self.lang):
                key = tuple(stems(sense, self.lang))
                if key:
                    written = normalise_word(sense) if len(key) == 1 and key[0] in own_stems else None
                    self._senses.setdefault(key[0], []).append((key, term.id, written))
            abbreviation = term.abbreviation(self.lang)
            if abbreviation:
                self._abbreviations[abbreviation] = term
        for candidates in self._phrases.values():
            candidates.sort(key=lambda c: -len(c[0]))

    def _phrase_at(self, text: str, tokens: list, token_stems: list[str], i: int, key: tuple[str, ...]) -> bool:
        """Whether the words from token i on are ``key``, joined only by spaces, quotes or hyphens."""
        n = len(key)
        return tuple(token_stems[i:i + n]) == key and \
            all(JOINER_RE.match(text[tokens[j][1]:tokens[j + 1][0]]) for j in range(i, i + n - 1))

    def _hidden(self, text: str, tokens: list, token_stems: list[str]) -> dict[int, set[str]]:
        """token index -> ids of the entries that an other sense matching over that token hides there."""
        hidden: dict[int, set[str]] = {}
        for i, stem in enumerate(token_stems):
            for key, term_id, written in self._senses.get(stem, ()):
                if written is not None and normalise_word(tokens[i][2]) != written:
                    continue
                if self._phrase_at(text, tokens, token_stems, i, key):
                    for j in range(i, i + len(key)):
                        hidden.setdefault(j, set()).add(term_id)
        return hidden

    def find(self, text: str) -> list[TermMatch]:
        """Every term occurrence, left to right, without overlaps (the longest phrase wins)."""
        tokens = words(text)
        token_stems = stemmer(self.lang).stemWords([normalise_word(w) for _, _, w in tokens])
        hidden = self._hidden(text, tokens, token_stems) if self._senses else {}
        found: list[TermMatch] = []
        i = 0
        while i < len(tokens):
            start, end, word = tokens[i]
            if word in self._abbreviations:
                found.append(TermMatch(start, end, self._abbreviations[word], word, abbreviation=True))
                i += 1
                continue
            match = None
            for key, term, form, forbidden in self._phrases.get(token_stems[i], ()):
                n = len(key)
                if hidden and any(term.id in hidden.get(j, ()) for j in range(i, i + n)):
                    continue
                if self._phrase_at(text, tokens, token_stems, i, key):
                    match = TermMatch(start, tokens[i + n - 1][1], term, form, forbidden)
                    i += n
                    break
            if match:
                found.append(match)
            else:
                i += 1
        return found


@dataclass
class Glossary:
    book: str
    terms: list[Term]
    stamp: float = 0.0  # the file's modification time when read: caches of what was built from it key on it

    def __post_init__(self) -> None:
        self.by_id = {t.id: t for t in self.terms}
        self._matchers: dict[str, TermMatcher] = {}

    def matcher(self, lang: str) -> TermMatcher:
        if lang not in self._matchers:
            self._matchers[lang] = TermMatcher(self.terms, lang)
        return self._matchers[lang]

    def find(self, text: str, lang: str) -> list[TermMatch]:
        return self.matcher(lang).find(text)

    def terms_in(self, text: str, lang: str) -> list[TermMatch]:
        """The first match of each term in a text, in order, forbidden variants left out: the terms a translation
        of the text needs (the QA term check, the editor's glossary panel and suggestions, the exported hints)."""
        seen: set[str] = set()
        out = []
        for match in self.find(text, lang):
            if not match.forbidden and match.term.id not in seen:
                seen.add(match.term.id)
                out.append(match)
        return out


def glossary_path(fixtures_dir: Path, book: str) -> Path:
    return fixtures_dir / "glossary" / f"{book}.toml"


_loaded: dict[str, Glossary] = {}


def book_glossary(fixtures_dir: Path, book: str) -> Glossary:
    """The book's glossary, read once per change of its file."""
    path = glossary_path(fixtures_dir, book)
    stamp = path.stat().st_mtime if path.exists() else 0.0
    loaded = _loaded.get(str(path))
    if loaded is None or loaded.stamp != stamp:
        loaded = _loaded[str(path)] = Glossary(book, load_glossary(path), stamp)
    return loaded


def glossary_stamp(fixtures_dir: Path, book: str) -> float:
    """Changes when the book's glossary file changes (part of the page-cache key)."""
    path = glossary_path(fixtures_dir, book)
    return path.stat().st_mtime if path.exists() else 0.0


def glossary_digest(fixtures_dir: Path, book: str) -> str:
    """A digest of the book's glossary file's content: the same on every server, unlike its modification time
    ("0" without a file)."""
    path = glossary_path(fixtures_dir, book)
    return _content_digest(str(path), glossary_stamp(fixtures_dir, book))


@lru_cache(maxsize=64)
def _content_digest(path: str, stamp: float) -> str:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha1(handle.read()).hexdigest()[:8]
    except FileNotFoundError:
        return "0"
