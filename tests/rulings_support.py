"""Helpers shared by the tests of the rulings (no tests of its own)."""
from __future__ import annotations

from rulesref.reference import history
from rulesref.reference.models import Book, SectionText
from rulesref.rulings import citations, workflow
from rulesref.rulings.models import Ruling
from rulesref.translation.models import Status

QUESTION_RU = "Может ли кавалерийское подразделение попытаться перехватить второй раз за одну активацию крыла?"
ANSWER_RU = ("Нет. По 9.3.1f кавалерийское подразделение пытается перехватить только однажды за активацию "
             "противника, даже если первая попытка не удалась.")
QUESTION_EN = "May a cavalry unit try to intercept a second time in one activation of a wing?"
ANSWER_EN = ("No. Under 9.3.1f a cavalry unit tries to intercept only once per enemy activation, even when the first "
             "attempt failed.")


def book(slug: str = "mpbs") -> Book:
    return Book.objects.get(slug=slug)


def make(user, *, slug: str = "mpbs", cite: str = "9.3.1f", lang: str = "ru", question: str = QUESTION_RU,
         answer: str = ANSWER_RU, status: str = Status.APPROVED, other: tuple[str, str] | None = None,
         other_status: str = Status.APPROVED, report=None) -> Ruling:
    b = book(slug)
    new = workflow.NewRuling(source_language=lang, question=question, answer=answer,
                             cited=citations.parse(cite, b), status=status, report=report,
                             other_question=other[0] if other else "", other_answer=other[1] if other else "",
                             other_status=other_status)
    return workflow.create(b, new, user=user)


def change_source(sid: str, old: str, new: str, slug: str = "mpbs", lang: str = "ru") -> int:
    """Change a section's text as an edit of the corpus does (its history recorded, the content marked changed);
    the new revision's number."""
    b = book(slug)
    text = SectionText.objects.get(section__book=b, section__sid=sid, language=lang)
    assert old in text.body, f"{old!r} is not in {sid}"
    text.body = text.body.replace(old, new, 1)
    text.save()
    revision = history.record(b, "admin", only=[(sid, lang)])
    b.bump_version()
    return revision.number
