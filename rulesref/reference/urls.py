from django.urls import path

from . import history_views, views

app_name = "reference"
urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search_view, name="search"),
    path("rules/<slug:book>/", views.book, name="book"),
    path("rules/<slug:book>/errata/", views.errata, name="errata"),
    path("rules/<slug:book>/changes/", history_views.changes, name="changes"),
    path("rules/<slug:book>/changes/feed/", history_views.changes_feed, name="changes_feed"),
    path("rules/<slug:book>/<str:section>/", views.section, name="section"),
    path("rules/<slug:book>/<str:section>/history/", history_views.section_history, name="section_history"),
    path("rules/<slug:book>/<str:section>/@<int:revision>/", history_views.section_at, name="section_at"),
    path("glossary/<slug:book>/", views.glossary, name="glossary"),
    path("glossary/<slug:book>/<slug:term>/", views.term, name="term"),
]
