"""Fixtures and helpers shared by the tests of the translator's workspace (no tests of its own)."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import translation

from rulesref.reference.models import Book, Section, SectionText
from rulesref.translation import workflow
from rulesref.translation.models import Status, Translation

PASSWORD = "a-long-test-password"


@pytest.fixture(autouse=True)
def reader_language_reset():
    """A request to a /ru/ page leaves Russian active in the thread (LocaleMiddleware activates, nothing resets):
    every test starts and ends in the default language, so texts made outside a request do not depend on order."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str, *groups: str, superuser: bool = False) -> User:
    user = User.objects.create_user(username, password=PASSWORD, is_superuser=superuser, is_staff=superuser)
    for name in groups:
        group, _ = Group.objects.get_or_create(name=name)  # transactional tests flush the migration's groups
        user.groups.add(group)
    return user


@pytest.fixture
def translator(db, fast_passwords):
    return make_user("tina", "translators")


@pytest.fixture
def reviewer(db, fast_passwords):
    return make_user("rita", "reviewers")


@pytest.fixture
def outsider(db, fast_passwords):
    return make_user("olga")


def sign_in(page, base: str, username: str, next_url: str) -> None:
    """Sign ``username`` in through the real form in Chromium and land on ``next_url``."""
    page.goto(f"{base}/en/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(f"{base}{next_url}")


def client_for(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def tina(translator):
    return client_for(translator)


@pytest.fixture
def rita(reviewer):
    return client_for(reviewer)


def book(slug: str = "mpbs") -> Book:
    return Book.objects.get(slug=slug)


def item(sid: str, slug: str = "mpbs", qa: bool = False) -> workflow.Item:
    return workflow.book_item(book(slug), "en", sid, with_qa=qa)


def editor_data(sid: str, slug: str = "mpbs", *, title: str | None = None, blocks: list[str] | None = None,
                status: str = "draft", comment: str = "", version: int | None = None) -> dict:
    """What the editor form posts for a section, with the given changes."""
    it = item(sid, slug)
    units = workflow.section_units(it, book(slug))
    current = [u.target for u in units.units if u.paragraph > 0] + units.orphans
    blocks = current if blocks is None else blocks
    data = {"version": it.translation.version if version is None else version,
            "source_revision": it.current_revision, "paragraphs": len(blocks),
            "title": it.translation.title if title is None else title, "status": status, "comment": comment}
    for n, text in enumerate(blocks, start=1):
        data[f"p{n}"] = text
    return data


def save(sid: str, user, *, slug: str = "mpbs", title: str | None = None, body: str | None = None,
         status: str = "draft", comment: str = "", base_version: int | None = None) -> workflow.SaveResult:
    it = item(sid, slug)
    t = it.translation
    return workflow.save_translation(
        t, user=user, title=t.title if title is None else title, body=t.body if body is None else body,
        status=status, base_version=t.version if base_version is None else base_version,
        source_revision=it.current_revision, comment=comment)


def editor_url(sid: str, slug: str = "mpbs", lang: str = "en") -> str:
    return f"/{lang}/translate/{slug}/{sid}/"


SOURCE_935 = ("Кавалерийское подразделение, которое осуществляло перехват, по-прежнему может осуществлять действия, "
              "когда его крыло активировано. Кавалерийские подразделения в крыле, которое завершило активацию, также "
              "могут перехватывать.")


def english(sid: str, slug: str = "mpbs") -> SectionText:
    return SectionText.objects.get(section__book__slug=slug, section__sid=sid, language="en")


def source_text(sid: str, slug: str = "mpbs") -> SectionText:
    return SectionText.objects.get(section__book__slug=slug, section__sid=sid, language="ru")


def without_translation(sid: str, slug: str = "mpbs") -> None:
    """Make section ``sid`` one whose translation the corpus lacks, as a book loaded without it has it: no text in
    the target language, and a workspace row that is missing (not one made from the text before it went)."""
    SectionText.objects.filter(section__book__slug=slug, section__sid=sid, language="en").delete()
    Translation.objects.filter(section__book__slug=slug, section__sid=sid).delete()
    Translation.objects.create(section=Section.objects.get(book__slug=slug, sid=sid), language="en",
                               status=Status.MISSING)


def untranslated(sid: str, russian: str, slug: str = "mpbs") -> None:
    """Make section ``sid`` a missing translation whose source is ``russian`` (what a new rulebook section is)."""
    SectionText.objects.filter(section__book__slug=slug, section__sid=sid, language="en").delete()
    Translation.objects.filter(section__book__slug=slug, section__sid=sid).delete()
    text = source_text(sid, slug)
    text.body = russian
    text.save()
