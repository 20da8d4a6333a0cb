"""One Redis subscription per server process, fanned out to every stream it serves.

Thousands of streams share one pub/sub connection: the hub decodes each event
once, runs each stream's filter, and puts the line to send on that stream's
bounded queue without ever waiting for it. A stream whose queue is full has
fallen too far behind; it is dropped (and told why) while the others go on.

The subscription lives only while some stream listens: the last one to leave
ends it, so an idle process holds no Redis connection. If the connection drops,
the hub subscribes again by itself; events published meanwhile are lost, as
pub/sub keeps nothing for absent subscribers."""

import asyncio
import json
import logging
import weakref

from django.conf import settings

from socialsite.redis import get_async_redis

from .filters import Filter
from .keys import STATUS_CHANNEL

logger = logging.getLogger(__name__)

RETRY_DELAYS = (0.1, 0.5, 1.0, 2.0, 5.0)


class Listener:
    """A stream's place in the hub: its filter and the lines waiting to be sent."""

    def __init__(self, match: Filter, size: int) -> None:
        self.match = match
        self.lines: asyncio.Queue[str | None] = asyncio.Queue(size)
        # Set when the hub gave up on this stream; a None line wakes its reader.
        self.dropped: str | None = None

    def drop(self, reason: str) -> None:
        self.dropped = reason
        while not self.lines.empty():
            self.lines.get_nowait()
        self.lines.put_nowait(None)


class Hub:
    """Relays the event channel to the listeners of one event loop."""

    def __init__(self, channel: str = STATUS_CHANNEL) -> None:
        self.channel = channel
        self.listeners: set[Listener] = set()
        self._task: asyncio.Task | None = None
        self._subscribed = asyncio.Event()

    async def join(self, match: Filter, *, timeout: float = 5.0) -> Listener:
        """A new listener, returned once the subscription is live (so no event
        published after this returns is missed). TimeoutError if Redis can't be reached."""
        listener = Listener(match, settings.STREAM_QUEUE_SIZE)
        self.listeners.add(listener)
        if self._task is None:
            self._subscribed = asyncio.Event()
            self._task = asyncio.create_task(self._listen(self._subscribed), name="streaming-hub")
        try:
            async with asyncio.timeout(timeout):
                await self._subscribed.wait()
        except BaseException:
            await self.leave(listener)
            raise
        return listener

    async def leave(self, listener: Listener) -> None:
        """Forgets a listener; the last one out ends the subscription."""
        self.listeners.discard(listener)
        if not self.listeners and self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            await asyncio.wait({task})

    def dispatch(self, raw: str) -> None:
        """Queues one published event for every listener whose filter passes it."""
        try:
            event = json.loads(raw)
        except ValueError:
            logger.warning("Ignoring an event that is not JSON: %.200r", raw)
            return
        if not isinstance(event, dict):
            return
        # Clients that got a status get its deletion as the id alone.
        line = json.dumps({"id": event.get("id"), "deleted": True}) if event.get("deleted") else raw
        for listener in list(self.listeners):
            try:
                if listener.match(event):
                    listener.lines.put_nowait(line)
            except asyncio.QueueFull:
                self._drop(
                    listener, f"The stream fell more than {listener.lines.maxsize} events behind."
                )
            except Exception:
                # One stream's broken filter must not end everyone's subscription.
                logger.exception("A stream's filter failed on %.200r", raw)
                self._drop(listener, "The stream's filter failed.")

    def _drop(self, listener: Listener, reason: str) -> None:
        self.listeners.discard(listener)
        listener.drop(reason)

    async def _listen(self, subscribed: asyncio.Event) -> None:
        failures = 0
        while True:
            pubsub = get_async_redis().pubsub()
            try:
                await pubsub.subscribe(self.channel)
                async for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        subscribed.set()
                        failures = 0
                    elif message["type"] == "message":
                        self.dispatch(message["data"])
            except Exception as error:
                logger.warning("The event subscription failed (%r); subscribing again", error)
            finally:
                subscribed.clear()
                await pubsub.aclose()
            await asyncio.sleep(RETRY_DELAYS[min(failures, len(RETRY_DELAYS) - 1)])
            failures += 1


_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub]" = weakref.WeakKeyDictionary()


def get_hub() -> Hub:
    """The hub of the running event loop (one per server process)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        hub = _hubs[loop] = Hub()
    return hub
