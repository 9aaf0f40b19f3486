"""Glossary checks: a source term without its required translation, a forbidden variant, and one term written in
two ways across the book (in the source or in the translation)."""
from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from rulesref.reference.glossary import (
    JOINER_RE,
    Glossary,
    Term,
    TermMatcher,
    normalise_word,
    stemmer,
    stems,
    words,
)

from .base import ERROR, TITLE, WARNING, Check, CheckContext, Problem, TextUnits, quoted


@lru_cache(maxsize=4096)
def _term_matcher(term: Term, lang: str) -> TermMatcher:
    return TermMatcher([term], lang)


GAP = "…"  # in a glossary form, where other words may stand: "active … unit" accepts "active enemy unit"
MAX_GAP_WORDS = 3
SENTENCE_BREAK_RE = re.compile(r"[.!?;:]")


def contains_term(text: str, term: Term, lang: str) -> bool:
    """Whether the text uses the term in any accepted form or inflection (or its abbreviation) in that language.
    A form written with "…" accepts up to three words in its place, within one sentence."""
    if any(not m.forbidden for m in _term_matcher(term, lang).find(text)):
        return True
    gapped = [form for form in term.forms(lang) if GAP in form]
    if not gapped:
        return False
    tokens = words(text)
    token_stems = stemmer(lang).stemWords([normalise_word(w) for _, _, w in tokens])
    return any(_gapped_match(text, tokens, token_stems, _gap_parts(form, lang)) for form in gapped)


@lru_cache(maxsize=1024)
def _gap_parts(form: str, lang: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(stems(part, lang)) for part in form.split(GAP) if stems(part, lang))


def _gapped_match(text: str, tokens, token_stems: list[str], parts) -> bool:
    """Whether the parts occur in order, each a phrase, with at most MAX_GAP_WORDS words between two of them and
    no sentence break."""

    def phrase_at(i: int, part: tuple[str, ...]) -> bool:
        return tuple(token_stems[i:i + len(part)]) == part and all(
            JOINER_RE.match(text[tokens[k][1]:tokens[k + 1][0]]) for k in range(i, i + len(part) - 1))

    def rest_from(end: int, remaining) -> bool:
        if not remaining:
            return True
        part = remaining[0]
        for j in range(end, min(end + MAX_GAP_WORDS, len(tokens) - len(part)) + 1):
            if SENTENCE_BREAK_RE.search(text[tokens[end - 1][1]:tokens[j][0]]):
                break
            if phrase_at(j, part) and rest_from(j + len(part), remaining[1:]):
                return True
        return False

    if not parts:
        return False
    first = parts[0]
    return any(phrase_at(i, first) and rest_from(i + len(first), parts[1:]) for i in range(len(tokens)))


class GlossaryTermCheck(Check):
    check_id = "glossary"
    name = _("Glossary term")
    description = _("A glossary term of the source needs the translation the glossary gives for it.")
    severity = WARNING

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        problems, seen = [], set()
        for match in context.glossary.find(source, context.source_language):
            term = match.term
            if match.forbidden or term.id in seen:
                continue
            seen.add(term.id)
            if not contains_term(target, term, context.target_language):
                problems.append(self.problem(
                    context, gettext_noop("The source term %(source)s needs %(required)s in the translation"),
                    source=quoted([source[match.start:match.end]]), required=quoted([term.term(context.target_language)]),
                    langs={"source": context.source_language, "required": context.target_language}))
        return problems


class ForbiddenTermCheck(Check):
    check_id = "glossary-forbidden"
    name = _("Forbidden term variant")
    description = _("A variant of a term that the glossary forbids in this rulebook.")

    def check(self, source: str, target: str, context: CheckContext) -> list[Problem]:
        problems = []
        for text, lang, severity, message in (
            (target, context.target_language, ERROR,
             gettext_noop("%(found)s is a forbidden variant of %(term)s: write %(term)s")),
            (source, context.source_language, WARNING,
             gettext_noop("The source uses %(found)s, a forbidden variant of %(term)s")),
        ):
            for match in context.glossary.find(text, lang):
                if match.forbidden:
                    problems.append(self.problem(context, message, severity=severity,
                                                 found=quoted([text[match.start:match.end]]),
                                                 term=quoted([match.term.term(lang)]),
                                                 langs={"found": lang, "term": lang}))
        return problems


def _related(a: str, b: str) -> bool:
    """Two word stems of one family: equal, or sharing a run of five letters (or the whole of a shorter stem):
    "move"/"movement", "отступа"/"отступлен", "группир"/"сгруппирова"."""
    if a == b:
        return True
    need = min(5, len(a), len(b))
    shorter, longer = sorted((a, b), key=len)
    return any(shorter[i:i + need] in longer for i in range(len(shorter) - need + 1))


@lru_cache(maxsize=4096)
def same_wording(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Whether two written forms of a term say the same thing: every word of the shorter form has a relative in the
    longer one ("Charge" / "Charge order", "moral state" / "state of morale", "pursue" / "pursuit"). "хиты
    построения" / "хиты формирования" do not: "построения" has no relative in the other form."""
    shorter, longer = sorted((a, b), key=len)
    return all(any(_related(w, v) for v in longer) for w in shorter)


class TermConsistencyCheck(Check):
    """Book scope: the same glossary term written in two different ways in one language of one book."""

    check_id = "glossary-consistency"
    name = _("Term spelt two ways")
    description = _("One glossary term is written in different ways across the rulebook.")
    scope = "book"

    def check(self, source: dict[str, TextUnits], target: dict[str, TextUnits], context: CheckContext) -> list[Problem]:
        problems = []
        for texts, lang, is_source in ((source, context.source_language, True),
                                       (target, context.target_language, False)):
            problems += self._language(texts, lang, is_source, context)
        return problems

    def _language(self, texts: dict[str, TextUnits], lang: str, is_source: bool,
                  context: CheckContext) -> list[Problem]:
        glossary: Glossary = context.glossary
        # term id -> written form (stem key) -> [(section, paragraph, text as written)]
        uses: dict[str, dict[tuple[str, ...], list[tuple[str, int, str]]]] = defaultdict(lambda: defaultdict(list))
        for sid, units in texts.items():
            for paragraph, text in enumerate((units.title, *units.blocks)):
                for match in glossary.find(text, lang):
                    if match.forbidden or match.abbreviation:
                        continue
                    key = tuple(stems(match.form, lang))
                    uses[match.term.id][key].append((sid, paragraph, text[match.start:match.end]))
        problems = []
        for term_id, forms in uses.items():
            if len(forms) < 2:
                continue
            term = glossary.by_id[term_id]
            preferred = tuple(stems(term.term(lang), lang))
            if preferred not in forms:
                preferred = max(forms, key=lambda k: (len(forms[k]), k))
            preferred_sections = list(dict.fromkeys(sid for sid, _, _ in forms[preferred]))
            elsewhere = ", ".join(preferred_sections[:5]) + (" …" if len(preferred_sections) > 5 else "")
            for key, places in forms.items():
                if same_wording(key, preferred):
                    continue
                reported = set()
                for sid, paragraph, written in places:
                    if (sid, paragraph) in reported:
                        continue
                    reported.add((sid, paragraph))
                    if is_source:
                        message = gettext_noop("The source writes the term %(term)s as %(found)s here but as "
                                               "%(preferred)s in %(sections)s")
                    else:
                        message = gettext_noop("The term %(term)s is written %(found)s here but %(preferred)s in "
                                               "%(sections)s")
                    problems.append(self.problem(
                        context, message, severity=WARNING if is_source else ERROR, section=sid, paragraph=paragraph,
                        term=quoted([term.term(context.target_language)]), found=quoted([written]),
                        preferred=quoted([forms[preferred][0][2]]), sections=elsewhere,
                        langs={"term": context.target_language, "found": lang, "preferred": lang,
                               "sections": "zxx"}))  # section ids: no language
        return problems


__all__ = ["GlossaryTermCheck", "ForbiddenTermCheck", "TermConsistencyCheck", "contains_term", "TITLE"]
