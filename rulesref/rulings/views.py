"""Readers' pages of the rulings: a book's FAQ (its rulings by chapter), a ruling's permanent page and its history,
and the Atom feed of new rulings. Only published rulings are shown (a withdrawn one keeps its address and says so);
every text is escaped (render.py)."""
from __future__ import annotations

from babel.dates import format_datetime
from django.contrib.syndication.views import Feed
from django.core.paginator import Paginator
from django.db.models import Q
from django.shortcuts import render
from django.utils import feedgenerator
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from rulesref.http import NotFound
from rulesref.languages import current_language, other_language
from rulesref.reference.history_views import history_url as section_history_url
from rulesref.reference.history_views import language_name
from rulesref.reference.index import BookIndex, book_index, book_or_404
from rulesref.reference.models import Book
from rulesref.reference.pagecache import cached_page
from rulesref.reference.render import book_url, section_url
from rulesref.textdiff import html_diff

from . import render as show
from .citations import clause_paragraphs
from rulesref.reference.corpus import split_blocks
from .models import Citation, Ruling, RulingRevision
from .workflow import public_rulings

PER_PAGE = 100
QUOTED = 6  # paragraphs of a cited section quoted on a ruling's page
FEED_ENTRIES = 30


def when(value, lang: str) -> str:
    return format_datetime(value, "d MMMM y", tzinfo=None, locale=lang) if value else ""


def chapter_of(index: BookIndex, sid: str) -> str:
    entry = index.entries.get(sid)
    while entry is not None and entry.parent:
        entry = index.entries.get(entry.parent)
    return entry.sid if entry is not None else ""


def faq_order(book_obj: Book, index: BookIndex) -> list[int]:
    """The ids of the book's published rulings in the FAQ's order: at the first clause each cites, in book order
    (one citing no clause the book has, last), then by number. Read from their numbers and cited sections alone,
    two queries of small rows, never their texts: a page then reads only its own rulings (at 2,000 rulings, reading
    them all made the FAQ page take half a second)."""
    published = Ruling.objects.filter(book=book_obj, state=Ruling.State.PUBLISHED)
    places = {pk: [len(index.order) + 1, number] for pk, number in published.values_list("pk", "number")}
    for pk, sid in Citation.objects.filter(ruling__in=published).values_list("ruling_id", "sid"):
        entry = index.entries.get(sid)
        if entry is not None and pk in places:
            places[pk][0] = min(places[pk][0], entry.position)
    return sorted(places, key=lambda pk: places[pk])


@require_safe
@cached_page
def faq(request, book):
    """The book's rulings by chapter, in the order of the clauses they answer."""
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    lang = current_language()
    ordered = faq_order(book_obj, index)
    page = Paginator(ordered, PER_PAGE).get_page(request.GET.get("page"))
    wanted = list(page.object_list)
    found = {r.pk: r for r in public_rulings(book_obj).filter(pk__in=wanted)}
    chapters: list[dict] = []
    for ruling in (found[pk] for pk in wanted if pk in found):
        item = show.shown(ruling, index, book_obj, lang)
        if item is None:
            continue
        first = next(iter(item.citations), None)
        chapter = chapter_of(index, first.sid) if first else ""
        if not chapters or chapters[-1]["sid"] != chapter:
            entry = index.entries.get(chapter)
            chapters.append({"sid": chapter, "label": entry.label(lang) if entry else _("Other rulings"),
                             "url": section_url(lang, book_obj.slug, chapter) if entry else "", "items": []})
        chapters[-1]["items"].append({"item": item, "note": show.outdated_note(item)})
    return render(request, "rulings/faq.html", {
        "book": book_obj, "chapters": chapters, "page": page, "total": len(ordered),
        "book_url": book_url(lang, book_obj.slug), "feed_url": _feed_url(lang, book_obj.slug),
        "canonical": request.build_absolute_uri(show.faq_url(lang, book_obj.slug)),
    })


def _feed_url(lang: str, book: str) -> str:
    from django.urls import reverse
    from django.utils import translation

    with translation.override(lang):
        return reverse("rulings:feed", kwargs={"book": book})


def _public_or_404(book_obj: Book, number: int) -> Ruling:
    ruling = (Ruling.objects.filter(book=book_obj, number=number).prefetch_related("citations", "texts")
              .select_related("book").first())
    if ruling is None or not ruling.is_public:
        raise NotFound(_("This rulebook has no published ruling %(n)s.") % {"n": number})
    return ruling


@require_safe
@cached_page
def ruling(request, book, number):
    """A ruling's permanent page: its question and answer, the clauses it answers (their text now), whether it may
    be outdated and since which revision, its checker position, its history."""
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    lang = current_language()
    found = _public_or_404(book_obj, number)
    item = show.shown(found, index, book_obj, lang)
    if item is None:
        raise NotFound(_("This rulebook has no published ruling %(n)s.") % {"n": number})
    clauses = []
    for c in item.citations:
        entry = index.entries.get(c.sid)
        text_lang = lang if entry is not None and lang in entry.bodies else book_obj.source_language
        body = entry.bodies.get(text_lang, "") if entry is not None else ""
        paragraphs = clause_paragraphs("", body, c.clause) if c.clause else split_blocks(body)
        since = _stored(found, c)
        clauses.append({
            "c": c, "lang": text_lang, "more": len(paragraphs) > QUOTED,
            "text": [show.inline_html(p, index, text_lang) for p in paragraphs[:QUOTED]],
            "diff_url": section_history_url(lang, book_obj.slug, c.sid, f"from={since}&to={book_obj.revision}"
                                            f"&in={c.changed_language or book_obj.source_language}")
            if c.outdated and since else ""})
    return render(request, "rulings/ruling.html", {
        "book": book_obj, "item": item, "note": show.outdated_note(item), "clauses": clauses,
        "checker_url": checker_url(found, lang), "faq_url": show.faq_url(lang, book_obj.slug),
        "other_lang": other_language(lang), "other_url": show.ruling_url(other_language(lang), book_obj.slug, number),
        "lang_name": language_name(item.lang), "confirmed": when(found.confirmed, lang),
        "canonical": request.build_absolute_uri(item.url), "summary": item.question[:200],
    })


def _stored(ruling: Ruling, view: show.CitationView) -> int:
    """The revision a citation was confirmed against (for the diff from then to now)."""
    return next((c.revision for c in ruling.citations.all() if c.sid == view.sid and c.clause == view.clause), 0)


def checker_url(ruling: Ruling, lang: str) -> str:
    """The checker position the ruling points to, asked again when opened (the shared page re-asks the engine)."""
    if not ruling.checker_code:
        return ""
    from django.urls import NoReverseMatch, reverse
    from django.utils import translation

    try:
        with translation.override(lang):
            url = reverse("checker:shared", kwargs={"book": ruling.book.slug, "code": ruling.checker_code})
    except NoReverseMatch:
        return ""
    return f"{url}?{ruling.checker_query}" if ruling.checker_query else url


@require_safe
def history(request, book, number):
    """Every published text of a ruling, each language's with the word diff from its previous one, and every
    confirmation and withdrawal, newest first."""
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    lang = current_language()
    found = _public_or_404(book_obj, number)
    revisions = list(RulingRevision.objects.filter(text__ruling=found, applied=True).filter(
        Q(published=True) | Q(origin__in=[RulingRevision.Origin.CONFIRM, RulingRevision.Origin.WITHDRAW]))
        .select_related("author").order_by("created", "pk"))
    rows, previous = [], {}
    texts = {t.pk: t.language for t in found.texts.all()}
    for r in revisions:
        text_lang = texts[r.text_id]
        row = {"r": r, "when": when(r.created, lang), "lang": text_lang, "lang_name": language_name(text_lang),
               "kind": _kind(r)}
        if r.published:
            before = previous.get(text_lang)
            row["question"] = html_diff(before.question if before else "", r.question)
            row["answer"] = html_diff(before.answer if before else "", r.answer)
            previous[text_lang] = r
        rows.append(row)
    rows.reverse()
    item = show.shown(found, index, book_obj, lang)
    return render(request, "rulings/history.html", {"book": book_obj, "item": item, "rows": rows,
                                                    "canonical": request.build_absolute_uri(request.path)})


def _kind(r: RulingRevision) -> str:
    if r.origin == RulingRevision.Origin.CONFIRM:
        return _("confirmed against revision %(n)s of the rules") % {"n": r.book_revision}
    if r.origin == RulingRevision.Origin.WITHDRAW:
        return _("withdrawn")
    return _("published")


class RulingsFeed(Feed):
    """New rulings of a rulebook, newest first (Atom): each entry its question, answer and the clauses it cites."""

    feed_type = feedgenerator.Atom1Feed

    def get_object(self, request, book):
        self.request = request
        book_obj = book_or_404(request, book)
        return book_obj, book_index(book_obj), current_language()

    def title(self, obj):
        book, _index, lang = obj
        return _("%(book)s: rulings") % {"book": book.title(lang)}

    def link(self, obj):
        book, _index, lang = obj
        return show.faq_url(lang, book.slug)

    def subtitle(self, obj):
        return _("Answers to rules questions, each attached to the clauses it answers.")

    def items(self, obj):
        book, index, lang = obj
        found = Ruling.objects.filter(book=book, state=Ruling.State.PUBLISHED).order_by("-published", "-number")
        return [s for r in found.prefetch_related("citations", "texts")[:FEED_ENTRIES]
                if (s := show.shown(r, index, book, lang)) is not None]

    def item_title(self, item):
        return _("Ruling %(n)s: %(question)s") % {"n": item.number, "question": item.question[:200]}

    def item_description(self, item):
        from django.template.loader import render_to_string

        html = render_to_string("rulings/_feed_entry.html", {"item": item, "note": show.outdated_note(item)})
        return html.replace(' href="/', f' href="{self.request.build_absolute_uri("/")}')

    def item_link(self, item):
        return item.url

    def item_guid(self, item):
        return self.request.build_absolute_uri(item.url)

    def item_pubdate(self, item):
        return item.ruling.published

    def item_updateddate(self, item):
        return item.ruling.changed


feed = require_safe(RulingsFeed())
