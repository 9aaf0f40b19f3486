"""Reference pages: home, a rulebook's table of contents, a section (single language or parallel), errata."""
from __future__ import annotations

import difflib
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.numbers import format_percent
from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _, ngettext
from django.utils.module_loading import import_string
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from rulesref.http import NotFound
from rulesref.languages import current_language, other_language

from . import history
from .context import language_paths
from .glossary import book_glossary, sort_key, stems
from .index import BookIndex, Outline, book_index, book_or_404, book_outline, books
from .models import Book, Erratum
from .pagecache import cached_page
from .corpus import source_revision
from .numbering import looks_numbered, normalise, number_query, section_part
from .render import book_url, esc, section_text, section_url
from .search import search
from .templatetags.rulebooks import section_label
from .terms import term_usage


def _progress(book: Book, outline: Outline) -> dict:
    readable, translated = outline.readable, outline.languages.get(other_language(book.source_language), 0)
    share = translated / readable if readable else 0
    return {"done": translated, "total": readable, "share": share,
            "percent": format_percent(share, locale=current_language())}


@require_safe
def home(request):
    books_ = [(book, _progress(book, book_outline(book))) for book in books(request).values()]
    return render(request, "reference/home.html", {"books": books_})


def _levels_within(outline: Outline, sids: list[str], budget: int) -> int:
    """How many levels of the tree from ``sids`` down (they being the first) fit in ``budget`` rows: at least one,
    every level when the whole of it fits."""
    levels, rows, level = 0, 0, sids
    while level and (levels == 0 or rows + len(level) <= budget):
        rows += len(level)
        levels += 1
        level = [c for s in level for c in outline.subsections(s)]
    return levels


CLOSED = "closed"  # in a layout: a section shown with its subsections left out


class _Contents:
    """A rulebook's table of contents as nested lists, built in Python (a template included per row took seconds
    for 20,000 rows). A book of up to ``budget`` sections is shown whole; a larger one shows as many levels as fit, and
    each section left closed offers a link that opens it (``?open=SID``): without script the contents page again,
    with that section open; with htmx just its subsections, put in place of the link. Only the titles of the rows
    shown are read (``Outline.entries``)."""

    def __init__(self, outline: Outline, book: Book, lang: str, opened: str | None):
        self.outline, self.lang, self.slug, self.opened = outline, lang, book.slug, opened
        self.budget = settings.RULESREF_TOC_ROWS
        self.path = set(_ancestors(outline, opened)) if opened else set()
        self.base = book_url(lang, book.slug)
        self.closed = 0  # the sections shown with their subsections left out
        self.entries: dict = {}
        self.absent_badge = format_html('<span class="badge muted" title="{}">{}</span>', _(
            "This section is not in the corpus; it is shown so the tree is whole."), _("not in this corpus"))
        self.changed_badge = format_html(' <span class="badge changed" title="{}">{}</span>',
                                         _("Changed in this edition"), _("changed"))
        self.source_badge = format_html(' <span class="badge muted">{}</span>', _("source only"))

    def tree(self) -> SafeString:
        """The whole table of contents (the opened section open)."""
        return self.html(self.layout(self.outline.roots()))

    def subtree(self, sid: str) -> SafeString:
        """The list of a section's subsections (and theirs, as many levels as fit)."""
        return self.html(self.layout(self.outline.subsections(sid)))

    def layout(self, sids: list[str], levels: int = 0) -> list[tuple[str, object]]:
        """Each of ``sids`` with what is shown under it: None (it has no subsections), CLOSED, or the layout of
        its subsections. ``levels``: how many levels are shown from ``sids`` down (0: as many as fit)."""
        levels = levels or _levels_within(self.outline, sids, self.budget)
        out: list[tuple[str, object]] = []
        for sid in sids:
            children = self.outline.subsections(sid)
            if not children:
                out.append((sid, None))
            elif sid == self.opened:
                out.append((sid, self.layout(children)))
            elif levels > 1 or sid in self.path:
                out.append((sid, self.layout(children, max(levels - 1, 1))))
            else:
                out.append((sid, CLOSED))
        return out

    def html(self, layout: list) -> SafeString:
        self.entries = self.outline.entries(list(_sids(layout)))  # one query for the titles not yet read
        return self.ul(layout)

    def ul(self, layout: list) -> SafeString:
        return mark_safe(f'<ul class="toc">{"".join(self.row(sid, under) for sid, under in layout)}\n</ul>')

    def row(self, sid: str, under) -> str:
        entry = self.entries[sid]
        label = section_label(entry, self.lang)
        if entry.absent:
            head = f'<span class="toc-label">{label}</span> {self.absent_badge}'
        else:
            head = (f'<a href="{esc(section_url(self.lang, self.slug, sid))}">{label}</a>'
                    f'{self.changed_badge if entry.changed else ""}'
                    f'{"" if self.lang in entry.languages else self.source_badge}')
        css = ' class="absent"' if entry.absent else ""
        if under is None:
            return f"\n<li{css}>{head}</li>"
        anchor = f' id="toc-{esc(sid)}"'
        if under is CLOSED:
            self.closed += 1
            return f"\n<li{css}{anchor}>{head} {self.opener(sid)}</li>"
        shown = sid == self.opened or sid in self.path
        return f"\n<li{css}{anchor if shown else ''}>{head}\n{self.ul(under)}</li>"

    def opener(self, sid: str) -> str:
        url = f"{self.base}?{urlencode({'open': sid})}"
        count = len(self.outline.subsections(sid))
        text = ngettext("Show %(counter)s subsection", "Show %(counter)s subsections", count) % {"counter": count}
        return format_html('<a class="badge muted toc-open" href="{}#toc-{}" rel="nofollow" hx-get="{}" '
                           'hx-target="this" hx-swap="outerHTML">{}</a>', url, sid, url, text)


def _sids(layout: list):
    for sid, under in layout:
        yield sid
        if isinstance(under, list):
            yield from _sids(under)


def _ancestors(outline: Outline, sid: str) -> list[str]:
    out, parent = [], outline.parents[sid]
    while parent:
        out.append(parent)
        parent = outline.parents[parent]
    return out


@require_safe
@cached_page
def book(request, book):
    """A rulebook's contents. ``?open=SID`` opens a section a large book's contents show closed: the whole page
    (a link followed without script) or, for htmx, that section's subtree alone."""
    book_obj = book_or_404(request, book)
    outline = book_outline(book_obj)
    lang = current_language()
    opened = request.GET.get("open")
    if opened is not None and not outline.subsections(opened):
        raise NotFound(_("This rulebook has no section %(id)s with subsections.") % {"id": opened})
    contents = _Contents(outline, book_obj, lang, opened)
    if opened is not None and request.htmx:
        response = HttpResponse(contents.subtree(opened))
    else:
        tree = contents.tree()
        limit = settings.RULESREF_OFFLINE_MAX_SECTIONS
        response = render(request, "reference/book.html", {
            "book": book_obj, "tree": tree, "closed": contents.closed, "progress": _progress(book_obj, outline),
            "target_language": other_language(book_obj.source_language),
            # What {% offline_keep book %} shows, with the outline's count (the tag would read the book again).
            "offline": {"too_large": outline.readable > limit, "sections": outline.readable, "limit": limit},
            "canonical": request.build_absolute_uri(book_url(lang, book)) if opened is not None else "",
        })
    if opened is not None:
        patch_vary_headers(response, ("HX-Request",))
    return response


def _canonical(index: BookIndex, raw: str, own_forms: bool = True) -> tuple[str | None, str]:
    """The section id a URL means, and the clause letter if it names one: '11. 4. 5' -> 11.4.5, 9.3.1c -> (9.3.1, c)."""
    candidate = normalise(raw) if looks_numbered(raw) else raw.strip()
    for sid in (candidate, candidate.lower()):
        if sid in index.entries:
            return sid, ""
        found = index.by_lower.get(sid.lower())
        if found:
            return found, ""
    sid, clause = section_part(candidate)
    if clause and sid in index.entries:
        return sid, clause
    if own_forms and index.patterns:  # the book's own form of a number: /rules/harbour/§ 1-2/ is 1.2
        own = number_query(raw, index.patterns)
        if own and own != candidate:
            return _canonical(index, own, own_forms=False)
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
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    lang = current_language()
    sid, clause = _canonical(index, section)
    if sid is None:
        return render(request, "reference/section_404.html", {
            "book": book_obj, "book_title": book_obj.title(lang), "wanted": section,
            "suggestions": suggestions(index, section, lang),
        }, status=404)
    if sid != section or clause:
        return HttpResponsePermanentRedirect(_with_query(section_url(lang, book, sid, clause), request))
    entry = index.entries[sid]
    parallel = request.GET.get("view") == "parallel"
    columns = [book_obj.source_language, other_language(book_obj.source_language)]  # the source first
    glossary = book_glossary(settings.FIXTURES_DIR, book)
    shown = (_parallel_texts(index, book_obj, entry, lang, columns, glossary) if parallel
             else _section_texts(index, book_obj, entry, lang, glossary))
    other = other_language(lang)
    other_url = language_paths(request)[other] + ("?view=parallel" if parallel else "")
    canonical = request.build_absolute_uri(section_url(lang, book, sid))
    return render(request, "reference/section.html", {
        "book": book_obj, "book_url": book_url(lang, book), "entry": entry, "label": entry.label(lang),
        "summary": entry.summary(lang), "parallel": parallel, **shown, "nav": section_nav(index, book_obj, sid, lang),
        "other_lang": other, "other_url": other_url, "canonical": canonical,
        "is_translation": lang != book_obj.source_language, "columns": columns,
        "checker_links": section_links(book_obj, sid, lang),
        "history": _section_history_links(index, book_obj, sid, lang),
    })


def _with_query(url: str, request) -> str:
    """A redirect's address keeping the request's query (before the fragment, where the address has one)."""
    query = request.GET.urlencode()
    if not query:
        return url
    return url.replace("#", f"?{query}#", 1) if "#" in url else f"{url}?{query}"


def _section_texts(index: BookIndex, book: Book, entry, lang: str, glossary) -> dict:
    """A section's text in the reader's language, or the source text in its place (``fallback``) where there is no
    translation, with "report a problem" after each paragraph and the glossary's definitions."""
    text = section_text(index, entry.sid, lang, glossary)
    source = None if text is not None else section_text(index, entry.sid, book.source_language, glossary)
    shown = text if text is not None else source
    paragraphs = []
    if shown is not None and not entry.absent:
        paragraphs = list(zip(shown.blocks, after_paragraphs(index, book, entry, shown.lang, len(shown.blocks))))
    return {"text": text, "source": source, "rows": [], "tips": [shown.definitions] if shown is not None else [],
            "paragraphs": paragraphs,
            "fallback": text is None and not entry.absent and source is not None and bool(source.blocks)}


def _parallel_texts(index: BookIndex, book: Book, entry, lang: str, columns: list[str], glossary) -> dict:
    """The parallel view: one row per paragraph, a column per language (the source first), each cell with its
    "report a problem" link; a column shorter than the other has empty cells."""
    texts = [section_text(index, entry.sid, code, glossary) for code in columns]
    blocks = [t.blocks if t else () for t in texts]
    reports = [after_paragraphs(index, book, entry, code, len(blocks[c])) if blocks[c] and not entry.absent
               else () for c, code in enumerate(columns)]
    rows = [[(code, blocks[c][i], reports[c][i]) if i < len(blocks[c]) else (code, None, "")
             for c, code in enumerate(columns)] for i in range(max(map(len, blocks)))]
    return {"text": section_text(index, entry.sid, lang, glossary), "source": None, "rows": rows,
            "tips": [t.definitions for t in texts if t], "paragraphs": [], "fallback": False}


def _section_history_links(index: BookIndex, book: Book, sid: str, lang: str) -> dict:
    """"Changed in revision N" (after the first), the section's history and the permanent address of its text."""
    from .history_views import history_url, revision_url

    # Once per content version for the whole book, not a query per page (each revision makes a new version).
    last = index.fragment(("last-changes", book.revision), lambda: history.last_changes(book)).get(sid)
    return {"last": last if last and last > 1 else None, "url": history_url(lang, book.slug, sid),
            "revision": book.revision,
            "permalink": revision_url(lang, book.slug, sid, book.revision) if book.revision else ""}


def section_nav(index: BookIndex, book: Book, sid: str, lang: str) -> dict[str, str]:
    """A section's breadcrumbs, subsections, "referenced by" and previous/next, rendered once per content version
    and language (they depend on nothing else)."""

    def build() -> dict[str, str]:
        entry = index.entries[sid]
        prev_, next_ = index.neighbours(sid)
        context = {
            "book": book, "book_url": book_url(lang, book.slug),
            "ancestors": [(a, section_url(lang, book.slug, a.sid)) for a in index.ancestors(sid)],
            "children": [(index.entries[c], section_url(lang, book.slug, c)) for c in entry.children],
            "prev": (prev_, section_url(lang, book.slug, prev_.sid)) if prev_ else None,
            "next": (next_, section_url(lang, book.slug, next_.sid)) if next_ else None,
            "backlinks": [(index.entries[b], section_url(lang, book.slug, b)) for b in entry.backlinks.get(lang, [])],
        }
        return {part: render_to_string(f"reference/_section_nav.html#{part}", context)
                for part in ("crumbs", "links", "pager")}

    return index.fragment(("nav", lang, translation.get_language(), sid), build)


def report_links(index: BookIndex, entry, text_lang: str, count: int) -> tuple[SafeString, ...]:
    """"Report a problem" after each of the ``count`` paragraphs of a section's text in ``text_lang``: a link to the
    report form (its own page without script, a fragment opened under the paragraph with htmx) naming the revision of
    the text the reader sees, so the report is anchored to it. Built once per content version, text and interface
    language (``index.fragment``): a page the page cache lacks pays nothing for them. None where the site has no
    report form."""

    def build() -> tuple[SafeString, ...]:
        ui = translation.get_language()
        query = f"?rev={source_revision(entry.titles.get(text_lang, ''), entry.bodies.get(text_lang, ''))}"
        if text_lang != ui:
            query += f"&text={text_lang}"
        label = esc(_("Report a problem"))
        links = []
        for n in range(1, count + 1):
            try:
                url = esc(reverse("report", kwargs={"book": index.slug, "section": entry.sid, "paragraph": n}) + query)
            except NoReverseMatch:
                return ("",) * count
            name = esc(_("Report a problem in paragraph %(n)s") % {"n": n})
            slot = f"report-{text_lang}-{n}"
            links.append(mark_safe(
                f'<p class="report-problem"><a href="{url}" rel="nofollow" hx-get="{url}" hx-target="#{slot}" '
                f'hx-swap="innerHTML" aria-label="{name}">{label}</a></p>'
                f'<div class="report-slot" id="{slot}" aria-live="polite"></div>'))
        return tuple(links)

    return index.fragment(("report", entry.sid, text_lang, translation.get_language(), count), build)


def after_paragraphs(index: BookIndex, book: Book, entry, text_lang: str, count: int) -> tuple[SafeString, ...]:
    """What follows each of the ``count`` paragraphs of a section's text in ``text_lang``: its "Report a problem"
    link, then what other apps add there (settings.REFERENCE_PARAGRAPH_EXTRAS: ``provider(book, index, sid,
    text_lang, body, count)`` gives one piece of HTML per paragraph, built on escaped text; the rulings app puts the
    rulings on a clause under it)."""
    out = list(report_links(index, entry, text_lang, count))
    for path in getattr(settings, "REFERENCE_PARAGRAPH_EXTRAS", ()):
        added = import_string(path)(book, index, entry.sid, text_lang, entry.bodies.get(text_lang, ""), count)
        out = [mark_safe(a + b) for a, b in zip(out, added, strict=True)]
    return tuple(out)


def section_links(book: Book, sid: str, lang: str) -> list[dict]:
    """The links other apps add to a section page (settings.REFERENCE_SECTION_LINKS), in the order listed. Each
    provider is called as ``provider(book, sid, lang)`` with the rulebook's row, so it needs no query of its own."""
    return [link for path in getattr(settings, "REFERENCE_SECTION_LINKS", ())
            for link in import_string(path)(book, sid, lang)]


@require_safe
def errata(request, book):
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    lang = current_language()
    rows = [(e, index.entries[e.section.sid] if e.section else None,
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
    book_obj = book_or_404(request, book)
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
        "book": book_obj, "book_title": book_obj.title(lang), "groups": groups.items(), "query": query,
        "count": len(terms), "count_forms": _count_forms(lang, len(glossary.terms)),
        "total": len(glossary.terms),
    })


def _count_forms(lang: str, total: int) -> list[tuple[str, str]]:
    """"N terms of T" in each plural category of the language (CLDR's: one, few, many, other), with {n} for the
    number, so the filter can say how many it shows as it filters (site.js picks the form with Intl.PluralRules)."""
    locale = Locale.parse(lang)
    forms: dict[str, str] = {}
    for n in (1, 2, 5, 21, 0):
        category = locale.plural_form(n)
        if category not in forms:
            forms[category] = ngettext("%(counter)s term of %(total)s", "%(counter)s terms of %(total)s", n) % {
                "counter": "{n}", "total": total}
    return list(forms.items())


def _term_matches(term, query: str, wanted: set[str]) -> bool:
    forms = [*term.forms("ru"), *term.forms("en"), term.abbr_ru, term.abbr_en]
    if any(query.casefold() in f.casefold() for f in forms if f):
        return True
    return any(wanted & set(stems(f, lang)) for lang in ("ru", "en") for f in term.forms(lang))


@require_safe
@cached_page
def term(request, book, term):
    book_obj = book_or_404(request, book)
    glossary = _glossary_or_404(book_obj)
    entry = glossary.by_id.get(term)
    if entry is None:
        raise Http404("no such term")
    lang = current_language()
    index = book_index(book_obj)
    usage = term_usage(index)

    def sections(ids):
        known = sorted((s for s in set(ids) if s in index.entries), key=lambda s: index.entries[s].position)
        return [(index.entries[s], section_url(lang, book, s)) for s in known]

    return render(request, "reference/term.html", {
        "book": book_obj, "term": entry, "name": entry.term(lang), "lang": lang, "definition": entry.definition(lang),
        "defined_in": sections(entry.sections),
        "used_in": [(code, capfirst(label), sections(usage.get(entry.id, {}).get(code, [])))
                    for code, label in (("ru", _("Russian")), ("en", _("English")))],
    })


@require_safe
def search_view(request):
    """One box on every page: full page for a form submit, just the results for htmx as you type."""
    lang = current_language()
    query = request.GET.get("q", "")
    book_slug = request.GET.get("book", "")
    text_lang = request.GET.get("in", "")
    result = search(query, lang, book_slug, text_lang, page=request.GET.get("page", 1), request=request)
    if result.jump and not request.htmx:
        return redirect(result.jump)
    nearest = []
    if result.missing_section:
        for book_obj in [b for b in books(request).values() if b.slug == book_slug or not book_slug]:
            nearest += [(book_obj, entry, url) for entry, url in
                        suggestions(book_index(book_obj), result.missing_section, lang)]
    context = {"result": result, "query": result.query, "book_filter": book_slug, "in_filter": text_lang,
               "books": books(request).values(), "nearest": nearest,
               # What other apps find for the query (settings.REFERENCE_SEARCH_EXTRAS: the rulings), shown after the
               # sections: provider(result, lang, book, text language, request) -> HTML built on escaped text.
               "search_extras": mark_safe("".join(import_string(path)(result, lang, book_slug, text_lang, request)
                                                  for path in getattr(settings, "REFERENCE_SEARCH_EXTRAS", ())))}
    template = "reference/search.html#results" if request.htmx else "reference/search.html"
    return render(request, template, context)


def not_found(request, exception=None):
    """The site's 404 page; it says why when the view gave a reason meant for the reader (rulesref.http.NotFound)."""
    reason = str(exception) if isinstance(exception, NotFound) else ""
    return render(request, "404.html", {"reason": reason}, status=404)


FAVICON = Path(__file__).resolve().parent.parent / "static" / "rulesref" / "favicon.ico"


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request):
    """/favicon.ico, which browsers and feed readers ask for whatever the page's <link rel="icon"> says."""
    return HttpResponse(_favicon_bytes(), content_type="image/x-icon")


@lru_cache(maxsize=1)
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_safe
@cache_control(max_age=3600, public=True)
def robots_txt(request):
    """Everything may be crawled but the admin; the sitemap lists the reference pages in both languages."""
    sitemap = request.build_absolute_uri(reverse("sitemap"))
    return HttpResponse(f"User-agent: *\nDisallow: /admin/\n\nSitemap: {sitemap}\n", content_type="text/plain")
