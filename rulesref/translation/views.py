"""The translator's workspace: rulebooks, a rulebook's dashboard, the side-by-side editor, revisions, diffs,
restores, the conflict page, QA dismissals, and PO/XLIFF export and import.

Every page needs a signed-in translator or reviewer; every write is a POST with a CSRF token. Every page works
without JavaScript; with htmx the editor checks the text while it is typed.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import wraps
from pathlib import PurePath

from babel.dates import format_datetime
from babel.numbers import format_decimal, format_percent
from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import content_disposition_header
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rulesref.http import NotFound
from rulesref.languages import current_language
from rulesref.reference.corpus import split_blocks
from rulesref.reference.models import Book
from rulesref.reference.render import Span, annotate
from rulesref.textdiff import DELETE, INSERT, block_diffs, html_diff, render_diff, word_diff

from . import memory, progress, qa, reports, workflow
from .checks.base import TITLE, CheckContext, TextUnits, paragraph_label
from .checks.glossary import contains_term
from .checks.runner import SectionPair, check_section, registered_checks
from .exchange import apply_import, export_units, plan_import
from .exchange.po import read_catalog, write_catalog
from .exchange.units import ExchangeError, status_for_import
from .exchange.tmx import import_tmx, read_tmx, write_tmx
from .exchange.xliff import read_xliff, write_xliff
from .forms import EditorForm, ImportForm, RestoreForm
from .models import OUTDATED, OUTDATED_LABEL, QAResult, Report, Revision, Status
from .permissions import allowed_statuses, can_review, default_status, translator_required

STATES = [Status.MISSING, OUTDATED, Status.DRAFT, Status.REVIEW, Status.APPROVED]


def state_label(state: str) -> str:
    return str(OUTDATED_LABEL) if state == OUTDATED else str(Status(state).label)


def _when(value) -> str:
    return format_datetime(value, format="medium", locale=current_language()) if value else ""


def _book(slug: str) -> tuple[Book, str]:
    book = get_object_or_404(Book, slug=slug)
    targets = workflow.target_languages(book)
    if not targets:
        raise Http404("This rulebook has no target language.")
    return book, targets[0]


def _not_found(request, book: Book, what: str):
    return render(request, "translation/not_found.html", {"book": book, "what": what}, status=404)


def with_section_item(view):
    """Resolve the rulebook, its target language and the section's translation item for a section view, which
    receives them as ``book_obj``, ``lang`` and ``item``; an unknown section gets the workspace's 404 page."""

    @wraps(view)
    def wrapper(request, book, section, *args, **kwargs):
        book_obj, lang = _book(book)
        item = workflow.book_item(book_obj, lang, section)
        if item is None:
            return _not_found(request, book_obj, section)
        return view(request, book, section, *args, book_obj=book_obj, lang=lang, item=item, **kwargs)

    return wrapper


# ---------------------------------------------------------------------------------------------------- overview


def _progress(counts: progress.Counts) -> dict:
    """Counts and shares by state, by sections and by words (for the bar chart and its table)."""
    sections, words = counts.sections, counts.words
    total_sections, total_words = sum(sections.values()), sum(words.values())
    rows = []
    for state in STATES:
        s, w = sections.get(state, 0), words.get(state, 0)
        rows.append({
            "state": state, "label": state_label(state), "sections": s, "words": w,
            "section_share": s / total_sections if total_sections else 0,
            "word_share": w / total_words if total_words else 0,
            "section_percent": format_percent(s / total_sections if total_sections else 0, locale=current_language()),
            "word_percent": format_percent(w / total_words if total_words else 0, locale=current_language()),
            "words_text": format_decimal(w, locale=current_language()),
        })
    section_x = word_x = 0.0
    for row in rows:  # the bar's segments (SVG units of a 100-wide bar), formatted without locale (no decimal comma)
        row["section_x"], row["section_width"] = f"{section_x:.3f}", f"{row['section_share'] * 100:.3f}"
        row["word_x"], row["word_width"] = f"{word_x:.3f}", f"{row['word_share'] * 100:.3f}"
        section_x += row["section_share"] * 100
        word_x += row["word_share"] * 100
    approved = sections.get(Status.APPROVED, 0)
    return {"rows": rows, "sections": total_sections, "words": total_words,
            "words_text": format_decimal(total_words, locale=current_language()), "approved": approved,
            "approved_percent": format_percent(approved / total_sections if total_sections else 0, locale=current_language())}


@require_GET
@translator_required
def index(request):
    books = []
    for book in Book.objects.all():
        for lang in workflow.target_languages(book):
            books.append((book, lang, _progress(progress.summary(book, lang).total)))
    return render(request, "translation/index.html", {"books": books})


ROWS_PER_PAGE = 100


@require_GET
@translator_required
def dashboard(request, book):
    """Progress by state, words and chapter, and a page of the sections filtered by state or QA problem, all
    counted and listed by the database (progress.py): what it costs does not grow with the book in Python."""
    book_obj, lang = _book(book)
    summary = progress.summary(book_obj, lang)
    checks = {c.check_id: c for c in registered_checks()}
    state, check, errors = _dashboard_filters(request, checks)
    page = Paginator(progress.Listed(book_obj, lang, state, check), ROWS_PER_PAGE).get_page(request.GET.get("page"))
    report_counts = reports.counts(book_obj)
    qa_counts = dict(QAResult.objects.filter(translation__section__book=book_obj, translation__language=lang,
                                             dismissed=False).values("check_id").annotate(n=Count("id"))
                     .values_list("check_id", "n"))
    return render(request, "translation/dashboard.html", {
        "book": book_obj, "lang": lang, "progress": _progress(summary.total),
        "rows": _dashboard_rows(book_obj, lang, page, check), "page": page, "query": _query_without_page(request),
        "chapters": _chapter_rows(book_obj, summary.chapters),
        "report_states": [(value, label, report_counts[value]) for value, label in Report.State.choices],
        "open_reports": list(Report.objects.filter(book=book_obj.slug, status__in=[Report.State.NEW,
                                                                                      Report.State.ACCEPTED])[:5]),
        "states": [(s, state_label(s)) for s in STATES], "state": state, "check": check,
        "checks": [(c.check_id, c.name, qa_counts.get(c.check_id, 0)) for c in checks.values()],
        "filter_errors": errors, "total": sum(summary.total.sections.values()), "matching": page.paginator.count,
    })


def _dashboard_filters(request, checks) -> tuple[str, str, list[str]]:
    state = request.GET.get("status", "")
    check = request.GET.get("check", "")
    errors = []
    if state and state not in STATES:
        errors.append(_("Unknown status “%(value)s”: showing every section.") % {"value": state})
        state = ""
    if check and check not in checks and check != "any":
        errors.append(_("Unknown QA check “%(value)s”: showing every section.") % {"value": check})
        check = ""
    return state, check, errors


def _query_without_page(request) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


def _dashboard_rows(book_obj, lang: str, page, check: str) -> list[dict]:
    """The listed page's rows: each section's item (made in step with the corpus if the sync has not yet) and its
    QA problems."""
    items = workflow.items_of(book_obj, lang, list(page.object_list))
    problems: dict[int, list[QAResult]] = {}
    for result in QAResult.objects.filter(translation__in=[i.translation for i in items], dismissed=False):
        problems.setdefault(result.translation_id, []).append(result)
    rows = []
    for item in items:
        active = problems.get(item.translation.pk, [])
        rows.append({
            "item": item, "state": item.state, "state_label": state_label(item.state),
            "errors": sum(1 for r in active if r.severity == "error"),
            "warnings": sum(1 for r in active if r.severity == "warning"),
            "problems": [r for r in active if not check or check == "any" or r.check_id == check][:3],
            "updated": _when(item.translation.updated_at),
            "url": reverse("translation:editor", args=[book_obj.slug, item.section.sid]),
        })
    return rows


def _chapter_rows(book_obj, chapters: list[tuple[str, progress.Counts]]) -> list[dict]:
    titles = {s.sid: s for s in book_obj.sections.filter(sid__in=[sid for sid, _ in chapters])
              .prefetch_related("texts")}
    out = []
    for sid, counts in chapters:
        chapter = titles.get(sid)
        out.append({"sid": sid, "number": chapter.number if chapter else "",
                    "title": _section_title(chapter, current_language()), "progress": _progress(counts)})
    return out


def _section_title(section, lang: str) -> str:
    if section is None:
        return ""
    texts = {t.language: t.title for t in section.texts.all()}
    return texts.get(lang) or texts.get(section.book.source_language, "") or section.sid


# ---------------------------------------------------------------------------------------------------- editor


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
    seen, rows = set(), []
    source_text = item.source.title + "\n\n" + item.source.body
    for match in context.glossary.find(source_text, context.source_language):
        term = match.term
        if match.forbidden or term.id in seen:
            continue
        seen.add(term.id)
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
    terms, seen = [], set()
    for match in context.glossary.find(unit.source, source_lang):
        if not match.forbidden and match.term.id not in seen:
            seen.add(match.term.id)
            terms.append({"source": unit.source[match.start:match.end], "required": match.term.term(lang)})
    changed = memory.changed_sentences(unit.previous, unit.source) if unit.outdated and unit.previous else []
    return {"memory": [_match_row(m) for m in found], "terms": terms,
            "previous": unit.target if unit.outdated and unit.previous is not None and unit.target else "",
            "changed_sentences": [{"sentence": sentence, "matches": [
                _match_row(m) for m in memory.sentence_matches(sentence, source_lang, lang)]} for sentence in changed]}


def _match_row(match: memory.Match) -> dict:
    entry = match.entry
    if entry.origin == entry.Origin.TRANSLATION:
        where = " ".join(filter(None, (entry.book, entry.context.replace(":title", " · " + _("title")).replace(
            ":", " ¶"))))
    else:
        where = entry.note or entry.get_origin_display()
    return {"target": match.target, "source": match.source, "diff": match.diff, "where": where,
            "origin": entry.get_origin_display(),
            "percent": format_percent(match.percent / 100, locale=current_language()), "score": match.percent}


def _editor_rows(book, item, units, form, context: CheckContext, lang: str, qa_by_paragraph, old_blocks):
    """One row per title or paragraph: the source (terms marked), the field, what changed in the source, QA, and
    the suggestions (memory, glossary terms, the previous translation)."""
    rows = []
    diffs = {}
    if item.outdated and old_blocks is not None:
        new_blocks = [u.source for u in units.units if u.paragraph > 0]
        for n, html in enumerate(block_diffs(old_blocks, new_blocks), start=1):
            if html is not None:
                diffs[n] = html
    fields = {f"p{n}": form[f"p{n}"] for n in range(1, form.paragraph_count + 1)}
    source_units = {u.paragraph: u for u in units.units}
    for u in units.units:
        if u.paragraph == TITLE:
            rows.append({"paragraph": TITLE, "label": _("Title"), "field": form["title"],
                         "source": annotate(u.source, _term_spans(u.source, context, lang)),
                         "diff": html_diff(u.previous, u.source) if u.outdated and u.previous is not None else None,
                         "outdated": u.outdated, "qa": qa_by_paragraph.get(TITLE, []),
                         **_suggestions(book, lang, u, context)})
    for n in range(1, form.paragraph_count + 1):
        u = source_units.get(n)
        rows.append({
            "paragraph": n, "label": paragraph_label(n), "field": fields[f"p{n}"],
            "source": annotate(u.source, _term_spans(u.source, context, lang)) if u else None,
            "diff": diffs.get(n), "outdated": bool(u and u.outdated), "qa": qa_by_paragraph.get(n, []),
            **(_suggestions(book, lang, u, context) if u else {}),
        })
    return rows


def _editor_context(request, book, lang, item, form=None, live_problems=None):
    units = workflow.section_units(item, book)
    t = item.translation
    paragraphs = sum(1 for u in units.units if u.paragraph > 0) + len(units.orphans)
    if form is None:
        initial = {"version": t.version, "source_revision": item.current_revision, "paragraphs": paragraphs,
                   "title": next((u.target for u in units.units if u.paragraph == TITLE), t.title)}
        targets = [u.target for u in units.units if u.paragraph > 0] + units.orphans
        for n, text in enumerate(targets, start=1):
            initial[f"p{n}"] = text
        initial["status"] = default_status(request.user, t.status)
        form = EditorForm(user=request.user, paragraphs=paragraphs, initial=initial)
    context = qa.check_context(book, lang)
    old = workflow.old_source(book, item.section.sid, t.source_revision) if item.outdated else None
    problems = live_problems if live_problems is not None else item.qa
    by_paragraph: dict = {}
    for r in problems:
        by_paragraph.setdefault(r.paragraph, []).append(r)
    target_text = f"{t.title}\n\n{t.body}"
    revisions = list(t.revisions.select_related("author")[:8])
    rows = _editor_rows(book, item, units, form, context, lang, by_paragraph, split_blocks(old.body) if old else None)
    section_reports = list(reports.section_reports(book, item.section.sid))
    for row in rows:
        row["reports"] = [r for r in section_reports if r.paragraph == row["paragraph"]]
    return {
        "book": book, "lang": lang, "item": item, "translation": t, "form": form,
        "state": item.state, "state_label": state_label(item.state),
        "rows": rows, "reports_url": reverse("translation:reports", args=[book.slug]),
        "section_problems": by_paragraph.get(None, []),
        "qa_total": [r for r in problems if not getattr(r, "dismissed", False)],
        "dismissed_qa": [r for r in problems if getattr(r, "dismissed", False)],
        "glossary": _glossary_rows(item, context, lang, target_text),
        "old_source_known": old is not None, "old_source": old,
        "source_lang": book.source_language, "revisions": revisions,
        "updated": _when(t.updated_at), "can_review": can_review(request.user),
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


def _unconfirmed_errors(request, book, lang, item, status, title: str, body: str) -> Confirmation:
    """Approving publishes at once, so a text with QA errors is approved only when the reviewer has seen the errors
    named and confirmed exactly these (``confirm_errors`` carries the token of these errors in this text)."""
    if status != Status.APPROVED:
        return Confirmation([], "", False)
    errors = qa.approval_errors(book, lang, item, title, body)
    token = workflow.errors_token(errors, title, body) if errors else ""
    return Confirmation(errors, token, bool(errors) and request.POST.get("confirm_errors", "") != token)


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
                confirmed = _unconfirmed_errors(request, book_obj, lang, item, data["status"], data["title"],
                                                data["body"])
                if confirmed.pending:
                    context = _editor_context(request, book_obj, lang, item, form=form)
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
                      _editor_context(request, book_obj, lang, item, form=form), status=400)
    return render(request, "translation/editor.html", _editor_context(request, book_obj, lang, item))


@require_POST
@translator_required
@with_section_item
def qa_preview(request, book, section, *, book_obj, lang, item):
    """The QA problems of the text in the editor, as it is being typed (htmx), without saving anything."""
    form = EditorForm(request.POST, user=request.user)
    form.is_valid()
    blocks = [workflow.normalise_text(request.POST.get(f"p{n}", "")).strip()
              for n in range(1, form.paragraph_count + 1)]
    title = workflow.normalise_text(request.POST.get("title", "")).strip()
    pair = SectionPair(item.section.sid, item.source_units, TextUnits(title, tuple(b for b in blocks if b)))
    problems = check_section(pair, qa.check_context(book_obj, lang))
    syntax = []
    for name, error_list in form.errors.items():
        if name.startswith("p") or name == "title":
            syntax += [f"{form.fields[name].label}: {e}" for e in error_list]
    return render(request, "translation/editor.html#qa-panel", {
        "qa_total": problems, "syntax_errors": syntax, "live": True, "book": book_obj, "item": item})


# ---------------------------------------------------------------------------------------------------- revisions


def _revision_or_404(item, number: int) -> Revision:
    revision = item.translation.revisions.select_related("author").filter(number=number).first()
    if revision is None:
        raise NotFound(_("No revision %(n)s of this section.") % {"n": number})
    return revision


@require_GET
@translator_required
@with_section_item
def history(request, book, section, *, book_obj, lang, item):
    revisions = list(item.translation.revisions.select_related("author"))
    return render(request, "translation/history.html", {
        "book": book_obj, "lang": lang, "item": item, "revisions": [
            {"r": r, "when": _when(r.created), "status": state_label(r.status)} for r in revisions],
        "state_label": state_label(item.state),
    })


@require_GET
@translator_required
@with_section_item
def revision(request, book, section, number, *, book_obj, lang, item):
    rev = _revision_or_404(item, number)
    form = RestoreForm(user=request.user, initial={
        "version": item.translation.version, "status": default_status(request.user, item.translation.status)})
    return render(request, "translation/revision.html", _revision_context(book_obj, lang, item, rev, form))


def _revision_context(book_obj, lang, item, rev, form) -> dict:
    return {
        "book": book_obj, "lang": lang, "item": item, "rev": rev, "when": _when(rev.created),
        "status": state_label(rev.status), "blocks": rev.blocks, "form": form,
        "is_current": rev.applied and rev.title == item.translation.title and rev.body == item.translation.body,
    }


def _parse_number(value, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@require_GET
@translator_required
@with_section_item
def diff(request, book, section, *, book_obj, lang, item):
    revisions = {r.number: r for r in item.translation.revisions.select_related("author")}
    if not revisions:
        raise NotFound(_("This section has no revisions yet."))
    newest = max(revisions)
    raw_a, raw_b = request.GET.get("a"), request.GET.get("b")
    if raw_a is None and raw_b is None:
        b = newest
        a = max((n for n in revisions if n < b), default=b)
    else:
        a = _parse_number(raw_a, newest if raw_a is None else None)
        b = _parse_number(raw_b, newest if raw_b is None else None)
    if a not in revisions or b not in revisions:
        missing = [v for v, n in ((raw_a, a), (raw_b, b)) if n not in revisions]
        return render(request, "translation/not_found.html", {
            "book": book_obj, "what": _("revision %(n)s of %(sid)s") % {
                "n": ", ".join(str(v) for v in missing) or "?", "sid": item.section.sid}}, status=404)
    old, new = revisions[a], revisions[b]
    return render(request, "translation/diff.html", {
        "book": book_obj, "lang": lang, "item": item, "old": old, "new": new,
        "old_when": _when(old.created), "new_when": _when(new.created),
        "old_status": state_label(old.status), "new_status": state_label(new.status),
        "title_diff": html_diff(old.title, new.title), "body_diff": html_diff(old.body, new.body),
        "same": old.title == new.title and old.body == new.body,
        "numbers": sorted(revisions, reverse=True),
    })


@require_POST
@translator_required
@with_section_item
def restore(request, book, section, number, *, book_obj, lang, item):
    rev = _revision_or_404(item, number)
    form = RestoreForm(request.POST, user=request.user)
    if not form.is_valid():
        messages.error(request, _("Could not restore: %(errors)s") % {
            "errors": "; ".join(e for errs in form.errors.values() for e in errs)})
        return redirect("translation:revision", book_obj.slug, item.section.sid, rev.number)
    confirmed = _unconfirmed_errors(request, book_obj, lang, item, form.cleaned_data["status"], rev.title, rev.body)
    if confirmed.pending:
        context = _revision_context(book_obj, lang, item, rev, form)
        context.update(approve_errors=confirmed.errors, confirm_token=confirmed.token)
        return render(request, "translation/revision.html", context, status=409)
    result = workflow.restore_revision(rev, user=request.user, status=form.cleaned_data["status"],
                                       base_version=form.cleaned_data["version"],
                                       comment=form.cleaned_data["comment"],
                                       confirmed_errors=workflow.confirmed_record(confirmed.errors))
    if result.conflict:
        return redirect("translation:conflict", book_obj.slug, item.section.sid, result.revision.number)
    messages.success(request, _("Revision %(old)s restored as revision %(new)s.") % {
        "old": rev.number, "new": result.revision.number})
    return redirect("translation:editor", book_obj.slug, item.section.sid)


def two_sides(theirs: str, mine: str) -> tuple[SafeString, SafeString]:
    """Each text of a conflict with what differs marked in it: in theirs what yours lacks (struck out), in yours
    what theirs lacks (underlined), so the two read side by side."""
    ops = word_diff(theirs, mine)
    return (render_diff([op for op in ops if op.kind != INSERT]), render_diff([op for op in ops if op.kind != DELETE]))


@require_GET
@translator_required
@with_section_item
def conflict(request, book, section, number, *, book_obj, lang, item):
    """A save that came from an older version: both texts, the diff, and a form to save a merged text."""
    mine = _revision_or_404(item, number)
    if mine.origin != Revision.Origin.CONFLICT:
        return redirect("translation:revision", book_obj.slug, item.section.sid, mine.number)
    t = item.translation
    theirs = t.revisions.filter(applied=True).select_related("author").first()
    units = workflow.section_units(item, book_obj)
    my_blocks = mine.blocks
    paragraphs = max(len(my_blocks), sum(1 for u in units.units if u.paragraph > 0))
    initial = {"version": t.version, "source_revision": mine.source_revision or item.current_revision,
               "paragraphs": paragraphs, "title": mine.title, "comment": mine.comment,
               "status": mine.status if mine.status in allowed_statuses(request.user) and mine.status != Status.APPROVED
               else default_status(request.user, t.status)}
    for n, text in enumerate(my_blocks, start=1):
        initial[f"p{n}"] = text
    form = EditorForm(user=request.user, paragraphs=paragraphs, initial=initial)
    context = _editor_context(request, book_obj, lang, item, form=form)
    context.update({
        "mine": mine, "theirs": theirs, "mine_when": _when(mine.created),
        "theirs_when": _when(theirs.created) if theirs else "",
        "title_diff": html_diff(t.title, mine.title), "body_diff": html_diff(t.body, mine.body),
        "theirs_marked": two_sides(t.title, mine.title) + two_sides(t.body, mine.body),
    })
    return render(request, "translation/conflict.html", context, status=409)


# ---------------------------------------------------------------------------------------------------- QA


@require_POST
@translator_required
def dismiss(request, book, section, pk):
    book_obj, lang = _book(book)
    result = QAResult.objects.filter(pk=pk, translation__section__book=book_obj, translation__language=lang,
                                     translation__section__sid=section).first()
    if result is None:
        return _not_found(request, book_obj, _("QA result %(id)s") % {"id": pk})
    undo = request.POST.get("undo") == "1"
    result.dismissed = not undo
    result.dismissed_by = None if undo else request.user
    result.save(update_fields=["dismissed", "dismissed_by"])
    messages.success(request, _("The problem is shown again.") if undo else _("The problem is dismissed."))
    back = request.POST.get("next", "")
    if back.startswith("/") and not back.startswith("//"):
        return redirect(back)
    return redirect("translation:editor", book_obj.slug, section)


# ---------------------------------------------------------------------------------------------------- exchange


@require_GET
@translator_required
def export(request, book, fmt):
    book_obj, lang = _book(book)
    if fmt == "tmx":
        workflow.ensure_translations(book_obj, lang)
        data, content_type, name = write_tmx(book_obj), "application/x-tmx+xml", f"{book_obj.slug}-memory.tmx"
    elif fmt in ("po", "xliff", "xliff12"):
        units = export_units(book_obj, lang)
        if fmt == "po":
            data, content_type, name = write_catalog(book_obj, lang, units), "text/x-gettext-translation", \
                f"{book_obj.slug}-{lang}.po"
        else:
            version = "1.2" if fmt == "xliff12" else "2.0"
            data, content_type, name = write_xliff(book_obj, lang, units, version=version), \
                "application/xliff+xml", f"{book_obj.slug}-{lang}{'-1.2' if version == '1.2' else ''}.xlf"
    else:
        raise NotFound(_("Unknown export format."))
    response = HttpResponse(data, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


def _detect_format(name: str, data: bytes) -> str | None:
    suffix = PurePath(name).suffix.lower()
    if suffix == ".po":
        return "po"
    if suffix == ".tmx":
        return "tmx"
    head = data.lstrip()[:400]
    if suffix in (".xlf", ".xliff", ".xml") or head.startswith(b"<"):
        return "tmx" if b"<tmx" in data[:2000] else "xliff"
    if b"msgid" in data[:4000]:
        return "po"
    return None


def run_import(book: Book, lang: str, data: bytes, filename: str, *, fmt: str, user, status: str, partial: bool):
    """Read, validate and (if clean, or partial) apply one file; the plan says what happened."""
    reader = read_catalog if fmt == "po" else read_xliff
    entries, exported_at = reader(data, book, lang)
    plan = plan_import(book, lang, entries, exported_at)
    origin = Revision.Origin.PO if fmt == "po" else Revision.Origin.XLIFF
    return apply_import(plan, user=user, status=status_for_import(status), origin=origin, filename=filename,
                        partial=partial)


@require_http_methods(["GET", "POST"])
@translator_required
def import_file(request, book):
    book_obj, lang = _book(book)
    context = {"book": book_obj, "lang": lang}
    if request.method == "GET":
        context["form"] = ImportForm(user=request.user)
        return render(request, "translation/import.html", context)
    form = ImportForm(request.POST, request.FILES, user=request.user)
    context["form"] = form
    if not form.is_valid():
        return render(request, "translation/import.html", context, status=400)
    upload = form.cleaned_data["file"]
    limit = getattr(settings, "TRANSLATION_UPLOAD_MAX_BYTES", 2 * 1024 * 1024)
    name = PurePath(upload.name or "upload").name
    if upload.size > limit:
        context["error"] = _("%(name)s is %(size)s bytes; the limit is %(limit)s bytes.") % {
            "name": name, "size": upload.size, "limit": limit}
        return render(request, "translation/import.html", context, status=400)
    data = upload.read()
    fmt = _detect_format(name, data)
    if fmt is None:
        context["error"] = _("%(name)s is not a PO, XLIFF or TMX file (name it .po, .xlf or .tmx).") % {"name": name}
        return render(request, "translation/import.html", context, status=400)
    if fmt == "tmx":
        try:
            tmx = import_tmx(read_tmx(data, book_obj, lang, name), partial=form.cleaned_data["partial"])
        except ExchangeError as exc:
            context["error"] = f"{name}: {exc}"
            return render(request, "translation/import.html", context, status=400)
        context.update({"tmx": tmx, "name": name, "format": "TMX"})
        return render(request, "translation/import.html", context, status=200 if tmx.written else 400)
    try:
        plan = run_import(book_obj, lang, data, name, fmt=fmt, user=request.user,
                          status=form.cleaned_data["status"], partial=form.cleaned_data["partial"])
    except ExchangeError as exc:
        context["error"] = f"{name}: {exc}"
        return render(request, "translation/import.html", context, status=400)
    context.update({"plan": plan, "name": name, "format": fmt.upper()})
    return render(request, "translation/import.html", context, status=200 if plan.clean or plan.written else 400)
