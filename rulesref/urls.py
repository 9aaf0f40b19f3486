from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
]
urlpatterns += i18n_patterns(
    path("", include("rulesref.reference.urls")),
    prefix_default_language=True,
)
handler404 = "rulesref.reference.views.not_found"
