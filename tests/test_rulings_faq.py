"""The FAQ page at size (#32): the rulings in the order of the clauses they answer across its pages, each page
reading only its own rulings (their order comes from their numbers and cited sections alone), so a page costs the
same with many rulings as with few. Counted by queries and rows, never timed (bench/rulings.py times it)."""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rulings_support import make

from rulesref.reference import pagecache
from rulesref.rulings import views
from rulesref.rulings.models import Ruling, RulingText

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db


def shown(client, page: int = 1) -> list[int]:
    pagecache.clear()
    html = client.get("/en/rules/mpbs/faq/", {"page": page}).content.decode()
    return [int(n) for n in re.findall(r'href="/en/rules/mpbs/rulings/(\d+)/"', html)]


def make_citing(reviewer, clauses: list[str]) -> None:
    for n, cite in enumerate(clauses):
        make(reviewer, cite=cite, question=f"Вопрос {n} о пункте {cite}?", answer=f"Ответ {n}.")


def test_the_faq_orders_rulings_by_their_clauses_across_its_pages(client, reviewer, monkeypatch):
    monkeypatch.setattr(views, "PER_PAGE", 2)
    make_citing(reviewer, ["11.4.2", "9.3.1f", "11.4.2, 5.7", "9.3.2"])  # 3 cites 5.7 too: it comes first
    assert [dict.fromkeys(shown(client, p)) for p in (1, 2)] == [dict.fromkeys([3, 2]), dict.fromkeys([4, 1])]
    html = client.get("/en/rules/mpbs/faq/").content.decode()
    assert "4 rulings" in html  # all of them counted, on every page


def test_a_faq_page_reads_only_its_own_rulings_whatever_the_book_holds(client, reviewer, monkeypatch):
    monkeypatch.setattr(views, "PER_PAGE", 2)
    loaded = {Ruling: 0, RulingText: 0}
    for model in loaded:
        def counted(cls, db, field_names, values, _model=model, _from_db=model.from_db.__func__):
            loaded[_model] += 1
            return _from_db(cls, db, field_names, values)
        monkeypatch.setattr(model, "from_db", classmethod(counted))

    def cost() -> tuple[int, dict]:
        pagecache.clear()
        client.get("/en/rules/mpbs/faq/")  # the book's index, built once per content version
        pagecache.clear()
        loaded.update(dict.fromkeys(loaded, 0))
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/en/rules/mpbs/faq/").status_code == 200
        return len(queries.captured_queries), dict(loaded)

    make_citing(reviewer, ["9.3.1f", "9.3.2", "11.4.2"])
    few = cost()
    assert few[1] == {Ruling: 2, RulingText: 4}  # the page's two rulings and their texts, no more
    make_citing(reviewer, ["5.7", "5.8", "6.1", "6.2", "11.4.3", "11.4.4", "11.4.5"])
    assert cost() == few
