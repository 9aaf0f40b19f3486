"""Template context every page needs: the rulebooks for the header and the other language's URL of this page."""
from django.urls import translate_url
from django.utils.translation import get_language

from .models import Book


def site(request):
    lang = (get_language() or "en")[:2]
    other = "ru" if lang == "en" else "en"
    url = translate_url(request.path, other)
    if request.GET:
        url = f"{url}?{request.GET.urlencode()}"
    return {
        "site_books": Book.objects.only("slug"),
        "other_language": other,
        "language_switch_url": url,
    }
