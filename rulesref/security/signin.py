"""Sign-in throttling (django-axes): the page a locked-out account sees, in the reader's language.

Axes counts failed sign-ins per account and address (settings: ``AXES_*``, from ``RULESREF_SIGNIN_*``). Once locked,
every attempt from that address for that account, right password or not, gets this page with 429 and
``Retry-After``, and starts the wait again; the lock lifts by itself after the wait, or at once with
``manage.py axes_reset_username NAME``.
"""
from __future__ import annotations

from axes.helpers import get_cool_off
from django.shortcuts import render

from rulesref.translation.forms_auth import SignInForm

from .limits import wait_text


def locked_out(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    seconds = max(1, int(cool_off.total_seconds())) if cool_off else 0
    context = {"form": SignInForm(request), "locked_out": True, "locked_wait": wait_text(seconds) if seconds else "",
               "next": request.POST.get("next", "") or request.GET.get("next", "")}
    response = render(request, "translation/login.html", context, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
