"""Imported sections merged into a language's existing sections, parents made where the text lacks them."""
from __future__ import annotations

import re

from ..corpus import SectionDoc, is_numbered, numeric_parent, source_revision
from .config import ImportConfig


def merge_into(existing: list[SectionDoc], imported: list[SectionDoc], config: ImportConfig, lang: str,
               chapters: list[str], source_index: dict[str, SectionDoc] | None = None) -> tuple[list[SectionDoc], list[str]]:
    """Merge imported sections into a language's existing sections; return them in tree order with levels set.

    Sections with the same id are replaced. Parents the text lacks are created from the configuration's outline
    as ``.absent`` titled nodes. In a translation, ``src`` records the digest of the source section it follows.
    Top-level sections not in ``chapters`` come last, in reading order (the caller adds them to the book).
    """
    warnings: list[str] = []
    nodes: dict[str, SectionDoc] = {s.id: s for s in existing}
    order: list[str] = [s.id for s in existing]
    parents: dict[str, str | None] = {s.id: s.parent for s in existing}
    created = [SectionDoc(id=sid, title=o.get(lang, ""), level=0, flags={"absent"}, parent=o.get("parent"),
                          attrs={"page": str(o["page"])} if "page" in o else {})
               for sid, o in config.outline.items() if o.get("create") and sid not in nodes]
    for section in [*imported, *created]:
        parent = section.parent if section.parent is not None else numeric_parent(section.id)
        parents[section.id] = parent
        if section.id not in nodes:
            order.append(section.id)
        nodes[section.id] = section
        _absent_parents(section.id, parent, config, lang, nodes, parents, order, warnings)
    children: dict[str | None, list[str]] = {}
    for sid in order:
        children.setdefault(parents[sid], []).append(sid)
    for sid, kids in children.items():
        kids.sort(key=lambda k: _sibling_key(k, order))
    roots = children.get(None, [])
    roots.sort(key=lambda k: (chapters.index(k) if k in chapters else len(chapters), order.index(k)))
    out: list[SectionDoc] = []

    def walk(sid: str, level: int) -> None:
        node = nodes[sid]
        node.level, node.parent = level, parents[sid]
        if source_index is not None and sid in source_index and not node.absent:
            node.attrs["src"] = source_revision(source_index[sid].title, source_index[sid].body)
        out.append(node)
        for kid in children.get(sid, []):
            walk(kid, level + 1)

    for root in roots:
        walk(root, 1)
    return out, warnings


def _absent_parents(sid: str, parent: str | None, config: ImportConfig, lang: str, nodes: dict, parents: dict,
                    order: list[str], warnings: list[str]) -> None:
    """The parents the text lacks, made as ``.absent`` nodes titled from the configuration's outline."""
    while parent is not None and parent not in nodes:
        title = config.outline.get(parent, {}).get(lang, "")
        if not title:
            warnings.append(f"parent {parent!r} of {sid!r} is not in the text: made without a title "
                            f"(give it one with [outline.{_toml_key(parent)}] {lang} = \"…\" in the import "
                            f"configuration)")
        outline_parent = config.outline.get(parent, {}).get("parent")
        grand = outline_parent if outline_parent is not None else numeric_parent(parent)
        nodes[parent] = SectionDoc(id=parent, title=title, level=0, flags={"absent"})
        parents[parent] = grand
        order.append(parent)
        parent = grand


def new_chapters(merged: list[SectionDoc], chapters: list[str]) -> list[str]:
    """``chapters`` with the top-level sections of ``merged`` that it lacks: a chapter numbered with digits alone
    goes where its number puts it among the others so numbered, any other after the last, in reading order."""
    out = list(chapters)
    for section in merged:
        if section.level != 1 or section.id in out:
            continue
        position = len(out)
        if section.id.isdigit():
            position = next((i for i, c in enumerate(out) if c.isdigit() and int(c) > int(section.id)), len(out))
        out.insert(position, section.id)
    return out


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else f'"{key}"'


def _sibling_key(sid: str, order: list[str]) -> tuple:
    if is_numbered(sid):
        parts = []
        for part in sid.split("."):
            parts.append((0, int(part), "") if part.isdigit() else (1, 0, part))
        return (0, tuple(parts), 0)
    return (1, (), order.index(sid))

