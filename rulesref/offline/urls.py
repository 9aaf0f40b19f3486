"""Addresses of the offline copy outside the language prefix: the service worker at the site root (its scope is
the whole site), the version check, and each rulebook's copy (both languages in one)."""
from django.urls import path

from . import views

app_name = "offline"
urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/versions.json", views.versions, name="versions"),
    path("offline/<slug:book>/info.json", views.info, name="info"),
    path("offline/<slug:book>/index.json", views.search_index, name="index"),
    path("offline/<slug:book>/<str:copy_token>/bundle.json", views.bundle, name="bundle"),
]
