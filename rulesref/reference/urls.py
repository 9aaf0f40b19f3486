from django.urls import path

from . import views

app_name = "reference"
urlpatterns = [
    path("", views.home, name="home"),
    path("search/", views.search_view, name="search"),
    path("rules/<slug:book>/", views.book, name="book"),
    path("rules/<slug:book>/errata/", views.errata, name="errata"),
    path("rules/<slug:book>/<str:section>/", views.section, name="section"),
    path("glossary/<slug:book>/", views.glossary, name="glossary"),
    path("glossary/<slug:book>/<slug:term>/", views.term, name="term"),
]
