"""Addresses Mastodon's API once had and retired: 410 Gone, naming the one to use."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt

from socialsite.views import api_error


def retired(replacement: str):
    """A view answering every method 410, saying to use `replacement`."""

    @csrf_exempt
    def gone(request: HttpRequest) -> HttpResponse:
        return api_error(request.path, 410, f"This API was removed: use {replacement}.")

    return gone
