"""Reference pages: home, a rulebook's table of contents, a section (single language or parallel), errata."""
from __future__ import annotations

import difflib
import re

from babel.numbers import format_percent
from django.conf import settings
from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import translate_url
from django.views.decorators.http import require_safe

from rulesref.checker.links import section_links
from rulesref.languages import current_language, other_language

from .corpus import split_blocks
from .glossary import book_glossary, sort_key, stems
from .index import BookIndex, book_index
from .models import Book, Erratum
from .pagecache import cached_page
from .refs import normalise, section_part
from .render import render_block, section_url
from .search import search
from .terms import term_usage


def _progress(book: Book, index: BookIndex) -> dict:
    readable = [e for e in index.entries.values() if not e.absent]
    translated = [e for e in readable if other_language(book.source_language) in e.languages]
    share = len(translated) / len(readable) if readable else 0
    return {"done": len(translated), "total": len(readable), "share": share,
            "percent": format_percent(share, locale=current_language())}


@require_safe
def home(request):
    books = [(book, _progress(book, book_index(book))) for book in Book.objects.all()]
    return render(request, "reference/home.html", {"books": books})


def _tree(index: BookIndex, lang: str) -> list[dict]:
    def node(sid: str) -> dict:
        entry = index.entries[sid]
        return {"entry": entry, "label": entry.label(lang), "translated": lang in entry.languages,
                "children": [node(c) for c in entry.children]}

    return [node(e.sid) for e in index.roots()]


@require_safe
@cached_page
def book(request, book):
    book_obj = get_object_or_404(Book, slug=book)
    index = book_index(book_obj)
    lang = current_language()
    return render(request, "reference/book.html", {
        "book": book_obj, "tree": _tree(index, lang), "progress": _progress(book_obj, index),
        "target_language": other_language(book_obj.source_language),
    })


def _canonical(index: BookIndex, raw: str) -> tuple[str | None, str]:
    """The section id a URL means, and the clause letter if it names one: '11. 4. 5' -> 11.4.5, 9.3.1c -> (9.3.1, c)."""
    candidate = normalise(raw) if re.search(r"\d\s*\.|\.\s*\d", raw) else raw.strip()
    for sid in (candidate, candidate.lower()):
        if sid in index.entries:
            return sid, ""
        found = index.by_lower.get(sid.lower())
        if found:
            return found, ""
    sid, clause = section_part(candidate)
    if clause and sid in index.entries:
        return sid, clause
    return None, ""


def suggestions(index: BookIndex, raw: str, lang: str, limit: int = 6) -> list:
    """The nearest existing sections to an unknown id: its existing ancestors by number, then look-alikes."""
    wanted = normalise(raw)
    found: list[str] = []
    parts = wanted.split(".")
    for i in range(len(parts) - 1, 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in index.entries:
            found.append(prefix)
            found += [c for c in index.entries[prefix].children if c not in found][:3]
            break
    found += difflib.get_close_matches(wanted, list(index.entries), n=limit, cutoff=0.5)
    unique = list(dict.fromkeys(found))[:limit]
    return [(index.entries[s], section_url(lang, index.slug, s)) for s in unique]


@require_safe
@cached_page
def section(request, book, section):
    book_obj = get_object_or_404(Book, slug=book)
    index = book_index(book_obj)
    lang = current_language()
    sid, clause = _canonical(index, section)
    if sid is None:
        return render(request, "reference/section_404.html", {
            "book": book_obj, "wanted": section, "suggestions": suggestions(index, section, lang),
        }, status=404)
    if sid != section or clause:
        url = section_url(lang, book, sid, clause)
        if request.GET.urlencode():
            url = url.replace("#", f"?{request.GET.urlencode()}#", 1) if "#" in url else f"{url}?{request.GET.urlencode()}"
        return HttpResponsePermanentRedirect(url)
    entry = index.entries[sid]
    parallel = request.GET.get("view") == "parallel"
    glossary = book_glossary(settings.FIXTURES_DIR, book)
    text = split_blocks(entry.bodies[lang]) if lang in entry.bodies else None
    source = split_blocks(entry.bodies.get(book_obj.source_language, ""))
    blocks = [render_block(b, sid, index, lang, glossary, n) for n, b in enumerate(text)] if text else []
    rows = []
    if parallel:
        ru_blocks = split_blocks(entry.bodies.get("ru", ""))
        en_blocks = split_blocks(entry.bodies.get("en", ""))
        for i in range(max(len(ru_blocks), len(en_blocks))):
            rows.append({
                "ru": render_block(ru_blocks[i], sid, index, "ru", glossary, i) if i < len(ru_blocks) else None,
                "en": render_block(en_blocks[i], sid, index, "en", glossary, i) if i < len(en_blocks) else None,
            })
    prev_, next_ = index.neighbours(sid)
    other = other_language(lang)
    other_url = translate_url(request.path, other)
    if parallel:
        other_url += "?view=parallel"
    return render(request, "reference/section.html", {
        "book": book_obj, "entry": entry, "title": entry.title(lang), "label": entry.label(lang),
        "text": text, "blocks": blocks, "rows": rows, "parallel": parallel,
        "fallback": text is None and not entry.absent and bool(source),
        "source_blocks": [render_block(b, sid, index, book_obj.source_language, glossary, n)
                          for n, b in enumerate(source)]
        if text is None else [],
        "ancestors": [(a, a.label(lang), section_url(lang, book, a.sid)) for a in index.ancestors(sid)],
        "children": [(index.entries[c], index.entries[c].label(lang), section_url(lang, book, c))
                     for c in entry.children],
        "prev": (prev_, prev_.label(lang), section_url(lang, book, prev_.sid)) if prev_ else None,
        "next": (next_, next_.label(lang), section_url(lang, book, next_.sid)) if next_ else None,
        "backlinks": [(index.entries[b], index.entries[b].label(lang), section_url(lang, book, b))
                      for b in entry.backlinks.get(lang, [])],
        "other_lang": other, "other_url": other_url,
        "permalink": request.build_absolute_uri(section_url(lang, book, sid)),
        "is_translation": lang != book_obj.source_language,
        "checker_links": section_links(book, sid, lang),
    })


@require_safe
def errata(request, book):
    book_obj = get_object_or_404(Book, slug=book)
    index = book_index(book_obj)
    lang = current_language()
    rows = [(e, index.entries[e.section.sid].label(lang) if e.section else "",
             section_url(lang, book, e.section.sid) if e.section else "")
            for e in Erratum.objects.filter(book=book_obj).select_related("section")]
    return render(request, "reference/errata.html", {"book": book_obj, "rows": rows})


def _glossary_or_404(book_obj: Book):
    glossary = book_glossary(settings.FIXTURES_DIR, book_obj.slug)
    if not glossary.terms:
        raise Http404("this rulebook has no glossary")
    return glossary


@require_safe
@cached_page
def glossary(request, book):
    book_obj = get_object_or_404(Book, slug=book)
    glossary = _glossary_or_404(book_obj)
    lang = current_language()
    other = other_language(lang)
    query = request.GET.get("q", "").strip()[:100]
    terms = sorted(glossary.terms, key=lambda t: sort_key(t.term(lang)))
    if query:
        wanted = set(stems(query, "ru")) | set(stems(query, "en"))
        terms = [t for t in terms if _term_matches(t, query, wanted)]
    groups: dict[str, list] = {}
    for term in terms:
        letter = sort_key(term.term(lang))[:1].upper() or "#"
        groups.setdefault(letter, []).append({
            "term": term, "name": term.term(lang), "other": term.term(other), "other_lang": other,
            "abbr": term.abbreviation(lang), "definition": term.definition(lang),
            "search": " ".join([*term.forms("ru"), *term.forms("en"), term.abbr_ru, term.abbr_en]).lower(),
        })
    return render(request, "reference/glossary.html", {
        "book": book_obj, "groups": groups.items(), "query": query, "count": len(terms),
        "total": len(glossary.terms),
    })


def _term_matches(term, query: str, wanted: set[str]) -> bool:
    forms = [*term.forms("ru"), *term.forms("en"), term.abbr_ru, term.abbr_en]
    if any(query.casefold() in f.casefold() for f in forms if f):
        return True
    return any(wanted & set(stems(f, lang)) for lang in ("ru", "en") for f in term.forms(lang))


@require_safe
@cached_page
def term(request, book, term):
    book_obj = get_object_or_404(Book, slug=book)
    glossary = _glossary_or_404(book_obj)
    entry = glossary.by_id.get(term)
    if entry is None:
        raise Http404("no such term")
    lang = current_language()
    index = book_index(book_obj)
    usage = term_usage(index)

    def sections(ids):
        known = sorted((s for s in set(ids) if s in index.entries), key=lambda s: index.entries[s].position)
        return [(index.entries[s], index.entries[s].label(lang), section_url(lang, book, s)) for s in known]

    return render(request, "reference/term.html", {
        "book": book_obj, "term": entry, "name": entry.term(lang), "lang": lang,
        "defined_in": sections(entry.sections),
        "used_in": [(code, label, sections(usage.get(entry.id, {}).get(code, [])))
                    for code, label in (("ru", "Русский"), ("en", "English"))],
    })


@require_safe
def search_view(request):
    """One box on every page: full page for a form submit, just the results for htmx as you type."""
    lang = current_language()
    query = request.GET.get("q", "")
    book_slug = request.GET.get("book", "")
    text_lang = request.GET.get("in", "")
    result = search(query, lang, book_slug, text_lang, page=request.GET.get("page", 1))
    if result.jump and not request.htmx:
        return redirect(result.jump)
    nearest = []
    if result.missing_section:
        for book_obj in Book.objects.filter(slug=book_slug) if book_slug else Book.objects.all():
            nearest += [(book_obj, entry, url) for entry, url in
                        suggestions(book_index(book_obj), result.missing_section, lang)]
    context = {"result": result, "query": result.query, "book_filter": book_slug, "in_filter": text_lang,
               "books": Book.objects.all(), "nearest": nearest}
    template = "reference/search.html#results" if request.htmx else "reference/search.html"
    return render(request, template, context)


def not_found(request, exception=None):
    return render(request, "404.html", {}, status=404)
