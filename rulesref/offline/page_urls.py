"""Addresses of the offline copy under the language prefix: the manifest (names in the reader's language), the
offline scripts' strings, and the pages shown offline in place of what cannot be read."""
from django.urls import path

from . import views

app_name = "offline_pages"
urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("offline/strings.json", views.strings, name="strings"),
    path("offline/not-kept/", views.unavailable, name="unavailable"),
    path("offline/checker/", views.checker, name="checker"),
]
