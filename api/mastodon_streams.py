"""Mastodon's streams, whichever protocol carries them (the WebSocket of
api/consumers.py, the server-sent events of api/sse.py): what each stream name means
here, and a connection's open streams relayed as Mastodon's events.

Every stream is the site's own: the status streams are streams of the streaming API's
hub (one Redis subscription per process, the one visibility rule, the slow-client
rules), and the user's own events (notifications, direct messages, filters) come from
the hub of their private events, which the site's pages' live socket uses too. A
connection holds at most one listener there, however many of its streams need it."""

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings

from streaming.backlog import CONNECTION
from streaming.consumers import client_address, header, relay_safely
from streaming.hub import TOO_SLOW, Ending, Listener, Recipient, get_personal_hub
from streaming.services import StreamRefused
from streaming.streams import DRAIN_WAITS_SECONDS, Stream, open_stream
from timeline.conversations.selectors import check_tag
from timeline.live_events import FILTERS_CHANGED
from timeline.statuses.text import tags

from . import stream_events
from .http import Caller

# Streams one connection may carry at once.
STREAMS_PER_SOCKET = 4
# A 429's Retry-After: about when a place a crashed process held expires (streaming.services).
RETRY_AFTER_SECONDS = 10
# The user's own events a stream may relay (their types on the private channel).
NOTIFICATION, MESSAGE = "notification", "message"
NAMES = (
    "user",
    "user:notification",
    "public",
    "public:local",
    "public:remote",
    "hashtag",
    "hashtag:local",
    "list",
    "direct",
)

# Sends one event: (the stream's key, the event's name, its payload: text or None).
Emit = Callable[[tuple, str, str | None], Awaitable[None]]
# Told that a stream (None: the user's private events) ended, and why.
Ended = Callable[[tuple | None, Ending], Awaitable[None]]


@dataclass(frozen=True)
class StreamSpec:
    """A Mastodon stream as the site serves it: its key as its events name it
    (["hashtag", "python"]), the site's stream and parameters that carry its statuses
    (None: no statuses), and the types of the user's own events it relays."""

    key: tuple[str, ...]
    site_stream: str | None = None
    params: tuple[tuple[str, str], ...] = ()
    private: frozenset[str] = frozenset()

    @property
    def name(self) -> str:
        return self.key[0]

    def passes(self, event: dict) -> bool:
        """Whether a status event of its site stream is one of Mastodon's for it: public
        and tag streams leave reposts out, and a tag's must carry the tag (the track
        filter matches words)."""
        if self.name in ("user", "list"):
            return True
        if event.get("repost_of"):
            return False
        return self.name != "hashtag" or self.key[1] in tags(event.get("message", ""))


def stream_spec(name: object, tag: object = None, list_id: object = None) -> StreamSpec:
    """The stream `name` (with its `tag` or `list` parameter); ValueError saying what is
    wrong. The `:local` streams are the same as theirs (this site is all local), and
    `public:remote` carries nothing until the site federates."""
    if name not in NAMES:
        raise ValueError(f"Unknown stream {name!r}: use one of {', '.join(NAMES)}.")
    if name == "user":
        return StreamSpec(("user",), "home", (), frozenset({NOTIFICATION, FILTERS_CHANGED}))
    if name == "user:notification":
        return StreamSpec(("user:notification",), private=frozenset({NOTIFICATION}))
    if name == "direct":
        return StreamSpec(("direct",), private=frozenset({MESSAGE}))
    if name in ("public", "public:local"):
        return StreamSpec((str(name),), "sample", (("percent", "100"),))
    if name == "public:remote":
        return StreamSpec(("public:remote",))
    if name in ("hashtag", "hashtag:local"):
        checked = check_tag(str(tag or ""))
        return StreamSpec((str(name), checked), "filter", (("track", checked),))
    listed = str(list_id or "")
    if not listed.isdigit():
        raise ValueError("Name the list: list=<its id>.")
    return StreamSpec(("list", listed), "timeline", (("timeline", "list"), ("list", listed)))


@dataclass
class OpenStream:
    spec: StreamSpec
    stream: Stream | None
    task: asyncio.Task | None


class MastodonStreams:
    """A connection's open Mastodon streams: each event for them goes to `emit`, and
    each ending (a stream too slow, its user suspended) to `ended`."""

    def __init__(self, caller: Caller, scope: dict, emit: Emit, ended: Ended) -> None:
        # Only a user's token opens streams (the consumers check).
        assert caller.uid is not None
        self.caller = caller
        self.uid: int = caller.uid
        self.scope = scope
        self.emit = emit
        self.ended = ended
        self.open_streams: dict[tuple, OpenStream] = {}
        self.personal: Listener | None = None
        self.personal_task: asyncio.Task | None = None

    def site(self) -> str:
        secure = self.scope.get("scheme") in ("wss", "https")
        return ("https://" if secure else "http://") + header(self.scope, b"host")

    async def open(self, spec: StreamSpec) -> bool:
        """Opens `spec`'s stream (False: it is open already); StreamRefused says why not."""
        if spec.key in self.open_streams:
            return False
        if len(self.open_streams) >= STREAMS_PER_SOCKET:
            raise StreamRefused(
                429, f"At most {STREAMS_PER_SOCKET} streams a connection.", RETRY_AFTER_SECONDS
            )
        if spec.private:
            await self._join_personal()
        stream = None
        if spec.site_stream is not None:
            try:
                stream = await open_stream(
                    spec.site_stream,
                    dict(spec.params),
                    self.caller.user,
                    None,
                    client_address(self.scope),
                )
            except BaseException:
                await self._leave_personal_unless_needed()
                raise
        opened = OpenStream(spec, stream, None)
        self.open_streams[spec.key] = opened
        if stream is not None:
            opened.task = asyncio.create_task(self._relay(spec, stream))
        return True

    async def close(self, key: tuple) -> None:
        """Closes the stream named `key`, if it is open."""
        found = self.open_streams.pop(key, None)
        if found is not None:
            await self._end(found)
            await self._leave_personal_unless_needed()

    async def close_all(self) -> None:
        found, self.open_streams = list(self.open_streams.values()), {}
        for opened in found:
            await self._end(opened)
        await self._leave_personal_unless_needed()

    async def _end(self, opened: OpenStream) -> None:
        if opened.task is not None:
            opened.task.cancel()
        if opened.stream is not None:
            await opened.stream.close()
        if opened.task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await opened.task

    async def _relay(self, spec: StreamSpec, stream: Stream) -> None:
        async def forward(line: str) -> None:
            await self._status_event(spec, json.loads(line))

        try:
            ending = await relay_safely(stream, self.scope, forward)
        finally:
            await stream.close()
        self.open_streams.pop(spec.key, None)
        await self.ended(spec.key, ending)

    async def _status_event(self, spec: StreamSpec, event: dict) -> None:
        """A status, its edit or its deletion, as Mastodon's `update`, `status.update` or
        `delete` (follow events are no Mastodon event)."""
        if "event" in event or "id" not in event:
            return
        if event.get("deleted"):
            await self.emit(spec.key, "delete", str(event["id"]))
            return
        if not spec.passes(event):
            return
        entity = await sync_to_async(stream_events.status_entity)(
            self.site(), int(event["id"]), self.uid
        )
        if entity is not None:
            kind = "status.update" if event.get("updated") else "update"
            await self.emit(spec.key, kind, json.dumps(entity))

    async def _join_personal(self) -> None:
        if self.personal is not None:
            return
        hub = get_personal_hub()
        most = settings.LIVE_SOCKETS_PER_USER
        if hub.listening(self.uid) >= most:
            raise StreamRefused(
                429, f"At most {most} live connections to your own events.", RETRY_AFTER_SECONDS
            )
        try:
            self.personal = await hub.join(Recipient(self.uid))
        except TimeoutError:
            raise StreamRefused(503, "Streaming is unavailable right now; try again.") from None
        self.personal_task = asyncio.create_task(self._relay_personal(self.personal))

    async def _leave_personal_unless_needed(self) -> None:
        """Leaves the private events' hub once no open stream relays them."""
        needed = any(opened.spec.private for opened in self.open_streams.values())
        if needed or self.personal is None:
            return
        listener, task = self.personal, self.personal_task
        self.personal = self.personal_task = None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await get_personal_hub().leave(listener)

    async def _relay_personal(self, listener: Listener) -> None:
        """Relays the user's own events to the streams that carry them, at the client's
        pace (as the status streams): a client that stops reading falls behind the
        listener's bounded queue, and the hub drops it."""
        while (line := await listener.lines.get()) is not None:
            await self._until_sent(listener)
            if listener.ending is not None:
                break
            try:
                await self._private_event(json.loads(line))
            except Exception:
                # One event that can't be shown must not end the others'.
                continue
        ending = listener.ending or Ending(TOO_SLOW, "The stream ended.")
        ended = [key for key, opened in self.open_streams.items() if opened.spec.private]
        self.personal = self.personal_task = None
        for key in ended:
            found = self.open_streams.pop(key)
            await self._end(found)
        await self.ended(tuple(ended[0]) if ended else None, ending)

    async def _until_sent(self, listener: Listener) -> None:
        connection = self.scope.get(CONNECTION)
        if connection is None:
            return
        waits = 0
        while (
            connection.unsent_bytes() > settings.STREAM_SEND_BUFFER_BYTES
            and listener.ending is None
        ):
            await asyncio.sleep(DRAIN_WAITS_SECONDS[min(waits, len(DRAIN_WAITS_SECONDS) - 1)])
            waits += 1

    async def _private_event(self, event: dict) -> None:
        kind = event.get("type")
        wanting = [o.spec.key for o in self.open_streams.values() if kind in o.spec.private]
        if not wanting:
            return
        payload: str | None = None
        if kind == NOTIFICATION:
            entity = await sync_to_async(stream_events.notification_entity)(
                self.site(), self.uid, event.get("notification") or {}
            )
            if entity is None:
                return
            payload = json.dumps(entity)
        elif kind == MESSAGE:
            found = await sync_to_async(stream_events.conversation_entity)(
                self.site(), self.uid, int(event["conversation"]), int(event.get("unread", 0))
            )
            if found is None:
                return
            payload = json.dumps(found)
        name = "conversation" if kind == MESSAGE else str(kind)
        for key in wanting:
            await self.emit(key, name, payload)
