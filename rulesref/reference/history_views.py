"""The pages of a rulebook's history: a section's history with a word diff of any two revisions, a section as it
stood at a revision (a permanent address), "what changed since revision N" and the Atom feed of changes.

Every text shown is untrusted: it is escaped first, and the diff marks (<ins>, <del>) are built around escaped text
(rulesref/textdiff.py).
"""
from __future__ import annotations

from functools import lru_cache

from babel.dates import format_datetime
from django.contrib.syndication.views import Feed
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import feedgenerator, translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from rulesref.http import NotFound
from rulesref.languages import current_language, other_language
from rulesref.textdiff import html_diff

from . import history
from .corpus import split_blocks
from .index import BookIndex, book_index, book_or_404
from .models import Book, BookRevision, TextVersion
from .render import book_url, esc, section_url

FEED_ENTRIES = 30
FEED_SECTIONS = 100


def _url(name: str, lang: str, **kwargs) -> str:
    with translation.override(lang):
        return reverse(f"reference:{name}", kwargs=kwargs)


@lru_cache(maxsize=16384)
def _history_path(lang: str, book: str, sid: str) -> str:
    return _url("section_history", lang, book=book, section=sid)


def history_url(lang: str, book: str, sid: str, query: str = "") -> str:
    url = _history_path(lang, book, sid)
    return f"{url}?{query}" if query else url


def revision_url(lang: str, book: str, sid: str, number: int) -> str:
    return _url("section_at", lang, book=book, section=sid, revision=number)


def changes_url(lang: str, book: str, since: int | None = None) -> str:
    url = _url("changes", lang, book=book)
    return f"{url}?since={since}" if since is not None else url


def when(revision: BookRevision, lang: str) -> str:
    return format_datetime(revision.created, "d MMMM y, HH:mm", tzinfo=None, locale=lang) + " UTC"


def origin_label(revision: BookRevision) -> str:
    """Where a revision came from; an approval names its reviewer (kept in its note when it was approved)."""
    if revision.origin == BookRevision.Origin.APPROVAL and revision.note:
        return _("a translation approved by %(reviewer)s") % {"reviewer": revision.note}
    return {
        BookRevision.Origin.EXISTING: _("the texts already on the site"),
        BookRevision.Origin.LOAD: _("loaded from the corpus files"),
        BookRevision.Origin.APPROVAL: _("an approved translation"),
        BookRevision.Origin.ADMIN: _("an administrator's edit"),
    }.get(revision.origin, revision.origin)


def language_name(lang: str) -> str:
    return _("Russian") if lang == "ru" else _("English")


def languages_label(langs: list[str]) -> str:
    return ", ".join(language_name(lang) for lang in langs)


class BadRequest(Exception):
    pass


def _number(value: str | None, what: str, latest: int) -> int | None:
    if value in (None, ""):
        return None
    try:
        number = int(value)
    except ValueError:
        raise BadRequest(_("%(what)s must be a revision number, not “%(value)s”.") % {
            "what": what, "value": value[:40]}) from None
    if not 1 <= number <= latest:
        raise BadRequest(_("%(what)s: there is no revision %(number)s; this rulebook has revisions 1 to "
                           "%(latest)s.") % {"what": what, "number": number, "latest": latest})
    return number


def _bad(request, book: Book, message: str) -> HttpResponse:
    return render(request, "reference/history_error.html", {"book": book, "message": message}, status=400)


def _resolve(request, book_obj: Book, index: BookIndex, raw: str) -> tuple[str | None, str | None]:
    """The section id a history address means, and where to redirect when it is not the canonical one. A section
    the book no longer has is found by its history."""
    from .views import _canonical

    sid, _clause = _canonical(index, raw)
    if sid is None:
        if TextVersion.objects.filter(book=book_obj, sid=raw).exists():
            return raw, None
        return None, None
    return sid, (None if sid == raw else sid)


def _label(index: BookIndex, sid: str, lang: str) -> str:
    entry = index.entries.get(sid)
    return entry.label(lang) if entry is not None else sid


def _text_html(body: str) -> str:
    return format_html_join("", "<p>{}</p>", ((block,) for block in split_blocks(body)))


def _redirect(request, url: str) -> HttpResponse:
    query = request.GET.urlencode()
    return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


def _section_or_404(request, book: str, section: str):
    """The rulebook, its index, the reader's language, the section id an address means and, when the address is
    not the canonical one, the canonical id to redirect to; a 404 that names the section when there is none."""
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    sid, canonical = _resolve(request, book_obj, index, section)
    if sid is None:
        raise NotFound(_("No section %(section)s in this rulebook.") % {"section": section[:64]})
    return book_obj, index, current_language(), sid, canonical


def _compared(changes: list[history.SectionChange], text_lang: str, to: int | None, from_: int | None,
              latest: int) -> tuple[int | None, int | None]:
    """The two revisions a history page compares: those asked for, or by default the latest change in the text's
    language against the one before it (the revision before, when the text first appeared then); older first."""
    lang_changes = [c.revision.number for c in changes if text_lang in c.languages]
    if to is None:
        to = lang_changes[0] if lang_changes else latest
    if from_ is None:
        from_ = next((n for n in lang_changes if n < to), None)
        if from_ is None:
            from_ = to - 1 if to > 1 and lang_changes else None
    if from_ is not None and from_ > to:
        from_, to = to, from_
    return from_, to


def _diff(book_obj: Book, sid: str, lang: str, text_lang: str, from_: int, to: int) -> dict:
    """The word diff of the section's text in ``text_lang`` between two revisions, for the history page."""
    old = history.text_at(book_obj, sid, text_lang, from_)
    new = history.text_at(book_obj, sid, text_lang, to)
    old_title, old_body = (old.title, old.body) if old else ("", "")
    new_title, new_body = (new.title, new.body) if new else ("", "")
    other = other_language(text_lang)
    return {"from": from_, "to": to, "lang": text_lang, "same": (old_title, old_body) == (new_title, new_body),
            "title": html_diff(old_title, new_title), "body": html_diff(old_body, new_body),
            "old_missing": old is None, "new_missing": new is None,
            "other_url": history_url(lang, book_obj.slug, sid, f"from={from_}&to={to}&in={other}"),
            "other_lang_name": language_name(other), "lang_name": language_name(text_lang)}


def _change_rows(changes: list[history.SectionChange], lang: str, book: str, sid: str) -> list[dict]:
    """One row per revision that changed the section, newest first, each with its diffs against the one before."""
    rows = []
    for i, change in enumerate(changes):
        number = change.revision.number
        before = changes[i + 1].revision.number if i + 1 < len(changes) else None
        diff_urls = [(language_name(code), history_url(lang, book, sid, f"from={before}&to={number}&in={code}"))
                     for code in change.languages] if before is not None else []
        rows.append({
            "change": change, "when": when(change.revision, lang), "origin": origin_label(change.revision),
            "languages": languages_label(change.languages), "at_url": revision_url(lang, book, sid, number),
            "diff_urls": diff_urls, "added": languages_label(change.added),
            "removed": languages_label(change.removed),
        })
    return rows


@require_safe
def section_history(request, book, section):
    """A section's revisions, newest first, and the word diff of two of them in one language (``from``, ``to``,
    ``in``; by default the latest change in the reader's language against the text before it)."""
    book_obj, index, lang, sid, canonical = _section_or_404(request, book, section)
    if canonical:
        return _redirect(request, history_url(lang, book, canonical))
    changes = history.section_history(book_obj, sid)
    text_lang = request.GET.get("in") or lang
    if text_lang not in ("ru", "en"):
        return _bad(request, book_obj, _("The language must be ru or en, not “%(value)s”.") % {
            "value": text_lang[:20]})
    latest = book_obj.revision
    try:
        to = _number(request.GET.get("to"), _("The newer revision"), latest)
        from_ = _number(request.GET.get("from"), _("The older revision"), latest)
    except BadRequest as exc:
        return _bad(request, book_obj, str(exc))
    from_, to = _compared(changes, text_lang, to, from_, latest)
    diff = _diff(book_obj, sid, lang, text_lang, from_, to) if from_ is not None and to is not None else None
    numbers = sorted({c.revision.number for c in changes} | ({from_} if from_ else set()) | ({to} if to else set()))
    return render(request, "reference/section_history.html", {
        "book": book_obj, "sid": sid, "entry": index.entries.get(sid), "label": _label(index, sid, lang),
        "section_url": section_url(lang, book, sid) if sid in index.entries else "",
        "rows": _change_rows(changes, lang, book, sid), "diff": diff, "numbers": numbers, "text_lang": text_lang,
        "languages": [("ru", language_name("ru")), ("en", language_name("en"))],
        "changes_url": changes_url(lang, book), "latest": latest,
    })


def _text_then(book_obj: Book, sid: str, lang: str, revision: int) -> tuple[TextVersion | None, str]:
    """The section's text at ``revision`` in the reader's language, else in the source language, and the language
    shown; a 404 when the section had no text at all then."""
    text = history.text_at(book_obj, sid, lang, revision)
    if text is None and lang != book_obj.source_language:
        return _text_then(book_obj, sid, book_obj.source_language, revision)
    if text is None and not TextVersion.objects.filter(book=book_obj, sid=sid, since__lte=revision).exists():
        raise NotFound(_("Section %(section)s had no text at revision %(number)s.") % {
            "section": sid, "number": revision})
    return text, lang


@require_safe
def section_at(request, book, section, revision):
    """The section as it stood at ``revision``: the permanent address of that text."""
    book_obj, index, lang, sid, canonical = _section_or_404(request, book, section)
    if canonical:
        return _redirect(request, revision_url(lang, book, canonical, revision))
    rev = history.revision_or_none(book_obj, revision)
    if rev is None:
        raise NotFound(_("This rulebook has no revision %(number)s (its latest is %(latest)s).") % {
            "number": revision, "latest": book_obj.revision})
    text, shown_lang = _text_then(book_obj, sid, lang, revision)
    current = history.text_at(book_obj, sid, shown_lang, book_obj.revision)
    same = (current and text and (current.title, current.body) == (text.title, text.body)) or (
        current is None and text is None)
    later = history.last_change(book_obj, sid, shown_lang)
    entry = index.entries.get(sid)
    title = text.title if text else ""
    heading = f"{entry.number} {title}".strip() if entry is not None and entry.number else (title or sid)
    with translation.override(other_language(lang)):
        other_url = reverse("reference:section_at", kwargs={"book": book, "section": sid, "revision": revision})
    return render(request, "reference/section_at.html", {
        "book": book_obj, "sid": sid, "entry": entry, "heading": heading, "revision": rev,
        "when": when(rev, lang), "text": text, "text_lang": shown_lang, "fallback": shown_lang != lang,
        "body": _text_html(text.body) if text else "", "same": same, "latest": book_obj.revision,
        "current_url": section_url(lang, book, sid) if entry is not None else "",
        "history_url": history_url(lang, book, sid),
        "diff_url": history_url(lang, book, sid, f"from={revision}&to={book_obj.revision}&in={shown_lang}"),
        "changed_later": later is not None and later > revision, "other_url": other_url,
        "canonical": request.build_absolute_uri(request.path),
    })


def _sections(book_obj: Book, index: BookIndex, changed: list[history.ChangedSection], lang: str, base: int,
              upto: int) -> list[dict]:
    return [{"sid": c.sid, "label": _label(index, c.sid, lang), "languages": languages_label(c.languages),
             "url": section_url(lang, book_obj.slug, c.sid) if c.sid in index.entries else "",
             "diffs": [(language_name(code), history_url(lang, book_obj.slug, c.sid,
                                                         f"from={base}&to={upto}&in={code}")) for code in c.languages]}
            for c in changed]


@require_safe
def changes(request, book):
    """The book's revisions, and with ``since=N`` every section changed after revision N."""
    book_obj = book_or_404(request, book)
    index = book_index(book_obj)
    lang = current_language()
    latest = book_obj.revision
    try:
        since = _number(request.GET.get("since"), _("The revision to compare with"), latest) if latest else None
    except BadRequest as exc:
        return _bad(request, book_obj, str(exc))
    revisions = list(BookRevision.objects.filter(book=book_obj).order_by("-number")[:200])
    listed, total = ([], 0)
    if since is not None:
        changed, total = history.changed_since(book_obj, since)
        listed = _sections(book_obj, index, changed, lang, since, latest)
    return render(request, "reference/changes.html", {
        "book": book_obj, "since": since, "latest": latest, "listed": listed, "total": total,
        "more": total - len(listed),
        "revisions": [{"revision": r, "when": when(r, lang), "origin": origin_label(r),
                       "languages": languages_label(r.language_list), "url": changes_url(lang, book, r.number - 1)
                       if r.number > 1 else ""} for r in revisions],
        "feed_url": _url("changes_feed", lang, book=book), "book_url": book_url(lang, book),
    })


def revision_summary(r: BookRevision) -> str:
    parts = []
    if r.changed:
        parts.append(ngettext("%(n)s text changed", "%(n)s texts changed", r.changed) % {"n": r.changed})
    if r.added:
        parts.append(ngettext("%(n)s text added", "%(n)s texts added", r.added) % {"n": r.added})
    if r.removed:
        parts.append(ngettext("%(n)s text removed", "%(n)s texts removed", r.removed) % {"n": r.removed})
    return ", ".join(parts)


class ChangesFeed(Feed):
    """An Atom feed of the book's revisions, newest first: each entry lists the sections it changed (escaped).

    One instance serves every request, so what an entry needs of the request (absolute addresses) is worked out in
    :meth:`items` and carried by the entries themselves."""

    feed_type = feedgenerator.Atom1Feed  # its language is the request's (Django's get_language())

    def get_object(self, request, book):
        book_obj = book_or_404(request, book)
        lang = current_language()
        return {"book": book_obj, "lang": lang, "request": request,
                "link": request.build_absolute_uri(changes_url(lang, book))}

    def title(self, obj) -> str:
        return _("%(book)s: changes") % {"book": obj["book"].title(obj["lang"])}

    def link(self, obj) -> str:
        return obj["link"]

    def feed_guid(self, obj) -> str:
        return obj["link"]

    def description(self, obj) -> str:
        return _("Every revision of the rulebook's text, with the sections it changed.")

    def items(self, obj) -> list[dict]:
        book_obj, lang, request = obj["book"], obj["lang"], obj["request"]
        index, order = book_index(book_obj), history.book_order(book_obj)
        entries = []
        for r in BookRevision.objects.filter(book=book_obj).order_by("-number")[:FEED_ENTRIES]:
            changed, total = history.revision_sections(book_obj, r.number, order)
            items = _sections(book_obj, index, changed[:FEED_SECTIONS], lang, r.number - 1, r.number)
            link = request.build_absolute_uri(changes_url(lang, book_obj.slug, r.number - 1)) \
                if r.number > 1 else obj["link"]
            entries.append({"revision": r, "link": link, "guid": f"{obj['link']}#revision-{r.number}",
                            "description": str(self._summary(request, r, items, total - len(items)))})
        return entries

    @staticmethod
    def _summary(request, r: BookRevision, items: list[dict], more: int) -> str:
        lines = []
        for item in items:
            target = item["diffs"][0][1] if r.number > 1 and item["diffs"] else item["url"]
            label = format_html('<a href="{}">{}</a>', request.build_absolute_uri(target), item["label"]) \
                if target else esc(item["label"])
            lines.append(format_html("<li>{} ({})</li>", label, item["languages"]))
        return format_html("<p>{} · {} · {}</p><ul>{}</ul>{}", revision_summary(r), origin_label(r),
                           languages_label(r.language_list), mark_safe("".join(lines)),
                           format_html("<p>{}</p>", ngettext("and %(n)s more section", "and %(n)s more sections",
                                                             more) % {"n": more}) if more > 0 else "")

    def item_title(self, item: dict) -> str:
        return _("Revision %(number)s") % {"number": item["revision"].number}

    def item_link(self, item: dict) -> str:
        return item["link"]

    def item_guid(self, item: dict) -> str:
        return item["guid"]

    item_guid_is_permalink = False

    def item_description(self, item: dict) -> str:
        return item["description"]

    def item_pubdate(self, item: dict):
        return item["revision"].created

    def item_updateddate(self, item: dict):
        return item["revision"].created


changes_feed = require_safe(ChangesFeed())
