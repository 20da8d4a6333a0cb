"""The site's URLs under /prefix/, for the test that socialsite.links.url follows the URLconf."""

from django.urls import include, path

urlpatterns = [path("prefix/", include("socialsite.urls"))]
