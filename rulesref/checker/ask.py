"""The ask panel: a question's parameter fields, generated from the engine's ``PARAMS``, and its answer.

The fields start from the position: the board kind offers the values that fit (the selected unit, the declared
charges; never a unit as its own target, only enemies where the question asks for an enemy), and the question is
asked as soon as every required parameter has a value, so choosing a question answers it. Each function is given
the :class:`~rulesref.checker.page.Page` being built (which imports this module).
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from . import answer as answers
from . import asking, books, remembered
from .decided import decided_under
from .questions import AFTER_ACTOR, ENEMY_OF


def effective_params(page) -> dict[str, list[str]]:
    """The question's parameters as chosen, with the board kind's defaults for those not chosen yet."""
    view = page.view
    if not view.q:
        return {}
    chosen = dict(view.params)
    for name, values in page.kind.question_defaults(page, view.q).items():
        if values and not chosen.get(name):
            chosen[name] = values
    return chosen


def _options(page, p: books.ParamSpec, chosen: dict[str, list[str]]) -> list[tuple[str, str]] | None:
    if p.type in ("unit", "units", "wing", "facing"):
        return page.kind.param_options(page, page.view.q, p, chosen)
    if p.choices:
        return [(c, str(books.CHOICE_LABELS.get(c, c))) for c in p.choices]
    return None


def fields(page, chosen: dict[str, list[str]]) -> list[dict[str, Any]]:
    specs = books.params(page.source.book, page.view.q)
    labels = {p.name: p.label for p in specs}
    out = []
    for p in specs:
        values = chosen.get(p.name, [])
        first = [labels[a] for a in ENEMY_OF.get(p.name, ()) if a in labels] if p.name in AFTER_ACTOR else []
        # a list of boxes to tick says what it is by its legend (the engine's description tells programs the
        # format they send it in: "comma-separated ids")
        out.append({"name": f"p-{p.name}", "param": p.name, "label": p.label,
                    "help": "" if p.type == "units" else p.describe(page.lang),
                    "required": p.required, "multiple": p.type == "units", "options": _options(page, p, chosen),
                    "values": values, "errors": [], "first": first[0] if first else "",
                    "value": values[0] if values else (str(p.default) if p.default is not None else "")})
    return out


def panel(page) -> dict[str, Any]:
    """The ask panel's context: the questions, the fields of the one asked, and its answer or what stops it."""
    book = page.source.book
    ctx: dict[str, Any] = {"questions": [(q, books.question_label(q)) for q in books.question_ids(book)],
                           "q": page.view.q, "fields": [], "answer": None, "ask_problems": [], "ask_error": "",
                           "shortcuts": page.kind.shortcuts(page) if not page.scenario_problems else []}
    if page.scenario_problems:
        ctx["ask_error"] = _("Correct the scenario before asking.") if page.view.q else ""
        return ctx
    if not page.view.q:
        return ctx
    ctx["fields"] = fields(page, page.view.params)
    missing = [f for f in ctx["fields"] if f["required"] and not f["values"]]
    for f in missing:
        f["errors"].append(_("Choose this to ask the question."))
    if missing:
        return ctx
    lacking = page.kind.lacking(page, page.view.q)
    if lacking:
        ctx["ask_error"] = lacking
        return ctx
    params = page.view.ask_params(book)
    outcome = asking.run(book, page.view.q, page.kind.reading_for(page, page.view.q, params), params, lang=page.lang)
    if outcome.ok:
        view = answers.build(book, outcome.ruling.to_dict(page.lang, details=True), page.lang)
        page.kind.answer_extras(page, view)
        view.decided = decided_under(book)
        if page.source.kind == "shared":  # the link's own answer, when it kept one: what changed since
            view.then = remembered.compare(page.source.saved, page.view.q, params, view, page.lang)
        ctx["answer"] = view
    else:
        _refused(ctx, outcome)
    return ctx


def _refused(ctx: dict[str, Any], outcome: asking.Outcome) -> None:
    """What kept the engine from answering: each parameter's problem at its field, the rest above the form."""
    if outcome.kind == "invalid":
        by_name = {f["param"]: f for f in ctx["fields"]}
        for path, message in outcome.problems:
            name = path.split(".", 1)[1] if path.startswith("params.") else None
            if name in by_name:
                by_name[name]["errors"].append(message)
            else:
                ctx["ask_problems"].append((path, message))
    elif outcome.kind in ("unavailable", "unknown"):
        ctx["ask_error"] = _("The engine cannot answer this question yet.")
    else:
        ctx["ask_error"] = _("The engine failed on this scenario. This is a bug in rulesref; it has been logged.")
