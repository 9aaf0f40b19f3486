"""The clauses a ruling cites: read from what an editor types, checked against the rulebook, and compared with what
they said when the ruling was last confirmed.

A citation is a section and optionally a clause letter (``9.3.1c``). What it "says" is the text of that clause in
each language: for a lettered clause its own paragraph (a change elsewhere in the section does not count), else the
section's title and every paragraph. A ruling "may be outdated" while a cited clause says something else than when
it was confirmed: in the rulebook's source language (the rule itself) for every reader, in its translation for the
readers of the translation — as a section's translation is outdated when its source changes, the digest of what it
was made from being kept and compared, never a flag written by the change (rulesref/translation/workflow.py). The
revision that changed it is found in the book's history (rulesref/reference/history.py), only for the citations
that changed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from rulesref.reference.corpus import clause_label, digest, split_blocks
from rulesref.reference.index import BookIndex
from rulesref.reference.models import LANGUAGE_CHOICES, Book, Section, SectionText, TextVersion

MAX_CITATIONS = 20
LANGUAGES = tuple(code for code, _name in LANGUAGE_CHOICES)
SPLIT_RE = re.compile(r"\s*[,;]\s*|\s+(?:и|and)\s+|\n")


@dataclass(frozen=True)
class Cited:
    sid: str
    clause: str = ""

    @property
    def label(self) -> str:
        return f"{self.sid}{self.clause}"


class CitationError(ValueError):
    """What an editor typed names no clause of the rulebook; the message says which and why."""


def clause_paragraphs(title: str, body: str, letter: str) -> list[str]:
    """The paragraphs a citation points at: a lettered clause's own paragraph, else the title and every paragraph."""
    blocks = split_blocks(body)
    if letter:
        found = next((b for b in blocks if clause_label(b) == letter), None)
        if found is not None:
            return [found]
    return [b for b in (title, *blocks) if b.strip()]


def text_digest(title: str, body: str, letter: str) -> str:
    """What a clause says, as a digest (empty text: the clause is not there)."""
    paragraphs = clause_paragraphs(title, body, letter)
    return digest("\n\n".join(paragraphs)) if paragraphs else ""


def translation_language(source: str) -> str:
    """The language a rulebook is translated into (the one of the two that is not its source)."""
    return next(lang for lang in LANGUAGES if lang != source)


def current_digest(index: BookIndex, sid: str, letter: str, lang: str = "") -> str:
    """What the clause says now in ``lang`` (the rulebook's source language when not given), kept with the book's
    index, which lives as long as its content version. Empty when the section or the clause is not there in that
    language."""
    lang = lang or index.source

    def build() -> str:
        entry = index.entries.get(sid)
        if entry is None or entry.absent:
            return ""
        body = entry.bodies.get(lang)
        if body is None:
            return ""
        if letter and not any(clause_label(b) == letter for b in split_blocks(body)):
            return ""  # the clause is gone: its section's other text does not stand for it
        return text_digest(entry.titles.get(lang, ""), body, letter)

    return index.fragment(("ruling-clause", sid, letter, lang), build)


def changed_now(index: BookIndex, citation) -> bool:
    """Whether the clause a citation names says something else now than when the ruling was confirmed, in the
    rulebook's source or in its translation: what a reviewer's confirmation answers, for both languages."""
    return (current_digest(index, citation.sid, citation.clause) != citation.digest
            or current_digest(index, citation.sid, citation.clause, translation_language(index.source))
            != citation.translated_digest)


def parse(raw: str, book: Book) -> list[Cited]:
    """The clauses named in ``raw`` ("9.3.1c, 11.4.2", "п. 9.3.1c и 11. 4. 2"), each checked against the
    rulebook: numbers are read by the site's own grammar (search's ``find_section``: any printed form, the book's own
    forms), a section known by a slug by its id. Reads the few sections named, never the whole book; CitationError
    names the first that is not one of its clauses."""
    found: list[Cited] = []
    for part in (p.strip(" .()[]") for p in SPLIT_RE.split(raw or "")):
        if not part:
            continue
        cited = _one(part, book)
        if cited not in found:
            found.append(cited)
    if not found:
        raise CitationError(_("Name at least one clause the ruling answers, such as 9.3.1c."))
    if len(found) > MAX_CITATIONS:
        raise CitationError(_("A ruling cites at most %(n)s clauses.") % {"n": MAX_CITATIONS})
    return found


def _one(part: str, book: Book) -> Cited:
    from rulesref.reference.search import find_section

    hit = find_section(part, [book])
    sid, clause = (hit[1], hit[2]) if hit else (part, "")
    section = Section.objects.filter(book=book, sid=sid).first()
    if section is None:
        raise CitationError(_("“%(text)s” is not a section of this rulebook.") % {"text": part[:40]})
    if section.absent:
        raise CitationError(_("Section %(id)s is not in this corpus: a ruling cannot cite it.") % {"id": sid})
    if clause:
        bodies = SectionText.objects.filter(section=section).values_list("body", flat=True)
        if not any(clause_label(b) == clause for body in bodies for b in split_blocks(body)):
            raise CitationError(_("Section %(id)s has no clause %(letter)s).") % {"id": sid, "letter": clause})
    return Cited(sid, clause)


def digests_now(book: Book, cited) -> dict[tuple[str, str], str]:
    """What each cited clause says now in the rulebook's source language (digests_by_language)."""
    return digests_by_language(book, cited)[book.source_language]


def digests_by_language(book: Book, cited) -> dict[str, dict[tuple[str, str], str]]:
    """What each cited clause says now in each language, read from the database: one query for the few sections
    cited (a write never reads the rest of the book)."""
    sids = sorted({c.sid for c in cited})
    texts = {(sid, lang): (title, body) for sid, lang, title, body in SectionText.objects.filter(
        section__book=book, section__sid__in=sids, section__absent=False).values_list(
        "section__sid", "language", "title", "body")}
    out: dict[str, dict[tuple[str, str], str]] = {lang: {} for lang in LANGUAGES}
    for lang in LANGUAGES:
        for c in cited:
            title, body = texts.get((c.sid, lang), ("", ""))
            if c.clause and not any(clause_label(b) == c.clause for b in split_blocks(body)):
                out[lang][(c.sid, c.clause)] = ""
            else:
                out[lang][(c.sid, c.clause)] = text_digest(title, body, c.clause) if (title or body) else ""
    return out


def written(citations) -> str:
    """Citations as an editor types them: "9.3.1c, 11.4.2"."""
    return ", ".join(c.label for c in citations)


def changed_in(book: Book, sid: str, letter: str, since: int, confirmed_digest: str, lang: str = "") -> int | None:
    """The first revision after ``since`` in which the clause stopped saying what it said (``confirmed_digest``) in
    ``lang`` (the source language when not given), from the book's history: the versions of that one section's
    text in that language."""
    versions = TextVersion.objects.filter(book=book, sid=sid, language=lang or book.source_language).order_by("since")
    for version in versions.only("title", "body", "since", "until"):
        if version.since > since and text_digest(version.title, version.body, letter) != confirmed_digest:
            return version.since
        if version.until is not None and version.until > since and not versions.filter(since=version.until).exists():
            return version.until  # the text went at that revision and nothing took its place
    return None
