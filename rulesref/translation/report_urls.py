"""/<lang>/report/… and /<lang>/reports/…: a reader reports a problem in a paragraph and follows the report."""
from django.urls import path

from . import report_views

urlpatterns = [
    path("report/<slug:book>/<str:section>/<int:paragraph>/", report_views.report, name="report"),
    path("reports/<str:token>/", report_views.follow, name="report-follow"),
]
