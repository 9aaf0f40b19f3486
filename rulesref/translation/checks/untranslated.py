"""Untranslated fragments: Cyrillic left in an English text; Latin words left in a Russian text that are neither
glossary terms nor quoted markers (counter labels such as «Morale Broken»); a paragraph identical to its source."""
from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from rulesref.reference.glossary import Glossary, normalise_word, stems
from rulesref.reference.numbering import ROMAN_WORD_RE

from .base import Check, CheckContext, Problem, quoted

CYRILLIC_RE = re.compile(r"[А-Яа-яЁё]+(?:[-’'][А-Яа-яЁё]+)*")
LATIN_RE = re.compile(r"[A-Za-z]+(?:['’-][A-Za-z]+)*")
QUOTED_RE = re.compile(r"«[^«»]*»|“[^“”]*”|„[^„“”]*[“”]|\"[^\"]*\"")
ROMAN_RE = ROMAN_WORD_RE
LETTERS = {"ru": re.compile(r"[А-Яа-яЁё]"), "en": re.compile(r"[A-Za-z]")}


def _glossary_latin(glossary: Glossary) -> frozenset[str]:
    """Stems of every Latin word the glossary uses: English terms and variants, abbreviations, Latin in Russian terms
    (kept on the glossary object, which is itself cached per change of its file)."""
    cached = getattr(glossary, "_latin_stems", None)
    if cached is not None:
        return cached
    out: set[str] = set()
    for term in glossary.terms:
        for text in (*term.forms("en"), *term.forms("ru"), term.abbr_en, term.abbr_ru):
            out.update(stems(" ".join(LATIN_RE.findall(text)), "en"))
    glossary._latin_stems = frozenset(out)
    return glossary._latin_stems


def _cyrillic_left(target: str, glossary: Glossary) -> list[str]:
    """Russian words in an English text, each once."""
    return list(dict.fromkeys(m.group() for m in CYRILLIC_RE.finditer(target)))


def _latin_left(target: str, glossary: Glossary) -> list[str]:
    """Latin words in a Russian text, each once, outside quotes (markers such as «Morale Broken»), leaving out
    single letters, Roman numerals and the glossary's own Latin words."""
    unquoted = QUOTED_RE.sub(lambda m: " " * len(m.group()), target)
    allowed = _glossary_latin(glossary)
    found = [m.group() for m in LATIN_RE.finditer(unquoted)
             if len(m.group()) >= 2 and not ROMAN_RE.match(m.group())
             and not all(s in allowed for s in stems(normalise_word(m.group()), "en"))]
    return list(dict.fromkeys(found))


# per target language: what finds the source language's words left in it, the message, and their language
LEFT_OVER = {
    "en": (_cyrillic_left, gettext_noop("Cyrillic text left in the translation: %(words)s"), "ru"),
    "ru": (_latin_left, gettext_noop("Latin words left in the translation that are not glossary terms or quoted "
                                     "markers: %(words)s"), "en"),
}


class UntranslatedCheck(Check):
    check_id = "untranslated"
    name = _("Untranslated text")
    description = _("Text of the source language left in the translation.")

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        letters = LETTERS.get(context.source_language)
        if target.strip() and target.strip() == source.strip() and letters and letters.search(source):
            return [self.problem(context, gettext_noop("The translation is the same as the source"))]
        if context.target_language not in LEFT_OVER:
            return []
        finder, message, words_lang = LEFT_OVER[context.target_language]
        found = finder(target, context.glossary)
        if not found:
            return []
        return [self.problem(context, message, words=quoted(found[:5]), langs={"words": words_lang})]
