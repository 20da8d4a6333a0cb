"""Django's authentication middleware, with the signed-in user read by
accounts.backends.session_user (the session and its user in one round trip)."""

from django.contrib.auth import middleware
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .backends import session_user


def get_user(request: HttpRequest):
    """As Django's middleware's get_user: read once a request."""
    if not hasattr(request, "_cached_user"):
        request._cached_user = session_user(request)
    return request._cached_user


class AuthenticationMiddleware(middleware.AuthenticationMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))
