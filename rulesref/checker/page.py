"""One state of the editor as a page: the scenario, the view around it, the engine's reading when the page needs
it, and the template context the board kind fills in with its own panels and drawing.
"""
from __future__ import annotations

import json
from functools import cached_property
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.urls import translate_url
from django.utils.html import format_html_join

from rulesref.languages import current_language, other_language

from . import ask, books, editing, forms
from .history import undo_redo
from .kinds import BoardKind
from .state import Source, ViewState, url

TEMPLATE = "checker/editor.html"


class Page:
    """The editor showing ``source`` in ``view``; ``forms_`` are forms to show as they were sent (with their
    errors), ``message`` and ``problems`` what the last action said."""

    def __init__(self, request, source: Source, kind: BoardKind, view: ViewState, *, forms_: dict | None = None,
                 message: str = "", problems: list | None = None, upload_report: dict | None = None):
        self.request = request
        self.source = source
        self.kind = kind
        self.lang = current_language()
        self.forms = forms_ or {}
        self.message = message
        self.problems = problems or []
        self.upload_report = upload_report
        self.view = view
        if view.q and not self.scenario_problems:
            self.view = view.with_(params=ask.effective_params(self))

    @property
    def data(self) -> dict[str, Any]:
        return self.source.data

    @property
    def book(self) -> str:
        return self.source.book

    @property
    def _needs_reading(self) -> bool:
        # The engine reads a draft (made here, so valid when made) only when something needs it: an answer, a
        # measurement, a drawing made from its reading. An example or a shared link, not made here, is checked
        # against the engine as it is today.
        return (self.kind.loads_every_page or self.source.kind in ("example", "shared") or bool(self.view.q)
                or bool(self.view.measure))

    @cached_property
    def scenario_problems(self) -> list[tuple[str, str]]:
        """Why the engine cannot read the scenario (then it is listed, not drawn or edited)."""
        return editing.load(self.book, self.data)[1] if self._needs_reading else []

    @property
    def loaded(self):
        """The engine's reading of the scenario (read once per request), or None if it refuses it."""
        return editing.load(self.book, self.data)[0]

    @cached_property
    def units(self) -> list[dict[str, Any]]:
        return editing.units_of(self.data)

    @cached_property
    def selected(self) -> dict[str, Any] | None:
        return next((u for u in self.units if u.get("id") == self.view.sel), None)

    def url(self, **changes: Any) -> str:
        return url(self.source, self.view, self.lang, **changes)

    @cached_property
    def ask(self) -> dict[str, Any]:
        return ask.panel(self)

    @property
    def answer(self):
        return self.ask.get("answer")

    @cached_property
    def measure(self):
        """The measure tool's picks and measurements (only with that tool)."""
        if self.view.tool != "measure" or self.scenario_problems:
            return None
        return self.kind.measure(self)

    def context(self) -> dict[str, Any]:
        source, view, lang = self.source, self.view, self.lang
        hidden = list(source.base_query().items()) + view.query()
        page_url = self.url()
        query = page_url.partition("?")[2]
        undo, redo = undo_redo(source, view, lang, self.kind)
        ctx: dict[str, Any] = {
            "page": self, "book": self.book, "source": source, "view": view, "data": self.data, "kind": self.kind,
            "message": self.message, "problems": self.problems, "scenario_problems": self.scenario_problems,
            "upload_report": self.upload_report, "selected": self.selected, "units": self.units, "ask": self.ask,
            "tools": self.kind.tools(), "lang": lang, "page_url": page_url, "page_path": source.path(lang),
            "hidden": hidden, "hidden_inputs": format_html_join("", '<input type="hidden" name="{}" value="{}">', hidden),
            "title": self.title(), "undo_url": undo, "redo_url": redo,
            "language_switch_url": translate_url(source.path(lang), other_language(lang)) + ("?" + query if query else ""),
            "upload_form": self.forms.get("upload") or forms.UploadForm(prefix="up"),
            "download_url": self.url(redo="") + ("&" if "?" in self.url(redo="") else "?") + "download=json",
        }
        if source.kind == "shared":
            ctx["share_url"] = self.request.build_absolute_uri(
                self.url(redo="", sel="", hex="", tool="select", measure=()))
        if not self.scenario_problems:
            ctx["svg"] = self.kind.drawing(self)
            ctx["measure"] = self.measure
            ctx.update(self.kind.panels(self))
        return ctx

    def title(self) -> str:
        if self.source.kind == "example":
            return self.source.example.title(self.lang)[0]
        return books.text_in(self.data.get("title"), self.lang)[0]

    def response(self, status: int = 200) -> HttpResponse:
        """The whole page, or for htmx the editor fragment (an htmx request always gets 200, so it is swapped)."""
        if self.request.htmx and not self.request.htmx.boosted:
            return render(self.request, f"{TEMPLATE}#editor", self.context())
        return render(self.request, TEMPLATE, self.context(), status=status)


def download(source: Source) -> HttpResponse:
    data = source.data
    if source.kind == "shared":
        name = f"{source.book}-{source.saved.code}.json"
    elif source.kind == "example":
        name, data = f"{source.example.slug}.json", source.example.data
    else:
        name = f"{source.book}-scenario.json"
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2) + "\n",
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response

