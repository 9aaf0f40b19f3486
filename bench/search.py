"""Search benchmarks: p50 over a list of queries on the real corpus and on generated corpora of 1,000, 5,000 and
20,000 sections (paragraphs of the real corpus recombined, in both languages). Needs Django set up with a
throw-away database (bench/run.py does that)."""
from __future__ import annotations

import random
import statistics
import time

QUERIES = ["перехват", "перехватить", "withdrawing", "hedgehog", "хиты построения", "retreat priorities",
           "stand and shoot", "отступление", "cavalry intercept", "хеджхог", "9.3.1", "XIII.7.C", "приказ сбор",
           "formation hits", "преследование"]


def p50_ms(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        for q in QUERIES:
            t = time.perf_counter()
            fn(q)
            times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def generated_book(n: int):
    """A rulebook of n sections whose texts recombine the real corpus's paragraphs."""
    from django.db import transaction

    from rulesref.reference.corpus import split_blocks
    from rulesref.reference.models import Book, Section, SectionText

    rng = random.Random(n)
    paragraphs = {"ru": [], "en": []}
    titles = {"ru": [], "en": []}
    for text in SectionText.objects.exclude(body=""):
        paragraphs[text.language] += split_blocks(text.body)
        if text.title:
            titles[text.language].append(text.title)
    slug = f"bench{n}"
    with transaction.atomic():
        Book.objects.filter(slug=slug).delete()
        book = Book.objects.create(slug=slug, title_ru=slug, title_en=slug, position=100, version=1)
        sections = Section.objects.bulk_create(
            Section(book=book, sid=f"{i // 100 + 1}.{i % 100 + 1}", position=i + 1, depth=2) for i in range(n))
        texts = []
        for section in sections:
            rng.randrange(len(paragraphs["ru"]))  # drawn and unused: keeps the generated corpus as it was
            for lang in ("ru", "en"):
                body = "\n\n".join(rng.choice(paragraphs[lang]) for _ in range(3))
                texts.append(SectionText(section=section, language=lang, title=rng.choice(titles[lang]), body=body))
        SectionText.objects.bulk_create(texts, batch_size=2000)
    return book


def figures(quick: bool):
    from django.utils import translation

    from rulesref.reference.models import Book
    from rulesref.reference.search import ensure_index, search

    translation.activate("en")
    real = list(Book.objects.all())
    ensure_index(real)
    yield "search.real_corpus.p50", p50_ms(lambda q: search(q, "en")), "ms", "<= 15"
    for n in (1000,) if quick else (1000, 5000, 20000):
        book = generated_book(n)
        t = time.perf_counter()
        ensure_index([book])
        yield f"search.generated_{n}.index_build", time.perf_counter() - t, "s", ""
        search("перехват", "en", book_slug=book.slug)  # warm the vocabulary
        yield (f"search.generated_{n}.p50", p50_ms(lambda q: search(q, "en", book_slug=book.slug)), "ms",
               "<= 15" if n == 20000 else "")
        book.delete()
