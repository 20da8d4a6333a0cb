"""HTTP and WebSocket entry point: the streaming endpoints go to their consumers,
every other HTTP request to Django."""

import gc
import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "socialsite.settings")
django_asgi_app = get_asgi_application()

# This module runs in the server process, whose event loop relays every stream. With
# thousands of streams it holds ~200 tracked objects each (500,000 at 2,500), and a full
# collection walks them all with the loop stopped: 200-550 ms. At Python's default
# young threshold (700) the objects of messages in flight are often still alive when
# collected, so they are promoted, and that growth of the old generation triggers a full
# collection every ~20 s at 5,000 messages/s, sooner as the delays pile up. Collecting
# young objects every 50,000 allocations lets them die first: no full collection in 90 s
# of that load (the streaming bench), and young collections of about a millisecond. The
# middle generation is collected every 20 young collections (Python's default is 10).
gc.set_threshold(50_000, 20, 10)

# These need Django set up first.
from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path, reverse  # noqa: E402

from api.consumers import MastodonStreamingConsumer  # noqa: E402
from api.sse import SSE_PATH, MastodonSseConsumer  # noqa: E402
from socialsite.concurrency import at_most  # noqa: E402
from socialsite.middleware import with_security_policy  # noqa: E402
from socialsite.ratelimit import refuse_anonymous_reads, refuse_early  # noqa: E402
from socialsite.views import answers_503_while_redis_is_unavailable  # noqa: E402
from streaming.backlog import reports_connection  # noqa: E402
from streaming.consumers import (  # noqa: E402
    PersonalWebsocketConsumer,
    StreamHttpConsumer,
    StreamWebsocketConsumer,
)

STREAM_PATH = r"^statuses/(?P<stream>[^/]+)\.json$"

# Redis unavailable (restarting, loading, busy) wherever it is met outside a Django view
# (the early refusals, a stream's session or token, a consumer): a 503, or a WebSocket
# closed with 4503, never the server's 500 or 1011. Inside reports_connection, which
# must see daphne's own `send`.
guarded = answers_503_while_redis_is_unavailable


application = ProtocolTypeRouter(
    {
        "http": URLRouter(
            [
                re_path(
                    STREAM_PATH,
                    reports_connection(guarded(AuthMiddlewareStack(StreamHttpConsumer.as_asgi()))),
                ),
                # apistream: Mastodon's streams as server-sent events (api.sse).
                re_path(SSE_PATH, reports_connection(guarded(MastodonSseConsumer.as_asgi()))),
                # Static files are cheap and the error pages need them: they don't queue.
                # django-stubs types re_path's view as a Django view; channels' URLRouter
                # takes an ASGI app there.
                re_path(
                    rf"^{re.escape(settings.STATIC_URL.lstrip('/'))}",
                    django_asgi_app,  # type: ignore[arg-type]
                ),
                re_path(
                    r"",
                    guarded(  # type: ignore[arg-type]  # an ASGI app, as above
                        refuse_anonymous_reads(
                            refuse_early(
                                {reverse("accounts:login"): "login_failures_per_ip"},
                                at_most(
                                    settings.HTTP_CONCURRENCY,
                                    django_asgi_app,
                                    slot_seconds=settings.HTTP_SLOT_SECONDS,
                                ),
                            )
                        )
                    ),
                ),
            ]
        ),
        # Every WebSocket path reaches the consumer, which closes unknown ones with 4404.
        "websocket": reports_connection(
            guarded(
                AuthMiddlewareStack(
                    URLRouter(
                        [
                            re_path(STREAM_PATH, StreamWebsocketConsumer.as_asgi()),
                            re_path(r"^live/$", PersonalWebsocketConsumer.as_asgi()),
                            re_path(r"^api/v1/streaming/?$", MastodonStreamingConsumer.as_asgi()),
                            re_path(r"", StreamWebsocketConsumer.as_asgi()),
                        ]
                    )
                )
            )
        ),
    }
)

# Every HTTP answer, Django's or not (the early refusals and 503s too), carries the
# Content-Security-Policy; but the streams', JSON whose `send` must stay daphne's own
# (streaming.backlog).
exempt = re.compile(f"{STREAM_PATH}|{SSE_PATH}".replace("?P<stream>", ""))
application = with_security_policy(application, exempt=exempt)
