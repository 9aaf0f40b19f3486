"""Rulings in the site's search, and in the offline copy's: the published rulings whose question or answer holds the
words of the query in any form, shown as a group of their own after the sections found, each under the clauses it
answers.

The words are read and matched by the site's own query model (``rulesref.reference.search_query.Query``: the folded
words of the query, their Snowball stems as the search index stems them, the last word a prefix once its stem has
``PREFIX_MIN`` letters; every word first, any word when none has them all), and highlighted as the sections' hits are
(``search_highlight``). They are ranked by the site's ranking (``rulesref.reference.search_ranking``: its tiers and
its order), a ruling's question standing for a section's title and its answer for its text: first the rulings whose
question has the words as typed, then those whose question has them in another form, then the rest; within a tier
the question the query names most fully, for a question hit the more general clause, then the place of the clause
it answers in the books, the reader's language before the other. (A ruling has no database rank: the order's ``rank`` is 0 for all.) Each ruling is shown
once, in the language of its best place.

Each published text keeps its stems (``RulingText.search_stems``), so a search reads only the rulings' texts and
their citations, never a book's sections; what it reads is bounded (``SCANNED``, the newest first), what it shows too
(``SHOWN``). The offline copy's search (static/offline/search.js) applies the same rules to the same rows, shipped in
the book's index with these limits (``rulesref.rulings.offline.index_rows``); tests/test_offline_rulings.py checks
that both find the same rulings in the same order.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rulesref.reference.index import book_index
from rulesref.reference.index import books as index_books
from rulesref.reference.render import esc, section_url
from rulesref.reference.search_highlight import highlight, snippet
from rulesref.reference.search_query import Query, title_stems
from rulesref.reference.search_ranking import MAX_WORDS, order_key, tier_of
from rulesref.text import WORD_RE, fold

from .models import Ruling, RulingText
from .render import ruling_url

SCANNED = 200
SHOWN = 10


@dataclass
class Hit:
    number: int
    book: str
    language: str
    url: str
    question_html: SafeString
    snippet_html: SafeString
    clauses: list[tuple[str, str]] = field(default_factory=list)  # (9.3.1f, its address) in the reader's language
    key: tuple = ()


def query_of(query: str, all_words: bool = True) -> Query | None:
    """The site's query model of ``query`` (its first MAX_WORDS words, folded), or None when it has no word."""
    words = WORD_RE.findall(fold(query))[:MAX_WORDS]
    return Query(words, all_words) if words else None


def _matching(q: Query, books, text_lang: str):
    """The published texts whose stems may match ``q``, found by their stored stems (a stem as `` stem ``, the last
    word's as `` stem`` when it is a prefix): the newest ruling first, then by language and book, at most SCANNED."""
    found = RulingText.objects.filter(ruling__book__in=books, ruling__state=Ruling.State.PUBLISHED).exclude(
        published_question="")
    last = q.stems[-1]
    conditions = [Q(search_stems__contains=f" {stem} ") for stem in q.stems[:-1]]
    conditions.append(Q(search_stems__contains=f" {last}" if q.prefix else f" {last} "))
    if q.all_words:
        for condition in conditions:
            found = found.filter(condition)
    else:
        either = conditions[0]
        for condition in conditions[1:]:
            either |= condition
        found = found.filter(either)
    if text_lang in ("ru", "en"):
        found = found.filter(language=text_lang)
    return list(found.select_related("ruling__book").prefetch_related("ruling__citations")
                .order_by("-ruling__number", "language", "ruling__book_id")[:SCANNED])


def place(q: Query, question: str, answer: str, lang: str, text_lang: str, depth: int, book_position: int,
          position: int) -> tuple:
    """A ruling's text's place in the order (search_ranking.order_key; smaller first), its question standing for a
    title: the tier (the question uses the words as typed, has them in another form, or only the answer has them),
    the share of the question's words the query names, the clause's depth, no rank, the clause's place in the
    books, the other language after the reader's."""
    question_stems = title_stems(question)
    title_hit = q.matches(question_stems)
    tier = int(tier_of(exact_title=title_hit and q.uses(question), defining=False,
                       uses_typed=q.uses(f"{question}\n{answer}"), title_hit=title_hit))
    coverage = len(q.wanted & question_stems) / len(question_stems) if title_hit and question_stems else 0
    return order_key(tier, (coverage, depth, 0, book_position, position, int(text_lang != lang)))


def _first_clause(ruling: Ruling, index) -> tuple[int, int]:
    """The depth and place in its book of the first clause a ruling answers (the last place for one not there)."""
    for citation in ruling.citations.all():
        entry = index.entries.get(citation.sid)
        if entry is not None:
            return entry.depth, entry.position
    return 0, len(index.order)


def find(query: str, lang: str, book_slug: str = "", text_lang: str = "", request=None) -> list[Hit]:
    """The published rulings that hold the words of ``query`` (all of them; else, for several words, any), in
    the site's order, each in the language of its best place."""
    books = [b for b in index_books(request).values() if not book_slug or b.slug == book_slug]
    q = query_of(query)
    if not books or q is None:
        return []
    rows = _matching(q, books, text_lang)
    if not rows and len(q.words) > 1:
        q = query_of(query, all_words=False)
        rows = _matching(q, books, text_lang)
    best: dict[int, tuple[tuple, RulingText]] = {}
    for row in rows:
        if not q.matches(set(row.search_stems.split())):
            continue
        book = row.ruling.book
        depth, position = _first_clause(row.ruling, book_index(book))
        key = place(q, row.published_question, row.published_answer, lang, row.language, depth, book.position,
                    position) + (row.ruling.number,)
        if row.ruling_id not in best or key < best[row.ruling_id][0]:
            best[row.ruling_id] = (key, row)
    return [_hit(row, key, q, lang) for key, row in sorted(best.values(), key=lambda pair: pair[0])[:SHOWN]]


def _hit(row: RulingText, key: tuple, q: Query, lang: str) -> Hit:
    ruling, slug = row.ruling, row.ruling.book.slug
    clauses = [(c.label, section_url(lang, slug, c.sid, c.clause)) for c in ruling.citations.all()]
    return Hit(ruling.number, slug, row.language, ruling_url(lang, slug, ruling.number),
               highlight(row.published_question, q.wanted), snippet(row.published_answer, q.wanted), clauses, key)


def search_results(result, lang: str, book_slug: str, text_lang: str, request=None) -> SafeString:
    """The rulings group of the search page (settings.REFERENCE_SEARCH_EXTRAS): nothing for a rule number, which
    goes straight to its section, or when no ruling matches. Each ruling under the clauses it answers."""
    if getattr(result, "jump", None) or getattr(result, "missing_section", "") or not result.query:
        return mark_safe("")
    hits = find(result.query, lang, book_slug, text_lang, request)
    if not hits:
        return mark_safe("")
    items = "".join(_item_html(h) for h in hits)
    heading = format_html('<h2>{} <span class="muted">({})</span></h2>', _("Rulings"),
                          ngettext("%(n)s ruling", "%(n)s rulings", len(hits)) % {"n": len(hits)})
    return mark_safe(f'<section class="hit-group ruling-hits">{heading}<ul class="hits">{items}</ul></section>')


def _item_html(h: Hit) -> str:
    """One ruling found: the clauses it answers (links to them on their section's page), then the ruling."""
    clauses = ", ".join(f'<a class="ruling-clause" href="{esc(url)}">{esc(label)}</a>' for label, url in h.clauses)
    return (f'<li><p class="ruling-clauses">{clauses}</p><a class="ruling-hit" href="{esc(h.url)}">'
            f'<span class="ruling-number">{esc(_("Ruling %(n)s") % {"n": h.number})}</span> '
            f'<span lang="{h.language}">{h.question_html}</span></a> <span class="muted">{esc(h.book)}</span>'
            f'<p class="snippet" lang="{h.language}">{h.snippet_html}</p></li>')
