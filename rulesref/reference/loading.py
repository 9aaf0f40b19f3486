"""Load the corpus fixtures into the database and write the database back to the fixtures."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from . import history
from .corpus import LANGUAGES, BookDoc, CorpusError, SectionDoc, number_patterns, read_book, write_language, write_text
from .models import Book, Erratum, Reference, Section, SectionText
from .refs import find_references, section_part
from .searchindex import after_load, tidy_after_commit
from .signals import book_loaded, texts_replacing


def corpus_dir() -> Path:
    return Path(settings.FIXTURES_DIR) / "corpus"


def book_dirs(root: Path | None = None) -> list[Path]:
    root = root or corpus_dir()
    return sorted(p for p in root.iterdir() if (p / "book.toml").exists()) if root.is_dir() else []


@dataclass
class LoadReport:
    loaded: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)


def load_corpus(root: Path | None = None, force: bool = False) -> LoadReport:
    """Read and validate every rulebook first, then load them in one transaction (all or nothing)."""
    docs = [read_book(d) for d in book_dirs(root)]
    if not docs:
        raise CorpusError(root or corpus_dir(), 0, "no rulebook found (a folder with book.toml)")
    report = LoadReport()
    with transaction.atomic():
        loaded = []
        for doc in docs:
            book = Book.objects.filter(slug=doc.slug).first()
            if book and book.fixture_digest == doc.digest and not force:
                report.unchanged.append(doc.slug)
                continue
            report.counts[doc.slug] = load_book(doc)
            report.loaded.append(doc.slug)
            loaded.append(Book.objects.get(slug=doc.slug))
        if loaded:
            after_load(loaded)  # the search index is complete when this transaction commits
            for book in loaded:
                book_loaded.send(sender=Book, book=book)  # after the vocabulary, which the offline index ships
    if loaded:
        tidy_after_commit()
    return report


def load_book(doc: BookDoc) -> int:
    standing = Book.objects.filter(slug=doc.slug).first()
    if standing is not None:
        texts_replacing.send(sender=Book, book=standing)
    # A title given only in the source language stands for the other too (a new book: addbook --title).
    source_title = doc.title.get(doc.source_language) or doc.slug
    book, _ = Book.objects.update_or_create(
        slug=doc.slug,
        defaults=dict(
            source_language=doc.source_language, kind=doc.meta.get("kind", "none"),
            position=doc.meta.get("position", 0), chapters=doc.chapters, number_patterns=number_patterns(doc.meta),
            title_ru=doc.title.get("ru") or source_title, title_en=doc.title.get("en") or source_title,
            description_ru=doc.description.get("ru", ""), description_en=doc.description.get("en", ""),
            fixture_digest=doc.digest,
        ),
    )
    sections = _store_sections(book, doc)
    SectionText.objects.filter(section__book=book).delete()
    texts = []
    for lang, sdocs in doc.languages.items():
        for sdoc in sdocs:
            texts.append(SectionText(section=sections[sdoc.id], language=lang, title=sdoc.title, body=sdoc.body,
                                     source_revision=sdoc.attrs.get("src", "")).measure())
    SectionText.objects.bulk_create(texts, batch_size=2000)
    store_references(book, sections)
    history.record(book, "load")  # a new revision only if a title or text changed
    book.bump_version(reason="load")
    Erratum.objects.filter(book=book).delete()
    Erratum.objects.bulk_create(
        Erratum(book=book, section=sections.get(e.get("section", "")), language=e.get("lang", "ru"),
                wrong=e["wrong"], right=e["right"], note=e.get("note", ""))
        for e in doc.errata
    )
    return len(sections)


def _store_sections(book: Book, doc: BookDoc) -> dict[str, Section]:
    """The book's sections as the files give them, in bulk: sections that stay keep their rows (and so what refers
    to them), new ones are inserted a level at a time (parents first, so a child can point at its parent's row),
    and those the files no longer have are deleted last, once nothing kept sits under them."""
    stale = {s.sid: s for s in Section.objects.filter(book=book)}
    sections: dict[str, Section] = {}
    parents: dict[str, str | None] = {}
    new_by_level: dict[int, list[Section]] = {}
    for position, sdoc in enumerate(doc.sections(), start=1):
        section = stale.pop(sdoc.id, None) or Section(book=book, sid=sdoc.id)
        section.position, section.depth = position, sdoc.level
        section.absent, section.changed, section.page = sdoc.absent, sdoc.changed, sdoc.page
        sections[sdoc.id], parents[sdoc.id] = section, sdoc.parent
        if section.pk is None:
            new_by_level.setdefault(sdoc.level, []).append(section)
    kept = [s for s in sections.values() if s.pk is not None]
    for level in sorted(new_by_level):
        for section in new_by_level[level]:
            section.parent = sections[parents[section.sid]] if parents[section.sid] else None
        Section.objects.bulk_create(new_by_level[level], batch_size=2000)
    for section in kept:
        section.parent = sections[parents[section.sid]] if parents[section.sid] else None
    Section.objects.bulk_update(kept, ["parent", "position", "depth", "absent", "changed", "page"], batch_size=2000)
    gone = [s.pk for s in stale.values()]
    for start in range(0, len(gone), 500):
        Section.objects.filter(pk__in=gone[start:start + 500]).delete()
    return sections


def store_references(book: Book, sections: dict[str, Section] | None = None,
                     only: Iterable[str] | None = None) -> None:
    """Find every reference in the texts of the book — or of the sections ``only`` names, when one text changed —
    and store it with its resolved target, replacing what was stored for those texts. ``sections``: the book's
    sections by id, when the caller has them all (a load); otherwise only the targets found are read."""
    texts = SectionText.objects.filter(section__book=book).select_related("section")
    stored = Reference.objects.filter(source__book=book)
    if only is not None:
        sids = sorted(set(only))
        texts, stored = texts.filter(section__sid__in=sids), stored.filter(source__sid__in=sids)
    elif sections is None:
        sections = {s.sid: s for s in Section.objects.filter(book=book)}
    patterns = tuple(book.number_patterns)
    found = [(text, index, ref) for text in texts for index, block in enumerate(text.blocks)
             for ref in find_references(block, patterns)]
    targets = _Targets(book, sections, [(ref.kind, ref.target) for _, _, ref in found])
    stored.delete()
    Reference.objects.bulk_create(
        Reference(source=text.section, language=text.language, block=index, start=ref.start, end=ref.end,
                  anchor=ref.anchor[:200], target_sid=ref.target, kind=ref.kind, target=targets.of(ref.kind, ref.target))
        for text, index, ref in found)


def retarget_references(book: Book, sids: Iterable[str] = (), pages: Iterable[int] = ()) -> int:
    """Resolve again the references that name one of these section ids or pages (a section added, renamed,
    renumbered or moved to another page in the admin); the number whose target changed."""
    sids, pages = set(sids), {str(p) for p in pages if p is not None}
    if not sids and not pages:
        return 0
    named = Q()
    for sid in sids:
        named |= Q(kind="section", target_sid__startswith=sid)  # "9.3.1c" names 9.3.1's clause c
    if pages:
        named |= Q(kind="page", target_sid__in=pages)
    refs = [r for r in Reference.objects.filter(named, source__book=book)
            if r.kind == "page" or section_part(r.target_sid)[0] in sids]
    targets = _Targets(book, None, [(r.kind, r.target_sid) for r in refs])
    changed = [r for r in refs if r.target_id != getattr(targets.of(r.kind, r.target_sid), "pk", None)]
    for ref in changed:
        ref.target = targets.of(ref.kind, ref.target_sid)
    Reference.objects.bulk_update(changed, ["target"], batch_size=500)
    return len(changed)


class _Targets:
    """The sections that references name, read once: by id, and by page (the first section on a page, in book
    order, for "на странице 58"). ``named``: the (kind, target) of each reference."""

    def __init__(self, book: Book, sections: dict[str, Section] | None, named: list[tuple[str, str]]) -> None:
        pages = {int(target) for kind, target in named if kind == "page" and target.isdigit()}
        if sections is None:
            wanted = sorted({section_part(target)[0] for kind, target in named if kind != "page"})
            sections = {s.sid: s for s in Section.objects.filter(book=book, sid__in=wanted)}
            on_pages = Section.objects.filter(book=book, page__in=sorted(pages)).order_by("position")
        else:
            on_pages = sorted((s for s in sections.values() if s.page in pages), key=lambda s: s.position)
        self.sections = sections
        self.by_page: dict[int, Section] = {}
        for section in on_pages:
            self.by_page.setdefault(section.page, section)

    def of(self, kind: str, target: str) -> Section | None:
        if kind == "page":
            return self.by_page.get(int(target)) if target.isdigit() else None
        return self.sections.get(section_part(target)[0])


def book_docs_from_db(book: Book) -> dict[str, list[SectionDoc]]:
    sections = list(Section.objects.filter(book=book).select_related("parent").order_by("position"))
    texts = {(t.section_id, t.language): t for t in SectionText.objects.filter(section__book=book)}
    out: dict[str, list[SectionDoc]] = {}
    for lang in LANGUAGES:
        docs = []
        for s in sections:
            text = texts.get((s.pk, lang))
            if text is None:
                continue
            flags = {f for f, on in (("absent", s.absent), ("changed", s.changed)) if on}
            attrs = {}
            if s.page is not None:
                attrs["page"] = str(s.page)
            if text.source_revision:
                attrs["src"] = text.source_revision
            docs.append(SectionDoc(id=s.sid, title=text.title, level=s.depth, body=text.body, flags=flags,
                                   attrs=attrs, parent=s.parent.sid if s.parent else None))
        if docs:
            out[lang] = docs
    return out


def dump_corpus(root: Path | None = None) -> list[Path]:
    root = root or corpus_dir()
    written = []
    for book in Book.objects.all():
        book_dir = root / book.slug
        for lang, docs in book_docs_from_db(book).items():
            written += write_language(book_dir, lang, book.chapters, docs)
        errata = [dict(section=e.section.sid if e.section else "", lang=e.language, wrong=e.wrong, right=e.right,
                       note=e.note) for e in book.errata.select_related("section")]
        if errata or (book_dir / "errata.toml").exists():
            written.append(write_errata(book_dir, errata))
    return written


def write_errata(book_dir: Path, errata: list[dict], order: list[str] | None = None) -> Path:
    path = book_dir / "errata.toml"
    write_text(path, render_errata(errata, order))
    return path


def render_errata(errata: list[dict], order: list[str] | None = None) -> str:
    """errata.toml in its canonical form (the importer and dumprules both write it): in book order when the
    section order is given, keeping the given order within a section."""
    if order is not None:
        rank = {sid: i for i, sid in enumerate(order)}
        errata = sorted(errata, key=lambda e: rank.get(e.get("section", ""), len(rank)))
    lines = ["# Typos corrected in the source text; shown on the rulebook's errata page.", ""]
    for e in errata:
        lines.append("[[erratum]]")
        for key in ("section", "lang", "wrong", "right", "note"):
            lines.append(f"{key} = {json.dumps(e.get(key, ''), ensure_ascii=False)}")
        lines.append("")
    return "\n".join(lines)
