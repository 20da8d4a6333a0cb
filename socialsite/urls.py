from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("streaming/", include("streaming.urls")),
    path("", include("api.urls")),
    path("", include("timeline.urls")),
]

handler400 = "socialsite.views.bad_request"
handler403 = "socialsite.views.permission_denied"
handler404 = "socialsite.views.page_not_found"
handler500 = "socialsite.views.server_error"
