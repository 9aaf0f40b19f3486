"""The words the offline scripts show (the keep control, the notices, offline search), in the reader's language.

They come from the same catalogs as the rest of the UI; where a message needs a plural, each of the language's
plural categories (CLDR, as the browser's ``Intl.PluralRules`` names them) gets the form the catalog gives for a
number of that category. Where the server's pages say the same thing (search results), the same message is used.
"""
from __future__ import annotations

from babel import Locale
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

def _plural(singular: str, plural: str, lang: str) -> dict[str, str]:
    """{category: the catalog's form for a number of that category}, with %(counter)s left for the script."""
    rule = Locale.parse(lang).plural_form
    forms = {}
    for n in range(0, 200):
        forms.setdefault(rule(n), ngettext(singular, plural, n))
    return forms


def strings(lang: str) -> dict:
    return {
        "lang": lang,
        # the keep control on a rulebook's contents page
        "measuring": _("Measuring the offline copy…"),
        "keepSize": _("Both languages, the glossary and search: %(size)s to download."),
        "keeping": _("Keeping the rulebook offline… %(done)s of %(size)s"),
        "storing": _("Saving the pages on this device…"),
        "kept": _("Kept offline on %(date)s: revision %(revision)s, %(size)s."),
        "keptStale": _("Kept offline on %(date)s: revision %(revision)s. A newer revision (%(current)s) is on the "
                       "site."),
        "removed": _("The offline copy was removed."),
        "failed": _("The offline copy could not be made: %(reason)s"),
        "noSpace": _("there is not enough storage space on this device."),
        "noNetwork": _("the site cannot be reached. Try again when online."),
        "preparing": _("The offline copy of this rulebook is being prepared after a change of the rules: it can be "
                       "kept in a moment."),
        "tooLarge": _("This rulebook is now too large to keep offline as a whole: the copy on this device stays as "
                      "it was until you remove it."),
        "keptTooLarge": _("Kept offline on %(date)s: revision %(revision)s. The rulebook has since grown too large "
                          "for a whole copy, so this one can no longer be updated; remove it to free the space."),
        "sizeKB": _("%(size)s KB"),
        "sizeMB": _("%(size)s MB"),
        # notices on every page
        "offlineCopy": _("Offline copy of revision %(revision)s, saved %(date)s."),
        "offlinePage": _("Offline copy, saved %(date)s."),
        "updated": _("The rules were updated: %(books)s."),
        "updateCopy": _("Update the offline copy"),
        "updating": _("Updating the offline copy… %(done)s of %(size)s"),
        "updatedDone": _("The offline copy is up to date."),
        "reload": _("Show the updated page"),
        "dismiss": _("Dismiss"),
        # offline search, worded as the server's results are
        "offlineResults": _("Offline search in the rulebooks kept on this device."),
        "noKept": _("You are offline. To search offline, keep a rulebook offline from its contents page."),
        "goTo": _("Go to section"),
        "found": _plural("%(counter)s section found", "%(counter)s sections found", lang),
        "nothing": _("Nothing found for “%(query)s”."),
        "partial": _("No section contains all the words; these contain some of them."),
        "didYouMean": _("Did you mean"),
        "showingFor": _("Showing results for “%(s)s”."),
        "noSection": _("There is no section %(number)s."),
        "nearest": _("Nearest sections:"),
        "truncated": _("The query was too long; only its beginning was searched."),
        # the rulings found (rulesref/rulings/search.py words them so)
        "rulings": _("Rulings"),
        "rulingNumber": _("Ruling %(n)s"),
        "rulingsFound": _plural("%(n)s ruling", "%(n)s rulings", lang),
    }
