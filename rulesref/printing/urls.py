"""/<lang>/print/: a printed sheet of sections (its address is the sheet: shareable as a link); /<lang>/print/mine/:
the reader's own quick-reference sheet, kept in the browser."""
from django.urls import path

from . import views

app_name = "printing"
urlpatterns = [
    path("print/", views.sheet, name="sheet"),
    path("print/mine/", views.mine, name="mine"),
]
