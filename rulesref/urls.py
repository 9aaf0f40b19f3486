from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from rulesref.reference import views as reference_views
from rulesref.reference import sitemaps

urlpatterns = [
    path("admin/", admin.site.urls),
    path("sitemap.xml", sitemaps.sitemap_index, name="sitemap"),
    path("sitemap-<str:section>.xml", sitemaps.sitemap_file, name="sitemap_section"),
    path("robots.txt", reference_views.robots_txt, name="robots"),
    path("favicon.ico", reference_views.favicon, name="favicon"),
    path("api/v1/", include("rulesref.api.urls")),
    path("api/v1/", include("rulesref.checker.api_urls")),
    path("", include("rulesref.offline.urls")),
]
urlpatterns += i18n_patterns(
    path("checker/", include("rulesref.checker.urls")),
    path("", include("rulesref.checker.coverage_urls")),
    path("", include("rulesref.rulings.urls")),
    path("", include("rulesref.printing.urls")),
    path("", include("rulesref.reference.urls")),
    path("translate/", include("rulesref.rulings.workspace_urls")),
    path("translate/", include("rulesref.translation.urls")),
    path("accounts/", include("rulesref.security.account_urls")),
    path("", include("rulesref.translation.report_urls")),
    path("", include("rulesref.offline.page_urls")),
    prefix_default_language=True,
)
handler404 = "rulesref.reference.views.not_found"
