"""HTTP and WebSocket entry point: the streaming endpoints go to their consumers,
every other HTTP request to Django."""

import asyncio
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
django_asgi_app = get_asgi_application()

# These need Django set up first.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from streaming.consumers import StreamHttpConsumer, StreamWebsocketConsumer  # noqa: E402

STREAM_PATH = r"^statuses/(?P<stream>[^/]+)\.json$"


def at_most(limit: int, app):
    """`app`, with at most `limit` requests inside it at once; the rest wait their turn.
    Django runs each request's sync code in a thread of its own: with 100 requests in
    flight, 100 threads fight over the GIL and asgiref's locks, and a page cost 1.5-3x
    its CPU time (the bench's pages: 35 -> 45 req/s with the limit)."""
    gate = asyncio.Semaphore(limit)

    async def limited(scope, receive, send):
        async with gate:
            await app(scope, receive, send)

    return limited


application = ProtocolTypeRouter(
    {
        "http": URLRouter(
            [
                re_path(STREAM_PATH, AuthMiddlewareStack(StreamHttpConsumer.as_asgi())),
                re_path(r"", at_most(settings.HTTP_CONCURRENCY, django_asgi_app)),
            ]
        ),
        # Every WebSocket path reaches the consumer, which closes unknown ones with 4404.
        "websocket": AuthMiddlewareStack(
            URLRouter(
                [
                    re_path(STREAM_PATH, StreamWebsocketConsumer.as_asgi()),
                    re_path(r"", StreamWebsocketConsumer.as_asgi()),
                ]
            )
        ),
    }
)
