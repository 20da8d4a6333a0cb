"""The site's URLs under /prefix/, for the test that display.url follows the URLconf."""

from django.urls import include, path

urlpatterns = [path("prefix/", include("socialsite.urls"))]
