"""sitemap.xml (Django's sitemaps framework): every public reference page in both languages, each with its
alternate in the other language and an x-default."""
from __future__ import annotations

from django.conf import settings
from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from .glossary import book_glossary
from .index import book_index, books


class ReferenceSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    languages = ["ru", "en"]

    def items(self) -> list[tuple[str, dict]]:
        """(URL name, its arguments) of the home page, each rulebook's contents, errata, sections with text,
        glossary and terms."""
        out: list[tuple[str, dict]] = [("reference:home", {})]
        for book in books().values():
            slug = book.slug
            out += [("reference:book", {"book": slug}), ("reference:errata", {"book": slug})]
            index = book_index(book)
            out += [("reference:section", {"book": slug, "section": sid}) for sid in index.order
                    if not index.entries[sid].absent]
            terms = book_glossary(settings.FIXTURES_DIR, slug).terms
            if terms:
                out.append(("reference:glossary", {"book": slug}))
                out += [("reference:term", {"book": slug, "term": t.id}) for t in terms]
        return out

    def location(self, item: tuple[str, dict]) -> str:
        name, kwargs = item
        return reverse(name, kwargs=kwargs)  # in the language the framework has switched to

    def _urls(self, page, protocol, domain):
        # Django drops the language prefix for x-default, which suits prefix_default_language=False; here every
        # address has its prefix, so x-default is the English page (as in the pages' own hreflang links).
        urls = super()._urls(page, protocol, domain)
        for url in urls:
            by_code = {a["lang_code"]: a for a in url["alternates"]}
            if "x-default" in by_code:
                by_code["x-default"]["location"] = by_code["en"]["location"]
        return urls

    def priority(self, item: tuple[str, dict]) -> float:
        return {"reference:section": 0.8, "reference:home": 1.0}.get(item[0], 0.5)


SITEMAPS = {"reference": ReferenceSitemap}
