"""/<lang>/translate/…: the workspace. Book-level actions sit under "+" names, which no section id can take."""
from django.urls import path

from . import report_views, views

app_name = "translation"
urlpatterns = [
    path("", views.index, name="index"),
    path("<slug:book>/", views.dashboard, name="dashboard"),
    path("<slug:book>/+export/<str:fmt>/", views.export, name="export"),
    path("<slug:book>/+import/", views.import_file, name="import"),
    path("<slug:book>/+reports/", report_views.queue, name="reports"),
    path("<slug:book>/+reports/<int:pk>/", report_views.update, name="report-update"),
    path("<slug:book>/<str:section>/", views.editor, name="editor"),
    path("<slug:book>/<str:section>/qa/", views.qa_preview, name="qa"),
    path("<slug:book>/<str:section>/qa/<int:pk>/dismiss/", views.dismiss, name="dismiss"),
    path("<slug:book>/<str:section>/revisions/", views.history, name="history"),
    path("<slug:book>/<str:section>/revisions/<int:number>/", views.revision, name="revision"),
    path("<slug:book>/<str:section>/revisions/<int:number>/restore/", views.restore, name="restore"),
    path("<slug:book>/<str:section>/conflict/<int:number>/", views.conflict, name="conflict"),
    path("<slug:book>/<str:section>/diff/", views.diff, name="diff"),
]
