"""A POST to the editor: one edit, checked by the engine, stored as a new immutable draft.

The board kind's ``actions`` (and the shared ones: share, upload) each take (request, source, view) and return
(new data, new view, message), or a :class:`~rulesref.checker.files.Moved`. A result the engine refuses is not
stored: the page is shown again with the problems next to the fields that caused them. A stored one answers with
the new state's address: a 303 redirect, or for htmx the editor fragment and ``HX-Push-Url``.
"""
from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _

from rulesref.languages import current_language

from . import editing
from .editing import EditError, Rejected
from .files import SHARED_ACTIONS, Moved
from .kinds import BoardKind
from .models import Draft
from .page import Page
from .state import Source, ViewState, url

# The part of the scenario panel each form belongs to: a refused form opens its part, so its errors are seen.
PANEL_OF = {"map": "map", "edges": "edges", "wing": "wings", "moment": "moment", "rows": "tables", "tables": "tables",
            "newterrain": "terrain", "charge": "charges", "fled": "pursuit", "pursuer": "pursuit", "melee": "pursuit"}


def post(request, source: Source, kind: BoardKind) -> HttpResponse:
    view = ViewState.read(request.POST, source.book, kind)
    action = request.POST.get("action", "")
    handler = kind.actions.get(action) or SHARED_ACTIONS.get(action)
    if handler is None:
        return Page(request, source, kind, view, message=_("Unknown action.")).response(status=400)
    try:
        result = handler(request, source, view)
    except EditError as exc:
        return Page(request, source, kind, view, message=str(exc)).response(status=422)
    except Rejected as exc:
        view = view.with_(panel=next((PANEL_OF[k] for k in exc.forms if k in PANEL_OF), view.panel))
        return Page(request, source, kind, view, message=exc.message, problems=exc.problems, forms_=exc.forms,
                    upload_report=exc.upload_report).response(status=422)
    if isinstance(result, Moved):
        return moved(request, result.target, kind, result.view, result.message)
    new_data, new_view, message = result
    if new_data is None or new_data == source.data:
        return moved(request, source, kind, new_view, message)
    problems = editing.validate(source.book, new_data)
    if problems:
        return Page(request, source, kind, view, message=editing.message_for(problems),
                    problems=problems).response(status=422)
    draft = Draft.make(source.book, new_data, source.draft if source.kind == "draft" else None, origin=source.origin)
    return moved(request, Source("draft", source.book, new_data, draft=draft), kind, new_view.with_(redo=""), message)


def moved(request, target: Source, kind: BoardKind, view: ViewState, message: str = "") -> HttpResponse:
    """The new state: for htmx the editor fragment at its address; else a 303 to the address (the message, which
    only htmx shows, is lost with the redirect; the page itself shows the new state)."""
    if request.htmx:
        if target.kind == "draft":
            target.draft.note_opened()  # shown right here, as the redirect's page would open it
        page = Page(request, target, kind, view, message=message)
        response = page.response()
        response["HX-Push-Url"] = page.url()
        return response
    response = HttpResponse(status=303)
    response["Location"] = url(target, view, current_language())
    return response
