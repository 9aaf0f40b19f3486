"""The history pages: a section's history and word diff, a section at a revision, what changed since a revision,
the Atom feed; hostile text in each is escaped."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from rulesref.reference.loading import load_corpus
from rulesref.reference.models import Book

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
HOSTILE_EN = 'quokkas <script>alert("en")</script><img src=x onerror=alert(1)>'
HOSTILE_RU = 'квокки <script>alert("ru")</script>'
OLD_EN = "An inactive cavalry unit may attempt to intercept"
OLD_RU = "Неактивное кавалерийское подразделение может попытаться"


def edit(corpus, relative: str, old: str, new: str) -> None:
    path = corpus / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def changed(corpus_copy):
    """9.3.1 changed in both languages (revision 2), then 9.3.2 in English only (revision 3)."""
    edit(corpus_copy, "mpbs/en/9.md", OLD_EN, f"An inactive {HOSTILE_EN} cavalry unit may attempt to intercept")
    edit(corpus_copy, "mpbs/ru/9.md", OLD_RU, f"Неактивное {HOSTILE_RU} кавалерийское подразделение может попытаться")
    edit(corpus_copy, "mpbs/en/9.md", "### Eligibility {#9.3.1", "### Eligibility <b>now</b> {#9.3.1")
    load_corpus()
    edit(corpus_copy, "mpbs/en/9.md", "### Procedure {#9.3.2", "### Procedure revised {#9.3.2")
    load_corpus()
    assert Book.objects.get(slug="mpbs").revision == 3
    return corpus_copy


def text(html: bytes) -> str:
    return html.decode()


def test_the_section_page_says_when_it_changed_and_links_its_history_and_permanent_address(client, changed):
    html = text(client.get("/en/rules/mpbs/9.3.1/").content)
    assert "changed in revision 2" in html
    assert 'href="/en/rules/mpbs/9.3.1/history/"' in html
    assert 'href="/en/rules/mpbs/9.3.1/@3/"' in html  # the current text's permanent address
    ru = text(client.get("/ru/rules/mpbs/9.3.1/").content)
    assert "изменён в редакции 2" in ru and 'href="/ru/rules/mpbs/9.3.1/history/"' in ru
    # A section unchanged since the first load says nothing of revisions, but has its history.
    plain = text(client.get("/en/rules/mpbs/9.2.1/").content)
    assert "changed in revision" not in plain and "/en/rules/mpbs/9.2.1/history/" in plain


def test_the_history_lists_the_revisions_and_diffs_the_latest_change_word_by_word(client, changed):
    html = text(client.get("/en/rules/mpbs/9.3.1/history/").content)
    assert "Revision 1 → revision 2, English" in html
    assert re.search(r"<ins>[^<]*quokkas &lt;script&gt;alert\(&quot;en&quot;\)&lt;/script&gt;", html)
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "<ins>&lt;b&gt;now&lt;/b&gt;" in html.replace("<ins> ", "<ins>")  # the title's change, escaped
    assert 'href="/en/rules/mpbs/9.3.1/@2/"' in html and 'href="/en/rules/mpbs/9.3.1/@1/"' in html
    assert "@3/" not in html  # revision 3 did not change 9.3.1
    # The same diff in Russian, on the Russian page.
    ru = text(client.get("/ru/rules/mpbs/9.3.1/history/?from=1&to=2&in=ru").content)
    assert "Редакция 1 → редакция 2, русский" in ru
    assert "<ins>квокки &lt;script&gt;alert(&quot;ru&quot;)&lt;/script&gt;" in ru.replace("<ins> ", "<ins>")
    assert "<script>alert" not in ru
    # The deleted side: from 2 back to 1 the words come out as <del>.
    back = text(client.get("/en/rules/mpbs/9.3.1/history/?from=2&to=1").content)
    assert "Revision 1 → revision 2" in back  # the older is always on the left


def test_any_two_revisions_and_unchanged_ones(client, changed):
    same = text(client.get("/en/rules/mpbs/9.3.1/history/?from=2&to=3&in=en").content)
    assert "The text is the same in these two revisions." in same
    both = text(client.get("/en/rules/mpbs/9.3.2/history/?from=1&to=3&in=en").content)
    assert "<ins>revised</ins>" in both.replace("<ins> ", "<ins>")


@pytest.mark.parametrize("query, message", [
    ("from=x", "must be a revision number"),
    ("to=9", "there is no revision 9"),
    ("from=0", "there is no revision 0"),
    ("in=de", "must be ru or en"),
])
def test_bad_history_queries_say_what_is_wrong(client, changed, query, message):
    response = client.get(f"/en/rules/mpbs/9.3.1/history/?{query}")
    assert response.status_code == 400 and message in text(response.content)


def test_a_section_at_a_revision_has_a_permanent_address(client, changed):
    old = text(client.get("/en/rules/mpbs/9.3.1/@1/").content)
    assert OLD_EN in old and "quokkas" not in old
    assert "The text of revision 1" in old and 'href="/en/rules/mpbs/9.3.1/history/?from=1&amp;to=3&amp;in=en"' in old
    new = text(client.get("/en/rules/mpbs/9.3.1/@2/").content)
    assert "quokkas &lt;script&gt;" in new and "<script>alert" not in new and "It is also the current text." in new
    ru = text(client.get("/ru/rules/mpbs/9.3.1/@1/").content)
    assert OLD_RU in ru and "квокки" not in ru and "Текст редакции 1" in ru
    # The current address keeps meaning "latest"; a number in another form goes to the canonical address.
    assert "quokkas" in text(client.get("/en/rules/mpbs/9.3.1/").content)
    response = client.get("/en/rules/mpbs/9.%203.%201/@1/")
    assert response.status_code == 301 and response["Location"] == "/en/rules/mpbs/9.3.1/@1/"
    missing = client.get("/en/rules/mpbs/9.3.1/@4/")
    assert missing.status_code == 404 and "no revision 4 (its latest is 3)" in text(missing.content)  # says why
    assert client.get("/en/rules/mpbs/9.3.1/@99999999999999999999/").status_code == 404  # past any integer column
    gone = client.get("/ru/rules/mpbs/99.9/@1/")
    assert gone.status_code == 404 and "В этой книге правил нет раздела 99.9." in text(gone.content)


def test_what_changed_since_a_revision(client, changed):
    html = text(client.get("/en/rules/mpbs/changes/?since=1").content)
    assert "What changed since revision 1" in html and "2 sections changed." in html
    assert 'href="/en/rules/mpbs/9.3.1/history/?from=1&amp;to=3&amp;in=ru"' in html
    assert html.index("9.3.1") < html.index("9.3.2")  # in book order
    later = text(client.get("/en/rules/mpbs/changes/?since=2").content)
    assert "1 section changed." in later and "/9.3.2/history/?from=2&amp;to=3&amp;in=en" in later
    assert "/9.3.1/history/" not in later
    ru = text(client.get("/ru/rules/mpbs/changes/?since=1").content)
    assert "Что изменилось после редакции 1" in ru and "2 раздела изменены." in ru
    assert "Nothing has changed since then." in text(client.get("/en/rules/mpbs/changes/?since=3").content)
    assert client.get("/en/rules/mpbs/changes/?since=abc").status_code == 400
    book_page = text(client.get("/en/rules/mpbs/").content)
    assert 'href="/en/rules/mpbs/changes/"' in book_page
    assert '<link rel="alternate" type="application/atom+xml" href="/en/rules/mpbs/changes/feed/"' in book_page


def test_the_atom_feed_is_valid_and_escapes_hostile_text(client, changed):
    response = client.get("/en/rules/mpbs/changes/feed/")
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)  # well-formed XML
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}title").text for e in entries] == ["Revision 3", "Revision 2", "Revision 1"]
    assert all(e.find(f"{ATOM}id").text and e.find(f"{ATOM}updated").text for e in entries)
    summary = entries[1].find(f"{ATOM}summary")
    assert summary.get("type") == "html"
    html = summary.text  # the HTML the feed reader renders
    assert "9.3.1 Eligibility &lt;b&gt;now&lt;/b&gt;" in html and "<b>" not in html
    assert "/en/rules/mpbs/9.3.1/history/?from=1&amp;to=2&amp;in=en" in html
    ru = ET.fromstring(client.get("/ru/rules/mpbs/changes/feed/").content)
    assert ru.find(f"{ATOM}entry/{ATOM}title").text == "Редакция 3"
    assert ru.get("{http://www.w3.org/XML/1998/namespace}lang") == "ru" and response.has_header("Last-Modified")


def test_no_section_can_take_the_address_of_the_changes_page():
    from rulesref.reference.corpus import valid_id

    assert not valid_id("changes") and not valid_id("errata") and valid_id("charge-phase")
