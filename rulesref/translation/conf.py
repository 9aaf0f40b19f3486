"""Settings of the translator's workspace and their defaults: set any of them in rulesref/settings.py to override.

- ``TRANSLATION_PROJECT``: the project named in exported files (PO ``Project-Id-Version``, TMX ``o-tmf``); an
  import recognises its own exports by it.
- ``TRANSLATION_TEAMS``: per target language, the team named in a PO file's ``Language-Team``.
- ``TRANSLATION_SITE_URL``: the site's origin (``https://rules.example.org``), for absolute links in exported files
  (``Report-Msgid-Bugs-To`` points at the rulebook's pages, where readers report problems); empty: site-relative.
- ``TRANSLATION_MEMORY_THRESHOLD``: the least similarity (0–1) of a translation-memory match worth offering.
- ``TRANSLATION_MEMORY_LIMIT``: how many memory matches the editor offers per paragraph.
- ``TRANSLATION_REPORT_MAX_CHARS``: the longest report message accepted.
- ``TRANSLATION_EXCHANGE_FORMATS``: the exchange formats (dotted paths of the classes in exchange/formats.py), as
  Weblate's ``WEBLATE_FORMATS``: the export links and the import detection know only these.
"""
from __future__ import annotations

from django.conf import settings

DEFAULTS = {
    "TRANSLATION_PROJECT": "rulesref",
    "TRANSLATION_TEAMS": {"en": "rulesref English translation team", "ru": "rulesref Russian translation team"},
    "TRANSLATION_SITE_URL": "",
    "TRANSLATION_MEMORY_THRESHOLD": 0.75,
    "TRANSLATION_MEMORY_LIMIT": 3,
    "TRANSLATION_REPORT_MAX_CHARS": 2000,
    "TRANSLATION_EXCHANGE_FORMATS": [
        "rulesref.translation.exchange.formats.PoFormat",
        "rulesref.translation.exchange.formats.XliffFormat",
        "rulesref.translation.exchange.formats.Xliff12Format",
        "rulesref.translation.exchange.formats.TmxFormat",
    ],
}


def setting(name: str):
    return getattr(settings, name, DEFAULTS[name])
