"""The workspace's overview pages: the rulebooks with their progress, and a rulebook's dashboard (progress by
state, words and chapter; the sections filtered by state or QA problem; the open reports)."""
from __future__ import annotations

from babel.numbers import format_decimal, format_percent
from django.core.paginator import Paginator
from django.db.models import Count
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from rulesref.languages import current_language
from rulesref.reference.models import Book

from .. import progress, reports, workflow
from ..checks.runner import registered_checks
from ..exchange import formats
from ..models import QAResult, Report, Status
from ..permissions import translator_required
from .base import STATES, book_and_language, state_label, when


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
    book_obj, lang = book_and_language(book)
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
        "export_formats": list(formats.registered().values()),  # a link each, in the setting's order
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
            "updated": when(item.translation.updated_at),
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
