"""Who may do what: readers need no account; translators edit and import; reviewers also approve.

Membership is by Django group (names in settings: TRANSLATION_TRANSLATORS_GROUP, TRANSLATION_REVIEWERS_GROUP);
superusers may do everything.
"""
from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from .models import Status


def translators_group() -> str:
    return getattr(settings, "TRANSLATION_TRANSLATORS_GROUP", "translators")


def reviewers_group() -> str:
    return getattr(settings, "TRANSLATION_REVIEWERS_GROUP", "reviewers")


def _groups(user) -> set[str]:
    if not hasattr(user, "_translation_groups"):
        user._translation_groups = set(user.groups.values_list("name", flat=True)) if user.is_authenticated else set()
    return user._translation_groups


def can_review(user) -> bool:
    return bool(user.is_authenticated and user.is_active and (user.is_superuser or reviewers_group() in _groups(user)))


def can_translate(user) -> bool:
    return bool(user.is_authenticated and user.is_active and (
        user.is_superuser or _groups(user) & {translators_group(), reviewers_group()}))


def allowed_statuses(user) -> list[str]:
    """The statuses this user may give a translation when saving it."""
    if can_review(user):
        return [Status.DRAFT, Status.REVIEW, Status.APPROVED]
    if can_translate(user):
        return [Status.DRAFT, Status.REVIEW]
    return []


def default_status(user, current: str) -> str:
    """The status the editor offers after an edit: never "approved", which a reviewer chooses explicitly.

    A text in review stays in review; an edit of a published text is a proposed change (a reviewer's goes to review,
    a translator's starts as a draft); anything else is a draft.
    """
    if current == Status.REVIEW:
        return Status.REVIEW
    if current == Status.APPROVED and can_review(user):
        return Status.REVIEW
    return Status.DRAFT


def translator_required(view):
    """Signed-in translators and reviewers only: anonymous users go to sign in, others get 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_translate(request.user):
            raise PermissionDenied("This account is not a translator or reviewer.")
        return view(request, *args, **kwargs)

    return wrapper
