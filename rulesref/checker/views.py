"""Checker pages: the examples gallery, the editor (of whichever board kind the rulebook uses), shared scenarios and
examples, each with download and upload.

One URL serves the full page or, for htmx, the editor fragment. Reading never writes: a click without JavaScript
is a link that chooses a hex or a unit, an answer is a GET of the question and its parameters. Every change is a
POST (:mod:`changes`) that makes a new immutable draft. The board kind comes from the rulebook (:mod:`kinds`).
"""
from __future__ import annotations

from functools import wraps

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from rulesref.http import NotFound
from rulesref.languages import current_language

from . import books, changes
from .kinds import checker_books, kind_of
from .measuring import with_pick
from .models import Draft, SavedScenario
from .page import Page, download
from .state import Source, ViewState


@require_safe
def index(request):
    lang = current_language()
    groups = []
    for book, kind in checker_books():
        items = []
        for slug, ex in sorted(books.examples(book.slug).items()):
            title, title_lang = ex.title(lang)
            description, description_lang = ex.description(lang)
            items.append({"slug": slug, "title": title, "title_lang": title_lang, "description": description,
                          "description_lang": description_lang, "example_of": ex.example_of,
                          "url": reverse("checker:example", kwargs={"book": book.slug, "slug": slug}),
                          "questions": list(dict.fromkeys(books.question_label(q["question"])
                                                          for q in ex.questions))})  # each question once
        groups.append({"book": book, "kind": kind, "items": items,
                       "editor_url": reverse("checker:editor", kwargs={"book": book.slug})})
    return render(request, "checker/index.html", {"groups": groups})


def editor_view(view_func):
    """A view of one rulebook's editor: 404 for a book without a checker; GET and HEAD read, POST edits."""

    @wraps(view_func)
    @vary_on_headers("HX-Request")
    @require_http_methods(["GET", "HEAD", "POST"])
    def wrapper(request, book, **kwargs):
        kind = kind_of(book)
        if kind is None:
            raise NotFound(_("No rulebook %(book)s in the checker.") % {"book": book})
        source = view_func(request, book, kind, **kwargs)
        if not isinstance(source, Source):
            return source
        if request.method == "POST":
            return changes.post(request, source, kind)
        if request.GET.get("download") == "json":
            return download(source)
        view = ViewState.read(request.GET, book, kind)
        if request.GET.get("pick"):  # a click with the measure tool: go to the view with the new pick
            return changes.moved(request, source, kind, with_pick(view, kind.pick(source.data, request.GET["pick"])))
        return Page(request, source, kind, view).response()

    return wrapper


@editor_view
def editor(request, book, kind):
    key = request.GET.get("d") or request.POST.get("d") or ""
    if not key:
        return Source("new", book, kind.blank(book))
    draft = Draft.open(book, key[:24])  # records the opening: a draft nobody opens expires
    if draft is None:
        raise NotFound(_("This draft no longer exists. Drafts are kept for a while; share a scenario to keep it."))
    return Source("draft", book, draft.data, draft=draft)


@editor_view
def shared(request, book, kind, code):
    saved = SavedScenario.objects.filter(book=book, code=code).first()
    if saved is None:
        raise NotFound(_("No shared scenario %(code)s.") % {"code": code})
    return Source("shared", book, saved.data, saved=saved)


@editor_view
def example(request, book, kind, slug):
    ex = books.example(book, slug)
    if ex is None:
        raise NotFound(_("No example %(slug)s.") % {"slug": slug})
    if request.method == "GET" and "q" not in request.GET and ex.questions:
        # An example opens with its first question asked, so the answer is there at once.
        query = request.GET.copy()
        query["q"] = ex.questions[0]["question"]
        for name, value in (ex.questions[0].get("params") or {}).items():
            query.setlist(f"p-{name}", [str(v) for v in value] if isinstance(value, list) else [str(value)])
        return HttpResponseRedirect(f"{request.path}?{query.urlencode()}")
    return Source("example", book, {k: v for k, v in ex.data.items() if k != "questions"}, example=ex)
