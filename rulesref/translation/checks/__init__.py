"""QA checks for translations, in the manner of Weblate's: small classes listed in settings.TRANSLATION_QA_CHECKS,
each with one pure ``check(source, target, context)`` method (see base.py); ``runner`` applies them to a book."""
from .base import ERROR, TITLE, WARNING, Check, CheckContext, Problem, TextUnits  # noqa: F401
