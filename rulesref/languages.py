"""The site's two languages: the reader's current one and the other."""
from django.utils.translation import get_language

LANGUAGES = ("ru", "en")


def current_language() -> str:
    """The reader's language code (``ru`` or ``en``), from the URL's prefix."""
    return (get_language() or "en")[:2]


def other_language(lang: str) -> str:
    return "en" if lang == "ru" else "ru"
