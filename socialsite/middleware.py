"""Middleware of the site's own."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed

from .views import error_page


def method_not_allowed_page(get_response: Callable) -> Callable:
    """Gives Django's blank 405 (require_POST, a class-based view's missing method) the
    site's error page, saying which methods the address takes; a 405 that already says
    something (a JSON API's) is left alone."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if not isinstance(response, HttpResponseNotAllowed) or response.content:
            return response
        allowed = response["Allow"]
        # A class-based view also allows OPTIONS (and HEAD with GET): not worth saying.
        methods = [m.strip() for m in allowed.split(",") if m.strip() not in ("OPTIONS", "HEAD")]
        if methods == ["POST"]:
            message = (
                "This address only takes a form's POST (a button on a page): "
                "opening it in the browser does nothing."
            )
        else:
            message = (
                f"This address takes only {' or '.join(methods)} requests, not {request.method}."
            )
        page = error_page(request, 405, message)
        page["Allow"] = allowed
        return page

    return middleware
