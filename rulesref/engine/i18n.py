"""Deferred, translatable engine messages.

The engine imports nothing from Django, so it cannot use Django's gettext. A finding's message is built as a
:class:`Message` (English msgid + parameters) and rendered later in the reader's language. Translations come from
the ``engine*.po`` catalogs in ``locale/<lang>/LC_MESSAGES/`` of the project, read with Babel and compiled in
memory on first use, so Russian plural forms ("1 гекс, 2 гекса, 5 гексов") come from the catalog's own
Plural-Forms header and no compile step is needed before the engine can speak Russian.

Extraction: ``pybabel extract -F babel.cfg`` knows ``msg`` and ``nmsg:1,2`` as keywords.
"""
from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = ("en", "ru")
DOMAIN_PREFIX = "engine"


@dataclass(frozen=True)
class Message:
    """A message in English with named parameters, translated when rendered.

    ``plural`` and ``count`` make it a plural message: the catalog chooses the form for ``count``.
    Parameters may themselves be Messages (rendered in the same language) or lists of values.
    """

    text: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int | None = None

    def render(self, lang: str = "en") -> str:
        translations = catalog(lang)
        if self.plural is not None:
            template = translations.ngettext(self.text, self.plural, self.count or 0)
        else:
            template = translations.gettext(self.text)
        values = {name: _render_value(value, lang) for name, value in self.params}
        if self.count is not None:
            values.setdefault("n", self.count)
        return template.format(**values) if values else template

    def __str__(self) -> str:
        return self.render("en")


def _render_value(value: Any, lang: str) -> Any:
    if isinstance(value, Message):
        return value.render(lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_render_value(v, lang)) for v in value)
    return value


def msg(text: str, **params: Any) -> Message:
    """A translatable message; ``{name}`` placeholders are filled from ``params``."""
    return Message(text, tuple(sorted(params.items())))


def nmsg(singular: str, plural: str, n: int, **params: Any) -> Message:
    """A translatable plural message; ``{n}`` is the count."""
    return Message(singular, tuple(sorted(params.items())), plural=plural, count=n)


@lru_cache(maxsize=None)
def catalog(lang: str) -> gettext.NullTranslations:
    """All ``engine*.po`` catalogs of one language merged into one gettext translations object."""
    directory = LOCALE_DIR / lang / "LC_MESSAGES"
    result: gettext.NullTranslations = gettext.NullTranslations()
    if lang == "en" or not directory.is_dir():
        return result
    for po_path in sorted(directory.glob(f"{DOMAIN_PREFIX}*.po")):
        with po_path.open("rb") as fh:
            po = read_po(fh, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, po)
        buffer.seek(0)
        translations = gettext.GNUTranslations(buffer)
        if isinstance(result, gettext.GNUTranslations):
            result.add_fallback(translations)
        else:
            result = translations
    return result
