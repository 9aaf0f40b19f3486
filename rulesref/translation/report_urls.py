"""/<lang>/report/… and /<lang>/reports/…: a reader reports a problem in a paragraph and follows the report."""
from django.urls import path

from .views import reports

urlpatterns = [
    path("report/<slug:book>/<str:section>/<int:paragraph>/", reports.report, name="report"),
    path("reports/<str:token>/", reports.follow, name="report-follow"),
]
