from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from socialsite.media import media

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("streaming/", include("streaming.urls")),
    path("", include("api.urls")),
    path("", include("timeline.urls")),
]
if settings.SERVE_MEDIA:
    # Uploaded avatars, from MEDIA_ROOT (docs/operations.md: in production the proxy serves them).
    urlpatterns.append(path("media/<path:path>", media))

handler400 = "socialsite.views.bad_request"
handler403 = "socialsite.views.permission_denied"
handler404 = "socialsite.views.page_not_found"
handler500 = "socialsite.views.server_error"
