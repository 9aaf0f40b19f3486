"""The compact search index shipped with a rulebook's offline copy.

Built from the same rows and with the same stems as the server's search (``rulesref.reference.search``: one row per
section and language, every word reduced by PyStemmer's Snowball stemmer of its own script), so the offline search
finds what the server finds. The browser stems only the query, with ``static/offline/stem.js``, which is tested
to give PyStemmer's stem for every word of the corpus and glossaries and for a large list of other forms.

Besides the rows, it ships what the server's search decides from data, so that the browser applies the same rules
rather than its own: the book's numbering (the server's grammar of a number typed as a query, and the book's own
forms, as JavaScript regular expressions), the glossary's term forms with their stems and defining sections, the
vocabulary for "did you mean" with its stems, the rows in the order of the server's FTS rowids (which breaks
ties of rank), the text tables (rulesref/text.py) and the ranking (rulesref/reference/search_ranking.py: the limits,
the weights of bm25, the tiers and the order within them).

The JSON (``format`` 5)::

    {"format": 5, "book": "mpbs", "key": 1, "position": 0, "revision": 7,
     "title": {"ru": …, "en": …},
     "numbering": {"patterns": [...], "words": regex, "number": regex, "roman": "IVXLC…", "latin": {"О": "O", …},
                   "dots": regex, "ownSeparators": regex, "digit": regex, "smallPrefix": regex, "prefixVariant": regex},
     "text": {"folds": {"ё": "е"}, "toLatin": {…}, "toLatinPairs": {…}, "toCyrillic": [[…]], "word": regex, …},
     "ranking": {"limits": {"pageSize": 30, …}, "bm25": {"titleWeight": 10.0, …}, "titleOrder": {…},
                 "tiers": [{"tier": 0, "name": "EXACT_TITLE", "needs": ["exactTitle"]}, …],
                 "order": [{"key": "tier", "descending": false, "tiers": []}, …]},
     "sections": [{"sid": "9.3.1", "number": "9.3.1", "depth": 3, "position": 12, "absent": false,
                   "parent": "9.3", "children": [...], "labels": {"ru": …, "en": …}, "titles": {…},
                   "urls": {"ru": …, "en": …}}],
     "terms": [{"f": [["хиты", "построения"], …], "fs": [[stem ids of a form], …], "s": [defining sections]}],
     "rows": [{"s": 4, "l": "ru", "t": title, "b": body, "ts": [stem ids of the title], "bs": [… of the body]}],
     "words": {"w": ["the", …], "s": [stem ids]},   # the "did you mean" vocabulary (SearchWord), commonest first
     "rulings": {…},                                # what other apps add (index_extras): the published rulings,
                                                    # rulesref/rulings/offline.py
     "stems": ["перехват", …]}                      # every stem named above

Built in the writer's transaction: by ``load_corpus`` (the ``book_loaded`` signal) and by every other change of
the content (``content_changed``, sent by ``Book.bump_version``: an approved translation, the admin). A reader's
request only reads it.
"""
from __future__ import annotations

import hashlib
import json
import re
import threading

from django.db import IntegrityError, transaction

from django.conf import settings
from django.dispatch import Signal
from django.utils.module_loading import import_string

from rulesref import text
from rulesref.reference import numbering as numbering_grammar
from rulesref.reference.glossary import book_glossary
from rulesref.reference.index import book_index
from rulesref.reference.models import Book, SearchWord, SectionText
from rulesref.reference.render import section_url
from rulesref.reference.search_ranking import browser_ranking
from rulesref.reference.search_terms import term_forms
from rulesref.reference.searchindex import word_stems

from .models import OfflineIndex
from .revision import INDEX_FORMAT, basis, glossary_digest, revision

LANGUAGES = ("ru", "en")
_lock = threading.Lock()
# What other apps add to a book's index (the rulings app its published rulings: rulesref/rulings/offline.py), so that
# the offline search finds them as the server's search does. Receivers get the book, ``order`` (a section id's
# place in ``sections``) and ``ids`` (a list of stems to their ids in ``stems``), and return a dictionary of keys
# of their own; the index itself names none of them.
index_extras = Signal()


def build_data(book: Book) -> dict:
    index = book_index(book)
    order = {sid: n for n, sid in enumerate(index.order)}
    sections = []
    for sid in index.order:
        entry = index.entries[sid]
        sections.append({
            "sid": sid, "number": entry.number, "depth": entry.depth, "position": entry.position,
            "absent": entry.absent, "parent": entry.parent, "children": entry.children,
            "labels": {lang: entry.label(lang) for lang in LANGUAGES}, "titles": entry.titles,
            "urls": {lang: section_url(lang, book.slug, sid) for lang in LANGUAGES},
        })
    stem_ids: dict[str, int] = {}

    def ids(stems) -> list[int]:
        return [stem_ids.setdefault(stem, len(stem_ids)) for stem in stems]

    rows = []
    # In the order of the server's FTS rowids (section row id, then Russian before English): the order in which
    # the database breaks ties of rank, which decides what enters a pool of candidates of a given size.
    texts = SectionText.objects.filter(section__book=book, section__absent=False).values_list(
        "section_id", "section__sid", "language", "title", "body")
    for _, sid, lang, title, body in sorted(texts, key=lambda t: (t[0], t[2] != "ru")):
        if sid in order:
            rows.append({"s": order[sid], "l": lang, "t": title, "b": body,
                         "ts": ids(word_stems(title)), "bs": ids(word_stems(body))})
    vocabulary = {"w": [], "s": []}
    for word, stem in SearchWord.objects.filter(book=book).order_by("-count", "word").values_list("word", "stem"):
        vocabulary["w"].append(word)  # the server's "did you mean" vocabulary, commonest first
        vocabulary["s"].append(ids([stem])[0])
    data = {
        "format": INDEX_FORMAT, "book": book.slug, "key": book.pk, "position": book.position,
        "revision": revision(book), "title": {lang: book.title(lang) for lang in LANGUAGES},
        "numbering": numbering(book), "text": text.browser_tables(), "ranking": browser_ranking(), "sections": sections,
        "terms": terms(book, order, index, ids),
        "rows": rows, "words": vocabulary,
    }
    for _receiver, extra in index_extras.send(sender=Book, book=book, order=order, ids=ids):
        data.update({key: value for key, value in (extra or {}).items() if key not in data})
    data["stems"] = list(stem_ids)  # last: the other apps' stems too
    return data


def terms(book: Book, order: dict[str, int], index, ids) -> list[dict]:
    """The glossary terms as the server's search sees them (search_terms.term_forms): each form's words and stems, and
    the defining sections present in the book (by their place in ``sections``)."""
    out = []
    for term in term_forms(book_glossary(settings.FIXTURES_DIR, book.slug)):
        sections = [order[sid] for sid in term.sections if sid in order and not index.entries[sid].absent]
        out.append({"f": [list(words) for words, _ in term.forms],
                    "fs": [ids(sorted(stems)) for _, stems in term.forms], "s": sections})
    return out


def numbering(book: Book) -> dict:
    """How the server reads a rule number typed as a query (numbering.number_query), as data: the book's own forms
    and the grammar (numbering.browser_grammar) as regular expressions in JavaScript's syntax."""
    patterns = []
    for pattern in book.number_patterns or ():
        try:
            patterns.append(js_regex(pattern))
        except ValueError:
            continue  # not expressible in JavaScript: offline search does without this form
    return numbering_grammar.browser_grammar(patterns, js_regex)


SYNTAX = set("^$\\.*+?()[]{}|/")
# Python's escapes that JavaScript's ``u`` mode spells otherwise (with Python's Unicode meaning of \d and \w), inside
# a character class and outside one.
_ESCAPES = {"d": r"\p{Nd}", "D": r"\P{Nd}", "A": "^", "Z": "$"}
_CLASS_ESCAPES = {**_ESCAPES, "w": r"\p{L}\p{N}_"}
_OUTSIDE_ESCAPES = {**_ESCAPES, "w": r"[\p{L}\p{N}_]", "W": r"[^\p{L}\p{N}_]"}


def js_regex(pattern: str) -> str:
    """A Python regular expression in the syntax of JavaScript's ``u`` mode (with Python's Unicode meaning of
    ``\\d`` and ``\\w``): named groups, back-references by name, ``\\A``/``\\Z``, and escapes of characters that
    JavaScript refuses to see escaped. Raises ValueError for what has no equivalent (inline flags)."""
    out, i, in_class = [], 0, False
    while i < len(pattern):
        piece, i, in_class = _js_piece(pattern, i, in_class)
        out.append(piece)
    return "".join(out)


def _js_piece(pattern: str, i: int, in_class: bool) -> tuple[str, int, bool]:
    """The piece of ``pattern`` at ``i`` in JavaScript's syntax, where the next piece starts, and whether it is
    inside a character class."""
    ch = pattern[i]
    if ch == "\\" and i + 1 < len(pattern):
        return _js_escape(pattern[i + 1], in_class), i + 2, in_class
    if in_class:
        return ch, i + 1, ch != "]"
    if ch == "[":
        return _js_class_start(pattern, i + 1)
    if pattern.startswith("(?P<", i):
        return "(?<", i + 4, False
    if pattern.startswith("(?P=", i):
        end = pattern.index(")", i)
        return r"\k<" + pattern[i + 4:end] + ">", end + 1, False
    if re.match(r"\(\?[aiLmsux]+[):]", pattern[i:]):
        raise ValueError(f"{pattern!r}: inline flags")
    return ch, i + 1, False


def _js_escape(escaped: str, in_class: bool) -> str:
    """An escape (the character after the backslash) in JavaScript's syntax."""
    spelled = (_CLASS_ESCAPES if in_class else _OUTSIDE_ESCAPES).get(escaped)
    if spelled is not None:
        return spelled
    if escaped.isalnum() or escaped in SYNTAX or (in_class and escaped == "-"):
        return "\\" + escaped
    return escaped  # "\\-", "\\ ", "\\\"" outside a class: the character itself


def _js_class_start(pattern: str, i: int) -> tuple[str, int, bool]:
    """The opening of a character class whose contents start at ``i``: a "^" kept, and a "]" first in a class (a
    character in Python) escaped."""
    out = "["
    if pattern[i:i + 1] == "^":
        out, i = out + "^", i + 1
    if pattern[i:i + 1] == "]":
        out, i = out + "\\]", i + 1
    return out, i, True


def build(book: Book) -> tuple[str, str]:
    """Build and store the book's index; returns its digest and JSON."""
    data = json.dumps(build_data(book), ensure_ascii=False, separators=(",", ":"))
    # What else a copy holds that the index does not (settings.OFFLINE_EXTRA_DIGESTS: the book's published rulings)
    # changes the copy's token too, so a copy that lacks it is out of date.
    extra = "".join(import_string(path)(book) for path in getattr(settings, "OFFLINE_EXTRA_DIGESTS", ()))
    digest = hashlib.sha1((data + glossary_digest(book.slug) + extra).encode("utf-8")).hexdigest()[:12]
    values = {"basis": basis(book), "digest": digest, "data": data}
    with transaction.atomic():
        if not OfflineIndex.objects.filter(book=book).update(**values):
            try:
                with transaction.atomic():
                    OfflineIndex.objects.create(book=book, **values)
            except IntegrityError:  # another process stored it meanwhile: ours is as current
                OfflineIndex.objects.filter(book=book).update(**values)
    return digest, data


def stored(book: Book) -> str | None:
    """The book's index as JSON, as stored (None before the first load). Never built here: a reader's request
    only reads it."""
    row = OfflineIndex.objects.filter(book=book).values_list("data", flat=True).first()
    return row


def token(book: Book) -> str | None:
    """The token of the book's offline copy: its revision and a digest of its content (None before the first
    load). A kept copy whose token differs from the site's is out of date."""
    digest = OfflineIndex.objects.filter(book=book).values_list("digest", flat=True).first()
    return f"{revision(book)}-{digest}" if digest else None


def is_current(book: Book) -> bool:
    """Whether the stored index was built from the book's current basis (revision, glossary, index format)."""
    return OfflineIndex.objects.filter(book=book, basis=basis(book)).exists()


def refresh(book: Book) -> str:
    """Rebuild the book's index now, in the writer's transaction (the token of the copy changes with it);
    returns the new token."""
    with _lock:
        build(book)
    return token(book)
