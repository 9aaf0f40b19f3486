"""Rule text to HTML: the text is escaped first; every link, tooltip or highlight is markup added around
spans of the escaped text. Nothing from the corpus is ever trusted as markup."""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .corpus import clause_label, is_table, parse_table, split_blocks
from .glossary import Glossary
from .index import BookIndex
from .refs import find_references, section_part

NOTE_RE = re.compile(r"^(?:ПРИМЕЧАНИЕ|Примечание|NOTE|Note)\b")
EXAMPLE_RE = re.compile(r"^(?:ПРИМЕР|Пример|EXAMPLE|Example)\b")


@dataclass(frozen=True)
class Span:
    """Markup around text[start:end]: ``wrap(escaped_text) -> SafeString``."""

    start: int
    end: int
    wrap: Callable[[str], str]


def esc(text: str) -> str:
    """HTML-escape plain text (the standard library's escape: Django's adds lazy-string checks we do not need)."""
    return html.escape(text, quote=True)


# Words of the other script inside a text: the English name after a Russian one, "Перехват (Interception)",
# or a Russian word quoted in English. Runs of words with a small letter (not Roman numerals such as XIII), and
# not a letter that is part of a rule number (the clause letter of "3.1a", "п. 3.1е").
FOREIGN_RE = {
    "ru": re.compile(r"(?<![\w.])[A-Za-z][A-Za-z'’-]*(?:[ \u00a0]+[A-Za-z][A-Za-z'’-]*)*"),
    "en": re.compile(r"(?<![\w.])[А-Яа-яЁё][А-Яа-яЁё-]*(?:[ \u00a0]+[А-Яа-яЁё][А-Яа-яЁё-]*)*"),
}
LOWER_RE = {"ru": re.compile(r"[a-z]"), "en": re.compile(r"[а-яё]")}


def esc_text(text: str, lang: str | None = None) -> str:
    """Escape plain text in ``lang``; words in the other language's script are marked with their language
    (lang="en" / lang="ru"), so screen readers pronounce them and the page says which words are not its own."""
    pattern = FOREIGN_RE.get(lang or "")
    if pattern is None or not pattern.search(text):
        return esc(text)
    other = "en" if lang == "ru" else "ru"
    out, position = [], 0
    for m in pattern.finditer(text):
        if not LOWER_RE[lang].search(m.group()):
            continue
        out.append(esc(text[position:m.start()]))
        out.append(f'<span lang="{other}">{esc(m.group())}</span>')
        position = m.end()
    out.append(esc(text[position:]))
    return "".join(out)


def annotate(text: str, spans: Iterable[Span], lang: str | None = None) -> SafeString:
    """Escape ``text`` (marking words of the other script when ``lang`` is given) and wrap the given
    non-overlapping spans; overlapping later spans are dropped. Each span's ``wrap`` receives the escaped text of
    its span and returns markup built on escaped values."""
    out: list[str] = []
    position = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < position:
            continue
        out.append(esc_text(text[position:span.start], lang))
        out.append(span.wrap(esc_text(text[span.start:span.end], lang)))
        position = span.end
    out.append(esc_text(text[position:], lang))
    return mark_safe("".join(out))


@lru_cache(maxsize=8192)
def section_url(lang: str, book: str, sid: str, clause: str = "") -> str:
    """The public address of a section (or of a lettered clause in it). Cached: it depends only on its arguments."""
    from django.utils import translation

    with translation.override(lang):
        url = reverse("reference:section", kwargs={"book": book, "section": sid})
    return f"{url}#{sid}{clause}" if clause else url


def reference_spans(text: str, index: BookIndex, lang: str) -> list[Span]:
    spans = []
    for ref in find_references(text, index.patterns):
        if ref.kind == "page":
            sid = index.by_page.get(int(ref.target))
            clause = ""
        else:
            sid, clause = section_part(ref.target)
        entry = index.get(sid) if sid else None
        if entry is not None:
            href = section_url(lang, index.slug, entry.sid, clause)
            label = entry.label(lang)
            if entry.absent:
                label = _("%(label)s (not in this corpus)") % {"label": label}
            spans.append(Span(ref.start, ref.end, _link(href, label, entry.absent)))
        else:
            tip = _("Section %(id)s is not in this corpus") % {"id": ref.target}
            spans.append(Span(ref.start, ref.end, _missing(tip)))
    return spans


def _link(href: str, title: str, absent: bool) -> Callable[[str], str]:
    opening = f'<a class="{"ref ref-absent" if absent else "ref"}" href="{esc(href)}" title="{esc(title)}">'
    return lambda inner: f"{opening}{inner}</a>"


def _missing(tip: str) -> Callable[[str], str]:
    opening = f'<span class="ref ref-missing" title="{esc(tip)}" tabindex="0">'
    return lambda inner: f"{opening}{inner}</span>"


@lru_cache(maxsize=256)
def book_url(lang: str, book: str) -> str:
    """The address of a rulebook's contents."""
    from django.utils import translation

    with translation.override(lang):
        return reverse("reference:book", kwargs={"book": book})


@lru_cache(maxsize=8192)
def glossary_url(lang: str, book: str, term_id: str) -> str:
    from django.utils import translation

    with translation.override(lang):
        return reverse("reference:term", kwargs={"book": book, "term": term_id})


def tip_id(lang: str, term_id: str) -> str:
    """The id of a term's definition on the page: one per term and language, whatever the number of uses."""
    return f"tip-{lang}-{term_id}"


def term_spans(text: str, glossary: Glossary | None, book: str, lang: str, seen: dict[str, None]) -> list[Span]:
    """Every occurrence of a glossary term. The first in the section (``seen`` holds the ids met so far, in
    order; this adds the new ones) is a link to the term's entry, described by its definition; a further one is
    a short mark the reader may have shown too (the definition is on the page once, see ``definitions``)."""
    if glossary is None:
        return []
    spans = []
    for match in glossary.find(text, lang):
        if match.forbidden:
            continue
        term_id = match.term.id
        if term_id in seen:
            spans.append(Span(match.start, match.end, _further_use(term_id)))
        else:
            seen[term_id] = None
            spans.append(Span(match.start, match.end, _first_use(glossary_url(lang, book, term_id),
                                                                 tip_id(lang, term_id), term_id)))
    return spans


@lru_cache(maxsize=8192)
def _first_use(href: str, describedby: str, term_id: str) -> Callable[[str], str]:
    opening = (f'<a class="term first" href="{esc(href)}" data-term="{esc(term_id)}" '
               f'aria-describedby="{esc(describedby)}">')
    return lambda inner: f"{opening}{inner}</a>"


@lru_cache(maxsize=8192)
def _further_use(term_id: str) -> Callable[[str], str]:
    opening = f'<span class="term" data-term="{esc(term_id)}">'
    return lambda inner: f"{opening}{inner}</span>"


@dataclass(frozen=True)
class RenderedText:
    """A section's text in one language as HTML blocks, the glossary terms it uses (in order of first use) and
    their definitions, once each, for the tooltips."""

    lang: str
    blocks: tuple[SafeString, ...]
    terms: tuple[str, ...]
    definitions: SafeString


def render_text(blocks: list[str], sid: str, index: BookIndex, lang: str,
                glossary: Glossary | None = None) -> RenderedText:
    """A section's paragraphs, lists and lettered clauses as HTML, with references linked and glossary terms
    marked: the first occurrence of each term in the section is a link with its definition."""
    seen: dict[str, None] = {}
    html_blocks = tuple(_render_block(block, sid, index, lang, glossary, seen) for block in blocks)
    tips = definitions(seen, glossary, index.slug, lang) if glossary is not None else mark_safe("")
    return RenderedText(lang, html_blocks, tuple(seen), tips)


def section_text(index: BookIndex, sid: str, lang: str, glossary: Glossary | None) -> RenderedText | None:
    """The section's text in ``lang`` rendered (None if it has none in that language). Kept with the book's
    index, which lives as long as its content version, per glossary and interface language: a page the page
    cache lacks is then not rendered from the text again."""
    body = index.entries[sid].bodies.get(lang)
    if body is None:
        return None
    key = (glossary.stamp if glossary is not None else None, lang, get_language(), sid)
    return index.fragment(key, lambda: render_text(split_blocks(body), sid, index, lang, glossary))


def _render_block(block: str, sid: str, index: BookIndex, lang: str, glossary: Glossary | None,
                  seen: dict[str, None]) -> SafeString:
    def inline(text: str) -> str:
        spans = reference_spans(text, index, lang) + term_spans(text, glossary, index.slug, lang, seen)
        return annotate(text, spans, lang)

    if is_table(block):
        table = parse_table(block)
        if table is not None:
            return _table(*table, inline)
    if block.startswith("- "):
        return mark_safe("<ul>" + "".join(f"<li>{inline(line[2:])}</li>" for line in block.split("\n")) + "</ul>")
    label = clause_label(block)
    if label:
        anchor = esc(f"{sid}{label}")
        return mark_safe(f'<p class="clause" id="{anchor}"><a class="clause-label" href="#{anchor}">{esc(label)})</a> '
                         f'{inline(block[3:])}</p>')
    css = "note" if NOTE_RE.match(block) else "example" if EXAMPLE_RE.match(block) else ""
    if css:
        return mark_safe(f'<p class="{css}">{inline(block)}</p>')
    return mark_safe(f"<p>{inline(block)}</p>")


def _table(header: list[str], rows: list[list[str]], inline: Callable[[str], str]) -> SafeString:
    """A table block as an HTML table, each cell rendered as inline rule text (escaped, references linked, terms
    explained). It sits in a box of its own that scrolls sideways when the table is wider than the screen (the page
    itself never does); the box is focusable, so a keyboard reader can scroll it too."""
    head = "".join(f'<th scope="col">{inline(cell)}</th>' for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{inline(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    label = esc(_("Table"))
    return mark_safe(f'<div class="table-wrap" role="region" aria-label="{label}" tabindex="0">'
                     f'<table class="rules-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>')


def definitions(terms: Iterable[str], glossary: Glossary, book: str, lang: str) -> SafeString:
    """The definitions of the terms a page uses, once each, as the hidden list the tooltips are filled from: the
    other language's term, a note if not yet confirmed, and the definition (all escaped)."""
    unconfirmed = _("(term not yet confirmed)")
    out = []
    for term_id in terms:
        term = glossary.by_id.get(term_id)
        if term is not None:
            out.append(_definition(term, book, lang, unconfirmed))
    return mark_safe("".join(out))


@lru_cache(maxsize=4096)
def _definition(term, book: str, lang: str, unconfirmed: str) -> str:
    other = "en" if lang == "ru" else "ru"
    mark = f' <span class="likely">{esc(unconfirmed)}</span>' if term.confidence == "likely" else ""
    return (f'<p id="{esc(tip_id(lang, term.id))}" lang="{lang}" data-href="{esc(glossary_url(lang, book, term.id))}">'
            f'<b lang="{other}">{esc(term.term(other))}</b>{mark} {esc(term.definition(lang))}</p>')
