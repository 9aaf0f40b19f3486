"""Rule text to HTML: the text is escaped first; every link, tooltip or highlight is markup added around
spans of the escaped text. Nothing from the corpus is ever trusted as markup."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from .corpus import clause_label
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
    wrap: Callable[[str], SafeString]


def annotate(text: str, spans: Iterable[Span]) -> SafeString:
    """Escape ``text`` and wrap the given non-overlapping spans; overlapping later spans are dropped."""
    out: list[str] = []
    position = 0
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if span.start < position:
            continue
        out.append(escape(text[position:span.start]))
        out.append(span.wrap(escape(text[span.start:span.end])))
        position = span.end
    out.append(escape(text[position:]))
    return mark_safe("".join(out))


def section_url(lang: str, book: str, sid: str, clause: str = "") -> str:
    from django.utils import translation

    with translation.override(lang):
        url = reverse("reference:section", kwargs={"book": book, "section": sid})
    return f"{url}#{sid}{clause}" if clause else url


def reference_spans(text: str, index: BookIndex, lang: str) -> list[Span]:
    spans = []
    for ref in find_references(text):
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


def _link(href: str, title: str, absent: bool) -> Callable[[str], SafeString]:
    css = "ref ref-absent" if absent else "ref"
    return lambda inner: format_html('<a class="{}" href="{}" title="{}">{}</a>', css, href, title, mark_safe(inner))


def _missing(tip: str) -> Callable[[str], SafeString]:
    return lambda inner: format_html('<span class="ref ref-missing" title="{}" tabindex="0">{}</span>', tip,
                                     mark_safe(inner))


def glossary_url(lang: str, book: str, term_id: str) -> str:
    from django.utils import translation

    with translation.override(lang):
        return reverse("reference:term", kwargs={"book": book, "term": term_id})


def term_spans(text: str, glossary: Glossary | None, book: str, lang: str, tip_prefix: str) -> list[Span]:
    """The first occurrence of each glossary term in a paragraph, as a link to its entry with a tooltip giving
    the definition and the other language's term (shown on hover, focus or tap; a plain link without script)."""
    if glossary is None:
        return []
    spans, seen = [], set()
    other = "en" if lang == "ru" else "ru"
    for match in glossary.find(text, lang):
        term = match.term
        if term.id in seen or match.forbidden:
            continue
        seen.add(term.id)
        tip_id = f"{tip_prefix}-{len(spans)}"
        spans.append(Span(match.start, match.end, _term(
            glossary_url(lang, book, term.id), tip_id, term.term(other), other, term.definition(lang),
            term.confidence == "likely")))
    return spans


def _term(href: str, tip_id: str, other_term: str, other_lang: str, definition: str, likely: bool):
    mark = format_html(' <span class="likely">{}</span>', _("(term not yet confirmed)")) if likely else ""
    return lambda inner: format_html(
        '<span class="term"><a class="term-link" href="{}" aria-describedby="{}">{}</a>'
        '<span class="tip" role="tooltip" id="{}"><b lang="{}">{}</b>{} {}</span></span>',
        href, tip_id, mark_safe(inner), tip_id, other_lang, other_term, mark, definition)


def render_block(block: str, sid: str, index: BookIndex, lang: str, glossary: Glossary | None = None,
                 number: int = 0) -> SafeString:
    """One paragraph, list or lettered clause of a section as HTML, with its references linked and its glossary
    terms explained. ``number`` (the block's index) keeps tooltip ids unique on the page."""

    def inline(text: str, part: int = 0) -> SafeString:
        spans = reference_spans(text, index, lang)
        spans += term_spans(text, glossary, index.slug, lang, f"tip-{lang}-{sid}-{number}-{part}")
        return annotate(text, spans)

    if block.startswith("- "):
        items = [line[2:] for line in block.split("\n")]
        return format_html("<ul>{}</ul>", mark_safe("".join(format_html("<li>{}</li>", inline(item, n))
                                                            for n, item in enumerate(items))))
    label = clause_label(block)
    if label:
        anchor = f"{sid}{label}"
        return format_html('<p class="clause" id="{}"><a class="clause-label" href="#{}">{})</a> {}</p>',
                           anchor, anchor, label, inline(block[3:]))
    css = "note" if NOTE_RE.match(block) else "example" if EXAMPLE_RE.match(block) else ""
    if css:
        return format_html('<p class="{}">{}</p>', css, inline(block))
    return format_html("<p>{}</p>", inline(block))
