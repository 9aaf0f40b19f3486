"""Template context every page needs: the rulebooks for the header and the other language's URL of this page."""
from django.urls import translate_url

from rulesref.languages import current_language, other_language

from .models import Book


def site(request):
    lang = current_language()
    other = other_language(lang)
    url = translate_url(request.path, other)
    if request.GET:
        url = f"{url}?{request.GET.urlencode()}"
    return {
        "site_books": Book.objects.only("slug"),
        "other_language": other,
        "language_switch_url": url,
    }
