"""Listening to the hub in process: a listener's next line, and a user's home stream."""

import asyncio

from streaming import services
from streaming.home_filter import HomeFilter
from streaming.hub import Hub


async def next_line(listener, timeout=5.0):
    """The next line `listener` receives, or TimeoutError after `timeout` seconds."""
    async with asyncio.timeout(timeout):
        return await listener.lines.get()


async def home_stream(hub: Hub, uid: int):
    """A listener of `uid`'s home on `hub`, loaded as a live home is."""
    match = HomeFilter(uid)
    listener = await hub.join(match)
    match.begin_load()
    match.load(await services.home_state(uid, match.keep))
    return listener
