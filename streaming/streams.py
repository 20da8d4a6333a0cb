"""A stream from its request to its last line, whichever protocol carries it.

`open_stream` checks everything that can refuse a stream (the stream's name, its
credentials, its parameters, the key's limit) before anything is held; the
consumers then relay its lines and close it, however it ends."""

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from redis import RedisError

from accounts.services import uid_for_login

from . import services
from .filters import HomeFilter, create_stream_filter
from .hub import Hub, Listener, get_hub
from .services import StreamGrant, StreamRefused

logger = logging.getLogger(__name__)

# Each stream and the HTTP method that opens it (a WebSocket opens any of them).
STREAM_METHODS = {"sample": "GET", "filter": "POST", "home": "GET"}
# WebSocket close codes: 4000 + the HTTP status of a refusal, and this one for a
# client that fell too far behind.
TOO_SLOW = 4008
INTERNAL_ERROR = 1011


def close_code(refused: StreamRefused) -> int:
    return 4000 + refused.status


@dataclass(frozen=True)
class Ending:
    """Why an open stream ended: a close code and a reason, sent as its last line."""

    code: int
    reason: str

    def line(self) -> str:
        return json.dumps({"disconnect": {"code": self.code, "reason": self.reason}})


class Stream:
    """An open stream: its place (grant) and its listener in this process's hub."""

    def __init__(self, grant: StreamGrant, hub: Hub, listener: Listener) -> None:
        self.grant = grant
        self.hub = hub
        self.listener = listener
        self.closed = False

    async def relay(
        self,
        send: Callable[[str], Awaitable[None]],
        keepalive: Callable[[], Awaitable[None]] | None = None,
    ) -> Ending:
        """Sends each matching event until the stream must end; returns why.

        Every STREAM_HEARTBEAT_SECONDS it renews its place (noticing a revoked key or
        a suspension); with `keepalive`, it calls it after STREAM_KEEPALIVE_SECONDS
        without a line."""
        loop = asyncio.get_running_loop()
        heartbeat = settings.STREAM_HEARTBEAT_SECONDS
        idle = settings.STREAM_KEEPALIVE_SECONDS if keepalive else math.inf
        next_beat = loop.time() + heartbeat
        last_sent = loop.time()
        while True:
            if self.listener.dropped:
                return Ending(TOO_SLOW, self.listener.dropped)
            now = loop.time()
            if now >= next_beat:
                refused = await self._renew()
                if refused is not None:
                    return Ending(close_code(refused), refused.message)
                next_beat = now + heartbeat
            if now - last_sent >= idle:
                await keepalive()
                last_sent = now
            try:
                async with asyncio.timeout_at(min(next_beat, last_sent + idle)):
                    line = await self.listener.lines.get()
            except TimeoutError:
                continue
            if line is not None:
                await send(line)
                last_sent = loop.time()

    async def _renew(self) -> StreamRefused | None:
        try:
            return await services.keep_stream(self.grant)
        except RedisError as error:
            # The hub is resubscribing meanwhile; a missed renewal is not fatal.
            logger.warning("Could not renew stream %s: %r", self.grant.connection_id, error)
            return None

    async def close(self) -> None:
        """Leaves the hub and gives back the stream's place (once)."""
        if self.closed:
            return
        self.closed = True
        await self.hub.leave(self.listener)
        await _give_back(self.grant)


async def open_stream(name: str, params: Mapping[str, str], user=None) -> Stream:
    """Opens the stream `name` (sample, filter or home) for a request's parameters and
    its logged-in `user`, if any; StreamRefused says why it can't be opened."""
    if name not in STREAM_METHODS:
        raise StreamRefused(
            404, "No such stream: use /statuses/sample.json, filter.json or home.json."
        )
    key = params.get("identifier") or None
    uid = None if key else await _session_uid(user)
    if not key and uid is None:
        raise StreamRefused(401, "Give your stream key as the identifier parameter.")
    match = None
    if name != "home":
        try:
            match = create_stream_filter(key or f"user:{uid}", name, params)
        except ValueError as error:
            raise StreamRefused(400, str(error)) from None
    try:
        grant = await services.open_stream(key=key, uid=uid)
    except RedisError:
        raise _unavailable() from None
    try:
        return await _start(name, grant, match)
    except BaseException as error:
        await _give_back(grant)
        if isinstance(error, RedisError | TimeoutError):
            raise _unavailable() from None
        raise


async def _start(name: str, grant: StreamGrant, match) -> Stream:
    hub = get_hub()
    if name == "home":
        match = HomeFilter(grant.uid)
    listener = await hub.join(match)
    if name == "home":
        # Read after joining, so a follow made meanwhile is seen by one or the other.
        try:
            match.add_followed(await services.followed_uids(grant.uid))
        except BaseException:
            await hub.leave(listener)
            raise
    return Stream(grant, hub, listener)


async def _give_back(grant: StreamGrant) -> None:
    try:
        await services.close_stream(grant)
    except RedisError as error:
        # Its place expires by itself a few heartbeats from now.
        logger.warning("Could not close stream %s: %r", grant.connection_id, error)


def _unavailable() -> StreamRefused:
    return StreamRefused(503, "Streaming is unavailable right now; try again shortly.")


async def _session_uid(user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return await sync_to_async(uid_for_login)(user.username)
