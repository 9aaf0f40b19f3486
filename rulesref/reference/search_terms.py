"""The glossary terms a query names, as search sees them: a term is named when the query has the stems of one of
its forms (in either language, or its abbreviation); its defining sections (the glossary's ``sections``) then rank
above the other texts, and a title naming a term typed exactly as one of its forms names the query. The offline
index ships the same forms (``term_forms``)."""
from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings

from rulesref.text import WORD_RE, fold, stem_word

from .glossary import Glossary, book_glossary
from .models import Book, Section


@dataclass(frozen=True)
class TermForms:
    """A glossary term as search sees it: each written form (its words, their stems) and its defining sections."""

    forms: tuple[tuple[tuple[str, ...], frozenset[str]], ...]
    sections: tuple[str, ...]


_forms: dict[int, tuple[Glossary, list[TermForms], dict[str, set[int]]]] = {}


def term_forms(glossary: Glossary) -> list[TermForms]:
    """Every term of a glossary with its forms in both languages and its abbreviations; once per glossary as read
    from its file."""
    return _glossary_forms(glossary)[1]


def _forms_of(term) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    forms = []
    for lang in ("ru", "en"):
        for form in (*term.forms(lang), term.abbreviation(lang)):
            words = tuple(WORD_RE.findall(fold(form)))
            if words:
                forms.append((words, frozenset(stem_word(w) for w in words)))
    return forms


def _glossary_forms(glossary: Glossary) -> tuple[Glossary, list[TermForms], dict[str, set[int]]]:
    """The glossary, its terms' forms (term_forms), and for each stem the terms (their places) with a form that
    has it: a query can name only a term with a form made of its stems alone, so only those terms are looked at."""
    cached = _forms.get(id(glossary))
    if cached is not None and cached[0] is glossary:
        return cached
    out, by_stem = [], {}
    for place, term in enumerate(glossary.terms):
        forms = _forms_of(term)
        for _, stems in forms:
            for stem in stems:
                by_stem.setdefault(stem, set()).add(place)
        out.append(TermForms(tuple(forms), term.sections))
    cached = _forms[id(glossary)] = (glossary, out, by_stem)
    return cached


def _terms_with_stems(glossary: Glossary, stems: set[str]) -> list[TermForms]:
    """The terms that have a form with one of these stems, in the glossary's order."""
    _, terms, by_stem = _glossary_forms(glossary)
    return [terms[place] for place in sorted({p for stem in stems for p in by_stem.get(stem, ())})]


@dataclass
class NamedTerms:
    """The glossary terms a query names, per book: their defining sections (ids), and the stems of every form of
    the terms typed exactly as one of their forms (a title naming such a term by any form names the query)."""

    sections: dict[int, set[int]] = field(default_factory=dict)
    typed_forms: dict[int, list[frozenset[str]]] = field(default_factory=dict)

    def names(self, book_id: int, stems: set[str]) -> bool:
        return any(form <= stems for form in self.typed_forms.get(book_id, ()))

    @property
    def defining(self) -> set[int]:
        """The defining sections of every book."""
        return {pk for pks in self.sections.values() for pk in pks}


def named_terms(q, books: list[Book]) -> NamedTerms:
    """The terms of the books' glossaries that the query names (see the module)."""
    named = NamedTerms()
    typed = tuple(q.words)
    for book in books:
        sids: set[str] = set()
        for term in _terms_with_stems(book_glossary(settings.FIXTURES_DIR, book.slug), q.wanted):
            if not any(stems <= q.wanted for _, stems in term.forms):
                continue
            sids.update(term.sections)
            if any(words == typed for words, _ in term.forms):
                named.typed_forms.setdefault(book.pk, []).extend(stems for _, stems in term.forms)
        if sids:
            ids = _glossary_section_ids(book)
            named.sections[book.pk] = {ids[sid] for sid in sids if sid in ids}
    return named


_section_ids: dict[int, tuple[tuple, dict[str, int]]] = {}


def _glossary_section_ids(book: Book) -> dict[str, int]:
    """Row ids of the sections the book's glossary names as defining sections (those present, not absent); read once
    per content version of the book and its glossary."""
    glossary = book_glossary(settings.FIXTURES_DIR, book.slug)
    stamp = (book.version, id(glossary))
    cached = _section_ids.get(book.pk)
    if cached is None or cached[0] != stamp:
        sids = {sid for term in term_forms(glossary) for sid in term.sections}
        found = dict(Section.objects.filter(book=book, sid__in=sids, absent=False).values_list("sid", "pk"))
        cached = _section_ids[book.pk] = (stamp, found)
    return cached[1]
