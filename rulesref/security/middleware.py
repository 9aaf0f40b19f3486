"""The site's edge: what every request passes before a view sees it.

- :class:`TrustMiddleware` (first in the list) decides what of the request the rest may believe: a proxy header that
  says the request came over HTTPS (``SECURE_PROXY_SSL_HEADER``) only from the proxies in
  ``RULESREF_TRUSTED_PROXIES`` (anyone else's is removed before Django's SecurityMiddleware reads it), and no cookie
  holding text that cannot be stored (the session middleware would look such a session key up in the database).
- :class:`EdgeMiddleware` (after LocaleMiddleware, so its answers are in the reader's language): refuses an
  address, query, form field or header holding text that cannot be stored (400, naming the field), counts the
  request against the rate limits (429 with ``Retry-After``), charges its processor time to its client, and makes
  the limits of stored bytes charge this request's client. A refusal raised deeper down (a model's last line of
  defence, a storage limit) is answered here too: never a 500. Under /api/, Django's own HTML errors (an unknown
  address) become the API's JSON.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.translation import gettext as _

from . import clients, limits, responses, storage, text

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
PATH = "path"  # where a problem of the address itself is reported


class TrustMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
        if header and clients.trusted_proxies() and not clients.is_trusted_proxy(request.META.get("REMOTE_ADDR")):
            request.META.pop(header[0], None)
        _drop_bad_cookies(request)
        return self.get_response(request)


def _pairs_problems(pairs, where: str) -> list[tuple[str, str]]:
    found = []
    for name, values in pairs:
        message = text.problem(name)
        if message:
            found.append((f"{where}{text.shown(name)}", _("its name %(problem)s") % {"problem": message}))
            continue
        for value in values:
            message = text.problem(value)
            if message:
                found.append((f"{where}{name}", message))
                break
    return found


def _header_problems(request) -> list[tuple[str, str]]:
    found = []
    for key, value in request.META.items():
        if key.startswith("HTTP_") and key != "HTTP_COOKIE" and isinstance(value, str):
            message = text.problem(value)
            if message:
                found.append((f"header.{key[5:].replace('_', '-').title()}", message))
    return found


def _drop_bad_cookies(request) -> None:
    """A cookie holding a NUL is treated as absent: no one can type one, and refusing the request would lock its
    owner out of the site until the cookie expires."""
    cookies = request.COOKIES
    if any(text.first_unstorable(k) is not None or text.first_unstorable(v) is not None for k, v in cookies.items()):
        request.COOKIES = {k: v for k, v in cookies.items()
                           if text.first_unstorable(k) is None and text.first_unstorable(v) is None}


def unstorable_input(request) -> list[tuple[str, str]]:
    """Each part of the request (path, query, form fields, headers) holding text that cannot be stored, in the
    language of its answer (the API's ``?lang=``, else the reader's)."""
    api = responses.is_api(request)
    if api:
        with translation.override(responses.api_language(request)):
            return _unstorable_parts(request, api)
    return _unstorable_parts(request, api)


def _unstorable_parts(request, api: bool) -> list[tuple[str, str]]:
    found = []
    message = text.problem(request.path_info)
    if message:
        found.append((PATH, message))
    found += _pairs_problems(request.GET.lists(), "query." if api else "")
    content_type = (request.content_type or "").lower()
    if not api and request.method == "POST" and content_type in FORM_TYPES:
        found += _pairs_problems(request.POST.lists(), "")  # (Django drops unprintable characters of file names)
    found += _header_problems(request)
    return found


class EdgeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            found = unstorable_input(request)
        except RequestDataTooBig:
            return responses.refuse(request, 413, _("The form is too large"), _(
                "The form sent is over %(n)s MB; the site takes forms up to that size.") % {
                "n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)})
        except (TooManyFieldsSent, TooManyFilesSent, MultiPartParserError) as exc:
            return responses.refuse(request, 400, _("The form could not be read"), str(exc))
        if found and found[0][0] == PATH and not responses.is_api(request):
            raise Http404(found[0][1])  # no page has such an address: the site's own 404 page
        if found:
            return responses.unstorable(request, found)
        refused = limits.hit(request)
        if refused is not None:
            return responses.too_many(request, refused)
        start = time.thread_time()
        with limits.answering(request):
            response = self.get_response(request)
        limits.used_cpu(request, time.thread_time() - start)
        return responses.json_for_api(request, response)

    def process_exception(self, request, exception):
        if isinstance(exception, limits.RateLimited):
            return responses.too_many(request, exception)
        if isinstance(exception, text.UnstorableText):
            return responses.unstorable(request, exception.problems)
        if isinstance(exception, storage.TooLarge):
            return responses.refuse(request, 413, _("Too large to keep"), str(exception))
        return None
