"""Babel extraction of messages from Django templates, and catalog maintenance without GNU gettext.

``extract_django`` is a Babel extraction method (named in babel.cfg): Django's own ``templatize`` turns a
template into Python-like source with gettext calls, and Babel's Python extractor reads the messages from it, so
``{% translate %}`` and ``{% blocktranslate count %}`` (plural) both reach the catalog.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Iterator

from babel.messages.extract import extract_python

CATALOG_KEYWORDS = {
    "_": None, "gettext": None, "gettext_lazy": None, "ngettext": (1, 2), "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2), "pgettext_lazy": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
    "gettext_noop": None,
}


def extract_django(fileobj, keywords, comment_tags, options) -> Iterator:
    from django.utils.translation.template import templatize

    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    code = templatize(source)
    yield from extract_python(io.BytesIO(code.encode("utf-8")), keywords, comment_tags, options)


def project_root() -> Path:
    return Path(__file__).resolve().parent.parent
