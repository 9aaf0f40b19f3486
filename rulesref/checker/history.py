"""Undo and redo over the drafts: every state of the editor is a draft, and its parent is the state it came from.

Undo is a link to the parent (or, past the first draft, to where the chain started: a new map, an example, a
shared link). Redo is a link to the next draft toward the state the player undid from, which the address carries
as ``redo=<tip>``; a new edit after an undo starts a new branch, as in any editor.
"""
from __future__ import annotations

from .kinds import BoardKind
from .models import Draft
from .state import Source, ViewState, origin_source, url

MAX_REDO_WALK = 500


def undo_redo(source: Source, view: ViewState, lang: str, kind: BoardKind) -> tuple[str | None, str | None]:
    """The addresses of undo and redo from this state, or None where there is nothing to undo or redo."""
    base = view.with_(redo="")
    undo = redo = None
    if source.kind == "draft":
        tip = view.redo or source.draft.key
        parent = source.draft.parent
        if parent is not None:
            undo = url(Source("draft", source.book, parent.data, draft=parent), base.with_(redo=tip), lang)
        elif source.draft.parent_id is None:
            undo = url(origin_source(source.book, source.draft.origin, kind), base.with_(redo=tip), lang)
    if view.redo:
        target = redo_target(source, view.redo)
        if target is not None:
            redo = url(Source("draft", source.book, target.data, draft=target),
                       base.with_(redo=view.redo if target.key != view.redo else ""), lang)
    return undo, redo


def redo_target(source: Source, tip_key: str) -> Draft | None:
    """The draft one step from ``source`` toward ``tip_key``, if the tip descends from it."""
    node = Draft.objects.filter(book=source.book, key=tip_key).select_related("parent").first()
    current = source.draft.pk if source.kind == "draft" else None
    for _step in range(MAX_REDO_WALK):
        if node is None:
            return None
        if current is not None and node.parent_id == current:
            return node
        if current is None and node.parent_id is None and node.origin == source.origin:
            return node
        node = node.parent
    return None
