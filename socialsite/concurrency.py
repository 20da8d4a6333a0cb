"""Admission control for the ASGI application: a process's request slots, how long a
request may hold one, and how a request gives its slot up while it waits for work done
elsewhere (socialsite.offslot)."""

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Iterator

log = logging.getLogger(__name__)


class Slot:
    """One request's place among the process's slots (`gate`): held from `enter` to
    `leave`, at most `seconds` at a stretch, and never again once the request is over."""

    def __init__(self, gate: asyncio.Semaphore, seconds: float, path: str) -> None:
        self.gate, self.seconds, self.path = gate, seconds, path
        self.loop = asyncio.get_running_loop()
        self.held = False
        self.over = False
        self._timer: asyncio.TimerHandle | None = None

    async def enter(self) -> None:
        """Waits for a place (in turn) and takes it, unless the request is over."""
        if self.over:
            return
        await self.gate.acquire()
        if self.over:
            # The request ended (its client went away) while this waited.
            self.gate.release()
            return
        self.held = True
        self._timer = self.loop.call_later(self.seconds, self._overtime)

    def leave(self) -> None:
        """Gives the place to the next request, if this one holds it (event loop only)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.held:
            self.held = False
            self.gate.release()

    def end(self) -> None:
        """The request is over: its place goes back, and a late `enter` takes none."""
        self.over = True
        self.leave()

    def _overtime(self) -> None:
        # A sync view can't be interrupted, but it needn't keep the others waiting: it
        # runs on beside the next request, which gets the place now.
        log.warning(
            "%s held its request slot over HTTP_SLOT_SECONDS (%gs): the next request goes in",
            self.path,
            self.seconds,
        )
        self.leave()


# The current request's slot, seen by its view's thread (asgiref copies the context).
current_slot: contextvars.ContextVar[Slot | None] = contextvars.ContextVar(
    "current_slot", default=None
)


def at_most(limit: int, app, *, slot_seconds: float = float("inf")):
    """`app`, with at most `limit` requests inside it at once; the rest wait their turn.
    Django runs each request's sync code in a thread of its own: with 100 requests in
    flight, 100 threads fight over the GIL and asgiref's locks, and a page cost 1.5-3x
    its CPU time (the bench's home page, 100 connections: 35 req/s unlimited, 45 at
    most 4). Pages are CPU-bound Python; a second thread only overlaps the ~0.1 ms
    Redis waits, and costs more than that in GIL hand-offs (home page with cached
    cards and user: 164 req/s at most 2, 198 at most 1). So the default is 1, as a
    sync worker would; the price is that a slow request would hold up the process's
    other pages (streams and static files don't wait: they don't come through here),
    so a request holds its place at most `slot_seconds` at a stretch (HTTP_SLOT_SECONDS)
    and gives it up while work it waits for runs elsewhere (`off_the_slot`). Raise
    HTTP_CONCURRENCY if that matters more. A request cancelled while it waits, or one
    that raises, gives its place back."""
    gate = asyncio.Semaphore(limit)

    async def limited(scope, receive, send):
        slot = Slot(gate, slot_seconds, scope.get("path", "?"))
        token = current_slot.set(slot)
        try:
            await slot.enter()
            await app(scope, receive, send)
        finally:
            slot.end()
            current_slot.reset(token)

    return limited


@contextlib.contextmanager
def off_the_slot() -> Iterator[None]:
    """For the block, the current request's slot goes to the next request in line; after
    it, the request waits its turn to get one back. For a request's sync code (its view's
    thread) waiting on work done elsewhere; outside a request it does nothing."""
    slot = current_slot.get()
    if slot is None:
        yield
        return
    with contextlib.suppress(RuntimeError):
        if asyncio.get_running_loop() is slot.loop:
            raise RuntimeError("off_the_slot waits in a request's thread, not its event loop")
    slot.loop.call_soon_threadsafe(slot.leave)
    try:
        yield
    finally:
        asyncio.run_coroutine_threadsafe(slot.enter(), slot.loop).result()
