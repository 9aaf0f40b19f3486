"""/<lang>/translate/<book>/+rulings/…: the rulings in the translator's workspace ("+" names, which no section id
can take, as the workspace's own book-level pages)."""
from django.urls import path

from . import workspace_views as views

app_name = "rulings_workspace"
urlpatterns = [
    path("<slug:book>/+rulings/", views.index, name="index"),
    path("<slug:book>/+rulings/new/", views.new, name="new"),
    path("<slug:book>/+rulings/import/", views.import_text, name="import"),
    path("<slug:book>/+rulings/export/<str:fmt>/", views.export, name="export"),
    path("<slug:book>/+rulings/translations/", views.import_translations, name="translations"),
    path("<slug:book>/+rulings/<int:number>/", views.editor, name="editor"),
    path("<slug:book>/+rulings/<int:number>/qa/", views.qa_preview, name="qa"),
    path("<slug:book>/+rulings/<int:number>/citations/", views.citations, name="citations"),
    path("<slug:book>/+rulings/<int:number>/confirm/", views.confirm, name="confirm"),
    path("<slug:book>/+rulings/<int:number>/withdraw/", views.withdraw, name="withdraw"),
    path("<slug:book>/+rulings/<int:number>/revisions/", views.revisions, name="revisions"),
    path("<slug:book>/+rulings/<int:number>/revisions/<int:revision>/restore/", views.restore, name="restore"),
]
