"""HTTP answers the views share."""
from __future__ import annotations

from django.http import Http404


class NotFound(Http404):
    """A 404 whose message is written for the reader, already translated: the site's 404 page shows it (why the
    page is not there: an expired draft, an unknown shared scenario). A plain ``Http404`` keeps its message to the
    logs, since it may be written for developers."""
