"""Ranking (#13 point 5): the section a query must put first, in both languages, reasoned from the rules text.

A reader who types a term's name wants the section the title names it in; one who types a word as the rules use it
("перехватить", to intercept) wants the clause that says it. The same list is the shared list of #11: CI runs it on
SQLite (FTS5) and on PostgreSQL, so it also proves the two databases agree on the top result.
"""
import pytest

from rulesref.reference.search import search

pytestmark = pytest.mark.django_db

SHARED_QUERIES = [
    # 9.3.1 "Способность" is the clause that says who may intercept: "Неактивное кавалерийское подразделение может
    # попытаться перехватить…". The verb is typed; the section titled with the noun (9.3) comes later.
    ("перехватить", "9.3.1"),
    # 9.3 is titled "Перехват (Interception)": the section on interception as a whole.
    ("перехват", "9.3"),
    ("interception", "9.3"),
    # 11.4.10 is the section on formation hits, titled "Formation hits" / "Хиты формирования": the seeds write the
    # term both ways (TERMS.md), and the glossary gives both as forms of one term.
    ("хиты построения", "11.4.10"),
    ("formation hits", "11.4.10"),
    # 9.2.3 "Построение ежа" / "Hedgehog".
    ("ежа", "9.2.3"),
    ("hedgehog", "9.2.3"),
    # 9.2.4 "Отход (Withdraw)": "withdrawing" is a form of the title's word.
    ("отход", "9.2.4"),
    ("withdrawing", "9.2.4"),
    ("приоритеты отступления", "11.4.2"),
    ("retreat priorities", "11.4.2"),
    ("продвижение после боя", "11.4.6"),
    ("advance after combat", "11.4.6"),
    # 5.7 "Изменение приказов" / "Orders Change".
    ("изменение приказов", "5.7"),
    ("orders change", "5.7"),
    # 5.8 is the only section whose title names the Rally order ("Обязательное изменение приказов на «Сбор»").
    ("приказ сбор", "5.8"),
    # 6.2.2 "Разворот (Counter March)".
    ("разворот", "6.2.2"),
    ("counter march", "6.2.2"),
    # t9a: the charge reaction sections, and the pursuit distance of XIII.7.C.
    ("стоять и стрелять", "stand-and-shoot"),
    ("stand and shoot", "stand-and-shoot"),
    ("дальность преследования", "XIII.7.C"),
    ("pursuit distance", "XIII.7.C"),
    # Flee is a t9a charge reaction (its own section); mpbs mentions fleeing only in passing (11.4.1), so the t9a
    # section leads, ahead of the first rulebook's group.
    ("flee", "flee"),
]


@pytest.mark.parametrize("reader", ["ru", "en"])
@pytest.mark.parametrize("query, first", SHARED_QUERIES)
def test_the_section_each_query_must_put_first(query, first, reader):
    hits = search(query, reader).hits
    assert hits and hits[0].sid == first, [h.sid for h in hits]


def test_perekhvatit_ranks_the_clause_on_who_may_intercept_first_and_keeps_the_rest():
    """Issue #13: 9.3.1 was 7th of 8. It is first now, and nothing of the eight is lost."""
    sids = [h.sid for h in search("перехватить", "ru").hits]
    assert sids[0] == "9.3.1"
    assert set(sids) >= {"9.3", "9.3.1", "9.3.2", "9.3.3", "9.3.7"}


def test_defining_sections_that_use_the_words_as_typed_come_first():
    """'хиты построения': after 11.4.10 (titled with the term), the term's sections whose text says "хиты
    построения" (9.3.1, 9.3.3, 9.3.4), in book order; then those that only say "хитов построения" (9.2.2, 9.2.4)."""
    sids = [h.sid for h in search("хиты построения", "ru").hits]
    assert sids[:6] == ["11.4.10", "9.3.1", "9.3.3", "9.3.4", "9.2.2", "9.2.4"]


def test_title_hits_lead_on_a_frequent_word():
    """'отступление' (retreat): every section titled with it before any that only mentions it."""
    hits = search("отступление", "ru").hits
    titled = [h.title_hit for h in hits]
    assert titled[0] and titled == sorted(titled, reverse=True)
