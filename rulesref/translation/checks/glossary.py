"""Glossary checks: a source term without its required translation, a forbidden variant, and one term written in
two ways across the book (in the source or in the translation)."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
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
        problems = []
        for match in context.glossary.terms_in(source, context.source_language):
            term = match.term
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


@dataclass(frozen=True)
class TermUse:
    """One use of a glossary term in a text: where, which term, in which written form (its stems) and as written."""

    sid: str
    paragraph: int
    term: str
    form: tuple[str, ...]
    written: str


def term_uses(sid: str, units: TextUnits, lang: str, glossary: Glossary) -> list[TermUse]:
    """The uses of glossary terms in one section's text (title and paragraphs), abbreviations and forbidden variants
    left out: what the "spelt two ways" check compares across the book."""
    uses = []
    for paragraph, text in enumerate((units.title, *units.blocks)):
        for match in glossary.find(text, lang):
            if not (match.forbidden or match.abbreviation):
                uses.append(TermUse(sid, paragraph, match.term.id, tuple(stems(match.form, lang)),
                                    text[match.start:match.end]))
    return uses


@dataclass
class FormUses:
    """How one term is written in one form across a book: how often, as first written (in book order), the first
    sections using it (up to six, in book order), and the places (section, paragraph, as written) asked about —
    every place, or only those of the sections being checked."""

    count: int = 0
    first_written: str = ""
    first_sections: list[str] = field(default_factory=list)
    places: list[tuple[str, int, str]] = field(default_factory=list)


def forms_of(uses: list[TermUse]) -> dict[str, dict[tuple[str, ...], FormUses]]:
    """Term id → form → its uses, from every use of the book in book order."""
    terms: dict[str, dict[tuple[str, ...], FormUses]] = defaultdict(dict)
    for use in uses:
        found = terms[use.term].setdefault(use.form, FormUses(first_written=use.written))
        found.count += 1
        if use.sid not in found.first_sections and len(found.first_sections) < SECTIONS_SHOWN + 1:
            found.first_sections.append(use.sid)
        found.places.append((use.sid, use.paragraph, use.written))
    return terms


SECTIONS_SHOWN = 5  # "… but “X” in 9.3.1, 9.3.2, 11.4 …": the sections named where the preferred form is used


class TermConsistencyCheck(Check):
    """Book scope: the same glossary term written in two different ways in one language of one book.

    The comparison itself (:meth:`problems`) reads per-form summaries, so the workspace can give it summaries kept in
    the database (rulesref/translation/qa.py) instead of every text of the book."""

    check_id = "glossary-consistency"
    name = _("Term spelt two ways")
    description = _("One glossary term is written in different ways across the rulebook.")
    scope = "book"

    def check(self, source: dict[str, TextUnits], target: dict[str, TextUnits], context: CheckContext) -> list[Problem]:
        problems = []
        for texts, lang, is_source in ((source, context.source_language, True),
                                       (target, context.target_language, False)):
            uses = [u for sid, units in texts.items() for u in term_uses(sid, units, lang, context.glossary)]
            problems += self.problems(forms_of(uses), lang, is_source, context)
        return problems

    def preferred(self, term_id: str, forms: dict[tuple[str, ...], object], lang: str, glossary: Glossary,
                  counts: dict[tuple[str, ...], int]) -> tuple[str, ...]:
        """The form the others are measured against: the glossary's own, when the book uses it, else the commonest
        (ties: the greatest form, so the choice never depends on the order of the texts)."""
        own = tuple(stems(glossary.by_id[term_id].term(lang), lang))
        return own if own in forms else max(forms, key=lambda k: (counts[k], k))

    def odd_forms(self, forms: dict[tuple[str, ...], object], preferred: tuple[str, ...]) -> list[tuple[str, ...]]:
        """The forms that do not say the same as the preferred one."""
        return [key for key in forms if not same_wording(key, preferred)]

    def problems(self, terms: dict[str, dict[tuple[str, ...], FormUses]], lang: str, is_source: bool,
                 context: CheckContext) -> list[Problem]:
        problems = []
        for term_id, forms in terms.items():
            if len(forms) < 2:
                continue
            preferred = self.preferred(term_id, forms, lang, context.glossary,
                                       {key: uses.count for key, uses in forms.items()})
            best = forms[preferred]
            elsewhere = ", ".join(best.first_sections[:SECTIONS_SHOWN]) + (
                " …" if len(best.first_sections) > SECTIONS_SHOWN else "")
            term = context.glossary.by_id[term_id]
            for key in self.odd_forms(forms, preferred):
                problems += self._places(forms[key].places, term, best.first_written, elsewhere, lang, is_source,
                                         context)
        return problems

    def _places(self, places, term: Term, preferred: str, elsewhere: str, lang: str, is_source: bool,
                context: CheckContext) -> list[Problem]:
        if is_source:
            message = gettext_noop("The source writes the term %(term)s as %(found)s here but as "
                                   "%(preferred)s in %(sections)s")
        else:
            message = gettext_noop("The term %(term)s is written %(found)s here but %(preferred)s in %(sections)s")
        problems, reported = [], set()
        for sid, paragraph, written in places:
            if (sid, paragraph) in reported:
                continue
            reported.add((sid, paragraph))
            problems.append(self.problem(
                context, message, severity=WARNING if is_source else ERROR, section=sid, paragraph=paragraph,
                term=quoted([term.term(context.target_language)]), found=quoted([written]),
                preferred=quoted([preferred]), sections=elsewhere,
                langs={"term": context.target_language, "found": lang, "preferred": lang,
                       "sections": "zxx"}))  # section ids: no language
        return problems


__all__ = ["GlossaryTermCheck", "ForbiddenTermCheck", "TermConsistencyCheck", "TermUse", "FormUses",
           "term_uses", "forms_of", "contains_term", "TITLE"]
