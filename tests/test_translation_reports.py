"""Reports from readers (issue #15 point 3): on any paragraph of a published section, in either language, a short
form (a page without script, a fragment with htmx), anchored to the paragraph and the revision of the text the
reader saw, queued for the translators with a status, followed by the reader through a link; anonymous reports
rate-limited, length-limited, refused when the text cannot be stored, and always shown escaped."""
from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from test_translation_support import client_for, editor_url

from rulesref.reference.corpus import source_revision, split_blocks
from rulesref.reference.models import SectionText
from rulesref.translation.forms import ReportForm
from rulesref.translation.models import Report

pytest_plugins = ["test_translation_support"]
pytestmark = pytest.mark.django_db
PAYLOAD = '<script>alert("x")</script> <img src=x onerror=alert(1)> javascript:alert(2)'


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()  # the report limit counts in the cache
    yield
    cache.clear()


def text(sid: str, lang: str, book: str = "mpbs") -> SectionText:
    return SectionText.objects.get(section__book__slug=book, section__sid=sid, language=lang)


def report_links(html: str) -> list[str]:
    return [u.replace("&amp;", "&") for u in re.findall(r'<p class="report-problem"><a href="([^"]+)"', html)]


def send(client: Client, url: str, message: str = "The translation says four hexes; the source says two.",
         kind: str = "translation", **extra):
    path, _, query = url.partition("?")
    data = {"kind": kind, "message": message, **dict(p.split("=", 1) for p in query.split("&") if p)}
    return client.post(path, data, **extra)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_paragraph_of_a_published_section_has_a_report_link(client, lang):
    html = client.get(f"/{lang}/rules/mpbs/9.3.1/").content.decode()
    published = text("9.3.1", lang)
    revision = source_revision(published.title, published.body)
    links = report_links(html)
    assert links == [f"/{lang}/report/mpbs/9.3.1/{n}/?rev={revision}" for n in range(1, len(published.blocks) + 1)]
    assert html.count('hx-get="/' + lang + '/report/mpbs/9.3.1/') == len(links)  # opens in place with htmx


def test_a_report_without_script_is_anchored_and_followed(client):
    url = report_links(client.get("/en/rules/mpbs/9.3.1/").content.decode())[1]
    form = client.get(url)
    assert form.status_code == 200 and "a) The enemy unit performs a triggering action" in form.content.decode()
    response = send(client, url, kind="typo")
    report = Report.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/en/reports/{report.token}/"
    published = text("9.3.1", "en")
    assert (report.book, report.sid, report.language, report.paragraph, report.kind, report.status) == (
        "mpbs", "9.3.1", "en", 2, "typo", "new")
    assert report.revision == source_revision(published.title, published.body)
    assert report.quoted == published.blocks[1]
    follow = client.get(response["Location"]).content.decode()
    assert "four hexes" in follow and "typo" in follow and ">new<" in follow
    assert 'name="robots" content="noindex"' in follow


def test_a_report_with_htmx_stays_on_the_page(client):
    url = report_links(client.get("/ru/rules/mpbs/9.3.1/").content.decode())[0]
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<form method="post"') and "<html" not in fragment
    assert 'id="report-ru-1-message"' in fragment  # ids of its own: several forms may be open on one page
    done = send(client, url, HTTP_HX_REQUEST="true").content.decode()
    report = Report.objects.get()
    assert "report-thanks" in done and f'href="/ru/reports/{report.token}/"' in done
    assert report.language == "ru" and report.reader_language == "ru"


def test_the_source_shown_in_place_of_a_missing_translation_can_be_reported(client):
    text("9.3.6", "en").delete()
    html = client.get("/en/rules/mpbs/9.3.6/").content.decode()
    links = report_links(html)
    assert links and "text=ru" in links[0]
    send(client, links[0], kind="typo")
    assert Report.objects.get().language == "ru"


@pytest.mark.parametrize("url", ["/en/report/mpbs/9.3.1/99/", "/en/report/mpbs/99.99/1/", "/en/report/nobook/9.3.1/1/",
                                 "/en/report/mpbs/9/1/", "/en/reports/not-a-token/"])
def test_reports_on_what_does_not_exist_get_a_clear_404(client, url):
    response = client.get(url)
    assert response.status_code == 404 and "There is no published paragraph or report" in response.content.decode()


@pytest.mark.parametrize("message, error", [
    ("", "This field is required."),
    ("x" * 2001, "Ensure this value has at most 2000 characters"),
    ("a NUL \x00 inside", "contains a NUL character (U+0000) at character 7"),  # refused at the edge
])
def test_bad_reports_are_refused_and_nothing_is_stored(client, message, error):
    url = report_links(client.get("/en/rules/mpbs/9.3.1/").content.decode())[0]
    response = send(client, url, message=message)
    assert response.status_code == 400 and error in response.content.decode()
    assert Report.objects.count() == 0


def test_a_lone_surrogate_is_refused_by_the_form():
    form = ReportForm(data={"kind": "typo", "message": "broken \ud800 text"})
    assert not form.is_valid() and "lone surrogate (U+D800) at character 8" in str(form.errors["message"])


def test_an_unknown_kind_is_refused(client):
    url = report_links(client.get("/en/rules/mpbs/9.3.1/").content.decode())[0]
    assert send(client, url, kind="<b>spam</b>").status_code == 400 and Report.objects.count() == 0


@pytest.mark.rate_limits
def test_anonymous_reports_are_limited_per_address(client, settings, translator):
    settings.RULESREF_RATE_LIMITS = {**settings.RULESREF_RATE_LIMITS, "report": "3/h"}
    url = report_links(client.get("/en/rules/mpbs/9.3.1/").content.decode())[0]
    assert [send(client, url).status_code for _ in range(3)] == [302, 302, 302]
    refused = send(client, url)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Problem reports sent from one address without signing in: at most 3" in refused.content.decode()
    assert Report.objects.count() == 3
    assert send(Client(REMOTE_ADDR="203.0.113.9"), url).status_code == 302  # another reader
    assert send(client_for(translator), url).status_code == 302  # signed in: not limited
    assert Report.objects.count() == 5


def test_the_queue_the_editor_and_the_readers_page(client, translator, outsider):
    url = report_links(client.get("/en/rules/mpbs/9.3.1/").content.decode())[1]
    follow = send(client, url, message=PAYLOAD)["Location"]
    report = Report.objects.get()
    tina = client_for(translator)
    dashboard = tina.get("/en/translate/mpbs/").content.decode()
    assert '<span class="status report-new">new</span> 1</a>' in dashboard
    assert 'href="/en/translate/mpbs/9.3.1/"' in dashboard.split('id="reports-h"', 1)[1].split("</section>", 1)[0]
    queue = tina.get("/en/translate/mpbs/+reports/").content.decode()
    assert f'id="report-{report.pk}"' in queue and "&lt;script&gt;" in queue and "<script>alert" not in queue
    editor = tina.get(editor_url("9.3.1")).content.decode()
    row = editor.split('id="row-2"', 1)[1].split('id="row-3"', 1)[0]
    assert "Reports from readers" in row and "&lt;script&gt;alert" in row and "<img src=x" not in row
    response = tina.post(f"/en/translate/mpbs/+reports/{report.pk}/", {
        f"r{report.pk}-status": "accepted", f"r{report.pk}-response": "Thank you: we will fix it <b>soon</b>."})
    assert response.status_code == 302
    report.refresh_from_db()
    assert (report.status, report.handled_by) == ("accepted", translator)
    page = client.get(follow).content.decode()
    assert ">accepted<" in page and "we will fix it &lt;b&gt;soon&lt;/b&gt;." in page
    assert client.get("/en/translate/mpbs/+reports/").status_code == 302  # readers: sign in first
    assert client_for(outsider).get("/en/translate/mpbs/+reports/").status_code == 403
    assert client_for(outsider).post(f"/en/translate/mpbs/+reports/{report.pk}/", {}).status_code == 403
    assert tina.get("/en/translate/mpbs/+reports/?status=%3Cb%3E").status_code == 200


def test_the_queue_needs_the_csrf_token(translator, client):
    url = report_links(client.get("/en/rules/mpbs/9.3.1/").content.decode())[0]
    send(client, url)
    report = Report.objects.get()
    strict = client_for(translator, enforce_csrf_checks=True)
    assert strict.post(f"/en/translate/mpbs/+reports/{report.pk}/", {f"r{report.pk}-status": "fixed"}).status_code == 403
    anonymous = Client(enforce_csrf_checks=True)
    assert send(anonymous, url).status_code == 403


def test_the_report_pages_in_russian(client):
    url = report_links(client.get("/ru/rules/mpbs/9.3.1/").content.decode())[0]
    form = client.get(url).content.decode()
    assert "Сообщить о проблеме" in form and "неверный перевод" in form
    follow = client.get(send(client, url)["Location"]).content.decode()
    assert "Ваше сообщение" in follow and ">новое<" in follow


def test_paragraph_numbers_follow_the_blocks_of_the_text():
    body = text("9.3.1", "en").body
    assert len(split_blocks(body)) == 9  # the 9 links of the page, one per block (lettered clauses included)
