"""Forms of the workspace. The editor form has one field per paragraph, aligned with the source's paragraphs."""
from __future__ import annotations

import re

from django import forms
from django.core.validators import MaxLengthValidator
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rulesref.security import text as storable_text

from .conf import setting
from .models import Report, Status
from .permissions import allowed_statuses
from .workflow import join_blocks, normalise_text

MAX_PARAGRAPHS = 400
HEADING_LINE_RE = re.compile(r"^#", re.M)
BLANK_LINE_RE = re.compile(r"\n[ \t]*\n")


def corpus_syntax_errors(text: str, is_title: bool) -> list[str]:
    """What in a text would break the corpus file it is written to (refused on save, not just flagged)."""
    errors = []
    if is_title:
        if "\n" in text:
            errors.append(gettext("A title is one line"))
        if "{" in text or "}" in text:
            errors.append(gettext("A title may not contain braces { }: they mark the section id in the corpus"))
    else:
        if HEADING_LINE_RE.search(text):
            errors.append(gettext("A line starts with “#”: the corpus would read it as a heading"))
        if BLANK_LINE_RE.search(text):
            errors.append(gettext("An empty line inside a paragraph would split it in two"))
    return errors


def typed_title(text: str | None) -> str:
    """A title as it is saved: one form of line ends, no surrounding space."""
    return normalise_text(text or "").strip()


def typed_paragraph(text: str | None) -> str:
    """A paragraph as it is saved: one form of line ends, no surrounding space, no space at a line's end."""
    text = normalise_text(text or "").strip()
    return "\n".join(line.rstrip() for line in text.split("\n"))


class EditorForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    source_revision = forms.CharField(widget=forms.HiddenInput, max_length=32, required=False)
    paragraphs = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=MAX_PARAGRAPHS)
    title = forms.CharField(label=_("Title"), max_length=300, required=False, strip=False,
                            widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "true"}))
    comment = forms.CharField(label=_("Comment (optional)"), max_length=500, required=False,
                              widget=forms.TextInput(attrs={"autocomplete": "off"}))
    status = forms.ChoiceField(label=_("Status"), choices=Status.choices)

    def __init__(self, *args, user=None, paragraphs: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if self.is_bound:
            try:
                paragraphs = int(self.data.get("paragraphs", paragraphs))
            except (TypeError, ValueError):
                paragraphs = 0
        self.paragraph_count = max(0, min(paragraphs, MAX_PARAGRAPHS))
        for n in range(1, self.paragraph_count + 1):
            self.fields[f"p{n}"] = forms.CharField(
                label=gettext("Paragraph %(n)s") % {"n": n}, required=False, strip=False,
                widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "true"}))
        self.fields["status"].choices = [(s, Status(s).label) for s in allowed_statuses(user)]

    def typed_text(self) -> tuple[str, str]:
        """The title and body in the form as they would be saved, whether the form is valid or not: the posted
        text (bound) or the text it was opened with."""
        source = self.data if self.is_bound else self.initial
        title = typed_title(source.get("title", ""))
        return title, join_blocks([typed_paragraph(source.get(f"p{n}", "")) for n in range(1, self.paragraph_count + 1)])

    def paragraph_fields(self):
        return [self[f"p{n}"] for n in range(1, self.paragraph_count + 1)]

    def clean_title(self):
        title = typed_title(self.cleaned_data.get("title", ""))
        for error in corpus_syntax_errors(title, True):
            self.add_error("title", error)
        return title

    def clean(self):
        data = super().clean()
        blocks = []
        for n in range(1, self.paragraph_count + 1):
            text = typed_paragraph(data.get(f"p{n}", ""))
            for error in corpus_syntax_errors(text, False):
                self.add_error(f"p{n}", error)
            blocks.append(text)
        data["blocks"] = blocks
        data["body"] = join_blocks(blocks)
        status = data.get("status")
        if status in (Status.REVIEW, Status.APPROVED) and not (data.get("title") or data["body"]):
            raise forms.ValidationError(gettext("An empty translation can only be saved as a draft."))
        return data


class RestoreForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    status = forms.ChoiceField(label=_("Status after restoring"), choices=Status.choices)
    comment = forms.CharField(label=_("Comment (optional)"), max_length=500, required=False)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [(s, Status(s).label) for s in allowed_statuses(user)]


class ImportForm(forms.Form):
    file = forms.FileField(label=_("PO, XLIFF or TMX file"))
    partial = forms.BooleanField(label=_("Import the clean entries even if others have problems"), required=False)
    status = forms.ChoiceField(label=_("Status of imported entries"), choices=Status.choices)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [(s, Status(s).label) for s in allowed_statuses(user)]
        self.fields["status"].initial = Status.REVIEW


def storable(value: str) -> None:
    """Text the database can store (what that is, rulesref.security.text decides for the whole site)."""
    problem = storable_text.problem(value or "")
    if problem:
        raise forms.ValidationError(capfirst(problem))


class ReportForm(forms.Form):
    """A reader's report: what kind of problem, and a message (untrusted text, stored as typed)."""

    kind = forms.ChoiceField(label=_("What is wrong?"), choices=Report.Kind.choices, widget=forms.RadioSelect,
                             initial=Report.Kind.TRANSLATION)
    message = forms.CharField(label=_("Your message"), strip=True, min_length=3, validators=[storable],
                              widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "true"}))
    rev = forms.CharField(widget=forms.HiddenInput, required=False, max_length=32, validators=[storable])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        limit = setting("TRANSLATION_REPORT_MAX_CHARS")
        self.fields["message"].max_length = limit
        self.fields["message"].validators.append(MaxLengthValidator(limit))
        self.fields["message"].widget.attrs["maxlength"] = str(limit)


class ReportStatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=Report.State.choices)
    response = forms.CharField(label=_("Answer to the reader (optional)"), required=False, max_length=2000,
                               validators=[storable], widget=forms.Textarea(attrs={"rows": 2}))
