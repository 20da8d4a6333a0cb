"""Django's authentication middleware, with the signed-in user read by
accounts.backends.session_user (the session and its user in one round trip)."""

from django.contrib.auth import middleware
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .backends import session_user


def get_user(request: HttpRequest):
    """As Django's middleware's get_user: read once a request."""
    # Django's own middleware keeps the user in this attribute; django-stubs doesn't
    # declare it.
    if not hasattr(request, "_cached_user"):
        request._cached_user = session_user(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class AuthenticationMiddleware(middleware.AuthenticationMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        # As Django's own middleware does; django-stubs types the attribute as the user
        # itself, not a lazy object standing for it.
        request.user = SimpleLazyObject(lambda: get_user(request))  # type: ignore[assignment]
