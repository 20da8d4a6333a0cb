"""HTTP and WebSocket entry point: the streaming endpoints go to their consumers,
every other HTTP request to Django."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
django_asgi_app = get_asgi_application()

# These need Django set up first.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from streaming.consumers import StreamHttpConsumer, StreamWebsocketConsumer  # noqa: E402

STREAM_PATH = r"^statuses/(?P<stream>[^/]+)\.json$"

application = ProtocolTypeRouter(
    {
        "http": URLRouter(
            [
                re_path(STREAM_PATH, AuthMiddlewareStack(StreamHttpConsumer.as_asgi())),
                re_path(r"", django_asgi_app),
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
