from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("rulesref.checker.api_urls")),
    path("", include("rulesref.offline.urls")),
]
urlpatterns += i18n_patterns(
    path("checker/", include("rulesref.checker.urls")),
    path("", include("rulesref.reference.urls")),
    path("translate/", include("rulesref.translation.urls")),
    path("accounts/", include("rulesref.translation.account_urls")),
    path("", include("rulesref.translation.report_urls")),
    path("", include("rulesref.offline.page_urls")),
    prefix_default_language=True,
)
handler404 = "rulesref.reference.views.not_found"
