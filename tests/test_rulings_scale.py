"""Rulings at scale (#32, as #27 bounds the workspace): every write — a ruling published, its translation approved,
its citations changed, a confirmation, a withdrawal, an import — and the pages and answers that read rulings ask the
database as much in a book of 600 sections as in one of 39, and read a bounded number of rows: what they cost is
the change's, never the book's. Counted by queries and rows, never by time. RULESREF_SCALE_SECTIONS makes the big
book bigger (20,000 to check the figures of docs/rulings.md by hand; 600 in CI)."""
from __future__ import annotations

import os

import pytest
from generated_books import load, remove
from test_translation_scale import BIG, Work
from test_translation_support import client_for, make_user

from rulesref.reference.models import Book, SectionText
from rulesref.rulings.models import Ruling

pytest_plugins = ["test_translation_support"]
SECTIONS = int(os.environ.get("RULESREF_SCALE_SECTIONS", "600"))
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_passwords")]


@pytest.fixture(scope="module")
def big(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        yield load(BIG, SECTIONS, tmp_path_factory.mktemp(BIG))
        remove(BIG)


@pytest.fixture
def production(settings):
    """Background work queued as production queues it (an offline copy, QA), not run in the request."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.RULESREF_OFFLINE_COPIES = "background"


@pytest.fixture
def rita(db, fast_passwords):
    return client_for(make_user("rita", "reviewers"))


def cited(book: Book, n: int = 5) -> str:
    """A section of the book with a text, late in it."""
    return SectionText.objects.filter(section__book=book, language=book.source_language, blank=False).order_by(
        "-section__position").values_list("section__sid", flat=True)[n]


def new_ruling(client, book: Book, n: int, status: str = "approved") -> Work:
    data = {"language": book.source_language, "citations": cited(book, n), "question": f"Вопрос номер {n}?",
            "answer": f"Ответ номер {n}: см. {cited(book, n)}.", "status": status, "other_question": "",
            "other_answer": "", "other_status": "draft", "checker": "", "comment": ""}
    url = f"/en/translate/{book.slug}/+rulings/new/"
    work = Work(lambda: client.post(url, data))
    assert Ruling.objects.filter(book=book, number__gte=1).exists()
    return work


def both(big: Book, measure) -> dict[str, Work]:
    return {book.slug: measure(book) for book in (Book.objects.get(slug="mpbs"), big)}


def same_cost(work: dict[str, Work], slack: int = 2, rows: int = 80) -> bool:
    return work[BIG].queries <= work["mpbs"].queries + slack and work[BIG].rows <= rows


def test_publishing_a_ruling_costs_the_same_in_a_big_book(big, rita, production):
    for book in (Book.objects.get(slug="mpbs"), big):
        new_ruling(rita, book, 1)  # the first of a book makes what a first one makes
    work = both(big, lambda book: new_ruling(rita, book, 2))
    assert same_cost(work), work


def test_approving_a_rulings_translation_costs_the_same_in_a_big_book(big, rita, production):
    def approve(book: Book) -> Work:
        new_ruling(rita, book, 3)
        ruling = Ruling.objects.filter(book=book).order_by("-number").first()
        url = f"/en/translate/{book.slug}/+rulings/{ruling.number}/"
        data = {"which": "target", "en-version": 0, "en-source_revision": "", "en-question": "Question?",
                "en-answer": "Answer.", "en-status": "approved", "en-comment": ""}
        return Work(lambda: rita.post(url, data))

    work = both(big, approve)
    assert same_cost(work), work


@pytest.mark.parametrize("action", ["confirm", "withdraw", "citations"])
def test_confirming_withdrawing_and_citing_cost_the_same_in_a_big_book(big, rita, production, action):
    def act(book: Book) -> Work:
        new_ruling(rita, book, 4)
        ruling = Ruling.objects.filter(book=book).order_by("-number").first()
        url = f"/en/translate/{book.slug}/+rulings/{ruling.number}/{action}/"
        data = {"version": ruling.version, "citations": f"{cited(book, 4)}, {cited(book, 6)}", "checker": ""} \
            if action == "citations" else {}
        return Work(lambda: rita.post(url, data))

    work = both(big, act)
    assert same_cost(work), work


def test_an_import_costs_what_its_rulings_cost_not_what_the_book_holds(big, rita, production):
    def import_ten(book: Book) -> Work:
        text = "\n---\n".join(f"Clauses: {cited(book, n)}\nQ: Импортированный вопрос {n}?\nA: Ответ {n}."
                              for n in range(10))
        url = f"/en/translate/{book.slug}/+rulings/import/"
        return Work(lambda: rita.post(url, {"text": text, "status": "approved", "apply": "1"}))

    work = both(big, import_ten)
    assert Ruling.objects.filter(book=big).count() == 10
    assert same_cost(work, rows=200), work


@pytest.mark.parametrize("page", ["section", "faq", "api-section", "api-rulings", "print", "workspace"])
def test_pages_that_read_rulings_cost_the_same_in_a_big_book(big, rita, production, client, page):
    from rulesref.api import http as api_http
    from rulesref.reference import pagecache

    for book in (Book.objects.get(slug="mpbs"), big):
        new_ruling(rita, book, 5)

    def url(book: Book) -> str:
        sid = cited(book, 5)
        return {"section": f"/en/rules/{book.slug}/{sid}/", "faq": f"/en/rules/{book.slug}/faq/",
                "api-section": f"/api/v1/books/{book.slug}/sections/{sid}",
                "api-rulings": f"/api/v1/books/{book.slug}/rulings",
                "print": f"/en/print/?s={book.slug}:{sid}&rulings=1",
                "workspace": f"/en/translate/{book.slug}/+rulings/"}[page]

    def read(book: Book) -> Work:
        reader = rita if page == "workspace" else client
        assert reader.get(url(book)).status_code == 200  # the book's index, built once per content version
        pagecache.clear()
        api_http.clear()
        return Work(lambda: reader.get(url(book)))

    work = both(big, read)
    assert same_cost(work, rows=40), work


