#!/usr/bin/env python
"""Screenshots of the rulings and of print (#32):

    python docs/make_rulings_screenshots.py     # writes docs/screenshots/rulings-*.png and print-*.png

Print renderings are Chromium's own (``page.pdf()``, A4, as a reader's "Print" makes them), converted to PNG with
pdftoppm (poppler-utils): chapter 9.3 of mpbs in English, in Russian, and in both side by side with its rulings.
Then, on screen: a ruling under its clause (opened), the FAQ page, a ruling that may be outdated, the workspace's
ruling editor, a print sheet's options and the quick-reference page. Serves the site as docs/make_screenshots.py
does (quickstart in a fresh var directory), with two rulings made in it.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_screenshots import CHROMIUM, OUT, serve  # noqa: E402

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the ORM is used between Playwright calls, in this thread
PAGES = 2  # pages of each printed chapter kept as pictures
PASSWORD = "a-long-screenshot-password"


def rulings() -> None:
    """Two published rulings on 9.3.1 (one translated), as a reviewer makes them, and a reviewer to sign in as."""
    from django.contrib.auth.models import Group, User

    from rulesref.reference.models import Book
    from rulesref.rulings import citations, workflow

    reviewer = User.objects.create_user("rita", password=PASSWORD)
    reviewer.groups.add(Group.objects.get_or_create(name="reviewers")[0])
    book = Book.objects.get(slug="mpbs")
    workflow.create(book, workflow.NewRuling(
        source_language="ru", cited=citations.parse("9.3.1f", book), status="approved", other_status="approved",
        question="Может ли кавалерийское подразделение попытаться перехватить второй раз за одну активацию крыла?",
        answer="Нет. По 9.3.1f кавалерийское подразделение пытается перехватить только однажды за активацию "
               "противника, даже если первая попытка не удалась.\n\nПродление активации крыла считается новой "
               "активацией: в ней можно попытаться снова.",
        other_question="May a cavalry unit try to intercept a second time in one activation of a wing?",
        other_answer="No. Under 9.3.1f a cavalry unit tries to intercept only once per enemy activation, even when "
                     "the first attempt failed.\n\nA continued activation of the wing counts as a new activation: "
                     "it may try again in it."), user=reviewer)
    workflow.create(book, workflow.NewRuling(
        source_language="ru", cited=citations.parse("9.3.1a", book), status="approved",
        question="Как далеко от кавалерийского подразделения должно действовать вражеское подразделение?",
        answer="Не дальше четырёх гексов: по 9.3.1a инициирующее действие должно произойти в пределах четырёх "
               "гексов от кавалерийского подразделения."), user=reviewer)


def outdate() -> int:
    """Change clause a of 9.3.1 in the source, as an edit of the corpus does: the second ruling may be outdated."""
    from rulesref.reference import history
    from rulesref.reference.models import Book, SectionText

    book = Book.objects.get(slug="mpbs")
    text = SectionText.objects.get(section__book=book, section__sid="9.3.1", language="ru")
    text.body = text.body.replace("в пределах четырех гексов", "в пределах трёх гексов", 1)
    text.save()
    revision = history.record(book, "admin", only=[("9.3.1", "ru")])
    book.bump_version()
    return revision.number


def pdf_pictures(page, url: str, name: str, work: Path, heading: str) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    pdf = work / f"{name}.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=False)
    info = subprocess.run(["pdfinfo", str(pdf)], check=True, capture_output=True, text=True).stdout
    last = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
    glossary = next((n for n in range(last, 0, -1) if heading in subprocess.run(
        ["pdftotext", "-f", str(n), "-l", str(n), str(pdf), "-"], check=True, capture_output=True,
        text=True).stdout), last)
    for number in sorted({*range(1, min(PAGES, last) + 1), glossary}):  # the first pages, and the glossary
        subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", str(number), "-l", str(number), "-singlefile",
                        str(pdf), str(work / f"{name}-{number}")], check=True)
        shutil.copy(work / f"{name}-{number}.png", OUT / f"print-{name}-"
                    f"{'glossary' if number == glossary and number > PAGES else f'page{number}'}.png")


def main() -> None:
    from playwright.sync_api import sync_playwright

    if shutil.which("pdftoppm") is None:
        sys.exit("pdftoppm is needed (apt-get install poppler-utils)")
    base = serve()
    rulings()
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="rulesref-print-"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
        chapter = "s=mpbs:9.3&tree=1"
        pdf_pictures(page, f"{base}/en/print/?{chapter}", "chapter-en", work, "Glossary of the terms used")
        pdf_pictures(page, f"{base}/ru/print/?{chapter}", "chapter-ru", work, "Глоссарий использованных терминов")
        pdf_pictures(page, f"{base}/en/print/?{chapter}&text=both&rulings=1", "chapter-both-rulings", work,
                     "Glossary of the terms used")

        page.goto(f"{base}/en/print/?{chapter}&text=both&rulings=1")
        page.screenshot(path=str(OUT / "print-sheet-screen-en-desktop.png"))
        page.goto(f"{base}/en/rules/mpbs/9.3.1/")
        page.locator("p[id='9.3.1f'] ~ details.rulings-here summary").first.click()
        page.locator("p[id='9.3.1f']").scroll_into_view_if_needed()
        page.screenshot(path=str(OUT / "rulings-under-clause-en-desktop.png"))
        page.goto(f"{base}/ru/rules/mpbs/faq/")
        page.screenshot(path=str(OUT / "rulings-faq-ru-desktop.png"))
        page.goto(f"{base}/ru/rules/mpbs/9.3.1/")
        page.locator("button.quickref-add").click()
        page.goto(f"{base}/ru/rules/mpbs/11.4.2/")
        page.locator("button.quickref-add").click()
        page.goto(f"{base}/ru/print/mine/")
        page.fill("#quickref-title", "Перехват и отступление")
        page.screenshot(path=str(OUT / "print-quickref-ru-desktop.png"))

        outdate()
        page.goto(f"{base}/en/rules/mpbs/rulings/2/")
        page.screenshot(path=str(OUT / "rulings-outdated-en-desktop.png"))
        page.goto(f"{base}/en/accounts/login/?next=/en/translate/")
        page.fill("#id_username", "rita")
        page.fill("#id_password", PASSWORD)
        page.click("button.primary")
        page.wait_for_url(f"{base}/en/translate/")
        page.goto(f"{base}/en/translate/mpbs/+rulings/2/")
        page.screenshot(path=str(OUT / "rulings-workspace-en-desktop.png"))

        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{base}/ru/rules/mpbs/9.3.1/")
        phone.locator("p[id='9.3.1f'] ~ details.rulings-here summary").first.click()
        phone.locator("p[id='9.3.1f']").scroll_into_view_if_needed()
        phone.screenshot(path=str(OUT / "rulings-under-clause-ru-phone.png"))
        browser.close()
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
