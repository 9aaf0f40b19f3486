"""Signals the reference app sends, for other apps to act on without the loader knowing them."""
from __future__ import annotations

from django.dispatch import Signal

#: Sent by ``load_book`` just before a rulebook's sections and texts are replaced by the files' (``book``: the Book
#: as it stands). The translation workspace keeps the source texts then, for the diffs of outdated translations.
texts_replacing = Signal()

#: Sent by ``load_corpus`` once a rulebook's sections, texts, references and search vocabulary are loaded
#: (``book``: the Book, its content version already bumped), inside the load's transaction. The offline copy builds
#: its search index then, and its bundle once the load commits. (``load_book`` alone does not send it.)
book_loaded = Signal()

#: Sent by ``Book.bump_version`` whenever a rulebook's content changed (``book``; ``reason``: "load" for a load,
#: which ``book_loaded`` then follows, "edit" for an approved translation, the admin or any other write). The
#: offline copy rebuilds its search index at once and its bundle when the transaction commits.
content_changed = Signal()
