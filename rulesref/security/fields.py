"""Form fields that read JSON from a user through the site's bound (rulesref.security.text.check_depth).

Django's own ``forms.JSONField`` (which the admin gives a model's ``JSONField``) parses with ``json.loads`` when it
cleans and again when it shows the form back, so a few thousand ``[`` end in a RecursionError there. This one
refuses nesting deeper than :data:`rulesref.security.text.MAX_JSON_DEPTH` first, as a field error, and shows the
text back as it was sent. A model admin uses it with
``formfield_overrides = {models.JSONField: {"form_class": BoundedJSONField}}``.
"""
from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import InvalidJSONInput

from . import text


class BoundedJSONField(forms.JSONField):
    def to_python(self, value):
        if not self.disabled and isinstance(value, str):
            try:
                text.check_depth(value)
            except text.TooDeep as exc:
                raise ValidationError(exc.message, code="invalid") from None
        return super().to_python(value)

    def bound_data(self, data, initial):
        if not self.disabled and isinstance(data, str):
            try:
                text.check_depth(data)
            except text.TooDeep:
                return InvalidJSONInput(data)
        return super().bound_data(data, initial)
