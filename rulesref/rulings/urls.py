"""/<lang>/rules/<book>/faq/ and /<lang>/rules/<book>/rulings/<n>/: the readers' pages of the rulings, under the
rulebook's own address ("faq" and "rulings" are reserved section ids, as "errata" and "changes" are)."""
from django.urls import path

from . import views

app_name = "rulings"
urlpatterns = [
    path("rules/<slug:book>/faq/", views.faq, name="faq"),
    path("rules/<slug:book>/faq/feed/", views.feed, name="feed"),
    path("rules/<slug:book>/rulings/<int:number>/", views.ruling, name="ruling"),
    path("rules/<slug:book>/rulings/<int:number>/history/", views.history, name="history"),
]
