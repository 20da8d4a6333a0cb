"""Error pages: what happened, in words, never a traceback."""

import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.html import format_html
from django.views.csrf import csrf_failure as django_csrf_failure

from .redis import is_redis_unavailable

# What an inline error says when its refusal gave no words of its own.
INLINE_ERRORS = {
    400: "That can't be done.",
    403: "You can't do that.",
    404: "That isn't here any more.",
    429: "Too many at once: try again in a moment.",
}


def error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    """The `<status>.html` page saying `message`; for an in-place action (htmx's
    request), the message alone, shown inline."""
    if is_htmx(request):
        return inline_error(status, message)
    return render(request, f"{status}.html", {"message": message}, status=status)


def is_htmx(request: HttpRequest) -> bool:
    """Whether htmx sent `request` (an in-place action), answered with a partial."""
    return request.headers.get("HX-Request") == "true"


def inline_error(status: int, message: str) -> HttpResponse:
    """An in-place action's refusal: a line saying why, which htmx adds at the end of
    the card or control that asked (HX-Reswap), leaving it as it was."""
    text = message or INLINE_ERRORS.get(status, "Something went wrong; try again.")
    body = format_html('<p class="action-error" role="alert">{}</p>', text)
    return HttpResponse(body, status=status, headers={"HX-Reswap": "beforeend"})


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form refused for its CSRF token (a page open since the session ended): Django's
    403 page, for an in-place action a line asking to reload, JSON under the API's
    addresses."""
    if is_api_path(request.path):
        return api_error(request.path, 403, "The request's CSRF token is missing or wrong.")
    if is_htmx(request):
        return inline_error(403, "This page is out of date: reload it and try again.")
    return django_csrf_failure(request, reason)


def _message(exception: Exception | None) -> str:
    """The message an Http404 or PermissionDenied was raised with, if it has one."""
    args = getattr(exception, "args", None)
    return args[0] if args and isinstance(args[0], str) else ""


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_path(request.path):
        return api_error(request.path, 400, _message(exception) or "Bad request.")
    # Rendered without the request: it may be what was bad (e.g. a disallowed host).
    return HttpResponse(loader.render_to_string("400.html"), status=400)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_path(request.path):
        return api_error(request.path, 403, _message(exception) or "Forbidden.")
    return error_page(request, 403, _message(exception))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_path(request.path):
        # Django's own words for an unmatched path list the URL patterns: not for clients.
        message = _message(exception) if isinstance(exception, Http404) else ""
        return api_error(request.path, 404, message or "Record not found")
    return error_page(request, 404, _message(exception))


# The client API's addresses (Mastodon's and OAuth 2's): every error they answer is JSON,
# {"error": "..."}, as Mastodon's clients parse it (masto.js, megalodon), never a page.
API_PATHS = ("/api/", "/oauth/")
# OAuth 2's error codes (RFC 6749 5.2) for the statuses its addresses answer outside
# the token endpoint's own (which oauthlib words): the words go in error_description.
OAUTH_ERRORS = {
    400: "invalid_request",
    401: "invalid_client",
    403: "access_denied",
    404: "invalid_request",
    405: "invalid_request",
    410: "invalid_request",
    422: "invalid_request",
    429: "temporarily_unavailable",
    503: "temporarily_unavailable",
}


def is_api_path(path: str) -> bool:
    """Whether `path` is the client API's or OAuth 2's, whose errors are JSON."""
    return path.startswith(API_PATHS)


def api_error_body(path: str, status: int, message: str) -> dict[str, str]:
    """An API error's JSON: {"error": message} as Mastodon's API answers, and under
    /oauth/ OAuth 2's {"error": code, "error_description": message}."""
    if path.startswith("/oauth/"):
        return {"error": OAUTH_ERRORS.get(status, "server_error"), "error_description": message}
    return {"error": message}


def api_error(path: str, status: int, message: str, retry_after: int | None = None) -> JsonResponse:
    """The JSON answer of status `status` saying `message`, for a request for `path`."""
    response = JsonResponse(api_error_body(path, status, message), status=status)
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


# Seconds a client is asked to wait after a 503: a Redis restart loads its AOF in seconds.
RETRY_AFTER_SECONDS = 30
UNAVAILABLE = "The site can't reach its database (Redis) right now; try again shortly."


def server_error(request: HttpRequest) -> HttpResponse:
    """503 when Redis can't serve the request right now (from a view or from middleware,
    e.g. the session), else 500; JSON under the API's addresses. Rendered without the
    request, so the page itself needs no Redis."""
    if is_htmx(request):
        unavailable = is_redis_unavailable(sys.exc_info()[1])
        response = inline_error(503, UNAVAILABLE) if unavailable else inline_error(500, "")
        if unavailable:
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if is_redis_unavailable(sys.exc_info()[1]):
        return unavailable_response(request.path)
    if is_api_path(request.path):
        return api_error(request.path, 500, "Something went wrong on our side.")
    return HttpResponse(loader.render_to_string("500.html"), status=500)


def unavailable_response(path: str) -> HttpResponse:
    """The 503 answer, with Retry-After, to a request for `path` while Redis can't serve
    it: the outage page, or JSON under the API's addresses."""
    response: HttpResponse
    if is_api_path(path):
        response = api_error(path, 503, UNAVAILABLE)
    else:
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# An ASGI application (scope, receive, send), and what it receives and sends.
Message = dict[str, Any]
AsgiApp = Callable[
    [Message, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Awaitable[None],
]


def answers_503_while_redis_is_unavailable(app: AsgiApp) -> AsgiApp:
    """ASGI: `app` (what runs outside a Django view: the early refusals ahead of Django,
    a stream's or a WebSocket's session, token and consumer) with an error meaning Redis
    can't serve the request right now answered as Django's own requests are
    (unavailable_response) if no response started, and a WebSocket closed with 4503 and
    the reason as its last frame, not with the server's bare 500 or 1011. It wraps `send`:
    it goes inside streaming.backlog.reports_connection, which must see daphne's own."""

    async def guarded(
        scope: Message,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        # What was sent: a response's start, a WebSocket's acceptance or its close.
        sent: set[str] = set()

        async def sending(message: Message) -> None:
            sent.add(message["type"])
            await send(message)

        try:
            await app(scope, receive, sending)
        except Exception as error:
            if not is_redis_unavailable(error):
                raise
            if scope["type"] == "http" and "http.response.start" not in sent:
                await _send_unavailable(scope["path"], send)
            elif scope["type"] == "websocket" and "websocket.close" not in sent:
                if "websocket.accept" not in sent:
                    # Accepted, so the refusal can say why with a close code.
                    await send({"type": "websocket.accept"})
                text = json.dumps({"error": UNAVAILABLE})
                await send({"type": "websocket.send", "text": text})
                await send({"type": "websocket.close", "code": 4503})
            else:
                raise

    return guarded


async def _send_unavailable(path: str, send: Callable[[Message], Awaitable[None]]) -> None:
    response = unavailable_response(path)
    body = response.content
    headers = [(name.encode(), value.encode()) for name, value in response.items()]
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})
