"""Forms every board kind uses: an uploaded scenario file, and the way the engine's problems with a form's edit are
put next to the fields they concern.

The engine's problems come back by path (``units[2].morale.rating``); a form says which of its fields each path
is (``PATHS``), and :func:`attach_problems` puts each problem there.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from .editing import EditError, Rejected, blamed, message_for, unit_index, validate


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Scenario file (JSON)"))


def attach_problems(form: forms.Form, problems: list[tuple[str, str]], prefix: str = "") -> list[tuple[str, str]]:
    """Put each engine problem whose path (under ``prefix``) maps to a field of ``form`` next to that field; the
    problems of this part of the scenario that map to no field become the form's own errors. Returns the rest."""
    paths: dict[str, str] = getattr(form, "PATHS", {})
    rest = []
    for path, message in problems:
        if prefix and not (path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")):
            rest.append((path, message))
            continue
        local = path[len(prefix):].lstrip(".") if prefix else path
        key = local
        field = None
        while key:
            if key in paths:
                field = paths[key]
                break
            key = re.sub(r"(\[\d+\]|\.[^.\[]*)$", "", key)
        if field and field in form.fields:
            form.add_error(field, message)
        elif prefix:
            form.add_error(None, f"{local or path}: {message}" if local else message)
        else:
            rest.append((path, message))
    return rest


def form_edit(book: str, key: str, form: forms.Form, apply: Callable[[forms.Form], dict[str, Any]],
              prefix: str | Callable[[dict[str, Any]], str] = "", rest_at_form: bool = False) -> dict[str, Any]:
    """``apply(form)``'s new scenario if the form is valid and the engine takes the result; else Rejected with the
    problems at the form's fields (the engine's paths under ``prefix``, or ``prefix(new data)``, are the form's
    part of the scenario). The problems no field takes are listed at the top of the page, or with
    ``rest_at_form`` as the form's own errors (for that edit is what caused them)."""
    if not form.is_valid():
        raise Rejected(_("Check the fields."), forms_={key: form})
    try:
        new = apply(form)
    except EditError as exc:
        if not form.errors:
            form.add_error(None, str(exc))
        raise Rejected(str(exc), forms_={key: form}) from None
    problems = validate(book, new)
    if problems:
        rest = attach_problems(form, problems, prefix=prefix(new) if callable(prefix) else prefix)
        if rest_at_form:
            for path, message in rest:
                form.add_error(None, f"{path}: {message}")
            rest = []
        raise Rejected(message_for(problems), problems=rest, forms_={key: form})
    return new


def unit_edit(book: str, key: str, form: forms.Form, data: dict[str, Any], unit_id: str) -> tuple[dict[str, Any], str]:
    """A unit's properties form applied: the new scenario and the unit's (new) id, or Rejected with the engine's
    problems with that unit at the form's fields (the unit edited is blamed for what it shares with another)."""
    if not form.is_valid():
        raise Rejected(_("Check the unit's fields."), forms_={key: form})
    try:
        new, new_id = form.apply(data, unit_id)
    except EditError as exc:
        raise Rejected(str(exc), forms_={key: form}) from None
    problems = blamed(book, new, new_id)
    if problems:
        rest = attach_problems(form, problems, prefix=f"units[{unit_index(new, new_id)}]")
        raise Rejected(message_for(problems), problems=rest, forms_={key: form})
    return new, new_id
