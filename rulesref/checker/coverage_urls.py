"""The coverage map of a rulebook's engine, under the rulebook's own address: /<lang>/rules/<book>/coverage/."""
from django.urls import path

from . import coverage

app_name = "coverage"
urlpatterns = [
    path("rules/<slug:book>/coverage/", coverage.coverage, name="coverage"),
]
