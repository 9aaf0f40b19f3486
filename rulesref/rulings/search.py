"""Rulings in the site's search: the published rulings whose question or answer holds every word of the query in any
form (the words' Snowball stems, as the search index stems them: rulesref.text.word_stems; the last word, still
being typed, also as the beginning of a longer one), shown as a group of their own beside the sections found.

Each published text keeps its stems (``RulingText.search_stems``), so a search reads only the rulings' texts, never
a book's sections; what it reads is bounded (``SCANNED``), what it shows too (``SHOWN``).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rulesref.reference.index import books as index_books
from rulesref.reference.render import esc
# The site's search's own limits: the words of a query read, and the length of a last word's stem from which it is
# also matched as the beginning of a longer word.
from rulesref.reference.search_ranking import MAX_WORDS, PREFIX_MIN
from rulesref.text import WORD_RE, fold, stem_word

from .models import Ruling, RulingText
from .render import ruling_url

SCANNED = 200
SHOWN = 10
SNIPPET = 220


@dataclass
class Hit:
    number: int
    book: str
    language: str
    url: str
    question_html: SafeString
    snippet_html: SafeString


def query_stems(query: str) -> list[str]:
    return [stem_word(w) for w in WORD_RE.findall(fold(query))[:MAX_WORDS]]


def _marked(text: str, stems: set[str], prefix: str) -> str:
    """The text escaped, its words of the query marked."""
    out, position = [], 0
    for m in WORD_RE.finditer(text):
        stem = stem_word(fold(m.group()))
        if stem in stems or (prefix and stem.startswith(prefix)):
            out.append(esc(text[position:m.start()]))
            out.append(f"<mark>{esc(m.group())}</mark>")
            position = m.end()
    out.append(esc(text[position:]))
    return "".join(out)


def _snippet(answer: str, stems: set[str], prefix: str) -> str:
    text = " ".join(answer.split())
    first = next((m.start() for m in WORD_RE.finditer(text) if stem_word(fold(m.group())) in stems), 0)
    start = max(0, first - 60)
    start = text.rfind(" ", 0, start) + 1 if start else 0
    piece = text[start:start + SNIPPET]
    return ("…" if start else "") + _marked(piece, stems, prefix) + ("…" if start + SNIPPET < len(text) else "")


def find(query: str, lang: str, book_slug: str = "", text_lang: str = "", request=None) -> list[Hit]:
    """The published rulings that hold every word of ``query``, in the reader's language where its text matched."""
    stems = query_stems(query)
    if not stems:
        return []
    books = [b for b in index_books(request).values() if not book_slug or b.slug == book_slug]
    if not books:
        return []
    found = RulingText.objects.filter(ruling__book__in=books, ruling__state=Ruling.State.PUBLISHED).exclude(
        published_question="")
    for stem in stems[:-1]:
        found = found.filter(search_stems__contains=f" {stem} ")
    last = stems[-1]
    found = found.filter(search_stems__contains=f" {last}" if len(last) >= PREFIX_MIN else f" {last} ")
    if text_lang in ("ru", "en"):
        found = found.filter(language=text_lang)
    rows = list(found.select_related("ruling__book").order_by("-ruling__number", "language")[:SCANNED])
    by_ruling: dict[int, RulingText] = {}
    for row in rows:
        chosen = by_ruling.get(row.ruling_id)
        if chosen is None or (row.language == lang and chosen.language != lang):
            by_ruling[row.ruling_id] = row
    wanted, prefix = set(stems), (last if len(last) >= PREFIX_MIN else "")
    hits = []
    for row in list(by_ruling.values())[:SHOWN]:
        ruling = row.ruling
        hits.append(Hit(ruling.number, ruling.book.slug, row.language, ruling_url(lang, ruling.book.slug,
                                                                                 ruling.number),
                        mark_safe(_marked(row.published_question, wanted, prefix)),
                        mark_safe(_snippet(row.published_answer, wanted, prefix))))
    return hits


def search_results(result, lang: str, book_slug: str, text_lang: str, request=None) -> SafeString:
    """The rulings group of the search page (settings.REFERENCE_SEARCH_EXTRAS): nothing for a rule number, which
    goes straight to its section, or when no ruling matches."""
    if getattr(result, "jump", None) or getattr(result, "missing_section", "") or not result.query:
        return mark_safe("")
    hits = find(result.query, lang, book_slug, text_lang, request)
    if not hits:
        return mark_safe("")
    items = "".join(
        f'<li><a href="{esc(h.url)}"><span class="ruling-number">{esc(_("Ruling %(n)s") % {"n": h.number})}</span> '
        f'<span lang="{h.language}">{h.question_html}</span></a> <span class="muted">{esc(h.book)}</span>'
        f'<p class="snippet" lang="{h.language}">{h.snippet_html}</p></li>' for h in hits)
    heading = format_html('<h2>{} <span class="muted">({})</span></h2>', _("Rulings"),
                          ngettext("%(n)s ruling", "%(n)s rulings", len(hits)) % {"n": len(hits)})
    return mark_safe(f'<section class="hit-group ruling-hits">{heading}<ul class="hits">{items}</ul></section>')

