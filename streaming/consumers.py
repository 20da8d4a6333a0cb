"""The streaming endpoints: /statuses/<stream>.json over chunked HTTP and WebSocket.

Thin: each reads the request's parameters, opens the stream, relays its lines,
and turns a refusal or an ending into the protocol's way of saying so."""

import asyncio
import contextlib
import json
import logging

from autobahn.exception import Disconnected
from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import QueryDict
from redis import RedisError

from .backlog import CONNECTION, LINE_END
from .hub import (
    INTERNAL_ERROR,
    SUSPENDED,
    TOO_SLOW,
    Ending,
    Listener,
    Recipient,
    get_personal_hub,
)
from .services import StreamRefused, suspended_among
from .streams import STREAM_METHODS, Stream, open_stream, session_uid

logger = logging.getLogger(__name__)

FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
MAX_BODY_BYTES = 1 << 20
# Every JSON answer says so for sure: a browser must never sniff a stream's text (posts
# written by anyone) into HTML or script.
JSON_HEADERS = [
    (b"Content-Type", b"application/json; charset=utf-8"),
    (b"X-Content-Type-Options", b"nosniff"),
]


def request_params(query_string: bytes, body: bytes = b"") -> dict[str, str]:
    """The query's and the form body's parameters; a repeated one joins with commas,
    as track=a&track=b means track=a,b. StreamRefused (400) for too many fields."""
    try:
        query, form = QueryDict(query_string), QueryDict(body)
    except TooManyFieldsSent:
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        raise StreamRefused(400, f"Too many parameters: at most {limit} fields.") from None
    return {name: ",".join(query.getlist(name) + form.getlist(name)) for name in {*query, *form}}


def header(scope: dict, name: bytes) -> str:
    return next((v.decode("latin-1") for k, v in scope["headers"] if k == name), "")


async def relay_safely(stream: Stream, scope: dict, send, keepalive=None) -> Ending:
    """The stream's ending; an unexpected failure ends it too, logged, not shown. The
    connection's unsent bytes, where the server tells them (`scope`), pace the relay."""
    connection = scope.get(CONNECTION)
    unsent_bytes = connection.unsent_bytes if connection is not None else None
    try:
        return await stream.relay(send, keepalive, unsent_bytes)
    except Exception:
        logger.exception("Stream %s failed", stream.grant.connection_id)
        return Ending(INTERNAL_ERROR, "The stream failed; reconnect.")


def client_address(scope: dict) -> str | None:
    """The client's IP address as the server saw it (None over a unix socket). Behind a
    proxy, the proxy's, unless daphne runs with --proxy-headers."""
    client = scope.get("client")
    return client[0] if client else None


def stream_name(scope: dict) -> str:
    return scope.get("url_route", {}).get("kwargs", {}).get("stream", "")


class EndsItsStream(AsyncConsumer):
    """A consumer whose stream, relayed by a task of its own (`streaming`), ends with
    it, however it ends.

    A disconnect ends the stream, but daphne sends none for a WebSocket whose handshake
    it timed out, and it cancels a consumer still running application_close_timeout
    after its client left (on a busy server, thousands of clients resetting at once):
    the relaying task, a task of its own, would outlive the consumer with its stream,
    its place in the hub and its slot in Redis, for as long as the process runs."""

    streaming: asyncio.Task | None = None
    stream: Stream | None = None

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.end_stream()

    async def end_stream(self) -> None:
        """Stops relaying and closes the stream, if it is open (once, however often
        called). Should this wait be cancelled, the stream has left the hub already."""
        if self.streaming is not None:
            self.streaming.cancel()
        if self.stream is not None:
            await self.stream.close()
        if self.streaming is not None:
            await asyncio.wait({self.streaming})


class StreamHttpConsumer(EndsItsStream, AsyncHttpConsumer):
    """GET sample.json and home.json, POST filter.json: one JSON object per line of a
    chunked response, for as long as the client stays."""

    async def http_request(self, message: dict) -> None:
        # Unlike AsyncHttpConsumer's, this answers in a task, so the client's
        # disconnect is still heard (and ends the stream) while it runs.
        self.body.append(message.get("body", b""))
        if not message.get("more_body"):
            self.streaming = asyncio.create_task(self.respond(b"".join(self.body)))

    async def http_disconnect(self, message: dict) -> None:
        await self.end_stream()
        raise StopConsumer()

    async def respond(self, body: bytes) -> None:
        try:
            self.stream = stream = await open_stream(
                stream_name(self.scope),
                self.params(body),
                self.scope.get("user"),
                self.scope.get("session"),
                client_address(self.scope),
            )
        except StreamRefused as refused:
            await self.send_error(refused)
            return
        except Exception:
            # This runs in its own task: daphne would never see the error to answer it.
            logger.exception("Could not open a stream")
            await self.send_error(StreamRefused(500, "Internal error."))
            return
        try:
            await self.send_headers(
                headers=[
                    *JSON_HEADERS,
                    (b"Cache-Control", b"no-cache"),
                    # Asks proxies such as nginx not to buffer the stream either.
                    (b"X-Accel-Buffering", b"no"),
                ]
            )
            # An empty body part makes the server send the headers now.
            await self.send_body(b"", more_body=True)
            if (connection := self.scope.get(CONNECTION)) is not None:
                stream.write_directly(connection.chunk_writer())
            ending = await relay_safely(stream, self.scope, self.send_line, self.send_keepalive)
            await self.send_body(ending.line().encode() + LINE_END)
        finally:
            await stream.close()
        if ending.code == TOO_SLOW:
            await self.hang_up_after_grace()

    async def hang_up_after_grace(self) -> None:
        """Gives a client dropped for not reading STREAM_DROPPED_GRACE_SECONDS to read
        its last line, then cuts its connection: otherwise it could keep it, and what
        daphne and the kernel hold for it, as long as it liked, counted by no limit
        (the stream's places are given back), and open the next."""
        connection = self.scope.get(CONNECTION)
        if connection is not None:
            await asyncio.sleep(settings.STREAM_DROPPED_GRACE_SECONDS)
            connection.abort()

    def params(self, body: bytes) -> dict[str, str]:
        name = stream_name(self.scope)
        allowed = STREAM_METHODS.get(name)
        if allowed and self.scope["method"] != allowed:
            raise StreamRefused(405, f"{name}.json takes {allowed} requests.")
        if len(body) > MAX_BODY_BYTES:
            raise StreamRefused(413, f"The request body is over {MAX_BODY_BYTES} bytes.")
        content_type = header(self.scope, b"content-type").split(";")[0].strip().lower()
        if body and content_type != FORM_CONTENT_TYPE:
            raise StreamRefused(400, f"Send the parameters as {FORM_CONTENT_TYPE} form fields.")
        params = request_params(self.scope["query_string"], body)
        scheme, _, credentials = header(self.scope, b"authorization").partition(" ")
        if scheme.lower() == "bearer" and credentials.strip():
            params.setdefault("identifier", credentials.strip())
        return params

    async def send_line(self, line: str) -> None:
        await self.send_body(line.encode() + LINE_END, more_body=True)

    async def send_keepalive(self) -> None:
        await self.send_body(LINE_END, more_body=True)

    async def send_error(self, refused: StreamRefused) -> None:
        body = json.dumps({"error": refused.message}).encode()
        headers = [*JSON_HEADERS, (b"Content-Length", str(len(body)).encode())]
        if refused.status == 405:
            headers.append((b"Allow", STREAM_METHODS[stream_name(self.scope)].encode()))
        if refused.retry_after is not None:
            headers.append((b"Retry-After", str(refused.retry_after).encode()))
        await self.send_response(refused.status, body, headers=headers)


class StreamWebsocketConsumer(EndsItsStream, AsyncWebsocketConsumer):
    """ws://HOST/statuses/<stream>.json?...: the same streams and parameters, one
    event per text frame. A refusal or an ending is sent as a last JSON frame
    before the close, since daphne drops close reasons."""

    async def connect(self) -> None:
        try:
            params = request_params(self.scope["query_string"])
            user = self.session_user()
            session = self.scope.get("session") if user is not None else None
            self.stream = await open_stream(
                stream_name(self.scope), params, user, session, client_address(self.scope)
            )
        except StreamRefused as refused:
            # Accepted anyway, so the refusal can say why with a close code.
            await self.accept()
            error = json.dumps({"error": refused.message})
            await self.end(error, refused.close_code, refused.message)
            return
        # Accepted once subscribed: no event published after the handshake is missed.
        await self.accept()
        if (connection := self.scope.get(CONNECTION)) is not None:
            self.stream.write_directly(connection.frame_writer())
        self.streaming = asyncio.create_task(self.relay(self.stream))

    async def relay(self, stream: Stream) -> None:
        try:
            ending = await relay_safely(stream, self.scope, self.send_text)
        finally:
            await stream.close()
        await self.send_text(ending.line())
        if ending.code == TOO_SLOW:
            await self.until_read(settings.STREAM_DROPPED_GRACE_SECONDS)
        await self.close(code=ending.code, reason=ending.reason)

    async def until_read(self, seconds: float) -> None:
        """Until the client has taken what the server holds for it (its last frame too),
        for at most `seconds`, and then as long again to answer the close: a client
        dropped for not reading gets that long to read why, as a chunked one does, where
        daphne would reset it one second after its close (what the sockets' buffers still
        hold, megabytes, lost with it). Nothing more is sent meanwhile, and the stream's
        places are given back already."""
        connection = self.scope.get(CONNECTION)
        if connection is None:
            return
        connection.allow_close(seconds)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                while connection.unsent_bytes():
                    await asyncio.sleep(0.05)

    async def send_text(self, line: str) -> None:
        """Sends one frame, unless the connection is closing: daphne's WebSocket
        (autobahn's) refuses to send from the client's close frame on, until the
        disconnect it then reports ends this consumer, and the stream with it."""
        with contextlib.suppress(Disconnected):
            await self.send(text_data=line)

    async def end(self, last_frame: str, code: int, reason: str) -> None:
        await self.send_text(last_frame)
        await self.close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        await self.end_stream()

    def session_user(self):
        """The logged-in user, unless the page asking is on another site: a
        cross-site page must not stream with its visitor's session."""
        origin = header(self.scope, b"origin")
        if origin and origin.split("://", 1)[-1] != header(self.scope, b"host"):
            return None
        return self.scope.get("user")


class PersonalWebsocketConsumer(AsyncWebsocketConsumer):
    """ws://HOST/live/: the logged-in user's own events, for the site's pages (new
    notifications and direct messages, unread counts), from PRIVATE_CHANNEL through
    this process's one subscription to it. No stream of the streaming API reads that
    channel, and this endpoint takes no stream key: only a same-site session of a user
    not suspended (one suspended while here is closed with 4403 within a heartbeat)."""

    listener: Listener | None = None
    relaying: asyncio.Task | None = None

    async def connect(self) -> None:
        origin = header(self.scope, b"origin")
        same_site = not origin or origin.split("://", 1)[-1] == header(self.scope, b"host")
        uid = await session_uid(self.scope.get("user"), self.scope.get("session"))
        if uid is None or not same_site:
            await self.refuse(4401, "Log in first.")
            return
        hub = get_personal_hub()
        try:
            suspended = await suspended_among([int(uid)])
        except RedisError:
            await self.refuse(4503, "Live updates are unavailable right now; reload later.")
            return
        if suspended:
            await self.refuse(SUSPENDED, "This account is suspended.")
            return
        most = settings.LIVE_SOCKETS_PER_USER
        if hub.listening(int(uid)) >= most:
            await self.refuse(4429, f"At most {most} live pages at once: close one.")
            return
        try:
            self.listener = await hub.join(Recipient(int(uid)))
        except TimeoutError:
            await self.refuse(4503, "Live updates are unavailable right now; reload later.")
            return
        # Accepted once subscribed: no event published after the handshake is missed.
        await self.accept()
        self.relaying = asyncio.create_task(self.relay(self.listener))

    async def refuse(self, code: int, reason: str) -> None:
        """Accepted anyway, so the refusal can say why with a close code."""
        await self.accept()
        await self.send(text_data=json.dumps({"error": reason}))
        await self.close(code=code)

    async def relay(self, listener: Listener) -> None:
        while (line := await listener.lines.get()) is not None:
            with contextlib.suppress(Disconnected):
                await self.send(text_data=line)
        ending = listener.ending
        # The hub queues None only after it sets the ending.
        assert ending is not None
        with contextlib.suppress(Disconnected):
            await self.send(text_data=ending.line())
            await self.close(code=ending.code)

    async def disconnect(self, code: int) -> None:
        if self.relaying is not None:
            self.relaying.cancel()
        if self.listener is not None:
            await get_personal_hub().leave(self.listener)
            self.listener = None
