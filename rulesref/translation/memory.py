"""Translation memory, in the manner of Weblate's memory app: pairs of texts (source, target, their languages, where
they came from) kept apart from the translations they were taken from, found again by similarity.

- **Filled** from every published (approved) translation of any book, in its direction (Russian → English for the
  seeds' books, English → Russian for a book written in English): its title and each paragraph, paired with the
  source text the translation was made from (``sync_book``, run whenever the workspace brings a book in step); and
  from TMX files (``exchange/tmx.py``). Entries are never changed by later edits: the memory keeps what was once
  approved, as a translator's memory does.
- **Looked up** by similarity with a threshold (``TRANSLATION_MEMORY_THRESHOLD``, 75 % by default, as Weblate's).
  Finding the candidates must stay fast with hundreds of thousands of entries, so each entry's source is indexed by
  the Snowball stems of its words (``MemoryToken``), with each stem's document frequency kept beside it
  (``MemoryTerm``): a query takes the rarest stems of its text, and the entries sharing the most of them are the
  candidates — a bounded amount of work however large the memory is. Candidates are then scored by the similarity
  of the two texts (RapidFuzz's normalised Indel similarity of the case-folded texts, the measure behind
  ``fuzz.ratio``), so 100 % means the same text and the percentage falls with every character that differs.
- **Sentences.** A paragraph pair whose two texts split into as many sentences is also a source of sentence
  suggestions: ``sentence_matches`` finds the candidates for one sentence and pairs it with the aligned sentence of
  the candidate's translation. That serves an outdated paragraph, where only some sentences changed.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F
from django.db.models.functions import Abs
from django.utils import timezone
from rapidfuzz.distance import Indel

from rulesref.reference.corpus import digest, source_revision, split_blocks
from rulesref.text import fold_key, fold_word, stemmer
from rulesref.text import term_words as words
from rulesref.reference.models import Book, SectionText
from rulesref.textdiff import html_diff

from .conf import setting
from .models import MemoryEntry, MemoryTerm, MemoryToken, SourceText, Translation

RARE_TOKENS = 8  # a query's rarest stems that choose the candidates
CANDIDATES = 40  # entries scored per query
MAX_TOKENS = 200  # stems indexed per entry (a very long paragraph is still found by its rarest words)
ABBREVIATIONS = {"т", "е", "см", "п", "пп", "стр", "рис", "табл", "и", "др", "ie", "eg", "cf", "p", "pp", "no",
                 "vs", "etc", "ex"}
SENTENCE_END_RE = re.compile(r"[.!?…]+[»”\")]*\s+(?=[«“\"(]?[A-ZА-ЯЁ0-9])")


# ---------------------------------------------------------------------------------------------------- text


def normalise(text: str) -> str:
    """The text as similarity sees it: case, ё/е and runs of white space do not count."""
    return fold_key(text)


def similarity(a: str, b: str) -> float:
    """0…1: the normalised Indel similarity of the two normalised texts (1.0: the same text)."""
    return Indel.normalized_similarity(normalise(a), normalise(b))


def sentences(text: str) -> list[str]:
    """The sentences of a paragraph: a split after . ! ? … before a capital, a digit or an opening quote, but not
    after an abbreviation (т. е., см., i.e.), a single letter (a clause label, an initial) or inside a number printed
    with spaces (11. 4. 5)."""
    out, start = [], 0
    for m in SENTENCE_END_RE.finditer(text):
        before = re.search(r"([^\W\d_]+)\W*$", text[start:m.start() + 1])
        word = before.group(1).lower() if before else ""
        if (word in ABBREVIATIONS or len(word) == 1) and text[m.start()] == ".":
            continue
        if text[m.start()] == "." and m.start() > 0 and text[m.start() - 1].isdigit() and text[m.end()].isdigit():
            continue  # a number printed with spaces: "11. 4. 5"
        out.append(text[start:m.end()].strip())
        start = m.end()
    if text[start:].strip():
        out.append(text[start:].strip())
    return out


def index_tokens(text: str, lang: str) -> list[str]:
    """The stems an entry is found by: words of three letters or more and numbers, once each, with the language."""
    found = [w for _, _, w in words(text)]
    stems = stemmer(lang).stemWords([fold_word(w) for w in found])
    out = dict.fromkeys(f"{lang}:{s}"[:64] for w, s in zip(found, stems, strict=True) if len(s) >= 3 or w.isdigit())
    return list(out)[:MAX_TOKENS]


def word_count(text: str) -> int:
    return len(words(text))


# ---------------------------------------------------------------------------------------------------- filling


@dataclass
class Pair:
    """A source and a target text for the memory, and where they came from."""

    source_language: str
    target_language: str
    source: str
    target: str
    origin: str = MemoryEntry.Origin.TRANSLATION
    book: str = ""
    context: str = ""  # "9.3.1:2" for a translation's paragraph; the unit's id in a TMX file
    note: str = ""  # the file a TMX entry came from, or the tool that wrote it
    creator: str = ""
    created: datetime | None = None
    changed: datetime | None = None

    def key(self) -> tuple:
        return (self.source_language, self.target_language, self.book, digest(self.source), digest(self.target))


def add_pairs(pairs: Iterable[Pair]) -> list[MemoryEntry]:
    """Keep the pairs not kept yet (the same two texts in the same languages and book are one entry); index them.
    Returns the entries made."""
    wanted: dict[tuple, Pair] = {}
    for pair in pairs:
        if pair.source.strip() and pair.target.strip():
            wanted.setdefault(pair.key(), pair)
    if not wanted:
        return []
    for attempt in range(3):
        existing = set()
        keys = [k[3] for k in wanted]
        for start in range(0, len(keys), 500):
            existing |= set(MemoryEntry.objects.filter(source_key__in=keys[start:start + 500]).values_list(
                "source_language", "target_language", "book", "source_key", "target_key"))
        missing = [p for k, p in wanted.items() if k not in existing]
        if not missing:
            return []
        try:
            with transaction.atomic():
                return _create(missing)
        except IntegrityError:
            if attempt == 2:  # another writer keeps adding the same pairs: what is there is what was wanted
                return []
    return []


def _create(pairs: list[Pair]) -> list[MemoryEntry]:
    now = timezone.now()
    entries = MemoryEntry.objects.bulk_create([MemoryEntry(
        source_language=p.source_language, target_language=p.target_language, source=p.source, target=p.target,
        source_key=digest(p.source), target_key=digest(p.target), origin=p.origin, book=p.book, context=p.context,
        note=p.note[:300], creator=p.creator[:150], created=p.created or now, changed=p.changed or p.created or now,
        words=word_count(p.source)) for p in pairs], batch_size=500)
    if any(e.pk is None for e in entries):  # a database that does not return the new keys
        entries = list(MemoryEntry.objects.filter(source_key__in=[e.source_key for e in entries], created=now))
    tokens, counts = [], {}
    for entry in entries:
        for token in index_tokens(entry.source, entry.source_language):
            tokens.append(MemoryToken(entry=entry, token=token))
            counts[token] = counts.get(token, 0) + 1
    MemoryToken.objects.bulk_create(tokens, batch_size=2000)
    _count_terms(counts)
    return entries


def _count_terms(counts: dict[str, int]) -> None:
    """Add to each stem's document frequency (one upsert; SQLite and PostgreSQL share the syntax)."""
    if not counts:
        return
    table = connection.ops.quote_name(MemoryTerm._meta.db_table)
    with connection.cursor() as cursor:
        cursor.executemany(
            f"INSERT INTO {table} (token, entries) VALUES (%s, %s) "
            f"ON CONFLICT (token) DO UPDATE SET entries = {table}.entries + excluded.entries",
            sorted(counts.items()))


def forget(entries) -> int:
    """Delete entries (a queryset) and their index; the number deleted."""
    counts: dict[str, int] = {}
    for token in MemoryToken.objects.filter(entry__in=entries).values_list("token", flat=True):
        counts[token] = counts.get(token, 0) - 1
    deleted = entries.count()
    with transaction.atomic():
        entries.delete()
        _count_terms(counts)
        MemoryTerm.objects.filter(entries__lte=0).delete()
    return deleted


def translation_pairs(translation: Translation, book: Book, published: SectionText) -> list[Pair]:
    """The title and paragraphs of a published translation, each paired with the source it was made from (the
    paragraphs only when the two texts have as many paragraphs, which is how they align)."""
    section = translation.section
    source = SectionText.objects.filter(section=section, language=book.source_language).first()
    if source is None or source_revision(source.title, source.body) != published.source_revision:
        kept = SourceText.objects.filter(book=book.slug, sid=section.sid, language=book.source_language,
                                         revision=published.source_revision).first()
        if kept is None:
            return []  # the source it was made from is not known: nothing to pair it with
        source_title, source_body = kept.title, kept.body
    else:
        source_title, source_body = source.title, source.body
    author = translation.updated_by.get_username() if translation.updated_by else ""
    when = translation.updated_at
    common = dict(source_language=book.source_language, target_language=translation.language, book=book.slug,
                  creator=author, created=when, changed=when)
    pairs = [Pair(source=source_title, target=published.title, context=f"{section.sid}:title", **common)]
    source_blocks, target_blocks = split_blocks(source_body), split_blocks(published.body)
    if len(source_blocks) == len(target_blocks):
        pairs += [Pair(source=s, target=t, context=f"{section.sid}:{n}", **common)
                  for n, (s, t) in enumerate(zip(source_blocks, target_blocks, strict=True), start=1)]
    return pairs


def sync_translation(translation: Translation, book: Book, lang: str) -> int:
    """Put one published translation into the memory if it is not there yet; the number of entries made."""
    return _sync(book, lang, [translation])


def sync_book(book: Book, lang: str) -> int:
    """Put every published translation of the book not in the memory yet into it; the number of entries made."""
    return _sync(book, lang, list(
        Translation.objects.filter(section__book=book, language=lang).exclude(published_digest="")
        .exclude(memory_digest=F("published_digest")).select_related("section", "updated_by")))


SYNC_BATCH = 200  # translations put in the memory in one transaction (on SQLite a write holds the whole database)


def _sync(book: Book, lang: str, pending: list[Translation]) -> int:
    made = 0
    for start in range(0, len(pending), SYNC_BATCH):
        batch = pending[start:start + SYNC_BATCH]
        published = {t.section_id: t for t in SectionText.objects.filter(
            section__in=[p.section for p in batch], language=lang)}
        pairs = []
        for translation in batch:
            text = published.get(translation.section_id)
            if text is not None:
                pairs += translation_pairs(translation, book, text)
        made += len(add_pairs(pairs))
        for translation in batch:
            translation.memory_digest = translation.published_digest
        Translation.objects.bulk_update(batch, ["memory_digest"], batch_size=SYNC_BATCH)
    return made


# ---------------------------------------------------------------------------------------------------- look-up


@dataclass
class Match:
    entry: MemoryEntry
    score: float  # 0…1
    source: str  # the memory's source text (or sentence) that matched
    target: str  # its translation: what "insert" puts in the field
    diff: str  # the memory's source against the text being translated, as HTML (deleted / inserted words)

    @property
    def percent(self) -> int:
        return int(self.score * 100 + 1e-9)


def candidates(text: str, source_language: str, target_language: str, threshold: float = 0.0) -> list[MemoryEntry]:
    """The entries most likely to be similar: those sharing most of the text's rarest indexed stems, of a length
    that can reach the threshold, the closest in length first among equals."""
    tokens = index_tokens(text, source_language)
    if not tokens:
        return []
    frequency = dict(MemoryTerm.objects.filter(token__in=tokens, entries__gt=0).values_list("token", "entries"))
    rare = sorted((t for t in tokens if t in frequency), key=lambda t: (frequency[t], t))[:RARE_TOKENS]
    if not rare:
        return []
    need = max(1, len(rare) // 3)
    length = word_count(text)
    rows = (MemoryToken.objects.filter(token__in=rare, entry__target_language=target_language)
            .values("entry_id", "entry__words").annotate(shared=Count("id"), gap=Abs(F("entry__words") - length))
            .filter(shared__gte=need))
    if threshold > 0:  # a text of another length cannot be that similar
        rows = rows.filter(entry__words__gte=int(length * threshold), entry__words__lte=length / threshold + 1)
    ids = [row["entry_id"] for row in rows.order_by("-shared", "gap", "-entry_id")[:CANDIDATES]]
    return list(MemoryEntry.objects.filter(pk__in=ids))


def matches(text: str, source_language: str, target_language: str, *, limit: int | None = None,
            threshold: float | None = None, exclude: tuple[str, str, str] | None = None) -> list[Match]:
    """Memory entries whose source is at least ``threshold`` similar to ``text``, best first (then the same book,
    then the newest). ``exclude`` = (book, context, target): the translation's own current text is not offered."""
    limit = setting("TRANSLATION_MEMORY_LIMIT") if limit is None else limit
    threshold = setting("TRANSLATION_MEMORY_THRESHOLD") if threshold is None else threshold
    if not text.strip():
        return []
    found: dict[str, Match] = {}
    for entry in candidates(text, source_language, target_language, threshold):
        if exclude and (entry.book, entry.context, entry.target) == exclude:
            continue
        score = similarity(text, entry.source)
        if score < threshold:
            continue
        match = Match(entry, score, entry.source, entry.target, html_diff(entry.source, text))
        known = found.get(entry.target)
        if known is None or (score, entry.changed) > (known.score, known.entry.changed):
            found[entry.target] = match  # one suggestion per distinct translation
    ranked = sorted(found.values(), key=lambda m: (-m.score, m.entry.book != (exclude or ("",))[0],
                                                   -m.entry.changed.timestamp()))
    return ranked[:limit]


def sentence_matches(sentence: str, source_language: str, target_language: str, *, threshold: float | None = None,
                     limit: int = 1) -> list[Match]:
    """Suggestions for one sentence: the aligned sentence of a memory entry whose source has a similar sentence
    (an entry whose texts split into as many sentences), or an entry that is itself similar."""
    threshold = setting("TRANSLATION_MEMORY_THRESHOLD") if threshold is None else threshold
    found: list[Match] = []
    for entry in candidates(sentence, source_language, target_language):
        source_sentences, target_sentences = sentences(entry.source), sentences(entry.target)
        if len(source_sentences) != len(target_sentences):
            source_sentences, target_sentences = [entry.source], [entry.target]
        best = max(((similarity(sentence, s), s, t) for s, t in zip(source_sentences, target_sentences, strict=True)),
                   default=None)
        if best and best[0] >= threshold:
            found.append(Match(entry, best[0], best[1], best[2], html_diff(best[1], sentence)))
    found.sort(key=lambda m: (-m.score, -m.entry.changed.timestamp()))
    unique, seen = [], set()
    for m in found:
        if m.target not in seen:
            seen.add(m.target)
            unique.append(m)
    return unique[:limit]


def changed_sentences(old: str, new: str) -> list[str]:
    """The sentences of the new source that the old one did not have (what an outdated paragraph must redo)."""
    before = {normalise(s) for s in sentences(old)}
    return [s for s in sentences(new) if normalise(s) not in before]
