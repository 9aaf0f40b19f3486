"""Search: a section number goes straight to the section; words are found in both languages in any word form.

- The index (SearchEntry: one row per section and language) is rebuilt whenever a book's content version changes,
  so every way of changing the text (loadrules, an approved translation) is searchable at once.
- SQLite: an FTS5 table over Snowball stems (each word stemmed in its own script: Cyrillic with the Russian
  stemmer, Latin with the English one), ranked by bm25 with the title weighted ten times the text.
- PostgreSQL: ``to_tsvector('russian' | 'english', …)`` with a partial GIN index per language, ranked by
  ``ts_rank`` with the title weighted A and the text B.
- Both: sections whose title holds the words rank first; results are grouped by rulebook; snippets and titles are
  highlighted on escaped text; a word found nowhere gets a "did you mean" from the corpus and glossary vocabulary,
  across scripts too ("хеджхог" → "hedgehog").
"""
from __future__ import annotations

import difflib
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from django.conf import settings
from django.db import connection, transaction
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from .glossary import book_glossary, normalise_word, stemmer
from .index import book_index
from .models import Book, SearchEntry, SearchState, SectionText
from .refs import NUMBER_QUERY_RE, normalise, number_query, number_variants, section_part

MAX_QUERY_CHARS = 200
MAX_WORDS = 12
CANDIDATES = 60
WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)
CYRILLIC_RE = re.compile(r"[а-яё]", re.I)
TO_LATIN = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
                     "t", "u", "f", "h", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"]))
TO_CYRILLIC = [("shch", "щ"), ("zh", "ж"), ("kh", "х"), ("ts", "ц"), ("ch", "ч"), ("sh", "ш"), ("yu", "ю"),
               ("ya", "я"), ("a", "а"), ("b", "б"), ("v", "в"), ("g", "г"), ("d", "д"), ("e", "е"), ("z", "з"),
               ("i", "и"), ("y", "й"), ("k", "к"), ("l", "л"), ("m", "м"), ("n", "н"), ("o", "о"), ("p", "п"),
               ("r", "р"), ("s", "с"), ("t", "т"), ("u", "у"), ("f", "ф"), ("h", "х"), ("c", "к"), ("w", "в"),
               ("x", "кс"), ("q", "к"), ("j", "дж")]


def script_of(word: str) -> str:
    return "ru" if CYRILLIC_RE.search(word) else "en"


@lru_cache(maxsize=200_000)
def stem_word(word: str) -> str:
    """A word's Snowball stem, in the stemmer of its own script (the word already lower-cased)."""
    return stemmer(script_of(word)).stemWord(word)


def word_stems(text: str) -> list[str]:
    return [stem_word(normalise_word(w)) for w in WORD_RE.findall(text)]


# ---------------------------------------------------------------- the index


_build_lock = threading.Lock()


def ensure_index(books: list[Book]) -> None:
    """Rebuild the search rows of every book whose content changed since they were built."""
    states = dict(SearchState.objects.filter(book__in=books).values_list("book_id", "version"))
    stale = [b for b in books if states.get(b.pk) != b.version]
    if not stale:
        return
    with _build_lock, transaction.atomic():
        for book in stale:
            rebuild(book)


def rebuild(book: Book) -> None:
    SearchEntry.objects.filter(book=book).delete()
    rows = []
    for text in SectionText.objects.filter(section__book=book, section__absent=False).select_related("section"):
        rows.append(SearchEntry(book=book, section=text.section, language=text.language, title=text.title,
                                body=text.body, title_stems=" ".join(word_stems(text.title)),
                                body_stems=" ".join(word_stems(text.body))))
    SearchEntry.objects.bulk_create(rows, batch_size=500)
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            # The index is rebuilt from its content table, so it always matches the rows above.
            cursor.execute("INSERT INTO reference_search_fts (reference_search_fts) VALUES ('rebuild')")
    SearchState.objects.update_or_create(book=book, defaults={"version": book.version})
    _vocabulary.clear()


# ---------------------------------------------------------------- queries


@dataclass
class Hit:
    book: Book
    sid: str
    language: str
    label: str
    url: str
    title_html: SafeString
    snippet_html: SafeString
    title_hit: bool
    rank: float
    coverage: float = 0.0  # share of the title's words that the query names
    depth: int = 1
    entry_id: int = 0


@dataclass
class SearchResult:
    query: str
    jump: str | None = None
    jump_label: str = ""
    groups: list[tuple[Book, list[Hit]]] = field(default_factory=list)
    suggestion: str = ""
    shown_for: str = ""
    partial: bool = False
    missing_section: str = ""
    truncated: bool = False

    @property
    def count(self) -> int:
        return sum(len(hits) for _, hits in self.groups)


def clean_query(raw: str) -> tuple[str, bool]:
    text = "".join(ch for ch in raw if ch.isprintable() or ch == " ")
    text = re.sub(r"\s+", " ", text).strip()
    return text[:MAX_QUERY_CHARS], len(text) > MAX_QUERY_CHARS


def find_section(query: str, books: list[Book]) -> tuple[Book, str, str] | None:
    """A query that is a section number in any printed form (refs.number_query: ``9. 3. 1``, ``О22.3`` typed in
    either alphabet, ``п. 3.1e``, ``[13]``, the book's own forms): (book, section id, clause letter)."""
    for book in books:
        wanted = number_query(query, book.number_patterns)
        if wanted is None:
            continue
        index = book_index(book)
        for candidate in number_variants(wanted):
            sid = index.by_lower.get(candidate.lower())
            if sid:
                return book, sid, ""
            sid, clause = section_part(candidate.lower())
            found = index.by_lower.get(sid)
            if clause and found:
                return book, found, clause
    return None


def search(raw_query: str, lang: str, book_slug: str = "", text_lang: str = "", limit: int = 30) -> SearchResult:
    from .render import section_url

    query, truncated = clean_query(raw_query)
    result = SearchResult(query=query, truncated=truncated)
    if not query:
        return result
    books = list(Book.objects.all())
    if book_slug:
        books = [b for b in books if b.slug == book_slug] or books
    if text_lang not in ("ru", "en"):
        text_lang = ""
    section = find_section(query, books)
    if section:
        book, sid, clause = section
        result.jump = section_url(lang, book.slug, sid, clause)
        result.jump_label = book_index(book).entries[sid].label(lang)
        return result
    if NUMBER_QUERY_RE.match(query) and re.search(r"\d", query):
        result.missing_section = normalise(query)  # the page offers the nearest sections instead
        return result
    ensure_index(books)
    words = [normalise_word(w) for w in WORD_RE.findall(query)][:MAX_WORDS]
    if not words:
        return result
    hits = _run(words, books, text_lang, lang, all_words=True, limit=limit)
    if not hits and len(words) > 1:
        hits = _run(words, books, text_lang, lang, all_words=False, limit=limit)
        result.partial = bool(hits)
    suggestion = _suggest(words, books)
    if suggestion and suggestion != " ".join(words):
        result.suggestion = suggestion
        if not hits:
            hits = _run(suggestion.split(), books, text_lang, lang, all_words=True, limit=limit)
            result.shown_for = suggestion if hits else ""
    groups: dict[int, list[Hit]] = {}
    for hit in hits:
        groups.setdefault(hit.book.pk, []).append(hit)
    order = {b.pk: i for i, b in enumerate(books)}
    result.groups = [(next(b for b in books if b.pk == pk), group) for pk, group in
                     sorted(groups.items(), key=lambda item: order[item[0]])]
    return result


def _run(words: list[str], books: list[Book], text_lang: str, lang: str, all_words: bool,
         limit: int = 30) -> list[Hit]:
    from .render import section_url

    stems = [stem_word(w) for w in words]
    rows = _candidates(words, stems, books, text_lang, all_words)
    if not rows:
        return []
    rank_of = dict(rows)
    entries = SearchEntry.objects.filter(pk__in=list(rank_of)).values_list(
        "pk", "book_id", "section__sid", "language", "title_stems")
    by_book = {b.pk: b for b in books}
    wanted = set(stems)
    best: dict[tuple[int, str], Hit] = {}
    for pk, book_id, sid, language, title_stems in entries:
        book = by_book[book_id]
        node = book_index(book).entries.get(sid)
        if node is None:
            continue
        title_words = set(title_stems.split())
        title_hit = bool(wanted & title_words) if not all_words else wanted <= title_words
        coverage = len(wanted & title_words) / len(title_words) if title_words else 0.0
        hit = Hit(book=book, sid=sid, language=language, label=node.label(language), url="",
                  title_html=mark_safe(""), snippet_html=mark_safe(""), title_hit=title_hit, rank=rank_of[pk],
                  coverage=coverage, depth=node.depth, entry_id=pk)
        key = (book.pk, sid)
        current = best.get(key)
        better = current is None or (hit.title_hit, hit.coverage, -hit.rank, hit.language == lang) > \
            (current.title_hit, current.coverage, -current.rank, current.language == lang)
        if better:
            best[key] = hit
    # Title hits first, ordered by the titles themselves (the one the query names most fully, then the more
    # general section) so both databases agree; then the database's own relevance rank.
    hits = sorted(best.values(), key=lambda h: (not h.title_hit, -h.coverage if h.title_hit else 0,
                                                h.depth if h.title_hit else 0, h.rank, h.book.position,
                                                book_index(h.book).entries[h.sid].position))[:limit]
    bodies = dict(SearchEntry.objects.filter(pk__in=[h.entry_id for h in hits]).values_list("pk", "body"))
    for hit in hits:  # only what is shown is highlighted
        hit.url = section_url(lang, hit.book.slug, hit.sid)
        hit.title_html = highlight(hit.label, wanted)
        hit.snippet_html = snippet(bodies[hit.entry_id], wanted)
    return hits


def _candidates(words, stems, books, text_lang, all_words) -> list[tuple[int, float]]:
    """(SearchEntry id, rank) of the best matching rows; lower rank is better."""
    if connection.vendor == "postgresql":
        return _candidates_postgres(words, books, text_lang, all_words)
    terms = [f'"{s}"' for s in stems[:-1]] + [f'"{stems[-1]}"*']
    words_part = (" AND " if all_words else " OR ").join(terms)
    # Stems are word characters only (quoted above), so no FTS syntax can come from the query.
    match = f"{{title_stems body_stems}} : ({words_part})"
    match += " AND book_id : (" + " OR ".join(str(b.pk) for b in books) + ")"
    if text_lang:
        match += f" AND language : {text_lang}"
    sql = ("SELECT rowid, bm25(reference_search_fts, 10.0, 1.0, 0.0, 0.0) AS rank FROM reference_search_fts "
           f"WHERE reference_search_fts MATCH %s ORDER BY rank LIMIT {CANDIDATES}")
    with connection.cursor() as cursor:
        cursor.execute(sql, [match])
        return [(pk, float(rank)) for pk, rank in cursor.fetchall()]


def _candidates_postgres(words, books, text_lang, all_words) -> list[tuple[int, float]]:
    joiner = " & " if all_words else " | "
    safe = [re.sub(r"[^\w]", "", w) for w in words]
    safe = [w for w in safe if w]
    if not safe:
        return []
    tsquery = joiner.join(safe[:-1] + [f"{safe[-1]}:*"])
    parts = []
    params: list = []
    for code, config in (("ru", "russian"), ("en", "english")):
        if text_lang and text_lang != code:
            continue
        parts.append(
            f"SELECT id, -ts_rank(setweight(to_tsvector('{config}', title), 'A') || "
            f"setweight(to_tsvector('{config}', body), 'B'), to_tsquery('{config}', %s)) AS rank "
            f"FROM reference_searchentry WHERE language = '{code}' AND book_id = ANY(%s) "
            f"AND to_tsvector('{config}', title || ' ' || body) @@ to_tsquery('{config}', %s)")
        params += [tsquery, [b.pk for b in books], tsquery]
    sql = " UNION ALL ".join(parts) + f" ORDER BY rank LIMIT {CANDIDATES}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [(pk, float(rank)) for pk, rank in cursor.fetchall()]


def _is_wanted(word: str, wanted: set[str]) -> bool:
    stem = stem_word(normalise_word(word))
    return stem in wanted or any(stem.startswith(s) and len(s) >= 3 for s in wanted)


@lru_cache(maxsize=512)
def _candidate_re(wanted: frozenset[str]) -> re.Pattern:
    """Words that may stem to a wanted stem: those starting with the stem less its last letter (Snowball may
    change a final letter, as English y -> i); each candidate is then confirmed by _is_wanted."""
    prefixes = sorted({w[:max(3, len(w) - 1)] for w in wanted}, key=len, reverse=True)
    return re.compile(r"(?<![^\W_])(?:%s)[^\W_]*" % "|".join(map(re.escape, prefixes)))


def _marks(text: str, wanted: set[str], first_only: bool = False) -> list[tuple[int, int]]:
    """Spans of the words of ``text`` that a query of these stems matches (every inflected form)."""
    folded = text.lower().replace("ё", "е")
    if len(folded) != len(text):  # a case mapping changed the length: offsets would not line up
        return [(m.start(), m.end()) for m in WORD_RE.finditer(text) if _is_wanted(m.group(), wanted)][
            :1 if first_only else None]
    spans = []
    for m in _candidate_re(frozenset(wanted)).finditer(folded):
        if _is_wanted(text[m.start():m.end()], wanted):
            spans.append((m.start(), m.end()))
            if first_only:
                break
    return spans


def highlight(text: str, wanted: set[str]) -> SafeString:
    out, position = [], 0
    for start, end in _marks(text, wanted):
        out.append(escape(text[position:start]))
        out.append(format_html("<mark>{}</mark>", text[start:end]))
        position = end
    out.append(escape(text[position:]))
    return mark_safe("".join(out))


def snippet(body: str, wanted: set[str], width: int = 200) -> SafeString:
    flat = re.sub(r"\s+", " ", body)
    marks = _marks(flat, wanted, first_only=True)
    start = max(0, marks[0][0] - width // 3) if marks else 0
    if start:
        start = flat.find(" ", start) + 1 or start
    end = min(len(flat), start + width)
    if end < len(flat):
        end = flat.rfind(" ", start, end) if flat.rfind(" ", start, end) > start else end
    text = highlight(flat[start:end], wanted)
    return mark_safe(("… " if start else "") + text + (" …" if end < len(flat) else ""))


# ---------------------------------------------------------------- did you mean


_vocabulary: dict[tuple, tuple[set[str], dict[str, list[str]]]] = {}


def vocabulary(books: list[Book]) -> tuple[set[str], dict[str, list[str]]]:
    """The stems present in the index, and the words (corpus and glossary) per script, for suggestions."""
    key = tuple((b.slug, b.version) for b in books)
    if key in _vocabulary:
        return _vocabulary[key]
    stems: set[str] = set()
    words: dict[str, set[str]] = {"ru": set(), "en": set()}
    for title, body in SearchEntry.objects.filter(book__in=books).values_list("title_stems", "body_stems"):
        stems.update(title.split())
        stems.update(body.split())
    for title, body in SectionText.objects.filter(section__book__in=books).values_list("title", "body"):
        for w in WORD_RE.findall(f"{title} {body}"):
            if len(w) > 2 and not w.isdigit():
                words[script_of(w)].add(normalise_word(w))
    for book in books:
        for term in book_glossary(settings.FIXTURES_DIR, book.slug).terms:
            for lang in ("ru", "en"):
                for form in term.forms(lang):
                    for w in WORD_RE.findall(form):
                        if len(w) > 2:
                            words[script_of(w)].add(normalise_word(w))
    value = (stems, {k: sorted(v) for k, v in words.items()})
    _vocabulary.clear()
    _vocabulary[key] = value
    return value


def to_latin(word: str) -> str:
    return "".join(TO_LATIN.get(ch, ch) for ch in word.replace("дж", "dg"))


def to_cyrillic(word: str) -> str:
    out, i = [], 0
    while i < len(word):
        for latin, cyrillic in TO_CYRILLIC:
            if word.startswith(latin, i):
                out.append(cyrillic)
                i += len(latin)
                break
        else:
            out.append(word[i])
            i += 1
    return "".join(out)


def _suggest(words: list[str], books: list[Book]) -> str:
    """The query with each word that the corpus lacks replaced by its nearest known word (either script)."""
    stems, vocab = vocabulary(books)
    changed, out = False, []
    for word in words:
        script = script_of(word)
        stem = stem_word(word)
        if stem in stems or word.isdigit() or len(word) < 3:
            out.append(word)
            continue
        other = "en" if script == "ru" else "ru"
        spelled = to_latin(word) if script == "ru" else to_cyrillic(word)
        options = difflib.get_close_matches(word, vocab[script], n=1, cutoff=0.75) + \
            difflib.get_close_matches(spelled, vocab[other], n=1, cutoff=0.75)
        if options:
            best = max(options, key=lambda o: difflib.SequenceMatcher(
                None, word if script_of(o) == script else spelled, o).ratio())
            out.append(best)
            changed = True
        else:
            out.append(word)
    return " ".join(out) if changed else ""
