"""The print pages: a sheet of sections for paper (its whole content in its address, so it can be shared as a
link) and the page where a reader assembles a quick-reference sheet kept in the browser."""
from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from rulesref.languages import current_language, other_language
from rulesref.reference.index import books

from . import sheets


@require_safe
def sheet(request):
    """What the address names, laid out for paper; on screen its options, a print button and its link."""
    lang = current_language()
    known = books(request)
    options = sheets.read_options(request.GET, lang, known)
    if not options.wanted:
        return render(request, "printing/empty.html", {"problems": options.problems,
                                                       "mine_url": sheets.mine_url(lang)}, status=200)
    sheet_ = sheets.build(options, known, lang)
    first = sheet_.sections[0] if sheet_.sections else None
    if options.title:
        heading = options.title
    elif len(options.wanted) == 1 and not options.wanted[0].sid:
        heading = known[options.wanted[0].book].title(lang)
    elif first is not None:
        heading = f"{first.number} {first.title(lang)}".strip()
    else:
        heading = _("Print")
    query = options.query()
    return render(request, "printing/sheet.html", {
        "sheet": sheet_, "options": options, "heading": heading, "query": query,
        "share_url": request.build_absolute_uri(sheets.print_url(lang, query)),
        "other_url": sheets.print_url(other_language(lang), query),
        "left_out": [(w, known[w.book], sheets.print_url(lang, sheets.Options(
            [w], options.text, options.rulings, options.tree, "").query())) for w in sheet_.left_out],
        "text_choices": [("ru", "Русский"), ("en", "English"), ("both", _("Both, side by side"))],
        "mine_url": sheets.mine_url(lang), "limit": sheets.max_sections(),
        "other_lang": other_language(options.text) if options.text != "both" else "",
    })


@require_safe
def mine(request):
    """The reader's quick-reference sheet: the sections added from their pages, kept in this browser (no account);
    the page's script lists them and makes the sheet's printable, shareable address."""
    return render(request, "printing/mine.html", {"print_base": sheets.print_url(current_language(), "")})
