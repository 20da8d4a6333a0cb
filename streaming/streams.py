"""A stream from its request to its last line, whichever protocol carries it.

`open_stream` checks everything that can refuse a stream (the stream's name, its
credentials, its parameters, the key's limit) before anything is held; the
consumers then relay its lines and close it, however it ends."""

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping

from asgiref.sync import sync_to_async
from django.conf import settings
from redis import RedisError

from accounts.auth import SESSION_UID
from accounts.services import uid_for_login
from timeline.audience import selectors as safety

from . import services
from .backlog import Writer
from .filters import Filter, create_stream_filter, passes_follow_events
from .group_filter import GroupFilter, GroupViewer, group_stream_filter
from .home_filter import HomeFilter
from .hub import Ending, Hub, Listener, get_hub
from .page_filter import PageFilter, page_stream_filter
from .services import StreamGrant, StreamRefused
from .viewers import Viewer

logger = logging.getLogger(__name__)

# Each stream and the HTTP method that opens it (a WebSocket opens any of them).
STREAM_METHODS = {
    "sample": "GET",
    "filter": "POST",
    "home": "GET",
    "group": "GET",
    "timeline": "GET",
}
RELOAD_RETRY_SECONDS = 1.0
# The waits of a stream for its client to take what the server holds for it: the first
# lets the event loop write to the socket at once (a client that reads keeps up at full
# speed), the later ones space out the looks at one that doesn't read.
DRAIN_WAITS_SECONDS = (0, 0, 0.001, 0.005, 0.02, 0.05)


class Stream:
    """An open stream: its place (grant) and its listener in this process's hub."""

    def __init__(
        self, grant: StreamGrant, hub: Hub, listener: Listener, keeper: asyncio.Task | None = None
    ) -> None:
        self.grant = grant
        self.hub = hub
        self.listener = listener
        # A home stream's task that keeps its filter's picture of home current.
        self.keeper = keeper
        self.closed = False

    async def relay(
        self,
        send: Callable[[str], Awaitable[None]],
        keepalive: Callable[[], Awaitable[None]] | None = None,
        unsent_bytes: Callable[[], int] | None = None,
    ) -> Ending:
        """Sends each matching event until the hub ends the stream; returns why. With
        `keepalive`, calls it after STREAM_KEEPALIVE_SECONDS without a line. With
        `unsent_bytes` (what the server holds unsent for the client, see backlog.py),
        sends no line while that is over STREAM_SEND_BUFFER_BYTES (holding the one it
        took): a client that stops reading then falls behind, and is dropped, instead
        of the server buffering every event for it."""
        idle = settings.STREAM_KEEPALIVE_SECONDS if keepalive else None
        while True:
            try:
                async with asyncio.timeout(idle):
                    line = await self.listener.lines.get()
            except TimeoutError:
                # Only a stream with a keepalive has a timeout.
                assert keepalive is not None
                await keepalive()
                continue
            if self.listener.ending is not None:
                return self.listener.ending
            # The hub queues None only after it sets the ending.
            assert line is not None
            self.listener.sending = True
            try:
                # Before the send: lines the hub wrote straight to the connection may
                # have filled it already.
                if unsent_bytes is not None:
                    await self._until_sent(unsent_bytes)
                if self.listener.ending is not None:
                    return self.listener.ending
                await send(line)
            finally:
                self.listener.sending = False

    def write_directly(self, writer: Writer) -> None:
        """From now on the hub gives lines to `writer` (the client's connection, see
        backlog.py) whenever none waits on the queue; the others the relay sends."""
        self.listener.writer = writer

    async def _until_sent(self, unsent_bytes: Callable[[], int]) -> None:
        """Waits until the client has taken enough of what was sent, or the hub ends
        the stream meanwhile (its queue filled up)."""
        limit = settings.STREAM_SEND_BUFFER_BYTES
        waits = 0
        while unsent_bytes() > limit and self.listener.ending is None:
            await asyncio.sleep(DRAIN_WAITS_SECONDS[min(waits, len(DRAIN_WAITS_SECONDS) - 1)])
            waits += 1

    async def close(self) -> None:
        """Leaves the hub and gives back the stream's place (once). Leaving comes
        before any wait: should the closing task be cancelled (a disconnect cancels the
        relaying task, which closes), the listener is gone all the same, and the place,
        no longer renewed, expires by itself."""
        if self.closed:
            return
        self.closed = True
        if self.keeper is not None:
            self.keeper.cancel()
        await self.hub.leave(self.listener)
        if self.keeper is not None:
            await asyncio.wait({self.keeper})
        await _give_back(self.hub, self.grant)


async def open_stream(
    name: str, params: Mapping[str, str], user=None, session=None, ip: str | None = None
) -> Stream:
    """Opens the stream `name` (sample, filter, home, group or timeline) for a request's
    parameters, its logged-in `user` and their `session`, if any, and its client address
    `ip`; StreamRefused says why it can't be opened."""
    if name not in STREAM_METHODS:
        raise StreamRefused(
            404,
            "No such stream: use /statuses/sample.json, filter.json, home.json, group.json"
            " or timeline.json.",
        )
    key = params.get("identifier") or None
    uid = None if key else await session_uid(user, session)
    if not key and uid is None:
        raise StreamRefused(401, "Give your stream key as the identifier parameter.")
    match: Filter | None = None
    if name == "group":
        match = await group_stream_filter(params.get("group", ""), uid)
    elif name == "timeline":
        match = await page_stream_filter(dict(params), uid)
    elif name != "home":
        try:
            match = create_stream_filter(key or f"user:{uid}", name, params)
        except ValueError as error:
            raise StreamRefused(400, str(error)) from None
    hub = get_hub()
    try:
        async with hub.place_calls:
            grant = await services.open_stream(key=key, uid=uid, ip=ip)
    except RedisError:
        raise _unavailable() from None
    try:
        return await _start(hub, name, grant, match)
    except BaseException as error:
        await _give_back(hub, grant)
        if isinstance(error, RedisError | TimeoutError):
            raise _unavailable() from None
        raise


async def _start(hub: Hub, name: str, grant: StreamGrant, match) -> Stream:
    if name != "home":
        if isinstance(match, GroupFilter):
            viewer: Viewer = GroupViewer(match.group_id, grant.uid)
        elif isinstance(match, PageFilter):
            # Anywhere but global, a private account's status goes to its followers.
            private_too = match.where != safety.GLOBAL
            viewer = Viewer.loading(grant.uid, with_follows=private_too, where=match.where)
        else:
            viewer = Viewer.loading(grant.uid, with_follows=passes_follow_events(match))
        listener = await hub.join(match, grant, viewer=viewer)
        # Read after joining, so a block or a follow made meanwhile is seen by one or the other.
        try:
            await hub.read_audience(viewer)
        except BaseException:
            await hub.leave(listener)
            raise
        return Stream(grant, hub, listener)
    match = HomeFilter(grant.uid)
    listener = await hub.join(match, grant)
    # Read after joining, so a follow or a post made meanwhile is seen by one or the other.
    try:
        await _load_home(match, grant.uid)
    except BaseException:
        await hub.leave(listener)
        raise
    keeper = asyncio.create_task(_keep_home_current(match, grant.uid), name="home-state")
    return Stream(grant, hub, listener, keeper)


async def _load_home(match: HomeFilter, uid: int) -> None:
    match.begin_load()
    match.load(await services.home_state(uid, match.keep))


async def _keep_home_current(match: HomeFilter, uid: int) -> None:
    """Reads home again whenever the home filter finds what it knows of it out of date."""
    while True:
        await match.stale.wait()
        try:
            await _load_home(match, uid)
        except Exception as error:
            # Until then the filter decides on what it knew; it asks again.
            logger.warning("Could not read the home of %s again: %r", uid, error)
            match.stale.set()
            await asyncio.sleep(RELOAD_RETRY_SECONDS)


async def _give_back(hub: Hub, grant: StreamGrant) -> None:
    try:
        async with hub.place_calls:
            await services.close_stream(grant)
    except RedisError as error:
        # Its place expires by itself a few heartbeats from now.
        logger.warning("Could not close stream %s: %r", grant.connection_id, error)


def _unavailable() -> StreamRefused:
    return StreamRefused(503, "Streaming is unavailable right now; try again shortly.")


async def session_uid(user, session) -> int | None:
    """The uid of a connection's logged-in user (from its session), or None."""
    if user is None or not user.is_authenticated:
        return None
    # Login keeps the uid in the session, as pages read it (accounts.auth): no Redis
    # lookup per live page; sessions older than that look it up.
    uid = session.get(SESSION_UID) if session is not None else None
    return uid or await sync_to_async(uid_for_login)(user.username)
