"""The read API under /api/v1/: the rulebooks, their contents, a section as text and as HTML with its references
resolved, its revisions and word diffs, the glossary, search (the site's own, with its ranking) and the rulings.

Every answer is built by the code that builds the site's pages — the section index (reference/index.py), the
renderer (reference/render.py), the history (reference/history.py), search (reference/search.py), the rulings'
render.py — so it says what the pages show (tests/test_api_pages.py compares them). Links in an answer are absolute;
HTML is built on escaped text, as the pages' is. Caching, conditional GETs, CORS and errors: http.py.
"""
from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from rulesref.reference import history
from rulesref.reference.corpus import split_blocks
from rulesref.reference.glossary import book_glossary
from rulesref.reference.index import BookIndex, book_index, book_outline, books
from rulesref.reference.models import Book, Reference
from rulesref.reference.render import esc, section_text, section_url
from rulesref.textdiff import render_diff, word_diff

from .http import LANGS, Invalid, Missing, absolute, absolute_links, choice, integer, read_view

CONTENTS_LIMIT = 1000
CONTENTS_MAX = 5000
RULINGS_LIMIT = 100
RULINGS_MAX = 500
MAX_NUMBER = 2**31 - 1  # the largest revision or ruling number a database column holds


def _api(name: str, **kwargs) -> str:
    return reverse(f"read_api:{name}", kwargs=kwargs)


def _pages(request, book: str, sid: str | None = None) -> dict[str, str]:
    """A page's address in each language."""
    out = {}
    for lang in LANGS:
        if sid is None:
            with translation.override(lang):
                out[lang] = absolute(request, reverse("reference:book", kwargs={"book": book}))
        else:
            out[lang] = absolute(request, section_url(lang, book, sid))
    return out


def _book(request, slug: str) -> Book:
    found = books(request).get(slug)
    if found is None:
        raise Missing(f"no rulebook {slug!r}; see /api/v1/books")
    return found


def _lang(request, book: Book | None = None) -> str:
    return choice(request, "lang", LANGS, book.source_language if book is not None else "en")


def _section(index: BookIndex, raw: str) -> str:
    """The section id an address means, in any printed form (as the pages read it): 404 when there is none."""
    from rulesref.reference.views import _canonical

    sid, _clause = _canonical(index, raw)
    if sid is None:
        raise Missing(f"no section {raw[:64]!r} in {index.slug}; see /api/v1/books/{index.slug}/contents")
    return sid


# ---------------------------------------------------------------------------------------------------- books


def book_data(request, book: Book) -> dict:
    outline = book_outline(book)
    slug = book.slug
    faq = {lang: absolute(request, _faq(lang, slug)) for lang in LANGS}
    return {
        "slug": slug,
        "title": {lang: book.title(lang) for lang in LANGS},
        "description": {lang: book.description(lang) for lang in LANGS},
        "source_language": book.source_language,
        "kind": book.kind,
        "revision": book.revision,
        "sections": outline.readable,
        "texts": {lang: outline.languages.get(lang, 0) for lang in LANGS},
        "pages": _pages(request, slug),
        "faq": faq,
        "api": {"book": absolute(request, _api("book", book=slug)),
                "contents": absolute(request, _api("contents", book=slug)),
                "glossary": absolute(request, _api("glossary", book=slug)),
                "rulings": absolute(request, _api("rulings", book=slug))},
    }


def _faq(lang: str, book: str) -> str:
    from rulesref.rulings.render import faq_url

    return faq_url(lang, book)


@read_view(lambda: None)
def book_list(request):
    return {"books": [book_data(request, b) for b in books(request).values()]}


@read_view(lambda book: [book])
def book_detail(request, book):
    book_obj = _book(request, book)
    outline = book_outline(book_obj)
    entries = outline.entries(outline.roots())
    data = book_data(request, book_obj)
    data["chapters"] = [_entry(request, book_obj.slug, entries[sid]) for sid in outline.roots()]
    return data


def _entry(request, slug: str, entry) -> dict:
    return {
        "id": entry.sid, "number": entry.number, "parent": entry.parent, "depth": entry.depth,
        "absent": entry.absent, "changed": entry.changed,
        "title": {lang: entry.titles.get(lang, "") for lang in LANGS},
        "label": {lang: entry.label(lang) for lang in LANGS},
        "languages": sorted(entry.languages),
        "pages": _pages(request, slug, entry.sid),
        "api": absolute(request, _api("section", book=slug, section=entry.sid)),
    }


@read_view(lambda book: [book])
def contents(request, book):
    """The rulebook's sections in book order (a page of them: ``offset``, ``limit``)."""
    book_obj = _book(request, book)
    offset = integer(request, "offset", 0, 0)
    limit = integer(request, "limit", CONTENTS_LIMIT, 1, CONTENTS_MAX)
    outline = book_outline(book_obj)
    sids = outline.order[offset:offset + limit]
    entries = outline.entries(sids)
    return {"book": book_obj.slug, "revision": book_obj.revision, "total": len(outline.order), "offset": offset,
            "limit": limit, "sections": [_entry(request, book_obj.slug, entries[sid]) for sid in sids]}


# ---------------------------------------------------------------------------------------------------- a section


def _references(request, book: Book, index: BookIndex, sid: str, lang: str) -> list[dict]:
    entry = index.entries[sid]
    found = Reference.objects.filter(source_id=entry.pk, language=lang).order_by("block", "start").values_list(
        "block", "anchor", "target_sid", "kind", "target__sid")
    out = []
    for block, anchor, target, kind, section in found:
        out.append({"paragraph": block + 1, "anchor": anchor, "target": target, "kind": kind,
                    "section": section,
                    "url": absolute(request, section_url(lang, book.slug, section)) if section else None})
    return out


@read_view(lambda book, section: [book])
def section(request, book, section):
    """A section in one language (``lang``; the rulebook's source language by default) as text and as HTML with its
    references resolved and its glossary terms marked, as the section's page shows it."""
    book_obj = _book(request, book)
    lang = _lang(request, book_obj)
    index = book_index(book_obj)
    sid = _section(index, section)
    entry = index.entries[sid]
    glossary = book_glossary(settings.FIXTURES_DIR, book_obj.slug)
    shown = lang if lang in entry.bodies else book_obj.source_language
    with translation.override(lang):
        rendered = section_text(index, sid, shown, glossary) if shown in entry.bodies else None
    prev_, next_ = index.neighbours(sid)
    last = history.last_changes(book_obj).get(sid) if book_obj.revision else None
    rulings = _section_rulings(request, book_obj, sid)
    return {
        "book": book_obj.slug, "id": sid, "number": entry.number, "language": shown, "requested": lang,
        "translated": shown == lang, "absent": entry.absent, "changed": entry.changed, "page": entry.page,
        "title": entry.titles.get(shown, ""), "label": entry.label(lang),
        "text": entry.bodies.get(shown, ""),
        "paragraphs": len(split_blocks(entry.bodies.get(shown, ""))),
        "html": absolute_links(request, "".join(rendered.blocks)) if rendered else "",
        "terms": list(rendered.terms) if rendered else [],
        "references": _references(request, book_obj, index, sid, shown) if shown in entry.bodies else [],
        "parent": entry.parent, "children": list(entry.children),
        "previous": prev_.sid if prev_ else None, "next": next_.sid if next_ else None,
        "revision": book_obj.revision, "last_changed": last,
        "rulings": rulings, "pages": _pages(request, book_obj.slug, sid),
        "api": {"revisions": absolute(request, _api("revisions", book=book_obj.slug, section=sid)),
                "diff": absolute(request, _api("diff", book=book_obj.slug, section=sid))},
    }


def _section_rulings(request, book: Book, sid: str) -> list[dict]:
    from rulesref.rulings.workflow import public_rulings

    return [{"number": r.number, "api": absolute(request, _api("ruling", book=book.slug, number=r.number))}
            for r in public_rulings(book, [sid])]


@read_view(lambda book, section: [book])
def revisions(request, book, section):
    """Every revision of the rulebook that changed the section, newest first."""
    book_obj = _book(request, book)
    sid = _known_or_past(book_obj, section)
    changes = history.section_history(book_obj, sid)
    return {"book": book_obj.slug, "id": sid, "latest": book_obj.revision, "revisions": [{
        "number": c.revision.number, "created": c.revision.created.isoformat(), "origin": c.revision.origin,
        "languages": c.languages, "added": c.added, "removed": c.removed,
        "api": absolute(request, _api("revision", book=book_obj.slug, section=sid, revision=c.revision.number)),
    } for c in changes]}


def _known_or_past(book: Book, raw: str) -> str:
    """A section of the book now, or one its history still has."""
    from rulesref.reference.models import TextVersion

    index = book_index(book)
    try:
        return _section(index, raw)
    except Missing:
        if TextVersion.objects.filter(book=book, sid=raw[:64]).exists():
            return raw
        raise


@read_view(lambda book, section, revision: [book])
def revision(request, book, section, revision):
    """The section's text in one language as it stood at a revision (its permanent address)."""
    book_obj = _book(request, book)
    lang = _lang(request, book_obj)
    sid = _known_or_past(book_obj, section)
    if revision > MAX_NUMBER or history.revision_or_none(book_obj, revision) is None:
        raise Missing(f"{book_obj.slug} has no revision {revision} (its latest is {book_obj.revision})")
    text = history.text_at(book_obj, sid, lang, revision)
    if text is None:
        raise Missing(f"section {sid} had no text in {lang} at revision {revision}")
    with translation.override(lang):
        page = reverse("reference:section_at", kwargs={"book": book_obj.slug, "section": sid, "revision": revision})
    return {"book": book_obj.slug, "id": sid, "revision": revision, "language": lang, "title": text.title,
            "text": text.body, "html": "".join(f"<p>{esc(b)}</p>" for b in split_blocks(text.body)),
            "page": absolute(request, page)}


def _diff_range(request, book: Book, sid: str, lang: str) -> tuple[int, int]:
    """The two revisions a diff compares: those asked for, else the section's last change in ``lang`` and the
    revision before it (as the history page chooses them)."""
    latest = book.revision
    if latest < 1:
        raise Missing(f"{book.slug} has no revisions")
    new = integer(request, "to", None, 1, latest)
    old = integer(request, "from", None, 1, latest)
    changed_in = [c.revision.number for c in history.section_history(book, sid) if lang in c.languages]
    if new is None:
        new = changed_in[0] if changed_in else latest
    if old is None:
        old = next((n for n in changed_in if n < new), max(new - 1, 1))
    return (new, old) if old > new else (old, new)


@read_view(lambda book, section: [book])
def diff(request, book, section):
    """The word diff of the section's text in one language between two revisions (by default its last change)."""
    book_obj = _book(request, book)
    lang = _lang(request, book_obj)
    sid = _known_or_past(book_obj, section)
    old, new = _diff_range(request, book_obj, sid, lang)
    before, after = history.text_at(book_obj, sid, lang, old), history.text_at(book_obj, sid, lang, new)
    parts = {}
    for name, a, b in (("title", before.title if before else "", after.title if after else ""),
                       ("text", before.body if before else "", after.body if after else "")):
        ops = word_diff(a, b)
        parts[name] = {"ops": [{"op": op.kind, "text": op.text} for op in ops], "html": str(render_diff(ops))}
    return {"book": book_obj.slug, "id": sid, "language": lang, "from": old, "to": new,
            "same": (before.title, before.body) == (after.title, after.body) if before and after else before is after,
            **parts}


# ---------------------------------------------------------------------------------------------------- glossary


@read_view(lambda book: [book])
def glossary(request, book):
    book_obj = _book(request, book)
    found = book_glossary(settings.FIXTURES_DIR, book_obj.slug)
    out = []
    for term in found.terms:
        pages = {}
        for lang in LANGS:
            with translation.override(lang):
                pages[lang] = absolute(request, reverse("reference:term", kwargs={"book": book_obj.slug,
                                                                                   "term": term.id}))
        out.append({"id": term.id, "term": {lang: term.term(lang) for lang in LANGS},
                    "variants": {lang: list(term.forms(lang)[1:]) for lang in LANGS},
                    "abbreviation": {lang: term.abbreviation(lang) for lang in LANGS},
                    "definition": {lang: term.definition(lang) for lang in LANGS},
                    "confidence": term.confidence, "category": term.category, "sections": list(term.sections),
                    "pages": pages})
    return {"book": book_obj.slug, "terms": out}


# ---------------------------------------------------------------------------------------------------- search


@read_view(lambda: None)
def search(request):
    """The site's search: a rule number in any printed form goes to its section (``jump``), words are found in
    both languages in any form, ranked as the search page ranks them."""
    from rulesref.reference.search import MAX_PAGE, search as site_search

    raw = request.GET.get("q")
    if raw is None or not raw.strip():
        raise Invalid([("query.q", "give the words or the rule number to search for")])
    if len(raw) > 500:
        raise Invalid([("query.q", "at most 500 characters")])
    lang = _lang(request)
    slug = request.GET.get("book", "")
    if slug and slug not in books(request):
        raise Missing(f"no rulebook {slug[:40]!r}; see /api/v1/books")
    text_lang = choice(request, "in", LANGS, "")
    page = integer(request, "page", 1, 1, MAX_PAGE)
    with translation.override(lang):
        result = site_search(raw, lang, slug, text_lang or "", page=page, request=request)
    jump = None
    if result.jump:
        jump = {"url": absolute(request, result.jump), "label": result.jump_label}
    return {"query": result.query, "language": lang, "page": result.page, "jump": jump,
            "count": result.count, "more": result.more, "next_page": result.next_page,
            "suggestion": result.suggestion or None, "shown_for": result.shown_for or None,
            "partial": result.partial, "missing_section": result.missing_section or None,
            "groups": [{"book": g.book.slug, "total": g.total, "more": g.more, "hits": [{
                "id": hit.sid, "language": hit.language, "label": hit.label, "url": absolute(request, hit.url),
                "title_hit": hit.title_hit, "tier": hit.tier, "title_html": str(hit.title_html),
                "snippet_html": str(hit.snippet_html),
                "api": absolute(request, _api("section", book=g.book.slug, section=hit.sid)),
            } for hit in g.hits]} for g in result.groups]}


# ---------------------------------------------------------------------------------------------------- rulings


def ruling_data(request, book: Book, index: BookIndex, ruling, lang: str) -> dict | None:
    from rulesref.rulings.render import shown

    item = shown(ruling, index, book, lang)
    if item is None:
        return None
    return {
        "book": book.slug, "number": ruling.number, "state": ruling.state, "language": item.lang,
        "source_language": ruling.source_language, "translated": not item.fallback, "lagging": item.lagging,
        "question": item.question, "answer": item.answer,
        "question_html": absolute_links(request, str(item.question_html)),
        "answer_html": absolute_links(request, "".join(item.answer_html)),
        "citations": [{"clause": c.label, "section": c.sid, "letter": c.clause, "title": c.title,
                       "url": absolute(request, c.url) if c.url else None, "outdated": c.outdated,
                       "changed_in": c.changed_in} for c in item.citations],
        "outdated": item.outdated, "outdated_in": item.outdated_in,
        "published": ruling.published.isoformat() if ruling.published else None,
        "changed": ruling.changed.isoformat(),
        "page": absolute(request, item.url), "history": absolute(request, item.history_url),
        "api": absolute(request, _api("ruling", book=book.slug, number=ruling.number)),
    }


@read_view(lambda book: [book])
def rulings(request, book):
    """The rulebook's published rulings (those citing ``section`` when given), in the reader's language."""
    from rulesref.rulings.workflow import public_rulings

    book_obj = _book(request, book)
    lang = _lang(request, book_obj)
    offset = integer(request, "offset", 0, 0)
    limit = integer(request, "limit", RULINGS_LIMIT, 1, RULINGS_MAX)
    index = book_index(book_obj)
    wanted = request.GET.get("section")
    sids = [_section(index, wanted)] if wanted is not None else None
    found = list(public_rulings(book_obj, sids))
    page = found[offset:offset + limit]
    return {"book": book_obj.slug, "language": lang, "total": len(found), "offset": offset, "limit": limit,
            "rulings": [d for r in page if (d := ruling_data(request, book_obj, index, r, lang)) is not None]}


@read_view(lambda book, number: [book])
def ruling(request, book, number):
    from rulesref.rulings.models import Ruling

    book_obj = _book(request, book)
    lang = _lang(request, book_obj)
    found = None
    if number <= MAX_NUMBER:
        found = Ruling.objects.filter(book=book_obj, number=number).prefetch_related("citations", "texts").first()
    data = None
    if found is not None and found.is_public:
        data = ruling_data(request, book_obj, book_index(book_obj), found, lang)
    if data is None:
        raise Missing(f"{book_obj.slug} has no published ruling {number}")
    return data
