"""Template helpers of the translator's workspace: QA checks by name, in the reader's language."""
from django import template

from ..checks.runner import check_by_id

register = template.Library()


@register.filter
def check_name(check_id: str) -> str:
    """A check's name in the reader's language (a stored result of a check no longer registered keeps its id)."""
    check = check_by_id(check_id)
    return str(check.name) if check else check_id


@register.filter
def check_description(check_id: str) -> str:
    check = check_by_id(check_id)
    return str(check.description) if check else ""
