"""The workspace's forms for rulings: a new ruling, a text of a ruling, its citations and checker link, a bulk
import. Every text is untrusted and bounded; the citations are checked against the rulebook."""
from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rulesref.reference.models import LANGUAGE_CHOICES, Book
from rulesref.translation.models import Status

from . import citations as citing
from .models import MAX_ANSWER, MAX_QUESTION
from .permissions import allowed_statuses

CHECKER_PATH_RE = re.compile(r"^/(?:en|ru)/checker/(?P<book>[a-z0-9-]+)/s/(?P<code>[A-Za-z0-9_-]{1,16})/?$")
QUERY_KEYS_RE = re.compile(r"^(?:q|p-[a-z0-9_-]{1,40}|sel|mode|view)$")
MAX_QUERY = 300


def status_choices(user, source: bool) -> list[tuple[str, str]]:
    return [(s, Status(s).label) for s in allowed_statuses(user, source)]


def checker_link(raw: str, book: Book) -> tuple[str, str]:
    """(code, query) of a shared checker position of this rulebook, from its address as the checker gives it
    (``/en/checker/mpbs/s/Ab3x/?q=can-intercept&p-unit=CAV-1``, with or without the site's origin); ValueError says
    what is wrong. The position itself must exist: the engine asks it again whenever the link is opened."""
    from rulesref.checker.models import SavedScenario

    raw = (raw or "").strip()
    if not raw:
        return "", ""
    parts = urlsplit(raw)
    if parts.scheme not in ("", "http", "https"):
        raise ValueError(_("Paste the address of a position shared from the checker."))
    match = CHECKER_PATH_RE.match(parts.path)
    if match is None or match["book"] != book.slug:
        raise ValueError(_("Paste the address of a position of this rulebook shared from the checker "
                           "(…/checker/%(book)s/s/…/).") % {"book": book.slug})
    if not SavedScenario.objects.filter(book=book.slug, code=match["code"]).exists():
        raise ValueError(_("No shared position %(code)s in the checker.") % {"code": match["code"]})
    pairs = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=False) if QUERY_KEYS_RE.match(k)]
    query = urlencode(pairs)
    if len(query) > MAX_QUERY:
        raise ValueError(_("The checker address is too long."))
    return match["code"], query


class CitationsField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(max_length=500, label=_("Clauses it answers"), help_text=_(
            "Rule numbers, separated by commas: 9.3.1f, 11.4.2 (a clause letter points at one clause)."), **kwargs)


class NewRulingForm(forms.Form):
    language = forms.ChoiceField(choices=LANGUAGE_CHOICES, label=_("Written in"))
    citations = CitationsField()
    question = forms.CharField(max_length=MAX_QUESTION, label=_("Question"), widget=forms.Textarea(attrs={"rows": 3}))
    answer = forms.CharField(max_length=MAX_ANSWER, label=_("Answer"), widget=forms.Textarea(attrs={"rows": 8}))
    status = forms.ChoiceField(label=pgettext_lazy("form field", "Status"))
    other_question = forms.CharField(max_length=MAX_QUESTION, required=False, label=_("Question in the other language"),
                                     widget=forms.Textarea(attrs={"rows": 3}))
    other_answer = forms.CharField(max_length=MAX_ANSWER, required=False, label=_("Answer in the other language"),
                                   widget=forms.Textarea(attrs={"rows": 8}))
    other_status = forms.ChoiceField(label=_("Status of the translation"))
    checker = forms.CharField(max_length=600, required=False, label=_("Checker position (optional)"), help_text=_(
        "The address of a position shared from the checker, with its question: the ruling links it, and the engine "
        "answers again whenever it is opened."))
    report = forms.IntegerField(required=False, widget=forms.HiddenInput)
    comment = forms.CharField(max_length=500, required=False, label=_("Comment"))

    def __init__(self, *args, user, book: Book, **kwargs):
        super().__init__(*args, **kwargs)
        self.book = book
        self.fields["status"].choices = status_choices(user, source=True)
        self.fields["other_status"].choices = status_choices(user, source=False)

    def clean_citations(self):
        try:
            return citing.parse(self.cleaned_data["citations"], self.book)
        except citing.CitationError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_checker(self):
        try:
            return checker_link(self.cleaned_data.get("checker", ""), self.book)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self):
        data = super().clean()
        if bool((data.get("other_question") or "").strip()) != bool((data.get("other_answer") or "").strip()):
            self.add_error("other_answer", _("Give the translation's question and answer, or neither."))
        return data


class TextForm(forms.Form):
    """A ruling's text in one language."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    source_revision = forms.CharField(max_length=32, required=False, widget=forms.HiddenInput)
    question = forms.CharField(max_length=MAX_QUESTION, label=_("Question"), widget=forms.Textarea(attrs={"rows": 3}))
    answer = forms.CharField(max_length=MAX_ANSWER, label=_("Answer"), widget=forms.Textarea(attrs={"rows": 8}))
    status = forms.ChoiceField(label=pgettext_lazy("form field", "Status"))
    comment = forms.CharField(max_length=500, required=False, label=_("Comment"))

    def __init__(self, *args, user, source: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = status_choices(user, source)


class CitationsForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    citations = CitationsField()
    checker = forms.CharField(max_length=600, required=False, label=_("Checker position (optional)"))

    def __init__(self, *args, book: Book, **kwargs):
        super().__init__(*args, **kwargs)
        self.book = book

    def clean_citations(self):
        try:
            return citing.parse(self.cleaned_data["citations"], self.book)
        except citing.CitationError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_checker(self):
        try:
            return checker_link(self.cleaned_data.get("checker", ""), self.book)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class ImportForm(forms.Form):
    file = forms.FileField(required=False, label=_("A text file of questions and answers"))
    text = forms.CharField(required=False, max_length=200_000, label=_("Or paste it here"),
                           widget=forms.Textarea(attrs={"rows": 12}))
    status = forms.ChoiceField(label=_("Give the imported rulings the status"))
    apply = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = status_choices(user, source=True)


class ExchangeImportForm(forms.Form):
    """A PO or XLIFF file of rulings' translations."""

    file = forms.FileField(label=_("PO or XLIFF file"))
    to = forms.ChoiceField(choices=LANGUAGE_CHOICES, label=_("Translation into"))
    partial = forms.BooleanField(required=False, label=_("Import the clean entries even if others have problems"))
    status = forms.ChoiceField(label=_("Status of imported entries"))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = status_choices(user, source=False)
        self.fields["status"].initial = Status.REVIEW
