"""PO, XLIFF and TMX export and import in the workspace: the format is looked up in the registry
(exchange/formats.py) by the export URL's name or by the uploaded file, never chosen here."""
from __future__ import annotations

from pathlib import PurePath

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from rulesref.http import NotFound

from ..exchange import formats
from ..exchange.units import ExchangeError
from ..forms import ImportForm
from ..permissions import translator_required
from .base import book_and_language


@require_GET
@translator_required
def export(request, book, fmt):
    book_obj, lang = book_and_language(book)
    exchange_format = formats.get(fmt)
    if exchange_format is None:
        raise NotFound(_("Unknown export format."))
    data = exchange_format.export(book_obj, lang)
    response = HttpResponse(data, content_type=f"{exchange_format.content_type}; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, exchange_format.filename(book_obj, lang))
    return response


@require_http_methods(["GET", "POST"])
@translator_required
def import_file(request, book):
    book_obj, lang = book_and_language(book)
    context = {"book": book_obj, "lang": lang}
    if request.method == "GET":
        context["form"] = ImportForm(user=request.user)
        return render(request, "translation/import.html", context)
    form = ImportForm(request.POST, request.FILES, user=request.user)
    context["form"] = form
    if not form.is_valid():
        return render(request, "translation/import.html", context, status=400)
    upload = form.cleaned_data["file"]
    name = PurePath(upload.name or "upload").name
    exchange_format, data, error = _read_upload(upload, name)
    if error:
        context["error"] = error
        return render(request, "translation/import.html", context, status=400)
    try:
        imported = exchange_format.import_file(book_obj, lang, data, name, user=request.user,
                                               status=form.cleaned_data["status"],
                                               partial=form.cleaned_data["partial"])
    except ExchangeError as exc:
        context["error"] = f"{name}: {exc}"
        return render(request, "translation/import.html", context, status=400)
    context.update({imported.kind: imported.report, "name": name, "format": exchange_format.label})
    return render(request, "translation/import.html", context, status=200 if imported.ok else 400)


def _read_upload(upload, name: str) -> tuple[formats.ExchangeFormat | None, bytes, str]:
    """The upload's format and bytes, or why it is refused (too large, or no format the registry knows)."""
    limit = getattr(settings, "TRANSLATION_UPLOAD_MAX_BYTES", 2 * 1024 * 1024)
    if upload.size > limit:
        return None, b"", _("%(name)s is %(size)s bytes; the limit is %(limit)s bytes.") % {
            "name": name, "size": upload.size, "limit": limit}
    data = upload.read()
    exchange_format = formats.detect(name, data)
    if exchange_format is None:
        return None, data, _("%(name)s is not a PO, XLIFF or TMX file (name it .po, .xlf or .tmx).") % {"name": name}
    return exchange_format, data, ""
