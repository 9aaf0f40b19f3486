"""/<lang>/translate/…: the workspace. Book-level actions sit under "+" names, which no section id can take."""
from django.urls import path

from .views import dashboard, editor, exchange, reports, review

app_name = "translation"
urlpatterns = [
    path("", dashboard.index, name="index"),
    path("<slug:book>/", dashboard.dashboard, name="dashboard"),
    path("<slug:book>/+export/<str:fmt>/", exchange.export, name="export"),
    path("<slug:book>/+import/", exchange.import_file, name="import"),
    path("<slug:book>/+reports/", reports.queue, name="reports"),
    path("<slug:book>/+reports/<int:pk>/", reports.update, name="report-update"),
    path("<slug:book>/<str:section>/", editor.editor, name="editor"),
    path("<slug:book>/<str:section>/qa/", editor.qa_preview, name="qa"),
    path("<slug:book>/<str:section>/qa/<int:pk>/dismiss/", editor.dismiss, name="dismiss"),
    path("<slug:book>/<str:section>/revisions/", review.history, name="history"),
    path("<slug:book>/<str:section>/revisions/<int:number>/", review.revision, name="revision"),
    path("<slug:book>/<str:section>/revisions/<int:number>/restore/", review.restore, name="restore"),
    path("<slug:book>/<str:section>/conflict/<int:number>/", review.conflict, name="conflict"),
    path("<slug:book>/<str:section>/diff/", review.diff, name="diff"),
]
