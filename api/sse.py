"""Mastodon's streaming API over HTTP, as server-sent events:
GET /api/v1/streaming/<stream> (user, user/notification, public, public/local,
public/remote, hashtag, hashtag/local, list, direct), with `tag` or `list` in the query
string (or, as Mastodon.py sends them, a form body). The response is
`text/event-stream`: each event an `event:` and a `data:` line, a `:thump` comment
every STREAM_KEEPALIVE_SECONDS. The same streams as the WebSocket's
(api/mastodon_streams.py), through the same hubs, with the same slow-client rules as
the chunked streams; a refusal is a JSON error with its status."""

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from django.conf import settings
from redis import RedisError

from streaming.backlog import CONNECTION
from streaming.consumers import JSON_HEADERS, MAX_BODY_BYTES, header, request_params
from streaming.hub import TOO_SLOW, Ending
from streaming.services import StreamRefused

from .http import caller_for_token, has_scope
from .mastodon_streams import NAMES, MastodonStreams, stream_spec

logger = logging.getLogger(__name__)

# Every stream's path but the health check's (a Django view).
SSE_PATH = r"^api/v1/streaming/(?!health/?$)(?P<stream>[a-z]+(?:/[a-z]+)?)/?$"
EVENT_STREAM_HEADERS = [
    (b"Content-Type", b"text/event-stream; charset=utf-8"),
    (b"Cache-Control", b"no-store"),
    (b"X-Content-Type-Options", b"nosniff"),
    # Asks proxies such as nginx not to buffer the stream.
    (b"X-Accel-Buffering", b"no"),
]


def sse_event(event: str, payload: str | None) -> bytes:
    """One server-sent event: its name and its data (a payload is one line of JSON or
    an id; a payload-less event, as filters_changed, says so as `undefined`, as
    Mastodon's own server writes it)."""
    return f"event: {event}\ndata: {payload if payload is not None else 'undefined'}\n\n".encode()


class MastodonSseConsumer(AsyncHttpConsumer):
    """One Mastodon stream as server-sent events, for as long as the client stays."""

    responding: asyncio.Task | None = None
    streams: MastodonStreams | None = None

    async def __call__(self, scope, receive, send) -> None:
        # However the consumer ends (daphne may cancel it), its stream ends with it.
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.end()

    async def http_request(self, message: dict) -> None:
        # Answers in a task, so the client's disconnect is still heard while it streams.
        self.body.append(message.get("body", b""))
        if not message.get("more_body"):
            self.responding = asyncio.create_task(self.respond(b"".join(self.body)))

    async def http_disconnect(self, message: dict) -> None:
        await self.end()
        raise StopConsumer()

    async def end(self) -> None:
        if self.responding is not None and self.responding is not asyncio.current_task():
            self.responding.cancel()
            await asyncio.wait({self.responding})
        if self.streams is not None:
            await self.streams.close_all()

    async def respond(self, body: bytes) -> None:
        ended: asyncio.Queue[Ending] = asyncio.Queue()
        try:
            self.streams = await self.open(body, ended)
        except StreamRefused as refused:
            await self.send_error(refused)
            return
        except RedisError:
            # This runs in its own task, where the server's 503 for Redis can't see it.
            await self.send_error(StreamRefused(503, "Streaming is unavailable right now."))
            return
        except Exception:
            logger.exception("Could not open a Mastodon stream")
            await self.send_error(StreamRefused(500, "Internal error."))
            return
        ending = await self.until_ended(ended)
        await self.streams.close_all()
        line = json.dumps({"error": ending.reason, "status": ending.code})
        await self.send_body(f":{line}\n\n".encode())
        if ending.code == TOO_SLOW and (connection := self.scope.get(CONNECTION)) is not None:
            # As the chunked streams: time to read why, then the connection is cut.
            await asyncio.sleep(settings.STREAM_DROPPED_GRACE_SECONDS)
            connection.abort()

    async def open(self, body: bytes, ended: asyncio.Queue) -> MastodonStreams:
        """Checks the request and opens its stream, answering the headers once it is
        subscribed (so nothing published after them is missed); StreamRefused if not."""
        if self.scope["method"] != "GET":
            raise StreamRefused(405, "Streams take GET requests.")
        if len(body) > MAX_BODY_BYTES:
            raise StreamRefused(413, f"The request body is over {MAX_BODY_BYTES} bytes.")
        params = request_params(self.scope["query_string"], body)
        scheme, _, token = header(self.scope, b"authorization").partition(" ")
        token = token.strip() if scheme.lower() == "bearer" else ""
        caller = await database_sync_to_async(caller_for_token)(
            token or params.get("access_token", "")
        )
        if caller is None or caller.uid is None:
            raise StreamRefused(401, "Invalid access token")
        if not has_scope(caller, "read"):
            raise StreamRefused(403, "This action is outside the authorized scopes")
        name = self.scope["url_route"]["kwargs"]["stream"].strip("/").replace("/", ":")
        if name not in NAMES:
            raise StreamRefused(404, f"Unknown stream: {name.replace(':', '/')}")
        try:
            spec = stream_spec(name, params.get("tag"), params.get("list"))
        except ValueError as error:
            raise StreamRefused(400, str(error)) from None

        async def on_end(key, ending: Ending) -> None:
            ended.put_nowait(ending)

        streams = MastodonStreams(caller, self.scope, self.send_event, on_end)
        await streams.open(spec)
        try:
            await self.send_headers(headers=EVENT_STREAM_HEADERS)
            # Mastodon's first line: a comment, which also sends the headers now.
            await self.send_body(b":)\n\n", more_body=True)
        except BaseException:
            await streams.close_all()
            raise
        return streams

    async def until_ended(self, ended: asyncio.Queue) -> Ending:
        """Sends a heartbeat comment every STREAM_KEEPALIVE_SECONDS until a stream ends."""
        while True:
            try:
                async with asyncio.timeout(settings.STREAM_KEEPALIVE_SECONDS):
                    return await ended.get()
            except TimeoutError:
                await self.send_body(b":thump\n\n", more_body=True)

    async def send_event(self, key: tuple, event: str, payload: str | None) -> None:
        await self.send_body(sse_event(event, payload), more_body=True)

    async def send_error(self, refused: StreamRefused) -> None:
        body = json.dumps({"error": refused.message}).encode()
        headers = [*JSON_HEADERS, (b"Content-Length", str(len(body)).encode())]
        if refused.status == 405:
            headers.append((b"Allow", b"GET"))
        if refused.retry_after is not None:
            headers.append((b"Retry-After", str(refused.retry_after).encode()))
        await self.send_response(refused.status, body, headers=headers)
