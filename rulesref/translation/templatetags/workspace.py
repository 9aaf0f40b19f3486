"""Template helpers of the translator's workspace: QA checks by name, in the reader's language."""
from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy

from ..checks.base import LANGS_KEY, paragraph_label
from ..checks.runner import check_by_id

register = template.Library()
LANGUAGE_NAMES = {"ru": gettext_lazy("Russian"), "en": gettext_lazy("English")}


@register.filter
def check_name(check_id: str) -> str:
    """A check's name in the reader's language (a stored result of a check no longer registered keeps its id)."""
    check = check_by_id(check_id)
    return str(check.name) if check else check_id


@register.filter
def check_description(check_id: str) -> str:
    check = check_by_id(check_id)
    return str(check.description) if check else ""


@register.filter
def qa_message(problem) -> SafeString:
    """A QA problem's message in the reader's language, as HTML built on escaped text: the parameters that quote a
    text (a term, words found) carry that text's language, so a Russian page marks the English words it quotes.
    Takes a ``Problem``, a stored ``QAResult`` or a revision's confirmed error (a dict)."""
    if isinstance(problem, dict):
        message, params = problem.get("message", ""), problem.get("params") or {}
    else:
        message, params = problem.message, problem.params or {}
    langs = params.get(LANGS_KEY) or {}
    values = {key: format_html('<span lang="{}"{}>{}</span>', langs[key],
                               mark_safe(' translate="no"') if langs[key] == "zxx" else "", value)
              if key in langs else escape(value) for key, value in params.items() if key != LANGS_KEY}
    template_text = escape(gettext(message))
    try:
        return mark_safe(template_text % values if values else template_text)
    except (KeyError, TypeError, ValueError):  # a stored message from an older version of a check
        return escape(message)


@register.filter
def paragraph_name(paragraph) -> str:
    """"title", "paragraph 2" or nothing (the whole section), in the reader's language."""
    return paragraph_label(paragraph)


@register.filter
def language_name(code: str) -> str:
    """A language's name in the reader's language ("Russian", «русский»), never the bare code."""
    return str(LANGUAGE_NAMES.get(code, code))
