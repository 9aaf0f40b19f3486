"""UI message catalogs with Babel: extract from code and templates, update the .po files, compile the .mo files.

No GNU gettext is needed. The "django" domain holds the site's UI strings; the "engine*" domains hold the rules
engine's messages (the engine reads its .po files directly, see rulesref/engine/i18n.py).
"""
from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .babel_django import CATALOG_KEYWORDS, project_root

UI_LANGUAGES = ("ru", "en")
DOMAIN = "django"


def locale_dir() -> Path:
    return project_root() / "locale"


def extract() -> Catalog:
    root = project_root()
    with open(root / "babel.cfg", encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    catalog = Catalog(project="rulesref", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(root), method_map, options_map, keywords=CATALOG_KEYWORDS, comment_tags=("Translators:",),
        strip_comment_tags=True,
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def po_path(lang: str, domain: str = DOMAIN) -> Path:
    return locale_dir() / lang / "LC_MESSAGES" / f"{domain}.po"


def read_catalog(path: Path, lang: str) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=lang)


def update(template: Catalog | None = None) -> list[Path]:
    """Merge the extracted messages into each language's catalog (new ones empty, vanished ones obsolete)."""
    template = template or extract()
    written = []
    for lang in UI_LANGUAGES:
        path = po_path(lang)
        if path.exists():
            catalog = read_catalog(path, lang)
        else:
            catalog = Catalog(locale=lang, project="rulesref", charset="utf-8")
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            write_po(fh, catalog, width=110, omit_header=False, sort_output=True, no_location=True,
                     include_previous=True)
        written.append(path)
    return written


def compile_all() -> list[Path]:
    """Compile every .po under locale/ into its .mo (fuzzy entries are left out, as gettext does), and make this
    process read the new files from now on."""
    written = []
    for path in sorted(locale_dir().glob("*/LC_MESSAGES/*.po")):
        lang = path.parent.parent.name
        catalog = read_catalog(path, lang)
        mo = path.with_suffix(".mo")
        tmp = mo.with_suffix(".mo.tmp")
        with tmp.open("wb") as fh:
            write_mo(fh, catalog, use_fuzzy=False)
        tmp.replace(mo)
        written.append(mo)
    _forget_loaded_catalogs()
    return written


def _forget_loaded_catalogs() -> None:
    """Django keeps each language's catalog from its first use in a process. One used before the .mo files existed
    is empty, and the process (quickstart's server on a fresh clone) would go on serving Russian pages in English:
    drop them as Django's autoreloader does when a .mo file changes."""
    from django.utils.translation.reloader import translation_file_changed

    translation_file_changed(sender=None, file_path=Path(f"{DOMAIN}.mo"))


def untranslated(lang: str = "ru") -> list[str]:
    """UI messages in the code and templates that the language's catalog lacks (missing, empty or fuzzy)."""
    template = extract()
    path = po_path(lang)
    catalog = read_catalog(path, lang) if path.exists() else Catalog(locale=lang)
    missing = []
    for message in template:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = found.string if found else None
        if isinstance(strings, tuple):
            empty = not all(strings)
        else:
            empty = not strings
        if found is None or empty or found.fuzzy:
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing
