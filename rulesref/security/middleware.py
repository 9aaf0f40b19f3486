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
- :class:`PolicyMiddleware` (django-csp's, in its place) sends the site's Content-Security-Policy, built once.
"""
from __future__ import annotations

import time
from functools import cached_property

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import connections
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from django.utils import translation
from django.utils.translation import gettext as _

from rulesref.writes import WriteConflict

from . import clients, deadline, limits, responses, storage, text

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
PATH = "path"  # where a problem of the address itself is reported


class PolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the policy of the settings built once per process instead of per response
    (about a sixth of a cached page's time). Nothing on this site varies the policy: no view asks for a nonce or
    uses django-csp's per-view decorators. A response or request that does still goes through django-csp's own
    code, as does every response that already carries a policy header of its own."""

    PER_RESPONSE = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro",
                    "_csp_replace_ro", "_csp_exempt", "_csp_exempt_ro")

    @cached_property
    def _headers(self) -> tuple[tuple[str, str, tuple], ...]:
        """(header, policy, address prefixes it leaves out) for the enforced and the report-only policy set."""
        headers = []
        for header, setting, report_only in ((HEADER, "CONTENT_SECURITY_POLICY", False),
                                             (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True)):
            policy = build_policy(report_only=report_only)
            if policy:
                prefixes = tuple((getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ())
                headers.append((header, policy, prefixes))
        return tuple(headers)

    def process_response(self, request, response):
        if (getattr(request, "_csp_nonce", None) is not None or HEADER in response or HEADER_REPORT_ONLY in response
                or any(hasattr(response, name) for name in self.PER_RESPONSE)
                or (settings.DEBUG and response.status_code in (404, 500))):
            return super().process_response(request, response)
        for header, policy, prefixes in self._headers:
            if not request.path_info.startswith(prefixes):
                response[header] = policy
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


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
        with limits.answering(request), deadline.limited(request):
            response = self.get_response(request)
        limits.used_cpu(request, time.thread_time() - start)
        if deadline.passed():  # whatever the layers below made of the interruption, the client gets this
            connections.close_all()  # it may have come mid-query: the next request gets a connection of its own
            response = responses.refuse(request, 503, _("The request took too long"), _(
                "The site stopped working on this request after %(n)s seconds and saved nothing of it. Try again; "
                "if it happens again, the request asks for more than the site does at once.") % {
                "n": f"{deadline.seconds():g}"}, headers={"Retry-After": "5"})
        return responses.json_for_api(request, response)

    def process_exception(self, request, exception):
        if isinstance(exception, WriteConflict):
            return responses.refuse(request, 503, _("Busy: nothing was saved"), _(
                "Others were saving at the same moment and the site could not save this after several tries. "
                "Nothing of it was saved: send it again."), headers={"Retry-After": "2"})
        if isinstance(exception, limits.RateLimited):
            return responses.too_many(request, exception)
        if isinstance(exception, text.UnstorableText):
            return responses.unstorable(request, exception.problems)
        if isinstance(exception, storage.TooLarge):
            return responses.refuse(request, 413, _("Too large to keep"), str(exception))
        return None
