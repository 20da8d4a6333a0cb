from django.http import HttpResponse
from django.urls import path

from socialsite.urls import urlpatterns as site_urlpatterns


def bare(request):
    """The yardstick for pages: Django and daphne's own cost, with no Redis work."""
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/bare/", bare), *site_urlpatterns]
