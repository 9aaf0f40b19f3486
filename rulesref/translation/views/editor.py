"""The side-by-side editor: a section's source and translation paragraph by paragraph, with the glossary terms
marked, translation-memory suggestions, what changed in the source, QA as the text is typed (htmx), and QA
dismissals. Approving a text with QA errors needs the reviewer's confirmation of exactly those errors."""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from rulesref.languages import current_language
from rulesref.reference.corpus import split_blocks
from rulesref.reference.render import Span, annotate
from rulesref.textdiff import block_diffs, html_diff

from .. import memory, qa, reports, workflow
from ..checks.base import TITLE, CheckContext, paragraph_label
from ..checks.glossary import contains_term
from ..forms import EditorForm
from ..models import QAResult, Status
from ..permissions import can_review, default_status, translator_required
from ..presenters import match_row
from .base import book_and_language, not_found, state_label, when, with_section_item


def _term_spans(text: str, context: CheckContext, lang: str) -> list[Span]:
    """The glossary terms of a source text, marked; the tooltip gives the definition in the reader's language (and
    the required translation when the reader reads that language: otherwise the glossary panel beside it gives it)."""
    spans = []
    reader = current_language()
    for match in context.glossary.find(text, context.source_language):
        term = match.term
        if match.forbidden:
            tip = _("Forbidden variant of “%(term)s”") % {"term": term.term(context.source_language)}
            css = "term term-forbidden"
        else:
            definition = term.definition(reader)
            tip = f"{term.term(lang)}: {definition}" if reader == lang else definition
            css = "term"
        spans.append(Span(match.start, match.end, lambda inner, tip=tip, css=css: format_html(
            '<mark class="{}" title="{}">{}</mark>', css, tip, mark_safe(inner))))
    return spans


def _glossary_rows(item, context: CheckContext, lang: str, target_text: str) -> list[dict]:
    rows = []
    source_text = item.source.title + "\n\n" + item.source.body
    for match in context.glossary.terms_in(source_text, context.source_language):
        term = match.term
        rows.append({"source": source_text[match.start:match.end], "required": term.term(lang),
                     "definition": term.definition(current_language()), "confidence": term.confidence,
                     "present": contains_term(target_text, term, lang)})
    return rows


def _suggestions(book, lang: str, unit, context: CheckContext) -> dict:
    """What the editor offers beside a paragraph's field: translation-memory matches of its source (with their
    percentage and the source differences), its glossary terms with the required translation, and for a paragraph
    whose source changed, the translation made from the old source and memory matches of the changed sentences."""
    source_lang = book.source_language
    found = memory.matches(unit.source, source_lang, lang, exclude=(book.slug, unit.context, unit.target))
    terms = [{"source": unit.source[m.start:m.end], "required": m.term.term(lang)}
             for m in context.glossary.terms_in(unit.source, source_lang)]
    changed = memory.changed_sentences(unit.previous, unit.source) if unit.outdated and unit.previous else []
    return {"memory": [match_row(m) for m in found], "terms": terms,
            "previous": unit.target if unit.outdated and unit.previous is not None and unit.target else "",
            "changed_sentences": [{"sentence": sentence, "matches": [
                match_row(m) for m in memory.sentence_matches(sentence, source_lang, lang)]} for sentence in changed]}


def _source_diffs(item, units, old_blocks: list[str] | None) -> dict[int, str]:
    """For an outdated translation whose old source is known: what changed in each paragraph, by number."""
    if not item.outdated or old_blocks is None:
        return {}
    new_blocks = [u.source for u in units.units if u.paragraph > 0]
    return {n: html for n, html in enumerate(block_diffs(old_blocks, new_blocks), start=1) if html is not None}


@dataclass
class _Rows:
    """What every row of one editor page is made with: the book, the target language, the QA context and the QA
    problems by paragraph."""

    book: object
    lang: str
    context: CheckContext
    qa: dict

    def _source(self, unit) -> str:
        return annotate(unit.source, _term_spans(unit.source, self.context, self.lang))

    def title(self, unit, field) -> dict:
        return {"paragraph": TITLE, "label": _("Title"), "field": field, "source": self._source(unit),
                "diff": html_diff(unit.previous, unit.source) if unit.outdated and unit.previous is not None else None,
                "outdated": unit.outdated, "qa": self.qa.get(TITLE, []),
                **_suggestions(self.book, self.lang, unit, self.context)}

    def paragraph(self, n: int, unit, field, diff) -> dict:
        row = {"paragraph": n, "label": paragraph_label(n), "field": field, "source": None, "diff": diff,
               "outdated": False, "qa": self.qa.get(n, [])}
        if unit is not None:  # a translated paragraph whose source paragraph was removed has none
            row.update(source=self._source(unit), outdated=bool(unit.outdated),
                       **_suggestions(self.book, self.lang, unit, self.context))
        return row


def _editor_rows(book, item, units, form, context: CheckContext, lang: str, qa_by_paragraph, old_blocks):
    """One row per title or paragraph: the source (terms marked), the field, what changed in the source, QA, and
    the suggestions (memory, glossary terms, the previous translation)."""
    make = _Rows(book, lang, context, qa_by_paragraph)
    diffs = _source_diffs(item, units, old_blocks)
    source_units = {u.paragraph: u for u in units.units}
    rows = [make.title(u, form["title"]) for u in units.units if u.paragraph == TITLE]
    rows += [make.paragraph(n, source_units.get(n), form[f"p{n}"], diffs.get(n))
             for n in range(1, form.paragraph_count + 1)]
    return rows


def _initial_form(request, item, units) -> EditorForm:
    """The editor's form with the stored translation, aligned with the source's paragraphs."""
    t = item.translation
    paragraphs = sum(1 for u in units.units if u.paragraph > 0) + len(units.orphans)
    initial = {"version": t.version, "source_revision": item.current_revision, "paragraphs": paragraphs,
               "title": next((u.target for u in units.units if u.paragraph == TITLE), t.title),
               "status": default_status(request.user, t.status)}
    targets = [u.target for u in units.units if u.paragraph > 0] + units.orphans
    initial.update({f"p{n}": text for n, text in enumerate(targets, start=1)})
    return EditorForm(user=request.user, paragraphs=paragraphs, initial=initial)


def _by_paragraph(problems) -> dict:
    by_paragraph: dict = {}
    for r in problems:
        by_paragraph.setdefault(r.paragraph, []).append(r)
    return by_paragraph


def _panel_problems(book, lang, item, form, typed: qa.TypedQA | None) -> tuple[list, list, bool]:
    """What the QA panel lists, and whether it is the text as typed: the stored problems of the saved text when the
    editor opens on it; the problems of the text in the form (as the live panel finds them) when it is rendered with
    a text that is not saved (an approval's confirmation, a form with errors, a conflict's merge)."""
    if form is None:
        problems = item.qa
        return ([r for r in problems if not r.dismissed], [r for r in problems if r.dismissed], False)
    if typed is None:
        typed = qa.typed_problems(book, lang, item, *form.typed_text())
    return typed.shown, typed.dismissed, True


def editor_context(request, book, lang, item, form=None, typed: qa.TypedQA | None = None):
    """The editor's page: on the saved text (no ``form``) or on the text in ``form``, whose QA problems (``typed``,
    when the caller has them already) the panel then shows as typed."""
    units = workflow.section_units(item, book)
    t = item.translation
    shown, dismissed, live = _panel_problems(book, lang, item, form, typed)
    title, body = form.typed_text() if form is not None else (t.title, t.body)  # the text the page shows
    if form is None:
        form = _initial_form(request, item, units)
    context = qa.check_context(book, lang)
    old = workflow.old_source(book, item.section.sid, t.source_revision) if item.outdated else None
    by_paragraph = _by_paragraph(shown)
    rows = _editor_rows(book, item, units, form, context, lang, by_paragraph, split_blocks(old.body) if old else None)
    section_reports = list(reports.section_reports(book, item.section.sid))
    for row in rows:
        row["reports"] = [r for r in section_reports if r.paragraph == row["paragraph"]]
    return {
        "book": book, "lang": lang, "item": item, "translation": t, "form": form,
        "state": item.state, "state_label": state_label(item.state),
        "rows": rows, "reports_url": reverse("translation:reports", args=[book.slug]),
        "section_problems": by_paragraph.get(None, []),
        "qa_total": shown, "dismissed_qa": dismissed, "live": live,
        "glossary": _glossary_rows(item, context, lang, f"{title}\n\n{body}"),
        "old_source_known": old is not None, "old_source": old,
        "source_lang": book.source_language, "revisions": list(t.revisions.select_related("author")[:8]),
        "updated": when(t.updated_at), "can_review": can_review(request.user),
        "orphans": len(units.orphans), "source_paragraphs": sum(1 for u in units.units if u.paragraph > 0),
        "reference_url": _reference_url(lang, book.slug, item.section.sid),
    }


def _reference_url(lang: str, book: str, sid: str) -> str:
    return reverse("reference:section", kwargs={"book": book, "section": sid})


@dataclass
class Confirmation:
    errors: list  # the QA errors the text would be published with
    token: str  # what the reviewer's confirmation must carry
    pending: bool  # errors that are not confirmed yet: ask, do not save
    typed: qa.TypedQA | None = None  # every QA problem of the text, when it was checked (the errors are among them)


def unconfirmed_errors(request, book, lang, item, status, title: str, body: str) -> Confirmation:
    """Approving publishes at once, so a text with QA errors is approved only when the reviewer has seen the errors
    named and confirmed exactly these (``confirm_errors`` carries the token of these errors in this text)."""
    if status != Status.APPROVED:
        return Confirmation([], "", False)
    typed = qa.typed_problems(book, lang, item, title, body)
    errors = typed.errors
    token = workflow.errors_token(errors, title, body) if errors else ""
    return Confirmation(errors, token, bool(errors) and request.POST.get("confirm_errors", "") != token, typed)


@require_http_methods(["GET", "POST"])
@translator_required
@with_section_item
def editor(request, book, section, *, book_obj, lang, item):
    if request.method == "POST":
        form = EditorForm(request.POST, user=request.user)
        if form.is_valid():
            data = form.cleaned_data
            holes = workflow.gaps(data["blocks"])
            if holes:
                form.add_error(None, _("Paragraph %(n)s is empty but a later one is translated: a translation's "
                                       "paragraphs are stored in order, so fill it in first.") % {"n": holes[0]})
            else:
                confirmed = unconfirmed_errors(request, book_obj, lang, item, data["status"], data["title"],
                                                data["body"])
                if confirmed.pending:
                    context = editor_context(request, book_obj, lang, item, form=form, typed=confirmed.typed)
                    context.update(approve_errors=confirmed.errors, confirm_token=confirmed.token)
                    return render(request, "translation/editor.html", context, status=409)
                result = workflow.save_translation(
                    item.translation, user=request.user, title=data["title"], body=data["body"],
                    status=data["status"], base_version=data["version"],
                    source_revision=data["source_revision"] or item.current_revision, comment=data["comment"],
                    confirmed_errors=workflow.confirmed_record(confirmed.errors))
                if result.conflict:
                    return redirect("translation:conflict", book_obj.slug, item.section.sid, result.revision.number)
                messages.success(request, _("Saved as revision %(n)s (%(status)s).") % {
                    "n": result.revision.number, "status": state_label(result.translation.status)})
                return redirect("translation:editor", book_obj.slug, item.section.sid)
        return render(request, "translation/editor.html",
                      editor_context(request, book_obj, lang, item, form=form), status=400)
    return render(request, "translation/editor.html", editor_context(request, book_obj, lang, item))


@require_POST
@translator_required
@with_section_item
def qa_preview(request, book, section, *, book_obj, lang, item):
    """The QA problems of the text in the editor, as it is being typed (htmx), without saving anything."""
    form = EditorForm(request.POST, user=request.user)
    form.is_valid()
    typed = qa.typed_problems(book_obj, lang, item, *form.typed_text())
    syntax = []
    for name, error_list in form.errors.items():
        if name.startswith("p") or name == "title":
            syntax += [f"{form.fields[name].label}: {e}" for e in error_list]
    return render(request, "translation/editor.html#qa-panel", {
        "qa_total": typed.shown, "dismissed_qa": typed.dismissed, "syntax_errors": syntax, "live": True,
        "book": book_obj, "item": item})


# ---------------------------------------------------------------------------------------------------- QA


@require_POST
@translator_required
def dismiss(request, book, section, pk):
    book_obj, lang = book_and_language(book)
    result = QAResult.objects.filter(pk=pk, translation__section__book=book_obj, translation__language=lang,
                                     translation__section__sid=section).first()
    if result is None:
        return not_found(request, book_obj, _("QA result %(id)s") % {"id": pk})
    undo = request.POST.get("undo") == "1"
    result.dismissed = not undo
    result.dismissed_by = None if undo else request.user
    result.save(update_fields=["dismissed", "dismissed_by"])
    messages.success(request, _("The problem is shown again.") if undo else _("The problem is dismissed."))
    back = request.POST.get("next", "")
    if back.startswith("/") and not back.startswith("//"):
        return redirect(back)
    return redirect("translation:editor", book_obj.slug, section)
