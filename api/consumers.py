"""Mastodon's streaming API over WebSocket: ws://HOST/api/v1/streaming, with the
`user`, `public` and `hashtag` streams, each a stream of the site's own hub (one Redis
subscription per process) relayed as Mastodon's events: `update` (the Status, as a
JSON string) and `delete` (the id).

A socket may carry several streams: named in the URL (`?stream=user`), and
subscribed or unsubscribed by messages ({"type": "subscribe", "stream": "hashtag",
"tag": "python"}), as Mastodon's own server and Mastodon.py do. The token comes as
the Authorization header, the `access_token` parameter or the WebSocket
subprotocol, and must grant `read`."""

import asyncio
import contextlib
import json

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.http import QueryDict

from streaming.consumers import client_address, header, relay_safely
from streaming.services import StreamRefused
from streaming.streams import Stream, open_stream
from timeline.conversations.selectors import check_tag
from timeline.feeds.selectors import shown_status
from timeline.statuses.text import tags

from . import entities
from .http import Caller, caller_for_token, has_scope

# Each Mastodon stream as the site's: its stream and parameters (a tag's: track it).
STREAMS = {"user": "home", "public": "sample", "hashtag": "filter"}
# Streams one socket may carry at once.
STREAMS_PER_SOCKET = 4


def status_entity(site: str, status_id: int, viewer: int) -> dict | None:
    """A status as `viewer` sees it, as a Status entity; None if it is gone or hidden."""
    found = shown_status(status_id, viewer=viewer)
    return entities.statuses(site, [found])[0] if found else None


class MastodonStreamingConsumer(AsyncWebsocketConsumer):
    caller: Caller | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # (stream, tag) -> its open stream and the task relaying it.
        self.streams: dict[tuple, tuple[Stream, asyncio.Task]] = {}

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
        stream = self.query().get("stream")
        try:
            opened = await self.open(stream, self.query().get("tag")) if stream else None
        except ValueError as error:
            await self.accept(subprotocol)
            await self.refuse(400, str(error))
            return
        except StreamRefused as refused:
            await self.accept(subprotocol)
            await self.refuse(refused.status, refused.message)
            return
        # Accepted once subscribed: no event published after the handshake is missed.
        await self.accept(subprotocol)
        if opened is not None:
            self.start(*opened)

    async def refuse(self, status: int, message: str) -> None:
        await self.send_json({"error": message, "status": status})
        await self.close(code=4000 + status)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        try:
            message = json.loads(text_data or "")
        except ValueError:
            message = None
        if not isinstance(message, dict) or message.get("type") not in {"subscribe", "unsubscribe"}:
            await self.send_json(
                {"error": 'Send {"type": "subscribe", "stream": ...}', "status": 400}
            )
            return
        if message["type"] == "subscribe":
            await self.subscribe(message.get("stream"), message.get("tag"))
        else:
            await self.unsubscribe(message.get("stream"), message.get("tag"))

    def stream_key(self, stream, tag) -> tuple:
        """The stream's key, as its events name it; ValueError for one that isn't."""
        if stream not in STREAMS:
            raise ValueError(f"Unknown stream {stream!r}: use user, public or hashtag.")
        return (stream, check_tag(tag or "")) if stream == "hashtag" else (stream,)

    async def subscribe(self, stream, tag) -> None:
        """Adds a stream to the socket (nothing if it carries it already), or sends why not."""
        try:
            opened = await self.open(stream, tag)
        except ValueError as error:
            await self.send_json({"error": str(error), "status": 400})
            return
        except StreamRefused as refused:
            await self.send_json({"error": refused.message, "status": refused.status})
            return
        if opened is not None:
            self.start(*opened)

    async def open(self, stream, tag) -> tuple[tuple, Stream] | None:
        """Opens the site's stream for a Mastodon stream: its key and the stream, or None
        if the socket carries it already. ValueError or StreamRefused say why not."""
        key = self.stream_key(stream, tag)
        if key in self.streams:
            return None
        if len(self.streams) >= STREAMS_PER_SOCKET:
            raise StreamRefused(429, f"At most {STREAMS_PER_SOCKET} streams a connection.")
        params = {"percent": "100"} if stream == "public" else {}
        if stream == "hashtag":
            params = {"track": key[1]}
        # connect() closes a socket without a user's token before any stream opens.
        assert self.caller is not None
        opened = await open_stream(
            STREAMS[stream], params, self.caller.user, None, client_address(self.scope)
        )
        return key, opened

    def start(self, key: tuple, stream: Stream) -> None:
        self.streams[key] = (stream, asyncio.create_task(self.relay(key, stream)))

    async def unsubscribe(self, stream, tag) -> None:
        with contextlib.suppress(ValueError):
            found = self.streams.pop(self.stream_key(stream, tag), None)
            if found is not None:
                await self.end_stream(*found)

    async def relay(self, key: tuple, stream: Stream) -> None:
        async def forward(line: str) -> None:
            await self.forward(key, json.loads(line))

        try:
            ending = await relay_safely(stream, self.scope, forward)
        finally:
            await stream.close()
        # The hub ended it (too slow, the token's user suspended...): the socket ends too.
        await self.send_json({"error": ending.reason, "status": ending.code})
        with contextlib.suppress(Disconnected):
            await self.close(code=ending.code)

    async def forward(self, key: tuple, event: dict) -> None:
        """An event of the site's stream as Mastodon's: statuses, their edits and
        deletions only."""
        if "event" in event or "id" not in event:
            return
        if event.get("deleted"):
            await self.send_json(
                {"stream": list(key), "event": "delete", "payload": str(event["id"])}
            )
            return
        # Mastodon's public and tag streams leave reblogs out; a tag's must be a tag.
        if key[0] != "user" and event.get("repost_of"):
            return
        if key[0] == "hashtag" and key[1] not in tags(event.get("message", "")):
            return
        caller = self.caller
        # connect() closes a socket without a user's token before any stream opens.
        assert caller is not None and caller.uid is not None
        entity = await sync_to_async(status_entity)(self.site(), int(event["id"]), caller.uid)
        if entity is not None:
            payload = json.dumps(entity)
            # Edits (timeline.edits): an edited status is Mastodon's "status.update".
            kind = "status.update" if event.get("updated") else "update"
            await self.send_json({"stream": list(key), "event": kind, "payload": payload})

    def site(self) -> str:
        secure = self.scope.get("scheme") == "wss"
        return ("https://" if secure else "http://") + header(self.scope, b"host")

    async def send_json(self, message: dict) -> None:
        with contextlib.suppress(Disconnected):
            await self.send(text_data=json.dumps(message))

    async def disconnect(self, code: int) -> None:
        await self.end_streams()

    async def end_streams(self) -> None:
        streams, self.streams = list(self.streams.values()), {}
        for stream, task in streams:
            await self.end_stream(stream, task)

    async def end_stream(self, stream: Stream, task: asyncio.Task) -> None:
        task.cancel()
        await stream.close()
        with contextlib.suppress(asyncio.CancelledError):
            await task
