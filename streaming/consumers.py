"""The streaming endpoints: /statuses/<stream>.json over chunked HTTP and WebSocket.

Thin: each reads the request's parameters, opens the stream, relays its lines,
and turns a refusal or an ending into the protocol's way of saying so."""

import asyncio
import json
import logging

from channels.exceptions import StopConsumer
from channels.generic.http import AsyncHttpConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import TooManyFieldsSent
from django.http import QueryDict

from .hub import INTERNAL_ERROR, Ending
from .services import StreamRefused
from .streams import STREAM_METHODS, Stream, open_stream

logger = logging.getLogger(__name__)

FORM_CONTENT_TYPE = "application/x-www-form-urlencoded"
MAX_BODY_BYTES = 1 << 20
LINE_END = b"\r\n"
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


async def relay_safely(stream: Stream, send, keepalive=None) -> Ending:
    """The stream's ending; an unexpected failure ends it too, logged, not shown."""
    try:
        return await stream.relay(send, keepalive)
    except Exception:
        logger.exception("Stream %s failed", stream.grant.connection_id)
        return Ending(INTERNAL_ERROR, "The stream failed; reconnect.")


def stream_name(scope: dict) -> str:
    return scope.get("url_route", {}).get("kwargs", {}).get("stream", "")


class StreamHttpConsumer(AsyncHttpConsumer):
    """GET sample.json and home.json, POST filter.json: one JSON object per line of a
    chunked response, for as long as the client stays."""

    streaming: asyncio.Task | None = None

    async def http_request(self, message: dict) -> None:
        # Unlike AsyncHttpConsumer's, this answers in a task, so the client's
        # disconnect is still heard (and ends the stream) while it runs.
        self.body.append(message.get("body", b""))
        if not message.get("more_body"):
            self.streaming = asyncio.create_task(self.respond(b"".join(self.body)))

    async def http_disconnect(self, message: dict) -> None:
        if self.streaming is not None:
            self.streaming.cancel()
            await asyncio.wait({self.streaming})
        raise StopConsumer()

    async def respond(self, body: bytes) -> None:
        try:
            stream = await open_stream(
                stream_name(self.scope),
                self.params(body),
                self.scope.get("user"),
                self.scope.get("session"),
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
            ending = await relay_safely(stream, self.send_line, self.send_keepalive)
            await self.send_body(ending.line().encode() + LINE_END)
        finally:
            await stream.close()

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
        await self.send_response(refused.status, body, headers=headers)


class StreamWebsocketConsumer(AsyncWebsocketConsumer):
    """ws://HOST/statuses/<stream>.json?...: the same streams and parameters, one
    event per text frame. A refusal or an ending is sent as a last JSON frame
    before the close, since daphne drops close reasons."""

    stream: Stream | None = None
    relaying: asyncio.Task | None = None

    async def connect(self) -> None:
        try:
            params = request_params(self.scope["query_string"])
            user = self.session_user()
            session = self.scope.get("session") if user is not None else None
            self.stream = await open_stream(stream_name(self.scope), params, user, session)
        except StreamRefused as refused:
            # Accepted anyway, so the refusal can say why with a close code.
            await self.accept()
            error = json.dumps({"error": refused.message})
            await self.end(error, refused.close_code, refused.message)
            return
        # Accepted once subscribed: no event published after the handshake is missed.
        await self.accept()
        self.relaying = asyncio.create_task(self.relay(self.stream))

    async def relay(self, stream: Stream) -> None:
        try:
            ending = await relay_safely(stream, self.send_text)
            await self.end(ending.line(), ending.code, ending.reason)
        finally:
            await stream.close()

    async def send_text(self, line: str) -> None:
        await self.send(text_data=line)

    async def end(self, last_frame: str, code: int, reason: str) -> None:
        await self.send(text_data=last_frame)
        await self.close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        if self.relaying is not None:
            self.relaying.cancel()
            await asyncio.wait({self.relaying})
        if self.stream is not None:
            await self.stream.close()

    def session_user(self):
        """The logged-in user, unless the page asking is on another site: a
        cross-site page must not stream with its visitor's session."""
        origin = header(self.scope, b"origin")
        if origin and origin.split("://", 1)[-1] != header(self.scope, b"host"):
            return None
        return self.scope.get("user")
