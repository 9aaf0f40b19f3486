"""Who may do what with rulings. Readers read them; translators translate them (drafts and texts for review);
reviewers and rules editors write, publish, confirm and withdraw them, and approve their translations.

Rules editors are a Django group (``RULINGS_EDITORS_GROUP``, "rules-editors" by default), like the workspace's
translators and reviewers (rulesref/translation/permissions.py); superusers may do everything.
"""
from __future__ import annotations

from django.conf import settings

from rulesref.translation.models import Status
from rulesref.translation.permissions import _groups, can_review, can_translate


def editors_group() -> str:
    return getattr(settings, "RULINGS_EDITORS_GROUP", "rules-editors")


def can_rule(user) -> bool:
    """May write, publish, confirm and withdraw rulings: a rules editor or a reviewer."""
    return bool(user.is_authenticated and user.is_active and (
        user.is_superuser or can_review(user) or editors_group() in _groups(user)))


def can_work_on(user) -> bool:
    """May open the rulings of the workspace: anyone who may translate or rule."""
    return can_translate(user) or can_rule(user)


def allowed_statuses(user, source: bool) -> list[str]:
    """The statuses this user may give a ruling's text: its source text is the rules editors' (and reviewers'),
    its translation everyone's who translates, approved by those who rule or review."""
    if can_rule(user):
        return [Status.DRAFT, Status.REVIEW, Status.APPROVED]
    if can_translate(user) and not source:
        return [Status.DRAFT, Status.REVIEW]
    return []
