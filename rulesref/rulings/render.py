"""A ruling as readers see it: its text in the reader's language (or its source's, said so), escaped, with the
section references in it linked as in the rule text, its citations linked to their clauses, and whether it may be
outdated because a clause it cites changed (and in which revision): in the rulebook's source language, for every
reader; in the translation, for the translation's readers.

Everything here is built on escaped text (rulesref.reference.render.annotate): a ruling's question and answer are
untrusted, and so are the reader's words a ruling may quote.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rulesref.reference.corpus import clause_label, split_blocks
from rulesref.reference.index import BookIndex
from rulesref.reference.models import Book
from rulesref.reference.render import annotate, esc, reference_spans, section_url

from . import citations as citing
from .models import Ruling, RulingText


def ruling_url(lang: str, book: str, number: int) -> str:
    with translation.override(lang):
        return reverse("rulings:ruling", kwargs={"book": book, "number": number})


def history_url(lang: str, book: str, number: int) -> str:
    with translation.override(lang):
        return reverse("rulings:history", kwargs={"book": book, "number": number})


def faq_url(lang: str, book: str) -> str:
    with translation.override(lang):
        return reverse("rulings:faq", kwargs={"book": book})


def inline_html(text: str, index: BookIndex, lang: str) -> SafeString:
    """One paragraph of a ruling: escaped, its references to sections linked (or shown as missing)."""
    return annotate(text, reference_spans(text, index, lang), lang)


def blocks_html(text: str, index: BookIndex, lang: str) -> list[SafeString]:
    out = []
    for block in split_blocks(text):
        if block.startswith("- "):
            items = "".join(f"<li>{inline_html(line[2:] if line.startswith('- ') else line, index, lang)}</li>"
                            for line in block.split("\n"))
            out.append(mark_safe(f"<ul>{items}</ul>"))
        else:
            out.append(mark_safe(f"<p>{inline_html(block, index, lang)}</p>"))
    return out


@dataclass
class CitationView:
    sid: str
    clause: str
    label: str  # 9.3.1c
    title: str  # the section's title in the reader's language
    url: str
    outdated: bool
    changed_in: int | None = None  # the revision that changed it
    changed_language: str = ""  # the language whose text of the clause changed (the source's first)


@dataclass
class Shown:
    """A ruling in one language as a page shows it."""

    ruling: Ruling
    lang: str  # the language of the text shown
    wanted: str  # the language asked for
    question: str
    answer: str
    question_html: SafeString
    answer_html: list[SafeString]
    citations: list[CitationView]
    url: str
    history_url: str
    lagging: bool = False  # a translation made from an earlier text of the ruling
    outdated_in: int | None = None  # the revision that changed a cited clause (None: not outdated)
    outdated: bool = False
    citations_by_sid: dict[str, list[str]] = field(default_factory=dict)

    @property
    def fallback(self) -> bool:
        return self.lang != self.wanted

    @property
    def number(self) -> int:
        return self.ruling.number

    @property
    def withdrawn(self) -> bool:
        return self.ruling.state == Ruling.State.WITHDRAWN


def texts_of(ruling: Ruling) -> dict[str, RulingText]:
    return {t.language: t for t in ruling.texts.all()}


def clause_change(c, index: BookIndex, book: Book, lang: str) -> tuple[bool, int | None, str]:
    """Whether the clause ``c`` cites changed since the ruling was confirmed, as a reader of ``lang`` is told: in
    the rulebook's source language (the rule itself) for every reader, in ``lang`` too when it is the translation;
    the first revision that changed it (None when the history does not say), and in which language."""
    checks = [(index.source, c.digest)]
    if lang != index.source:
        checks.append((lang, c.translated_digest))
    changes = []
    for language, confirmed in checks:
        if citing.current_digest(index, c.sid, c.clause, language) == confirmed:
            continue
        revision = index.fragment(
            ("ruling-changed", c.sid, c.clause, language, confirmed, c.revision),
            lambda language=language, confirmed=confirmed: citing.changed_in(book, c.sid, c.clause, c.revision,
                                                                             confirmed, language))
        changes.append((revision is None, revision or 0, language != index.source, language))
    if not changes:
        return False, None, ""
    _unknown, revision, _translated, language = min(changes)  # a known revision first, the earliest, the source's
    return True, revision or None, language


def citation_views(ruling: Ruling, index: BookIndex, book: Book, lang: str) -> list[CitationView]:
    out = []
    for c in ruling.citations.all():
        entry = index.entries.get(c.sid)
        outdated, changed, language = clause_change(c, index, book, lang)
        out.append(CitationView(c.sid, c.clause, c.label, entry.display_title(lang) if entry else "",
                                section_url(lang, book.slug, c.sid, c.clause) if entry else "", outdated, changed,
                                language))
    return out


def shown(ruling: Ruling, index: BookIndex, book: Book, lang: str) -> Shown | None:
    """The ruling as a reader of ``lang`` sees it: its published text in ``lang``, else its source's (None when it
    has no published text at all)."""
    texts = texts_of(ruling)
    text = texts.get(lang)
    source = texts.get(ruling.source_language)
    if text is None or not text.has_published:
        text = source
    if text is None or not text.has_published:
        return None
    lagging = text.language != ruling.source_language and source is not None and \
        text.published_source_revision != source.published_revision
    cited = citation_views(ruling, index, book, lang)
    changed = [c.changed_in for c in cited if c.outdated]
    by_sid: dict[str, list[str]] = {}
    for c in cited:
        by_sid.setdefault(c.sid, []).append(c.clause)
    return Shown(ruling=ruling, lang=text.language, wanted=lang, question=text.published_question,
                 answer=text.published_answer,
                 question_html=inline_html(text.published_question, index, text.language),
                 answer_html=blocks_html(text.published_answer, index, text.language), citations=cited,
                 url=ruling_url(lang, book.slug, ruling.number), history_url=history_url(lang, book.slug,
                                                                                        ruling.number),
                 lagging=lagging, outdated=bool(changed),
                 outdated_in=min((n for n in changed if n is not None), default=None), citations_by_sid=by_sid)


def outdated_note(item: Shown) -> str:
    if not item.outdated:
        return ""
    if item.outdated_in:
        return _("May be outdated: the rule changed in revision %(n)s.") % {"n": item.outdated_in}
    return _("May be outdated: a rule it cites changed.")


def count_label(n: int) -> str:
    return ngettext("%(n)s ruling", "%(n)s rulings", n) % {"n": n}


def under_clause(items: list[Shown], lang: str) -> SafeString:
    """The rulings under one clause of a section page: collapsed, with their count (a <details>, so it opens
    without script)."""
    if not items:
        return mark_safe("")
    rows = []
    for item in items:
        note = outdated_note(item)
        fallback = ""
        if item.fallback:
            fallback = f'<p class="ruling-fallback">{esc(_("Not translated yet: shown as written."))}</p>'
        rows.append(
            f'<li class="ruling-item{" is-outdated" if item.outdated else ""}" lang="{item.lang}">'
            f'<p class="ruling-q"><a class="ruling-number" href="{esc(item.url)}" lang="{lang}">'
            f'{esc(_("Ruling %(n)s") % {"n": item.number})}</a> {item.question_html}</p>'
            f'<div class="ruling-a">{"".join(item.answer_html)}</div>{fallback}'
            + (f'<p class="ruling-outdated" lang="{lang}">{esc(note)}</p>' if note else "")
            + "</li>")
    outdated = any(item.outdated for item in items)
    mark = f' <span class="badge changed">{esc(_("may be outdated"))}</span>' if outdated else ""
    return mark_safe(f'<details class="rulings-here"><summary>{esc(count_label(len(items)))}{mark}</summary>'
                     f'<ol class="ruling-list">{"".join(rows)}</ol></details>')


def paragraph_rulings(book: Book, index: BookIndex, sid: str, text_lang: str, body: str, count: int
                      ) -> tuple[SafeString, ...]:
    """What goes after each of the ``count`` paragraphs of a section's text in ``text_lang``: the rulings citing
    the clause that paragraph is (``9.3.1c`` under clause c), and after the last one those citing the section as a
    whole or a clause this text lacks. Built once per content version and interface language; a publication bumps
    the version."""
    ui = translation.get_language()

    def build() -> tuple[SafeString, ...]:
        from .workflow import public_rulings

        found = [s for r in public_rulings(book, [sid]) if (s := shown(r, index, book, text_lang)) is not None]
        if not found or count == 0:
            return (mark_safe(""),) * count
        letters = [clause_label(b) for b in split_blocks(body)][:count]
        slots: list[list[Shown]] = [[] for _ in range(count)]
        for item in found:
            for clause in dict.fromkeys(item.citations_by_sid.get(sid, [])):
                at = letters.index(clause) if clause and clause in letters else count - 1
                if item not in slots[at]:
                    slots[at].append(item)
        return tuple(under_clause(items, ui) for items in slots)

    return index.fragment(("rulings-under", sid, text_lang, ui, count), build)
