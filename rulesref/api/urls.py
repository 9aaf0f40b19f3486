"""The read API under /api/v1/ (outside the language prefix: the language of a text is ?lang=), beside the rules
engine's API (rulesref/checker/api_urls.py), which answers every other address under /api/v1/."""
from django.urls import path

from . import views

app_name = "read_api"
urlpatterns = [
    path("books", views.book_list, name="books"),
    path("books/<slug:book>", views.book_detail, name="book"),
    path("books/<slug:book>/contents", views.contents, name="contents"),
    path("books/<slug:book>/glossary", views.glossary, name="glossary"),
    path("books/<slug:book>/rulings", views.rulings, name="rulings"),
    path("books/<slug:book>/rulings/<int:number>", views.ruling, name="ruling"),
    path("books/<slug:book>/sections/<str:section>", views.section, name="section"),
    path("books/<slug:book>/sections/<str:section>/revisions", views.revisions, name="revisions"),
    path("books/<slug:book>/sections/<str:section>/revisions/<int:revision>", views.revision, name="revision"),
    path("books/<slug:book>/sections/<str:section>/diff", views.diff, name="diff"),
    path("search", views.search, name="search"),
]
