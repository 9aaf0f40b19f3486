"""Helpers for the browser tests."""
from __future__ import annotations

import time


def wait_until(page, expression: str, timeout: float = 10000, interval: float = 100):
    """Poll a JavaScript expression until it is truthy. Playwright's wait_for_function evaluates its predicate
    with eval() inside the page, which the site's Content-Security-Policy (no 'unsafe-eval') forbids; evaluate()
    runs through the DevTools protocol, which the policy does not govern."""
    from playwright.sync_api import Error  # here, as in conftest's browser fixture: a missing playwright skips

    deadline = time.monotonic() + timeout / 1000
    failure = ""
    while True:
        try:  # what the expression reads may not be on the page yet
            value = page.evaluate(expression)
        except Error as exc:
            value, failure = None, str(exc).splitlines()[0]
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true after {timeout / 1000:.0f} s: {expression} {failure}".strip())
        page.wait_for_timeout(interval)


def refused_by_the_policy(message) -> bool:
    """Whether a console message is Chromium's report of something the Content-Security-Policy refused (an inline
    style or script, a source not allowed)."""
    return message.type == "error" and "Content Security Policy" in message.text
