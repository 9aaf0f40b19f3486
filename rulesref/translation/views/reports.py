"""Reports from readers: the form on any paragraph of a published section (a page of its own without script, a
fragment under the paragraph with htmx), the reader's follow page, and the translators' queue with its statuses.

The reader's side needs no account; the queue needs a translator or reviewer. Every write is a POST with a CSRF
token; a report's text is untrusted and is only ever shown escaped.
"""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rulesref.http import NotFound
from rulesref.languages import current_language
from rulesref.reference.models import Book
from rulesref.reference.render import section_url
from rulesref.security import limits

from .. import reports
from ..forms import ReportForm, ReportStatusForm
from ..models import Report
from ..permissions import translator_required
from .base import when

LANGUAGES = ("ru", "en")


def _text_language(request) -> str:
    """The language of the text reported: the page's, or the source's on a page that shows the source instead."""
    wanted = request.GET.get("text") or request.POST.get("text") or current_language()
    return wanted if wanted in LANGUAGES else current_language()


def _auto_id(lang: str, paragraph: int) -> str:
    """Field ids of one paragraph's form: several may be open on one page."""
    return f"report-{lang}-{paragraph}-%s"


@require_http_methods(["GET", "POST"])
def report(request, book, section, paragraph):
    lang = _text_language(request)
    anchor = reports.anchor(book, section, lang, paragraph)
    if anchor is None:
        return render(request, "translation/report_missing.html", {
            "wanted": f"{book} {section} ¶{paragraph}"}, status=404)
    context = {"anchor": anchor, "text_lang": lang, "section_url": section_url(current_language(), book, section)}
    fragment = "translation/report_form.html#report-form" if request.htmx else "translation/report_form.html"
    if request.method == "GET":
        context["form"] = ReportForm(initial={"rev": request.GET.get("rev", "")}, auto_id=_auto_id(lang, paragraph))
        return render(request, fragment, context)
    form = ReportForm(request.POST, auto_id=_auto_id(lang, paragraph))
    context["form"] = form
    if not form.is_valid():
        return render(request, fragment, context, status=400)
    if not request.user.is_authenticated:
        limits.spend("report", 1)  # over the limit: the edge answers 429 with Retry-After
    created = reports.create(anchor, kind=form.cleaned_data["kind"], message=form.cleaned_data["message"],
                             seen_revision=form.cleaned_data["rev"], reader_language=current_language(),
                             user=request.user)
    if request.htmx:
        return render(request, "translation/report_form.html#report-thanks",
                      {"report": created, "follow_url": reports.follow_url(created)})
    return redirect(reports.follow_url(created), permanent=False)


@require_GET
def follow(request, token):
    found = Report.objects.filter(token=token).first()
    if found is None:
        return render(request, "translation/report_missing.html", {"wanted": token}, status=404)
    book = Book.objects.filter(slug=found.book).first()
    return render(request, "translation/report_follow.html", {
        "report": found, "book": book, "created": when(found.created), "updated": when(found.updated),
        "section_url": section_url(current_language(), found.book, found.sid) if book else "",
    })


# ---------------------------------------------------------------------------------------------------- the queue


@require_GET
@translator_required
def queue(request, book):
    book_obj = get_object_or_404(Book, slug=book)
    status = request.GET.get("status", "")
    found = Report.objects.filter(book=book_obj.slug)
    error = ""
    if status and status not in Report.State.values:
        error = _("Unknown status “%(value)s”: showing every report.") % {"value": status}
        status = ""
    if status:
        found = found.filter(status=status)
    rows = [{"report": r, "when": when(r.created), "form": ReportStatusForm(initial={
        "status": r.status, "response": r.response}, prefix=f"r{r.pk}"),
        "editor_url": reverse("translation:editor", args=[book_obj.slug, r.sid]),
        "section_url": section_url(current_language(), book_obj.slug, r.sid),
        "follow_url": reports.follow_url(r)} for r in found[:200]]
    return render(request, "translation/reports.html", {
        "book": book_obj, "rows": rows, "status": status, "counts": reports.counts(book_obj),
        "states": Report.State.choices, "filter_error": error, "total": found.count()})


@require_POST
@translator_required
def update(request, book, pk):
    found = Report.objects.filter(pk=pk, book=book).first()
    if found is None:
        raise NotFound(_("No such report."))
    form = ReportStatusForm(request.POST, prefix=f"r{pk}")
    if form.is_valid():
        found.status, found.response = form.cleaned_data["status"], form.cleaned_data["response"]
        found.handled_by, found.updated = request.user, timezone.now()
        found.save(update_fields=["status", "response", "handled_by", "updated"])
        messages.success(request, _("Report %(n)s: %(status)s.") % {"n": pk, "status": found.get_status_display()})
    else:
        messages.error(request, _("Report %(n)s was not changed: %(errors)s") % {
            "n": pk, "errors": "; ".join(e for errs in form.errors.values() for e in errs)})
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}) and back.startswith("/"):
        return redirect(back)
    return redirect("translation:reports", book)
