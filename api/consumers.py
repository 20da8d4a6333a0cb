"""Mastodon's streaming API over WebSocket: ws://HOST/api/v1/streaming, with Mastodon's
streams (api/mastodon_streams.py: `user`, `user:notification`, `public`, `public:local`,
`public:remote`, `hashtag`, `hashtag:local`, `list`, `direct`) relayed as Mastodon's
events: `update` and `status.update` (the Status, as a JSON string), `delete` (the id),
`notification`, `conversation` and `filters_changed`.

A socket may carry several streams: named in the URL (`?stream=user`), and
subscribed or unsubscribed by messages ({"type": "subscribe", "stream": "hashtag",
"tag": "python"}), as Mastodon's own server and Mastodon.py do. A subscription refused
is answered with an error frame naming the stream, and the socket's other streams go
on. The token comes as the Authorization header, the `access_token` parameter or the
WebSocket subprotocol, and must grant `read`."""

import contextlib
import json

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import QueryDict

from streaming.consumers import header
from streaming.hub import Ending
from streaming.services import StreamRefused

from .http import Caller, caller_for_token, has_scope
from .mastodon_streams import STREAMS_PER_SOCKET, MastodonStreams, StreamSpec, stream_spec

__all__ = ["STREAMS_PER_SOCKET", "MastodonStreamingConsumer"]


def requested(message: QueryDict | dict) -> tuple[object, object, object]:
    """The stream a URL or a subscribe message names, with its tag and list."""
    return message.get("stream"), message.get("tag"), message.get("list")


def named(stream: object, tag: object = None, list_id: object = None) -> list:
    """The stream as an error frame names it: as its events would, as far as it can."""
    name = stream if isinstance(stream, str) else str(stream)
    extra = tag if name.startswith("hashtag") else list_id if name == "list" else None
    return [name, str(extra)] if extra else [name]


class MastodonStreamingConsumer(AsyncWebsocketConsumer):
    caller: Caller | None = None
    streams: MastodonStreams | None = None

    async def __call__(self, scope, receive, send) -> None:
        # However the consumer ends (daphne may cancel it), its streams end with it.
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.end_streams()

    def token(self) -> tuple[str, str | None]:
        """The access token, and the subprotocol to answer if it came as one."""
        scheme, _, token = header(self.scope, b"authorization").partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip(), None
        protocol = header(self.scope, b"sec-websocket-protocol").strip()
        if protocol:
            return protocol, protocol
        return self.query().get("access_token", ""), None

    def query(self) -> QueryDict:
        return QueryDict(self.scope["query_string"])

    async def connect(self) -> None:
        token, subprotocol = self.token()
        self.caller = await database_sync_to_async(caller_for_token)(token)
        if self.caller is None or self.caller.uid is None:
            await self.accept(subprotocol)
            await self.refuse(401, "Invalid access token")
            return
        if not has_scope(self.caller, "read"):
            await self.accept(subprotocol)
            await self.refuse(403, "This action is outside the authorized scopes")
            return
        self.streams = MastodonStreams(self.caller, self.scope, self.send_event, self.ended)
        stream, tag, list_id = requested(self.query())
        if stream:
            try:
                await self.streams.open(stream_spec(stream, tag, list_id))
            except ValueError as error:
                await self.accept(subprotocol)
                await self.refuse(400, str(error), named(stream, tag, list_id))
                return
            except StreamRefused as refused:
                await self.accept(subprotocol)
                await self.refuse(refused.status, refused.message, named(stream, tag, list_id))
                return
        # Accepted once subscribed: no event published after the handshake is missed.
        await self.accept(subprotocol)

    async def refuse(self, status: int, message: str, stream: list | None = None) -> None:
        await self.send_json(error_frame(message, status, stream))
        await self.close(code=4000 + status)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            message = None
        if not isinstance(message, dict) or message.get("type") not in {"subscribe", "unsubscribe"}:
            await self.send_json(error_frame('Send {"type": "subscribe", "stream": ...}', 400))
            return
        stream, tag, list_id = requested(message)
        if message["type"] == "subscribe":
            await self.subscribe(stream, tag, list_id)
        else:
            await self.unsubscribe(stream, tag, list_id)

    async def subscribe(self, stream, tag, list_id) -> None:
        """Adds a stream to the socket (nothing if it carries it already), or sends why
        not, naming it: the socket's other streams go on."""
        assert self.streams is not None
        try:
            spec = stream_spec(stream, tag, list_id)
            await self.streams.open(spec)
        except ValueError as error:
            await self.send_json(error_frame(str(error), 400, named(stream, tag, list_id)))
        except StreamRefused as refused:
            frame = error_frame(refused.message, refused.status, named(stream, tag, list_id))
            await self.send_json(frame)

    async def unsubscribe(self, stream, tag, list_id) -> None:
        assert self.streams is not None
        spec: StreamSpec | None = None
        with contextlib.suppress(ValueError):
            spec = stream_spec(stream, tag, list_id)
        if spec is not None:
            await self.streams.close(spec.key)

    async def send_event(self, key: tuple, event: str, payload: str | None) -> None:
        message: dict = {"stream": list(key), "event": event}
        if payload is not None:
            message["payload"] = payload
        await self.send_json(message)

    async def ended(self, key: tuple | None, ending: Ending) -> None:
        """The hub ended a stream (too slow, the token's user suspended...): the socket
        ends too, its last frame saying why."""
        await self.send_json(error_frame(ending.reason, ending.code, list(key) if key else None))
        with contextlib.suppress(Disconnected):
            await self.close(code=ending.code)

    async def send_json(self, message: dict) -> None:
        with contextlib.suppress(Disconnected):
            await self.send(text_data=json.dumps(message))

    async def disconnect(self, code: int) -> None:
        await self.end_streams()

    async def end_streams(self) -> None:
        if self.streams is not None:
            await self.streams.close_all()


def error_frame(message: str, status: int, stream: list | None = None) -> dict:
    """Mastodon's error frame, naming the stream it is about (if any)."""
    return {"error": message, "status": status, **({"stream": stream} if stream else {})}
