"""Signals the reference app sends, for other apps to act on without the loader knowing them."""
from __future__ import annotations

from django.dispatch import Signal

#: Sent by ``load_book`` just before a rulebook's sections and texts are replaced by the files' (``book``: the Book
#: as it stands). The translation workspace keeps the source texts then, for the diffs of outdated translations.
texts_replacing = Signal()

#: Sent by ``load_book`` once a rulebook's sections, texts and references are loaded (``book``: the Book, its
#: content version already bumped), inside the load's transaction. The offline copy builds its search index then.
book_loaded = Signal()
