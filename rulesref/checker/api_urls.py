"""The JSON API under /api/v1/ (outside the language prefix: the language of messages is ?lang=)."""
from django.urls import path, re_path

from . import api

app_name = "api"
urlpatterns = [
    path("openapi.json", api.openapi_document, name="openapi"),
    path("<slug:book>/rulings/<slug:question>", api.ruling, name="ruling"),
    path("<slug:book>/questions", api.book_questions, name="questions"),
    path("<slug:book>/scenario.schema.json", api.book_schema, name="schema"),
    re_path(r"^(?P<rest>.*)$", api.not_found),
]
