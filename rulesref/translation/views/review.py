"""A section's revisions: the history, one revision, the diff between two, restoring one, and the conflict page
of a save that came from an older version."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from rulesref.http import NotFound
from rulesref.textdiff import DELETE, INSERT, html_diff, render_diff, word_diff

from .. import workflow
from ..forms import EditorForm, RestoreForm
from ..models import Revision, Status
from ..permissions import allowed_statuses, default_status, translator_required
from .base import state_label, when, with_section_item
from .editor import editor_context, unconfirmed_errors


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
            {"r": r, "when": when(r.created), "status": state_label(r.status)} for r in revisions],
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
        "book": book_obj, "lang": lang, "item": item, "rev": rev, "when": when(rev.created),
        "status": state_label(rev.status), "blocks": rev.blocks, "form": form,
        "is_current": rev.applied and rev.title == item.translation.title and rev.body == item.translation.body,
    }


def _parse_number(value, default: int | None = None) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _compared(revisions: dict, raw_a: str | None, raw_b: str | None) -> tuple[int | None, int | None]:
    """The revision numbers a diff compares: without ``a`` and ``b``, the newest and the one before it; a number
    left out is the newest; a number that is not one is None."""
    newest = max(revisions)
    if raw_a is None and raw_b is None:
        return max((n for n in revisions if n < newest), default=newest), newest
    return (_parse_number(raw_a, newest if raw_a is None else None),
            _parse_number(raw_b, newest if raw_b is None else None))


@require_GET
@translator_required
@with_section_item
def diff(request, book, section, *, book_obj, lang, item):
    revisions = {r.number: r for r in item.translation.revisions.select_related("author")}
    if not revisions:
        raise NotFound(_("This section has no revisions yet."))
    raw_a, raw_b = request.GET.get("a"), request.GET.get("b")
    a, b = _compared(revisions, raw_a, raw_b)
    if a not in revisions or b not in revisions:
        missing = [v for v, n in ((raw_a, a), (raw_b, b)) if n not in revisions]
        return render(request, "translation/not_found.html", {
            "book": book_obj, "what": _("revision %(n)s of %(sid)s") % {
                "n": ", ".join(str(v) for v in missing) or "?", "sid": item.section.sid}}, status=404)
    old, new = revisions[a], revisions[b]
    return render(request, "translation/diff.html", {
        "book": book_obj, "lang": lang, "item": item, "old": old, "new": new,
        "old_when": when(old.created), "new_when": when(new.created),
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
    confirmed = unconfirmed_errors(request, book_obj, lang, item, form.cleaned_data["status"], rev.title, rev.body)
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
    context = editor_context(request, book_obj, lang, item, form=form)
    context.update({
        "mine": mine, "theirs": theirs, "mine_when": when(mine.created),
        "theirs_when": when(theirs.created) if theirs else "",
        "title_diff": html_diff(t.title, mine.title), "body_diff": html_diff(t.body, mine.body),
        "theirs_marked": two_sides(t.title, mine.title) + two_sides(t.body, mine.body),
    })
    return render(request, "translation/conflict.html", context, status=409)
