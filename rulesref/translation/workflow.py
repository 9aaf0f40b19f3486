"""What a translation can go through: created from the corpus, saved (optimistically locked), approved and
published to the corpus tables, restored.

Every write goes through ``save_translation``: it locks the translation's row, compares the version the writer
started from with the stored one, and either applies the text as a new revision or keeps it as a conflicting
revision (not applied) for the conflict page. Nothing a translator typed is ever thrown away.

A section's page costs what the section costs: :func:`book_item` reads and brings in step that one section. The
whole book is read only where the work is the whole book's — exports, imports, the QA task (qa.py) and the sync
after a load (:func:`ensure_translations`, a task).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from rulesref.background import background_task
from rulesref.languages import current_language
from rulesref.reference import history
from rulesref.reference.corpus import LANGUAGES, digest, source_revision, split_blocks
from rulesref.reference.loading import store_references
from rulesref.reference.models import Book, BookRevision, Section, SectionText, TextVersion
from rulesref.writes import lock_book, retrying

from . import memory, qa
from .checks.base import Problem, TextUnits
from .models import OUTDATED, QAResult, Revision, SourceText, Status, Translation

def target_languages(book: Book) -> list[str]:
    return [lang for lang in LANGUAGES if lang != book.source_language]


def text_digest(title: str, body: str, revision: str) -> str:
    return digest(f"{title}\n{body}\n{revision}")


def join_blocks(blocks: list[str]) -> str:
    """The body of a text from its paragraphs: trimmed, empty ones left out, one blank line between."""
    return "\n\n".join(b.strip() for b in blocks if b and b.strip())


def normalise_text(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


# ---------------------------------------------------------------------------------------------------- the book


@dataclass
class Item:
    """One translatable section of a book in a target language, with everything the dashboard and editor need."""

    section: Section
    source: SectionText
    translation: Translation
    current_revision: str
    words: int
    qa: list[QAResult] = field(default_factory=list)

    @property
    def state(self) -> str:
        return self.translation.state(self.current_revision)

    @property
    def outdated(self) -> bool:
        return self.state == OUTDATED

    @property
    def label(self) -> str:
        """How the section is named to the reader: its rule number, or (for a section known by a slug such as
        ``stand-and-shoot``) its title in the reader's language when there is one, else the source's."""
        if self.section.number:
            return self.section.number
        if current_language() == self.translation.language and self.translation.title.strip():
            return self.translation.title
        return self.source.title or self.section.sid

    @property
    def source_units(self) -> TextUnits:
        return TextUnits(self.source.title, tuple(split_blocks(self.source.body)))

    @property
    def target_units(self) -> TextUnits | None:
        return _units(self.translation)

    @property
    def active_qa(self) -> list[QAResult]:
        return [r for r in self.qa if not r.dismissed]


def _source_texts(book: Book) -> dict[int, SectionText]:
    return {t.section_id: t for t in SectionText.objects.filter(
        section__book=book, language=book.source_language, section__absent=False, blank=False)
        .select_related("section")}


def remember_source(book: Book, sid: str, title: str, body: str) -> str:
    """Keep the source text of this revision (for the diff an outdated translation shows); return its revision."""
    revision = source_revision(title, body)
    if not SourceText.objects.filter(book=book.slug, sid=sid, language=book.source_language,
                                     revision=revision).exists():
        try:
            with transaction.atomic():
                SourceText.objects.create(book=book.slug, sid=sid, language=book.source_language,
                                          revision=revision, title=title, body=body)
        except IntegrityError:
            pass  # another request kept it first
    return revision


def remember_sources(book: Book, sources: dict[int, SectionText] | None = None) -> int:
    """Keep every current source text of the book (``sources``, when the caller has read them) not kept yet, in
    one insert; the number kept."""
    known = set(SourceText.objects.filter(book=book.slug, language=book.source_language)
                .values_list("sid", "revision"))
    rows = []
    for src in (_source_texts(book) if sources is None else sources).values():
        revision = source_revision(src.title, src.body)
        if (src.section.sid, revision) not in known:
            rows.append(SourceText(book=book.slug, sid=src.section.sid, language=book.source_language,
                                   revision=revision, title=src.title, body=src.body))
    SourceText.objects.bulk_create(rows, ignore_conflicts=True)  # another request may keep one first
    return len(rows)


def old_source(book: Book, sid: str, revision: str) -> SourceText | None:
    return SourceText.objects.filter(book=book.slug, sid=sid, language=book.source_language,
                                     revision=revision).first()


def ensure_translations(book: Book, lang: str) -> None:
    """Bring the whole workspace of a book in step with the corpus (after a load; before an export).

    - Every section with source text gets a Translation row: the corpus translation (approved, made from the
      source revision its file records) or an empty "missing" one — made in bulk.
    - A published text changed outside the workspace (``loadrules`` from edited files) becomes a new revision:
      applied when the working text was the approved one, kept beside a draft otherwise. The files win; the
      workspace's older text stays in the history.
    - The current source texts are remembered, so a later change of the source can be shown as a diff.
    - Published translations not yet in the translation memory are put into it.
    """
    if lang not in target_languages(book):
        raise ValueError(f"{lang!r} is not a target language of {book.slug}")
    sources = _source_texts(book)
    remember_sources(book, sources)
    targets = {t.section_id: t for t in SectionText.objects.filter(section__book=book, language=lang)}
    existing = {t.section_id: t for t in Translation.objects.filter(section__book=book, language=lang)}
    _create_from_corpus([(src.section, targets.get(section_id)) for section_id, src in sources.items()
                         if section_id not in existing], lang)
    for section_id, translation in existing.items():
        corpus = targets.get(section_id)
        if section_id in sources and corpus is not None:
            published = text_digest(corpus.title, corpus.body, corpus.source_revision)
            if published != translation.published_digest:
                _adopt_corpus_change(translation, corpus, published)
    memory.sync_book(book, lang)


def _in_step(section: Section, lang: str) -> Translation:
    """The section's translation, made from the corpus or brought in step with it first (``ensure_translations``
    for one section)."""
    corpus = SectionText.objects.filter(section=section, language=lang).first()
    translation = Translation.objects.filter(section=section, language=lang).first()
    if translation is None:
        _create_from_corpus([(section, corpus)], lang)
        translation = Translation.objects.select_related("section", "updated_by").get(section=section, language=lang)
        qa.text_saved(section.book, lang, section, _units(translation))
        return translation
    if corpus is not None:
        published = text_digest(corpus.title, corpus.body, corpus.source_revision)
        if published != translation.published_digest:
            _adopt_corpus_change(translation, corpus, published)
            translation.refresh_from_db()
    if translation.published_digest and translation.memory_digest != translation.published_digest:
        memory.sync_translation(translation, section.book, lang)
    return translation


def _create_from_corpus(pairs: list[tuple[Section, SectionText | None]], lang: str) -> None:
    """Translation rows for sections that have none: approved from the corpus text when there is one, else
    missing; in bulk, each with its first revision (rows another request made meanwhile are left as they are)."""
    if not pairs:
        return
    now = timezone.now()
    loaded = _loaded_at(pairs, lang)
    rows, texts = [], {}
    for section, corpus in pairs:
        if corpus is None or corpus.blank:
            rows.append(Translation(section=section, language=lang, status=Status.MISSING))
            continue
        rows.append(Translation(
            section=section, language=lang, status=Status.APPROVED, title=corpus.title, body=corpus.body,
            source_revision=corpus.source_revision, version=1, updated_at=loaded.get(section.pk, now),
            published_digest=text_digest(corpus.title, corpus.body, corpus.source_revision)))
        texts[section.pk] = corpus
    with transaction.atomic():
        Translation.objects.bulk_create(rows, batch_size=1000, ignore_conflicts=True)
        made = Translation.objects.filter(section_id__in=list(texts), language=lang, version=1,
                                          revisions__isnull=True)
        Revision.objects.bulk_create([
            Revision(translation=t, number=1, created=loaded.get(t.section_id, now), status=Status.APPROVED,
                     title=t.title, body=t.body, source_revision=t.source_revision, origin=Revision.Origin.CORPUS,
                     base_version=0)
            for t in made], batch_size=1000)


def _loaded_at(pairs: list[tuple[Section, SectionText | None]], lang: str) -> dict[int, object]:
    """When each section's text in ``lang`` came into the corpus as it stands: the date of the book revision that
    brought it (a translation taken from the corpus files was last saved then, not when the workspace first
    looked at it)."""
    out: dict[int, object] = {}
    by_book: dict[int, dict[str, int]] = {}
    for section, corpus in pairs:
        if corpus is not None and not corpus.blank:
            by_book.setdefault(section.book_id, {})[section.sid] = section.pk
    for book_id, sections in by_book.items():
        since = dict(TextVersion.objects.filter(book_id=book_id, language=lang, until__isnull=True,
                                                sid__in=list(sections)).values_list("sid", "since"))
        dates = dict(BookRevision.objects.filter(book_id=book_id, number__in=set(since.values()))
                     .values_list("number", "created"))
        out.update({sections[sid]: dates[n] for sid, n in since.items() if n in dates})
    return out


def _adopt_corpus_change(translation: Translation, corpus: SectionText, published: str) -> None:
    with transaction.atomic():
        t = Translation.objects.select_for_update(of=("self",)).select_related("section__book").get(
            pk=translation.pk)
        if t.published_digest == published:
            return
        now = timezone.now()
        applied = t.status in (Status.APPROVED, Status.MISSING)
        Revision.objects.create(translation=t, number=_next_number(t), created=now, status=Status.APPROVED,
                                title=corpus.title, body=corpus.body, source_revision=corpus.source_revision,
                                origin=Revision.Origin.CORPUS, applied=applied, base_version=t.version,
                                comment="" if applied else "published text changed in the corpus files; "
                                                           "the working draft was kept")
        t.published_digest = published
        if applied:
            t.title, t.body, t.source_revision = corpus.title, corpus.body, corpus.source_revision
            t.status = Status.APPROVED
            t.version += 1
            t.updated_at = now
            t.updated_by = None
            qa.text_saved(t.section.book, t.language, t.section, _units(t))
        t.save()


def _units(t: Translation) -> TextUnits | None:
    if t.status == Status.MISSING and not (t.title or t.body):
        return None
    return TextUnits(t.title, tuple(split_blocks(t.body)))


def book_items(book: Book, lang: str) -> list[Item]:
    """Every translatable section of the book (absent sections, which have no text, are not), in book order, in
    step with the corpus; without their QA results (qa.py keeps those)."""
    ensure_translations(book, lang)
    return _items(book, lang, _source_texts(book))


def items_of(book: Book, lang: str, sids: list[str]) -> list[Item]:
    """The items of these sections (those translatable), in the order given, read together: a page of a list."""
    sources = {t.section_id: t for t in SectionText.objects.filter(
        section__book=book, section__sid__in=sids, language=book.source_language, section__absent=False,
        blank=False).select_related("section")}
    lacking = set(sources) - set(Translation.objects.filter(section_id__in=list(sources), language=lang)
                                 .values_list("section_id", flat=True))
    for section_id in lacking:  # not synced yet (a book loaded a moment ago): made from the corpus now
        _in_step(sources[section_id].section, lang)
    order = {sid: n for n, sid in enumerate(sids)}
    return sorted(_items(book, lang, sources), key=lambda i: order[i.section.sid])


def _items(book: Book, lang: str, sources: dict[int, SectionText]) -> list[Item]:
    translations = Translation.objects.filter(section_id__in=list(sources), language=lang).select_related(
        "section", "updated_by") if len(sources) < 1000 else Translation.objects.filter(
        section__book=book, language=lang).select_related("section", "updated_by")
    items = []
    for t in translations:
        src = sources.get(t.section_id)
        if src is None:
            continue
        items.append(Item(section=t.section, source=src, translation=t,
                          current_revision=source_revision(src.title, src.body), words=src.words))
    items.sort(key=lambda i: i.section.position)
    return items


def book_item(book: Book, lang: str, sid: str, with_qa: bool = True) -> Item | None:
    """One translatable section (None: the book has no such section, or it has no source text), in step with the
    corpus, with its QA results brought up to date (``with_qa``). Costs what the section costs."""
    src = SectionText.objects.filter(section__book=book, section__sid=sid, section__absent=False,
                                     language=book.source_language, blank=False).select_related("section").first()
    if src is None:
        return None
    remember_source(book, sid, src.title, src.body)
    translation = _in_step(src.section, lang)
    item = Item(section=src.section, source=src, translation=translation,
                current_revision=source_revision(src.title, src.body), words=src.words)
    if with_qa:
        item.qa = qa.section_results(book, lang, item)
    return item


@background_task
def sync_workspace(book_pk: int) -> None:
    """After a load: the book's workspace in step with the corpus in every target language, and its QA results
    computed again (the load may have changed every source text)."""
    book = Book.objects.filter(pk=book_pk).first()
    if book is None:
        return
    for lang in target_languages(book):
        ensure_translations(book, lang)
        qa.bring_up_to_date(book, lang, occurrences=True)


# ---------------------------------------------------------------------------------------------------- saving


@dataclass
class SaveResult:
    revision: Revision
    conflict: bool
    translation: Translation


def _next_number(translation: Translation) -> int:
    return (translation.revisions.aggregate(n=Max("number"))["n"] or 0) + 1


def save_translation(translation: Translation, *, user, title: str, body: str, status: str, base_version: int,
                     source_revision: str, comment: str = "", origin: str = Revision.Origin.EDITOR,
                     confirmed_errors: list[dict] | None = None) -> SaveResult:
    """Save a new text as a revision, unless the translation changed since ``base_version``: then the text is kept
    as a conflicting revision (not applied) and the result says so. An approved text is published;
    ``confirmed_errors`` are the QA errors the approving reviewer confirmed (``confirmed_record``).

    A publishing save takes the book's lock before the translation's (the lock order of rulesref/writes.py); the
    whole save runs again if the database refuses it as crossing another writer."""
    publishing = status == Status.APPROVED
    book_pk = translation.section.book_id

    def write() -> SaveResult:
        with transaction.atomic():
            if publishing:
                lock_book(book_pk)
            # of=("self",): a lock on the translation's row alone (the joined section and book rows would be
            # locked too, in the mode that conflicts with every insert referring to them).
            t = Translation.objects.select_for_update(of=("self",)).select_related("section__book").get(
                pk=translation.pk)
            now = timezone.now()
            author = user if getattr(user, "is_authenticated", False) else None
            if t.version != base_version:
                revision = Revision.objects.create(
                    translation=t, number=_next_number(t), author=author, created=now, status=status, title=title,
                    body=body, source_revision=source_revision, comment=comment, origin=Revision.Origin.CONFLICT,
                    applied=False, base_version=base_version)
                return SaveResult(revision, True, t)
            revision = Revision.objects.create(
                translation=t, number=_next_number(t), author=author, created=now, status=status, title=title,
                body=body, source_revision=source_revision, comment=comment, origin=origin,
                base_version=base_version, confirmed_errors=confirmed_errors or [])
            t.title, t.body, t.status, t.source_revision = title, body, status, source_revision
            t.version += 1
            t.updated_by, t.updated_at = author, now
            if publishing:
                _publish(t)
            t.save()
            if publishing:
                memory.sync_translation(t, t.section.book, t.language)
            qa.text_saved(t.section.book, t.language, t.section, _units(t))
        return SaveResult(revision, False, t)

    return retrying(write)


def _publish(t: Translation) -> None:
    """Write an approved text to the corpus tables (what pages show and ``dumprules`` writes to fixtures/): its
    text, its references, the book's next revision; nothing else of the book."""
    book = t.section.book
    SectionText.objects.update_or_create(section=t.section, language=t.language, defaults=dict(
        title=t.title, body=t.body, source_revision=t.source_revision))
    t.published_digest = text_digest(t.title, t.body, t.source_revision)
    store_references(book, only=[t.section.sid])
    reviewer = t.updated_by.get_username() if t.updated_by is not None else ""
    history.record(book, "approval", note=reviewer, only=[(t.section.sid, t.language)])
    book.bump_version()


def restore_revision(revision: Revision, *, user, status: str, base_version: int, comment: str = "",
                     confirmed_errors: list[dict] | None = None) -> SaveResult:
    return save_translation(
        revision.translation, user=user, title=revision.title, body=revision.body, status=status,
        base_version=base_version, source_revision=revision.source_revision,
        comment=comment or f"restored revision {revision.number}", origin=Revision.Origin.RESTORE,
        confirmed_errors=confirmed_errors)


# ---------------------------------------------------------------------------------------------------- approval


def errors_token(problems: list[Problem], title: str, body: str) -> str:
    """What a reviewer's confirmation of "approve with these errors" is bound to: these errors in this text."""
    data = [title, body, sorted([p.check_id, p.paragraph if p.paragraph is not None else -1, p.message,
                                 json.dumps(p.params, ensure_ascii=False, sort_keys=True)] for p in problems)]
    return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()[:24]


def confirmed_record(problems: list[Problem]) -> list[dict]:
    """The confirmed errors as a revision keeps them (untranslated templates, shown in the reader's language)."""
    return [{"check_id": p.check_id, "paragraph": p.paragraph, "message": p.message, "params": p.params}
            for p in problems]


# ---------------------------------------------------------------------------------------------------- units


@dataclass
class Unit:
    """One title or paragraph of a section: the source, the translation aligned with it, and (for an outdated
    translation) the source text it was translated from when that differs."""

    sid: str
    paragraph: int  # 0: the title; 1…: paragraphs
    source: str
    target: str
    outdated: bool = False  # the source of this unit changed since the translation was made
    previous: str | None = None  # the source this unit was translated from, when known and different

    @property
    def context(self) -> str:
        return unit_context(self.sid, self.paragraph)


def unit_context(sid: str, paragraph: int) -> str:
    return f"{sid}:{'title' if paragraph == 0 else paragraph}"


def parse_unit_context(context: str) -> tuple[str, int] | None:
    sid, sep, part = context.rpartition(":")
    if not sep or not sid:
        return None
    if part == "title":
        return sid, 0
    if part.isdigit() and part[0] != "0":
        return sid, int(part)
    return None


@dataclass
class SectionUnits:
    units: list[Unit]
    orphans: list[str]  # translated paragraphs whose source paragraph was removed since
    old_known: bool  # whether the source text the translation was made from is known


def section_units(item: Item, book: Book) -> SectionUnits:
    """The section as aligned units. For an outdated translation the translated paragraphs follow the paragraphs of
    the source they were made from, so a paragraph inserted into the source gets an empty translation instead of
    shifting every translation below it."""
    sid = item.section.sid
    src_title, src_blocks = item.source.title, split_blocks(item.source.body)
    t = item.translation
    tgt_blocks = split_blocks(t.body)
    if not item.outdated:
        units = [Unit(sid, 0, src_title, t.title)] if src_title.strip() else []
        units += [Unit(sid, n, block, tgt_blocks[n - 1] if n <= len(tgt_blocks) else "")
                  for n, block in enumerate(src_blocks, start=1)]
        return SectionUnits(units, tgt_blocks[len(src_blocks):], True)
    return _outdated_units(sid, src_title, src_blocks, t.title, tgt_blocks,
                           old_source(book, sid, t.source_revision))


def _outdated_units(sid: str, src_title: str, src_blocks: list[str], tgt_title: str, tgt_blocks: list[str],
                    old) -> SectionUnits:
    """The units of an outdated translation: ``old`` is the source text it was made from (None when unknown)."""
    units = []
    if src_title.strip():
        changed_title = old is None or old.title != src_title
        units.append(Unit(sid, 0, src_title, tgt_title, outdated=changed_title,
                          previous=old.title if old is not None and changed_title and old.title else None))
    if old is None or len(split_blocks(old.body)) != len(tgt_blocks):
        units += [Unit(sid, n, block, tgt_blocks[n - 1] if n <= len(tgt_blocks) else "", outdated=True)
                  for n, block in enumerate(src_blocks, start=1)]
        return SectionUnits(units, tgt_blocks[len(src_blocks):], old is not None)
    old_blocks = split_blocks(old.body)
    target_for, used = _follow_source(old_blocks, src_blocks, tgt_blocks)
    for j, block in enumerate(src_blocks):
        target, previous = target_for.get(j, ("", None))
        units.append(Unit(sid, j + 1, block, target, outdated=(j not in target_for or previous is not None),
                          previous=previous))
    orphans = [tgt_blocks[i] for i in range(len(old_blocks)) if i not in used]
    return SectionUnits(units, orphans, True)


def _follow_source(old_blocks: list[str], src_blocks: list[str],
                   tgt_blocks: list[str]) -> tuple[dict[int, tuple[str, str | None]], set[int]]:
    """Which translated paragraph goes with each paragraph of the new source: ``{new index: (translation, the old
    source paragraph it was made from when that changed, else None)}``, and the translated paragraphs so placed.
    ``tgt_blocks`` follows ``old_blocks`` paragraph by paragraph."""
    import difflib

    target_for: dict[int, tuple[str, str | None]] = {}
    used: set[int] = set()
    matcher = difflib.SequenceMatcher(None, old_blocks, src_blocks, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        for k in range(min(j2 - j1, i2 - i1)):  # replaced: translated from the old paragraph at the same place
            target_for[j1 + k] = (tgt_blocks[i1 + k], None if tag == "equal" else old_blocks[i1 + k])
            used.add(i1 + k)
    return target_for, used


def units_text(units: list[Unit], targets: dict[int, str], orphans: list[str] | None = None) -> tuple[str, str]:
    """(title, body) from units with new target texts by paragraph (the others keep theirs)."""
    title = next((targets.get(0, u.target) for u in units if u.paragraph == 0), "")
    blocks = [targets.get(u.paragraph, u.target) for u in units if u.paragraph > 0]
    return title, join_blocks(blocks + list(orphans or []))


def gaps(blocks: list[str]) -> list[int]:
    """Paragraph numbers left empty before a translated one (a translation's paragraphs are stored in order)."""
    last = max((n for n, b in enumerate(blocks, start=1) if b.strip()), default=0)
    return [n for n, b in enumerate(blocks[:last], start=1) if not b.strip()]
