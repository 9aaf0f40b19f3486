"""The edits every board kind shares: save and share a link, upload a scenario file.

Each takes (request, source, view) like a board kind's action and returns a :class:`Moved`: the page to go to,
which is not a new draft of the same chain (a shared scenario), or a new draft made from a file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _, ngettext

from rulesref.security import text as storable

from . import books, editing, forms, remembered
from .editing import Rejected
from .jsontree import render_tree
from .kinds import kind_of
from .models import Draft, SavedScenario
from .page import Page
from .state import Source, ViewState

MAX_UPLOAD = 1024 * 1024


@dataclass
class Moved:
    """Go to ``target`` in ``view`` and say ``message``."""

    target: Source
    view: ViewState
    message: str = ""


def act_share(request, source: Source, view: ViewState) -> Moved:
    """A link to the position; with a question asked, the link keeps the answer and what it was decided under
    (remembered.py), so opening it later says whether the answer or its rules have changed since."""
    saved = SavedScenario.share(source.book, source.data)
    target, view = Source("shared", source.book, saved.data, saved=saved), view.with_(redo="", hex="")
    if view.q:
        page = Page(request, target, kind_of(source.book), view)
        if page.answer is not None:
            remembered.remember(saved, page.view.q, page.view.ask_params(source.book), page.answer)
    return Moved(target, view, _("Saved. Copy the link to share this position."))


def act_upload(request, source: Source, view: ViewState) -> Moved:
    """A scenario file read, checked by the engine and made a new draft; when refused, every problem is shown next
    to the field of the file it concerns and nothing is stored."""
    form = forms.UploadForm(request.POST, request.FILES, prefix="up")
    if not form.is_valid():
        raise Rejected(_("Choose a file to upload."), forms_={"upload": form})
    upload = form.cleaned_data["file"]
    if upload.size > MAX_UPLOAD:
        form.add_error("file", _("The file is over 1 MB."))
        raise Rejected(_("The file is over 1 MB."), forms_={"upload": form})
    report: dict[str, Any] = {"name": upload.name[:120], "problems": [], "tree": "", "syntax": None}
    data = _read(upload.read(MAX_UPLOAD + 1), report, form)
    if isinstance(data, dict) and isinstance(data.get("book"), str) and data["book"] != source.book \
            and books.is_book(data["book"]):
        report["problems"] = [("book", _("This is a %(other)s scenario: open it in the %(other)s checker.") % {
            "other": data["book"]})]
        report["tree"] = render_tree(data, report["problems"])
        raise _rejected(report, form)
    problems = editing.validate(source.book, data)
    if problems:
        report["problems"] = problems
        report["tree"] = render_tree(data, problems)
        raise _rejected(report, form)
    parent = source.draft if source.kind == "draft" else None
    draft = Draft.make(source.book, data, parent, origin=source.origin)
    return Moved(Source("draft", source.book, data, draft=draft), ViewState(kind=view.kind),
                 _("%(name)s loaded.") % {"name": report["name"]})


def _read(raw: bytes, report: dict[str, Any], form) -> Any:
    """The file's JSON, or Rejected saying where it stops being UTF-8 or JSON."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        report["problems"] = [("", _("The file is not UTF-8 text (byte %(n)s).") % {"n": exc.start})]
        raise _rejected(report, form) from None
    try:
        return storable.loads(text)  # nesting bounded before it is parsed (storable.TooDeep)
    except storable.UnstorableText as exc:
        report["problems"] = exc.problems
    except storable.TooDeep as exc:
        report["syntax"] = _syntax_excerpt(text, exc)
        report["problems"] = [(exc.path, _("The file cannot be read: %(error)s.") % {"error": exc.message})]
    except storable.NotJSON as exc:
        if exc.line:
            report["syntax"] = _syntax_excerpt(text, exc)
            report["problems"] = [("", _("The file is not JSON: %(error)s at line %(line)s, column %(col)s.") % {
                "error": exc.message, "line": exc.line, "col": exc.column})]
        else:
            report["problems"] = [("", _("The file is not JSON that can be read."))]
    raise _rejected(report, form)


def _rejected(report: dict, form) -> Rejected:
    return Rejected(ngettext("The file was not loaded: %(n)s problem.", "The file was not loaded: %(n)s problems.",
                             len(report["problems"])) % {"n": len(report["problems"])}, forms_={"upload": form},
                    upload_report=report)


def _syntax_excerpt(text: str, exc: storable.NotJSON) -> dict[str, Any]:
    lines = text.splitlines() or [""]
    n = max(1, min(exc.line, len(lines)))
    start = max(1, n - 2)
    return {"lines": [(i, lines[i - 1][:200], i == n) for i in range(start, min(len(lines), n + 2) + 1)],
            "column": exc.column}


SHARED_ACTIONS = {"share": act_share, "upload": act_upload}
