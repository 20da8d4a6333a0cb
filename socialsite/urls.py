from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("streaming/", include("streaming.urls")),
    path("", include("timeline.urls")),
]
