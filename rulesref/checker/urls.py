"""Checker pages under /<lang>/checker/."""
from django.urls import path

from . import views

app_name = "checker"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:book>/", views.editor, name="editor"),
    path("<slug:book>/s/<slug:code>/", views.shared, name="shared"),
    path("<slug:book>/examples/<str:slug>/", views.example, name="example"),
]
