"""Error pages: what happened, in words, never a traceback."""

import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
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


# The client API's addresses (Mastodon's): their errors are JSON, {"error": "..."}.
API_PATHS = ("/api/", "/oauth/token", "/oauth/revoke")
# Seconds a client is asked to wait after a 503: a Redis restart loads its AOF in seconds.
RETRY_AFTER_SECONDS = 30
UNAVAILABLE = "The site can't reach its database (Redis) right now; try again shortly."


def server_error(request: HttpRequest) -> HttpResponse:
    """503 when Redis can't serve the request right now (from a view or from middleware,
    e.g. the session), else 500; JSON under the API's addresses. Rendered without the
    request, so the page itself needs no Redis."""
    if is_redis_unavailable(sys.exc_info()[1]):
        return unavailable_response(request.path)
    if request.path.startswith(API_PATHS):
        return JsonResponse({"error": "Something went wrong on our side."}, status=500)
    return HttpResponse(loader.render_to_string("500.html"), status=500)


def unavailable_response(path: str) -> HttpResponse:
    """The 503 answer, with Retry-After, to a request for `path` while Redis can't serve
    it: the outage page, or JSON under the API's addresses."""
    response: HttpResponse
    if path.startswith(API_PATHS):
        response = JsonResponse({"error": UNAVAILABLE}, status=503)
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
