"""The rulings in the translator's workspace (/<lang>/translate/<book>/+rulings/…): the list with each ruling's
state and its translation's, a new ruling (written directly or answering a reader's rules question), a ruling's
editor (its text in both languages side by side, with QA as typed and the translation memory's suggestions), its
citations, confirmation, withdrawal, revisions, and bulk import and PO/XLIFF exchange.

Translators and reviewers open them; rules editors and reviewers write, publish and confirm rulings (permissions.py).
Every write is a POST with a CSRF token; every text is untrusted and shown escaped.
"""
from __future__ import annotations

from functools import wraps

from babel.dates import format_datetime
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rulesref.http import NotFound
from rulesref.languages import current_language
from rulesref.reference.corpus import clause_label, split_blocks
from rulesref.reference.history_views import language_name
from rulesref.reference.index import book_index
from rulesref.reference.models import Book, SectionText
from rulesref.textdiff import html_diff
from rulesref.translation.exchange.formats import translation_formats
from rulesref.translation.exchange.units import ExchangeError
from rulesref.translation.models import OUTDATED, OUTDATED_LABEL, Report, Status
from rulesref.translation.presenters import match_row

from . import citations as citing
from . import exchange, importing, quality, workflow
from . import render as show
from .forms import CitationsForm, ExchangeImportForm, ImportForm, NewRulingForm, TextForm
from .memory import suggestions
from .models import Ruling, RulingRevision, RulingText
from .permissions import can_rule, can_work_on
from .units import QUESTION, aligned, text_units

PER_PAGE = 100
STATE_FILTERS = ("draft", "published", "withdrawn", "outdated")


def state_label(state: str) -> str:
    return str(OUTDATED_LABEL) if state == OUTDATED else str(Status(state).label)


def _when(value) -> str:
    return format_datetime(value, format="medium", locale=current_language()) if value else ""


def workspace_view(view):
    """Signed-in translators, reviewers and rules editors only; the rulebook resolved (``book_obj``)."""

    @wraps(view)
    def wrapper(request, book, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_work_on(request.user):
            raise PermissionDenied("This account is not a translator, reviewer or rules editor.")
        return view(request, book, *args, book_obj=get_object_or_404(Book, slug=book), **kwargs)

    return wrapper


def _ruling_or_404(book_obj: Book, number: int) -> Ruling:
    ruling = Ruling.objects.filter(book=book_obj, number=number).select_related("book", "report").first()
    if ruling is None:
        raise NotFound(_("This rulebook has no ruling %(n)s.") % {"n": number})
    return ruling


def _editor_url(book: str, number: int) -> str:
    return reverse("rulings_workspace:editor", kwargs={"book": book, "number": number})


def _require_rule(request) -> None:
    if not can_rule(request.user):
        raise PermissionDenied("Only reviewers and rules editors write, publish and confirm rulings.")


# ---------------------------------------------------------------------------------------------------- the list


@require_GET
@workspace_view
def index(request, book, *, book_obj):
    """Every ruling of the book with its state, whether it may be outdated, and its translation's state; a page of
    them at a time, filtered by state."""
    wanted = request.GET.get("state", "")
    if wanted and wanted not in STATE_FILTERS:
        wanted = ""
    found = Ruling.objects.filter(book=book_obj).order_by("-number").prefetch_related("texts", "citations")
    if wanted in ("draft", "published", "withdrawn"):
        found = found.filter(state=wanted)
    rulings = list(found)
    index_ = book_index(book_obj) if rulings else None
    rows = []
    for ruling in rulings:
        texts = {t.language: t for t in ruling.texts.all()}
        source, target = texts[ruling.source_language], texts[ruling.target_language]
        outdated = ruling.is_public and any(citing.changed_now(index_, c) for c in ruling.citations.all())
        if wanted == "outdated" and not outdated:
            continue
        rows.append({"ruling": ruling, "source": source, "outdated": outdated,
                     "citations": citing.written(ruling.citations.all()),
                     "translation_state": workflow.state_of(target, source),
                     "translation_label": state_label(workflow.state_of(target, source)), "target": target,
                     "url": _editor_url(book_obj.slug, ruling.number)})
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "rulings/workspace/index.html", {
        "book": book_obj, "page": page, "state": wanted, "states": STATE_FILTERS, "can_rule": can_rule(request.user),
        "open_questions": Report.objects.filter(book=book_obj.slug, kind=Report.Kind.RULES,
                                                status__in=[Report.State.NEW, Report.State.ACCEPTED])[:20],
    })


# ---------------------------------------------------------------------------------------------------- new


def _from_report(book_obj: Book, report: Report) -> dict:
    """A new ruling's form filled from a reader's rules question: its words, its language, its clause."""
    clause = ""
    text = SectionText.objects.filter(section__book=book_obj, section__sid=report.sid, language=report.language).first()
    if text is not None:
        blocks = split_blocks(text.body)
        if 1 <= report.paragraph <= len(blocks):
            clause = clause_label(blocks[report.paragraph - 1]) or ""
    return {"language": report.reader_language, "question": report.message, "citations": f"{report.sid}{clause}",
            "report": report.pk}


@require_http_methods(["GET", "POST"])
@workspace_view
def new(request, book, *, book_obj):
    _require_rule(request)
    report = None
    report_id = request.POST.get("report") or request.GET.get("report")
    if report_id and str(report_id).isdigit():
        report = Report.objects.filter(pk=int(report_id), book=book_obj.slug).first()
    if request.method == "GET":
        initial = {"language": current_language(), "status": Status.DRAFT, "other_status": Status.DRAFT}
        if report is not None:
            initial.update(_from_report(book_obj, report))
        form = NewRulingForm(initial=initial, user=request.user, book=book_obj)
        return render(request, "rulings/workspace/new.html", {"book": book_obj, "form": form, "report": report})
    form = NewRulingForm(request.POST, user=request.user, book=book_obj)
    if not form.is_valid():
        return render(request, "rulings/workspace/new.html", {"book": book_obj, "form": form, "report": report},
                      status=400)
    data = form.cleaned_data
    code, query = data["checker"]
    ruling = workflow.create(book_obj, workflow.NewRuling(
        source_language=data["language"], question=data["question"], answer=data["answer"], cited=data["citations"],
        status=data["status"], other_question=data["other_question"], other_answer=data["other_answer"],
        other_status=data["other_status"], report=report, checker_code=code, checker_query=query,
        comment=data["comment"]), user=request.user)
    messages.success(request, _("Ruling %(n)s saved (%(status)s).") % {
        "n": ruling.number, "status": ruling.get_state_display()})
    return redirect(_editor_url(book_obj.slug, ruling.number))


# ---------------------------------------------------------------------------------------------------- editor


def _text_form(request, text: RulingText, source: RulingText, data=None) -> TextForm:
    is_source = text.language == source.language
    initial = {"version": text.version, "question": text.question, "answer": text.answer,
               "source_revision": "" if is_source else workflow.current_source_revision(source),
               "status": Status.REVIEW if text.status == Status.APPROVED else (
                   text.status if text.status != Status.MISSING else Status.DRAFT)}
    return TextForm(data, initial=initial, user=request.user, source=is_source, prefix=text.language)


def _rows(ruling: Ruling, source: RulingText, target: RulingText) -> list[dict]:
    """The translation unit by unit: its source, the translation, and the memory's suggestions for it."""
    state = workflow.state_of(target, source)
    previous = None
    if state == OUTDATED:
        made_from = workflow.source_at(source, target.source_revision)
        previous = text_units(*made_from) if made_from else None
    units = aligned(ruling.number, text_units(*workflow.current_source(source)),
                    text_units(target.question, target.answer), previous, outdated=state == OUTDATED)
    rows = []
    for unit in units:
        rows.append({"unit": unit, "label": _("Question") if unit.paragraph == QUESTION else
                     _("Answer, paragraph %(n)s") % {"n": unit.paragraph},
                     "diff": html_diff(unit.previous, unit.source) if unit.previous is not None else None,
                     "memory": [match_row(m) for m in suggestions(ruling, unit.source, unit.context, unit.target)]})
    return rows


def _outdated_first(ruling: Ruling, index_, book_obj: Book):
    """The ruling as the workspace shows it: in the reviewer's language, unless a clause it cites changed only in
    the other language's text (a translation revised), where it is shown as that language's readers see it, may
    be outdated — a confirmation answers for both."""
    lang = current_language()
    item = show.shown(ruling, index_, book_obj, lang)
    if item is None or item.outdated:
        return item
    other = show.shown(ruling, index_, book_obj, "en" if lang == "ru" else "ru")
    return other if other is not None and other.outdated else item


def _editor_context(request, book_obj: Book, ruling: Ruling, forms: dict | None = None) -> dict:
    texts = {t.language: t for t in ruling.texts.select_related("updated_by")}
    source, target = texts[ruling.source_language], texts[ruling.target_language]
    forms = forms or {}
    index_ = book_index(book_obj)
    item = _outdated_first(ruling, index_, book_obj) if ruling.is_public else None
    problems = quality.problems(ruling, source, target.question, target.answer)
    return {
        "book": book_obj, "ruling": ruling, "source": source, "target": target,
        "source_form": forms.get("source") or _text_form(request, source, source),
        "target_form": forms.get("target") or _text_form(request, target, source),
        "citations_form": forms.get("citations") or CitationsForm(initial={
            "version": ruling.version, "citations": citing.written(ruling.citations.all()),
            "checker": _checker_address(ruling)}, book=book_obj),
        "can_rule": can_rule(request.user), "item": item, "note": show.outdated_note(item) if item else "",
        "translation_state": workflow.state_of(target, source),
        "translation_label": state_label(workflow.state_of(target, source)), "problems": problems,
        "rows": _rows(ruling, source, target), "source_name": language_name(source.language),
        "target_name": language_name(target.language), "public_url": show.ruling_url(
            current_language(), book_obj.slug, ruling.number) if ruling.is_public else "",
        "source_updated": _when(source.updated_at), "target_updated": _when(target.updated_at),
    }


def _checker_address(ruling: Ruling) -> str:
    if not ruling.checker_code:
        return ""
    from .views import checker_url

    return checker_url(ruling, current_language())


@require_http_methods(["GET", "POST"])
@workspace_view
def editor(request, book, number, *, book_obj):
    """Both texts of a ruling side by side. A POST saves one of them (``which``: source or target)."""
    ruling = _ruling_or_404(book_obj, number)
    if request.method == "GET":
        return render(request, "rulings/workspace/editor.html", _editor_context(request, book_obj, ruling))
    which = request.POST.get("which")
    if which not in ("source", "target"):
        raise NotFound(_("Nothing to save."))
    text = ruling.texts.get(language=ruling.source_language if which == "source" else ruling.target_language)
    if which == "source":
        _require_rule(request)
    form = TextForm(request.POST, user=request.user, source=which == "source", prefix=text.language)
    if not form.is_valid():
        context = _editor_context(request, book_obj, ruling, {which: form})
        return render(request, "rulings/workspace/editor.html", context, status=400)
    data = form.cleaned_data
    result = workflow.save_text(text, user=request.user, question=data["question"], answer=data["answer"],
                                status=data["status"], base_version=data["version"],
                                source_revision=data.get("source_revision") or "", comment=data["comment"])
    if result.conflict:
        messages.error(request, _("Someone saved this text while you were editing it: yours was kept as revision "
                                  "%(n)s, not applied. Compare the two in the revisions and save again.") % {
            "n": result.revision.number})
    else:
        messages.success(request, _("Saved as revision %(n)s (%(status)s).") % {
            "n": result.revision.number, "status": state_label(result.text.status)})
    return redirect(_editor_url(book_obj.slug, ruling.number))


@require_POST
@workspace_view
def qa_preview(request, book, number, *, book_obj):
    """The QA problems of the translation as it is typed (htmx), nothing saved."""
    ruling = _ruling_or_404(book_obj, number)
    source = ruling.texts.get(language=ruling.source_language)
    prefix = ruling.target_language
    problems = quality.problems(ruling, source, request.POST.get(f"{prefix}-question", ""),
                                workflow.normalise(request.POST.get(f"{prefix}-answer", "")))
    return render(request, "rulings/workspace/editor.html#qa", {
        "book": book_obj, "ruling": ruling, "problems": problems, "live": True})


@require_POST
@workspace_view
def citations(request, book, number, *, book_obj):
    _require_rule(request)
    ruling = _ruling_or_404(book_obj, number)
    form = CitationsForm(request.POST, book=book_obj)
    if not form.is_valid():
        return render(request, "rulings/workspace/editor.html",
                      _editor_context(request, book_obj, ruling, {"citations": form}), status=400)
    code, query = form.cleaned_data["checker"]
    if workflow.set_citations(ruling, form.cleaned_data["citations"], base_version=form.cleaned_data["version"],
                              checker_code=code, checker_query=query):
        messages.success(request, _("The clauses it answers are saved."))
    else:
        messages.error(request, _("Someone changed this ruling's clauses meanwhile: nothing was saved. Here they are "
                                  "as they stand now."))
    return redirect(_editor_url(book_obj.slug, ruling.number))


@require_POST
@workspace_view
def confirm(request, book, number, *, book_obj):
    _require_rule(request)
    ruling = _ruling_or_404(book_obj, number)
    workflow.confirm(ruling, user=request.user, comment=request.POST.get("comment", "")[:500])
    messages.success(request, _("Confirmed: ruling %(n)s holds for the rules as they stand.") % {"n": ruling.number})
    return redirect(_editor_url(book_obj.slug, ruling.number))


@require_POST
@workspace_view
def withdraw(request, book, number, *, book_obj):
    _require_rule(request)
    ruling = _ruling_or_404(book_obj, number)
    again = request.POST.get("again") == "1"
    try:
        workflow.withdraw(ruling, user=request.user, withdrawn=not again,
                          comment=request.POST.get("comment", "")[:500])
    except workflow.RulingError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Ruling %(n)s is published again.") % {"n": ruling.number} if again else
                         _("Ruling %(n)s is withdrawn.") % {"n": ruling.number})
    return redirect(_editor_url(book_obj.slug, ruling.number))


# ---------------------------------------------------------------------------------------------------- revisions


@require_GET
@workspace_view
def revisions(request, book, number, *, book_obj):
    """Every save of both texts, newest first, each marked against the save before it in its language."""
    ruling = _ruling_or_404(book_obj, number)
    found = list(RulingRevision.objects.filter(text__ruling=ruling).select_related("author", "text")
                 .order_by("text__language", "number"))
    before: dict[str, RulingRevision] = {}
    rows = []
    for r in found:
        previous = before.get(r.text.language)
        rows.append({"r": r, "lang": r.text.language, "when": _when(r.created), "status": state_label(r.status),
                     "question": html_diff(previous.question if previous else "", r.question),
                     "answer": html_diff(previous.answer if previous else "", r.answer)})
        if r.applied:
            before[r.text.language] = r
    rows.sort(key=lambda row: (row["r"].created, row["r"].pk), reverse=True)
    return render(request, "rulings/workspace/revisions.html", {
        "book": book_obj, "ruling": ruling, "rows": rows, "can_rule": can_rule(request.user)})


@require_POST
@workspace_view
def restore(request, book, number, revision, *, book_obj):
    ruling = _ruling_or_404(book_obj, number)
    found = RulingRevision.objects.filter(text__ruling=ruling, pk=revision).select_related("text").first()
    if found is None:
        raise NotFound(_("No such revision."))
    if found.text.language == ruling.source_language:
        _require_rule(request)
    status = Status.DRAFT if not can_rule(request.user) else request.POST.get("status", Status.DRAFT)
    if status not in (Status.DRAFT, Status.REVIEW, Status.APPROVED):
        status = Status.DRAFT
    result = workflow.restore(found, user=request.user, status=status, base_version=found.text.version)
    messages.success(request, _("Revision %(old)s restored as revision %(new)s.") % {
        "old": found.number, "new": result.revision.number})
    return redirect(_editor_url(book_obj.slug, ruling.number))


# ---------------------------------------------------------------------------------------------------- import


@require_http_methods(["GET", "POST"])
@workspace_view
def import_text(request, book, *, book_obj):
    """Rulings from a text file of questions and answers: checked and shown first, written on confirmation."""
    _require_rule(request)
    if request.method == "GET":
        form = ImportForm(user=request.user, initial={"status": Status.DRAFT})
        return render(request, "rulings/workspace/import.html", {"book": book_obj, "form": form})
    form = ImportForm(request.POST, request.FILES, user=request.user)
    context = {"book": book_obj, "form": form}
    if not form.is_valid():
        return render(request, "rulings/workspace/import.html", context, status=400)
    upload = form.cleaned_data["file"]
    text = form.cleaned_data["text"] or ""
    if upload is not None:
        if upload.size > importing.MAX_BYTES:
            context["error"] = _("The file is over %(n)s MB.") % {"n": importing.MAX_BYTES // (1024 * 1024)}
            return render(request, "rulings/workspace/import.html", context, status=400)
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            context["error"] = _("The file is not UTF-8 text.")
            return render(request, "rulings/workspace/import.html", context, status=400)
    result = importing.plan(book_obj, text)
    context.update({"plan": result, "text": text})
    if result.clean and form.cleaned_data["apply"]:
        importing.apply(result, user=request.user, status=form.cleaned_data["status"])
        messages.success(request, _("%(n)s rulings imported.") % {"n": len(result.made)})
        return redirect("rulings_workspace:index", book_obj.slug)
    return render(request, "rulings/workspace/import.html", context, status=200 if result.clean else 400)


@require_GET
@workspace_view
def export(request, book, fmt, *, book_obj):
    """The rulings' texts as units of translation into ``?to=`` (PO or XLIFF), for a CAT tool."""
    lang = request.GET.get("to", "")
    if lang not in ("ru", "en") or fmt not in translation_formats():
        raise NotFound(_("Unknown export format."))
    data, content_type, name = exchange.export(book_obj, lang, fmt)
    response = HttpResponse(data, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


@require_http_methods(["GET", "POST"])
@workspace_view
def import_translations(request, book, *, book_obj):
    """A PO or XLIFF file of rulings' translations, checked unit by unit (as the book's), written if clean."""
    context = {"book": book_obj}
    if request.method == "GET":
        context["form"] = ExchangeImportForm(user=request.user, initial={"to": _other(book_obj.source_language)})
        return render(request, "rulings/workspace/exchange.html", context)
    form = ExchangeImportForm(request.POST, request.FILES, user=request.user)
    context["form"] = form
    if not form.is_valid():
        return render(request, "rulings/workspace/exchange.html", context, status=400)
    upload = form.cleaned_data["file"]
    if upload.size > importing.MAX_BYTES * 2:
        context["error"] = _("The file is over %(n)s MB.") % {"n": importing.MAX_BYTES * 2 // (1024 * 1024)}
        return render(request, "rulings/workspace/exchange.html", context, status=400)
    try:
        result = exchange.import_file(book_obj, form.cleaned_data["to"], upload.read(), upload.name or "upload",
                                      user=request.user, status=form.cleaned_data["status"],
                                      partial=form.cleaned_data["partial"])
    except ExchangeError as exc:
        context["error"] = str(exc)
        return render(request, "rulings/workspace/exchange.html", context, status=400)
    context["result"] = result
    return render(request, "rulings/workspace/exchange.html", context, status=200 if result.clean else 400)


def _other(lang: str) -> str:
    return "en" if lang == "ru" else "ru"
