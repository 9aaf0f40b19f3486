"""Signing in: the form, and its throttling (django-axes): the page a locked-out account sees, in the reader's language.

Axes counts failed sign-ins per account and address (settings: ``AXES_*``, from ``RULESREF_SIGNIN_*``). Once locked,
every attempt from that address for that account, right password or not, gets this page with 429 and
``Retry-After``, and starts the wait again; the lock lifts by itself after the wait, or at once with
``manage.py axes_reset_username NAME``.
"""
from __future__ import annotations

from axes.helpers import get_cool_off
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render

from .limits import wait_text

TEMPLATE = "security/login.html"


class SignInForm(AuthenticationForm):
    """The stock sign-in form; the username field gets the autocomplete hint password managers look for."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update({"autocomplete": "username", "autocapitalize": "none"})
        self.fields["password"].widget.attrs.update({"autocomplete": "current-password"})


def locked_out(request, original_response=None, credentials=None):
    cool_off = get_cool_off(request)
    seconds = max(1, int(cool_off.total_seconds())) if cool_off else 0
    context = {"form": SignInForm(request), "locked_out": True, "locked_wait": wait_text(seconds) if seconds else "",
               "next": request.POST.get("next", "") or request.GET.get("next", "")}
    response = render(request, TEMPLATE, context, status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
