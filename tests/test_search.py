"""Search: numbers go straight to their section; words in both languages in any form; typos; filters; bad input.

The shared list of queries with the top result each must give, on SQLite (FTS5) and on PostgreSQL alike (CI runs
the suite on both), is in test_search_ranking.py."""
import re

import pytest

from rulesref.reference.search import search

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("query, location", [
    ("9.3.1", "/en/rules/mpbs/9.3.1/"), ("9. 3. 1", "/en/rules/mpbs/9.3.1/"), ("11.4.5", "/en/rules/mpbs/11.4.5/"),
    ("XIII.7.C", "/en/rules/t9a/XIII.7.C/"), ("xiii.7.c", "/en/rules/t9a/XIII.7.C/"),
    ("9.3.1c", "/en/rules/mpbs/9.3.1/#9.3.1c"), (" 11. 4. 5. ", "/en/rules/mpbs/11.4.5/"),
])
def test_a_section_number_goes_straight_to_the_section(client, query, location):
    response = client.get("/en/search/", {"q": query})
    assert response.status_code == 302 and response["Location"] == location


def test_live_search_offers_the_section_instead_of_redirecting(client):
    html = client.get("/ru/search/", {"q": "9.3.1"}, HTTP_HX_REQUEST="true").content.decode()
    assert '<a href="/ru/rules/mpbs/9.3.1/">' in html and "<html" not in html


def test_results_cover_both_languages_and_are_grouped_by_book(client):
    html = client.get("/en/search/", {"q": "перехват"}).content.decode()
    assert "Musket &amp; Pike" in html and "<mark>" in html
    both = search("flee", "en")
    # Flee is a t9a section; mpbs only mentions fleeing (11.4.1): the book with the better hit comes first.
    assert [g.book.slug for g in both.groups] == ["t9a", "mpbs"]
    assert [h.sid for h in both.groups[0].hits][0] == "flee"
    assert [h.sid for h in both.groups[1].hits] == ["11.4.1"]


def test_a_hit_in_the_other_language_says_so(client):
    """The English page's live results for a Russian word: each hit links its section, marks its title and text as
    Russian with a badge, and shows its snippet; the reader's own language needs no badge."""
    html = client.get("/en/search/", {"q": "перехват"}, HTTP_HX_REQUEST="true").content.decode()
    hits = re.findall(r'<li><a href="(/en/rules/[^"]+/)" lang="ru">(.*?)</a> <span class="badge muted" lang="ru">ru'
                      r'</span>\n\s*<p class="snippet" lang="ru">(.*?)</p></li>', html)
    assert hits and hits[0][0] == "/en/rules/mpbs/9.3/" and "<mark>Перехват</mark>" in hits[0][1]
    assert any("<mark>" in snippet for _, _, snippet in hits)
    own = client.get("/en/search/", {"q": "hedgehog"}, HTTP_HX_REQUEST="true").content.decode()
    assert '<li><a href="/en/rules/mpbs/9.2.3/">9.2.3 <mark>Hedgehog</mark>' in own and 'class="badge' not in own


def test_filters_by_book_and_language():
    assert [g.book.slug for g in search("unit", "en", book_slug="t9a").groups] == ["t9a"]
    hits = search("подразделение", "ru", text_lang="ru").hits
    assert hits and all(h.language == "ru" for h in hits)
    assert search("подразделение", "ru", text_lang="en").count == 0


@pytest.mark.parametrize("query, suggestion, top", [("хеджхог", "hedgehog", "9.2.3"), ("hedgehgo", "hedgehog", "9.2.3"),
                                                    ("перехвт", "перехват", "9.3"), ("interseption", "interception", "9.3")])
def test_typos_get_a_did_you_mean(query, suggestion, top):
    result = search(query, "en")
    assert result.suggestion == suggestion
    assert result.hits[0].sid == top


def test_did_you_mean_takes_the_word_difflib_alone_would():
    """rapidfuzz only narrows the vocabulary for difflib (its ratio is never below difflib's): the word chosen is
    the one difflib picks from the whole vocabulary, for typos of every kind in both scripts."""
    import difflib
    import random

    from rulesref.reference.models import SearchWord
    from rulesref.reference.search_suggest import closest

    rng = random.Random(5)
    vocabulary = sorted(set(SearchWord.objects.values_list("word", flat=True)))
    for _ in range(150):
        word = list(rng.choice(vocabulary))
        for _ in range(rng.randint(1, 3)):
            at, letter = rng.randrange(len(word)), rng.choice("абвгдеклмнопрстaeiounrstlh")
            [lambda: word.insert(at, letter), lambda: word.pop(at), lambda: word.__setitem__(at, letter)][
                rng.randrange(3)]()
        typo, choices = "".join(word), rng.sample(vocabulary, min(len(vocabulary), 400))
        assert closest(typo, choices) == difflib.get_close_matches(typo, choices, n=1, cutoff=0.75), typo
        # The vocabulary is read in no particular order (search_suggest.near_words): the word chosen must not depend
        # on it.
        assert closest(typo, choices[::-1]) == closest(typo, choices), typo


def test_with_no_rulebook_loaded_words_find_nothing_and_suggest_nothing(client):
    from rulesref.reference.models import Book

    Book.objects.all().delete()
    result = search("хеджхог", "en")
    assert (result.hits, result.count, result.suggestion) == ([], 0, "")
    assert client.get("/en/search/", {"q": "hedgehgo"}, HTTP_HX_REQUEST="true").status_code == 200


@pytest.mark.parametrize("query, lang", [
    ("нельзя", "ru"),  # a stop word of PostgreSQL's own russian configuration
    ("не может", "ru"),
    ("may not", "en"),  # both stop words of its english one
    ("before", "en"),
])
def test_a_stop_word_is_a_word_like_any_other(query, lang):
    """Rules turn on the words a general-purpose index drops as stop words. On both databases a query of them finds
    exactly the sections whose text in that language has every word (the last as the beginning of a word, by its
    stem), as the Snowball stemmers themselves find them in the texts."""
    from test_search_index import snowball_stems

    from rulesref.reference.models import SectionText

    *words, last = [snowball_stems(w).pop() for w in query.split()]
    want = {(t.section.book.slug, t.section.sid) for t in SectionText.objects.filter(
        language=lang, section__absent=False).select_related("section__book")
        if (found := snowball_stems(f"{t.title}\n{t.body}")) >= set(words) and any(s.startswith(last) for s in found)}
    assert want
    result = search(query, lang, text_lang=lang, limit=150)
    assert not result.partial and result.count == len(want)
    assert {(g.book.slug, h.sid) for g in result.groups for h in g.hits} == want


def test_unknown_section_number_suggests_the_nearest(client):
    html = client.get("/ru/search/", {"q": "9.3.9"}).content.decode()
    assert "Раздела 9.3.9 нет" in html or "There is no section 9.3.9" in html
    assert 'href="/ru/rules/mpbs/9.3/"' in html


@pytest.mark.parametrize("query", ["", "   ", "x" * 10_000, '"', "*", "NEAR", "(", "-", 'перехват" OR "x', "a AND (b",
                                   "'; DROP TABLE reference_book; --", "1 OR 1=1", "перехват intercept 混合 ☃",
                                   "\x00\x01", "%", "_", "\\", "9.3.1.1.1.1.1", "XIII.", "столб:*", "<script>alert(1)</script>"])
def test_bad_input_never_errors(client, query):
    response = client.get("/en/search/", {"q": query})
    if "\x00" in query:  # no database can store or search a NUL: refused at the edge, naming the field
        assert response.status_code == 400 and b"<code>q</code>" in response.content
        return
    assert response.status_code in (200, 302)
    if response.status_code == 200:
        html = response.content.decode()
        assert "<script>alert(1)" not in html
    live = client.get("/en/search/", {"q": query}, HTTP_HX_REQUEST="true")
    assert live.status_code == 200


def test_nothing_found_is_said_clearly(client):
    html = client.get("/en/search/", {"q": "zzzzqqqq"}).content.decode()
    assert "Nothing found for “zzzzqqqq”." in html


def test_the_index_follows_the_content(corpus_copy):
    from rulesref.reference.loading import load_corpus

    path = corpus_copy / "mpbs" / "en" / "9.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("A unit may Withdraw", "A unit may Withdraw or quokkafy", 1), encoding="utf-8")
    load_corpus()
    assert [h.sid for h in search("quokkafy", "en").hits] == ["9.2.4"]


def test_highlighting_marks_exactly_the_words_the_stems_match():
    """The fast highlighter (a regex on stem prefixes, then the stem rule) marks the same words as applying the
    stem rule to every word of the text."""
    import random
    from pathlib import Path

    from rulesref.reference.search_highlight import is_wanted, marks
    from rulesref.text import WORD_RE, stem_word

    texts = [p.read_text(encoding="utf-8") for p in sorted(Path("fixtures/corpus").rglob("*.md"))]
    words = sorted({w.lower() for t in texts for w in WORD_RE.findall(t)})
    rng = random.Random(7)
    for _ in range(60):
        wanted = {stem_word(w) for w in rng.sample(words, rng.randint(1, 3))} | {stem_word("parties")}
        for text in texts:
            slow = [(m.start(), m.end()) for m in WORD_RE.finditer(text) if is_wanted(m.group(), wanted)]
            assert marks(text, wanted) == slow


def test_results_page_on_in_pages_of_thirty(client, tmp_path):
    """A word in more sections than a page holds: the count says how many, the page which ones, and links lead on
    and back, no section on two pages; bad page numbers fall back to the first page."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    import corpus_gen

    corpus_gen.load(400, root=tmp_path, slug="gen")
    first = search("подразделение", "ru", book_slug="gen")
    assert first.count > 60 and first.shown == 30 and first.next_page == 2 and first.previous_page is None
    second = search("подразделение", "ru", book_slug="gen", page="2")
    assert second.first_shown == 31 and second.shown == 30 and second.previous_page == 1
    pages = [[h.sid for h in search("подразделение", "ru", book_slug="gen", page=n).hits] for n in range(1, 6)]
    assert pages[0] == [h.sid for h in first.hits] and pages[1] == [h.sid for h in second.hits]
    every = [sid for page in pages for sid in page]
    assert len(every) == len(set(every)) == 150
    html = client.get("/ru/search/", {"q": "подразделение", "book": "gen", "page": 2}).content.decode()
    assert "(показаны 31–60)" in html and 'rel="prev" href="/ru/search/?q=' in html and "page=1" in html
    for bad in ("0", "-1", "x", "99999999999999999999", "\x00", "6"):
        assert search("подразделение", "ru", book_slug="gen", page=bad).page == 1
