"""Template tags other apps' templates use to point at rulings: the rulings that answer a reader's report."""
from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from rulesref.languages import current_language

from ..models import Ruling
from ..render import ruling_url

register = template.Library()


@register.simple_tag
def answered_by(report) -> str:
    """Links to the published rulings that answer a reader's report (nothing when none does)."""
    found = [r for r in Ruling.objects.filter(report=report).select_related("book") if r.is_public]
    if not found:
        return mark_safe("")
    links = format_html_join(", ", '<a href="{}">{}</a>', (
        (ruling_url(current_language(), r.book.slug, r.number), _("Ruling %(n)s") % {"n": r.number})
        for r in found))
    return format_html('<p class="answered-by">{} {}</p>', _("The answer:"), links)


@register.filter
def can_rule(user) -> bool:
    """Whether the user may write rulings (reviewers and rules editors)."""
    from ..permissions import can_rule as allowed

    return allowed(user)
