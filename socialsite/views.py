"""Error pages: what happened, in words, never a traceback."""

import sys

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader

from .redis import is_redis_unavailable


def error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """The `<status>.html` page saying `message`."""
    return render(request, f"{status}.html", {"message": message}, status=status)


def _message(exception: Exception | None) -> str:
    """The message an Http404 or PermissionDenied was raised with, if it has one."""
    args = getattr(exception, "args", None)
    return args[0] if args and isinstance(args[0], str) else ""


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    # Rendered without the request: it may be what was bad (e.g. a disallowed host).
    return HttpResponse(loader.render_to_string("400.html"), status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, 403, _message(exception))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return error_page(request, 404, _message(exception))


def server_error(request: HttpRequest) -> HttpResponse:
    """503 when Redis can't be reached (from a view or from middleware, e.g. the session),
    else 500. Rendered without the request, so the page itself needs no Redis."""
    if is_redis_unavailable(sys.exc_info()[1]):
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
        response["Retry-After"] = "30"
        return response
    return HttpResponse(loader.render_to_string("500.html"), status=500)
