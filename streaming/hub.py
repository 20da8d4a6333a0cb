"""This process's side of streaming: one Redis subscription, and one renewal round
trip per heartbeat, for all the streams it serves.

Thousands of streams share one pub/sub connection: the hub decodes each event
once, asks only the streams its index of their filters finds (streaming.index), and
gives the line, encoded once, to each whose filter passes it and whose owner may see it
(streaming.viewers, timeline.audience's rule) without ever waiting:
straight to its connection when it can take it, else onto its bounded queue. A stream
whose queue is full has fallen too far behind; it is ended (and told why) while the
others go on. Every STREAM_HEARTBEAT_SECONDS the hub renews all its streams' places in
one pipeline, and ends those whose key was revoked or whose owner was suspended.

The hub works only while some stream listens: the last one to leave ends the
subscription, so an idle process holds no Redis connection. If the connection
drops, the hub subscribes again by itself; events published meanwhile are lost,
as pub/sub keeps nothing for absent subscribers."""

import asyncio
import json
import logging
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar, cast

from django.conf import settings

from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import get_async_pubsub
from timeline.audience import selectors as safety
from timeline.keys import PRIVATE_CHANNEL
from timeline.statuses.visibility import is_unlisted

from . import services
from .backlog import Line, Writer
from .filters import GROUP, AnyFilter, Filter, FollowFilter, SampleFilter, TrackFilter, as_int
from .home_filter import HomeFilter
from .index import FilterIndex
from .page_filter import GlobalFilter, PageFilter, TagFilter
from .records import Event
from .services import StreamGrant
from .viewers import Viewer, named_uids

# The public streams (vis): an unlisted status never reaches them.
PUBLIC_FILTERS = (AnyFilter, SampleFilter, TrackFilter, FollowFilter, GlobalFilter, TagFilter)

logger = logging.getLogger(__name__)

RETRY_DELAYS = (0.1, 0.5, 1.0, 2.0, 5.0)
# The async client's pool refuses a 101st concurrent connection rather than wait, so
# a burst of clients opening (or closing) streams takes turns below that.
PLACE_CALLS = 50
# WebSocket close codes for endings that are no refusal (those say 4000 + HTTP status).
TOO_SLOW = 4008
SUSPENDED = 4403
INTERNAL_ERROR = 1011


@dataclass(frozen=True)
class Ending:
    """Why an open stream ended: a close code and a reason, sent as its last line."""

    code: int
    reason: str

    def line(self) -> str:
        return json.dumps({"disconnect": {"code": self.code, "reason": self.reason}})


class Listener:
    """A stream's place in the hub: its filter, its grant (None: not counted, as for
    the command line), whom it is for (`viewer`, see viewers.py; None: its filter applies
    timeline.audience's rule itself, as a live home's does), the lines waiting to be
    sent, and where its client's connection takes them straight from the hub (`writer`,
    see backlog.py), if it does."""

    def __init__(
        self, match: Filter, grant: StreamGrant | None, size: int, viewer: Viewer | None = None
    ) -> None:
        self.match = match
        self.grant = grant
        self.viewer = viewer
        self.lines: asyncio.Queue[str | None] = asyncio.Queue(size)
        self.ending: Ending | None = None
        self.writer: Writer | None = None
        # Whether the stream's relay is sending a line it took off the queue: a line
        # written meanwhile would overtake it.
        self.sending = False

    def put(self, line: Line) -> None:
        """Sends `line` to the client now if nothing waits before it and the connection
        takes it, else queues it (QueueFull: the queue is full)."""
        writer = self.writer
        if writer is None or self.sending or not self.lines.empty() or not writer(line):
            self.lines.put_nowait(line.text)

    def end(self, ending: Ending) -> None:
        """Ends the stream: what is still queued is dropped, and a None line wakes its reader."""
        self.ending = ending
        while not self.lines.empty():
            self.lines.get_nowait()
        self.lines.put_nowait(None)


class Hub:
    """Relays the event channel to the listeners of one event loop."""

    def __init__(self, channel: str = STATUS_CHANNEL) -> None:
        self.channel = channel
        self.listeners: set[Listener] = set()
        self.index: FilterIndex[Listener] = FilterIndex()
        # Listeners by their viewer's uid: the events that change a viewer's audience
        # reach them whatever their filters look for.
        self.by_viewer: dict[int, set[Listener]] = {}
        # Viewers whose audience must be read again (an unblock), by one task for all.
        self._stale: set[Viewer] = set()
        self._stale_found = asyncio.Event()
        self._task: asyncio.Task | None = None
        self._subscribed = asyncio.Event()
        # Held around each stream's own Redis calls (taking and giving back its place,
        # reading its owner's audience).
        self.place_calls = asyncio.Semaphore(PLACE_CALLS)

    async def join(
        self,
        match: Filter,
        grant: StreamGrant | None = None,
        *,
        viewer: Viewer | None = None,
        timeout: float = 5.0,
    ) -> Listener:
        """A new listener, returned once the subscription is live (so no event
        published after this returns is missed); without a `viewer`, it is a visitor's
        (a live home's filter is its own). TimeoutError if Redis can't be reached."""
        listener = Listener(match, grant, settings.STREAM_QUEUE_SIZE, self._viewer(match, viewer))
        self._add(listener)
        if self._task is None or self._task.done():
            self._subscribed = asyncio.Event()
            self._task = asyncio.create_task(self._run(self._subscribed), name="streaming-hub")
        try:
            async with asyncio.timeout(timeout):
                await self._subscribed.wait()
        except BaseException:
            await self.leave(listener)
            raise
        return listener

    async def leave(self, listener: Listener) -> None:
        """Forgets a listener; the last one out ends the subscription."""
        self._remove(listener)
        if not self.listeners and self._task is not None:
            task, self._task = self._task, None
            task.cancel()
            await asyncio.wait({task})

    def dispatch(self, raw: str) -> None:
        """Gives one published event to every listener whose filter passes it."""
        try:
            event: Event = json.loads(raw)
        except ValueError:
            logger.warning("Ignoring an event that is not JSON: %.200r", raw)
            return
        if not isinstance(event, dict):
            return
        # Clients that got a status get its deletion as the id alone.
        deleted = event.get("deleted")
        line = Line(json.dumps({"id": event.get("id"), "deleted": True}) if deleted else raw)
        for uid in named_uids(event):
            for listener in self.by_viewer.get(uid, ()):
                # Before any listener is asked: the rule applies to this very event.
                if listener.viewer is not None and listener.viewer.learn(event):
                    self._stale.add(listener.viewer)
                    self._stale_found.set()
        for listener in self._candidates(event):
            try:
                viewer = listener.viewer
                if listener.match(event) and (viewer is None or viewer.sees(event)):
                    listener.put(line)
            except asyncio.QueueFull:
                behind = f"The stream fell more than {listener.lines.maxsize} events behind."
                self._end(listener, Ending(TOO_SLOW, behind))
            except Exception:
                # One stream's broken filter (or connection) must not end everyone's subscription.
                logger.exception("A stream failed on %.200r", raw)
                self._end(listener, Ending(INTERNAL_ERROR, "The stream failed; reconnect."))

    def _end(self, listener: Listener, ending: Ending) -> None:
        self._remove(listener)
        listener.end(ending)

    def _viewer(self, match: Filter, viewer: Viewer | None) -> Viewer | None:
        """Whom a new listener is for: `viewer`, else a visitor, unless its filter
        applies the rule itself (a live home)."""
        if viewer is None and not isinstance(match, HomeFilter):
            return Viewer()
        return viewer

    def _add(self, listener: Listener) -> None:
        self.listeners.add(listener)
        self.index.add(listener)
        uid = listener.viewer.uid if listener.viewer is not None else None
        if uid is not None:
            self.by_viewer.setdefault(uid, set()).add(listener)

    def _remove(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        self.index.remove(listener)
        uid = listener.viewer.uid if listener.viewer is not None else None
        if uid is not None and (same := self.by_viewer.get(uid)) is not None:
            same.discard(listener)
            if not same:
                del self.by_viewer[uid]

    def _candidates(self, event: Event) -> Iterable[Listener]:
        """The listeners whose filter may pass `event`, found by what their filters look
        for (streaming.index), so thousands of streams don't each look at every event.
        A private account's status (or its deletion) goes to live home timelines alone,
        whose filter passes it only to approved followers (timeline.audience), and a
        private group's post to its live group timelines too, which only members open, and
        to the pages' live timelines shown anywhere but global (streaming.page_filter),
        whose viewers pass it to approved followers alone; a follow event is the
        viewers' to decide. An unlisted status (or its deletion) goes to every stream but
        the public ones (the streaming API's, a global or tag page's live timeline)."""
        if is_unlisted(event) and "event" not in event:
            return [
                listener
                for listener in self.index.candidates(event)
                if not isinstance(listener.match, PUBLIC_FILTERS)
            ]
        if safety.is_private(event) and "event" not in event:
            homes = [
                listener
                for listener in self.index.scanned
                if isinstance(listener.match, HomeFilter)
            ]
            # A private group's post: its live group timelines too (members' alone).
            group = as_int(event.get("group"))
            in_group = self.index.by_key.get((GROUP, group), ()) if group is not None else ()
            pages = [
                listener
                for listener in self.index.candidates(event)
                if isinstance(listener.match, PageFilter) and listener.match.where != safety.GLOBAL
            ]
            return [*homes, *in_group, *pages] if in_group or pages else homes
        return self.index.candidates(event)

    async def read_audience(self, viewer: Viewer) -> None:
        """Reads what the rule needs of `viewer`'s owner (again, if it was read): 1 round
        trip, among the streams' own Redis calls (`place_calls`)."""
        # A stream's viewer is its owner's (a stream key's or the logged-in user's).
        assert viewer.uid is not None
        if viewer.ready:
            viewer.begin_load()
        async with self.place_calls:
            audience = await services.viewer_audience(viewer.uid, with_follows=viewer.with_follows)
        viewer.load(audience)
        if viewer.stale:
            # An unblock came while it was read, which the read may not have seen.
            self._stale.add(viewer)
            self._stale_found.set()

    async def _run(self, subscribed: asyncio.Event) -> None:
        async with asyncio.TaskGroup() as group:
            group.create_task(self._listen(subscribed))
            group.create_task(self._renew())
            group.create_task(self._read_stale_audiences())

    async def _read_stale_audiences(self) -> None:
        while True:
            await self._stale_found.wait()
            self._stale_found.clear()
            stale, self._stale = self._stale, set()
            for viewer in stale:
                try:
                    await self.read_audience(viewer)
                except Exception as error:
                    # Until then its stream hides what it hid; it is read again later.
                    logger.warning("Could not read the audience of %s: %r", viewer.uid, error)
                    self._stale.add(viewer)
            if self._stale:
                await asyncio.sleep(RETRY_DELAYS[-1])
                self._stale_found.set()

    async def _listen(self, subscribed: asyncio.Event) -> None:
        failures = 0
        while True:
            pubsub = None
            try:
                pubsub = await get_async_pubsub()
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
                if pubsub is not None:
                    await pubsub.aclose()
            await asyncio.sleep(RETRY_DELAYS[min(failures, len(RETRY_DELAYS) - 1)])
            failures += 1

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(settings.STREAM_HEARTBEAT_SECONDS)
            counted = [listener for listener in self.listeners if listener.grant is not None]
            try:
                refusals = await services.keep_streams([lsn.grant for lsn in counted if lsn.grant])
            except Exception as error:
                # A missed renewal costs nothing: places last a few heartbeats.
                logger.warning("Could not renew the streams' places: %r", error)
                continue
            for listener, refused in zip(counted, refusals, strict=True):
                if refused is not None:
                    self._end(listener, Ending(refused.close_code, refused.message))


class Recipient:
    """The filter of one user's private events: those whose "to" names their uid."""

    def __init__(self, uid: int) -> None:
        self.uid = uid

    def __call__(self, event: Event) -> bool:
        to = event.get("to")
        return isinstance(to, list) and self.uid in to


class PersonalHub(Hub):
    """The hub of PRIVATE_CHANNEL, whose listeners are Recipients: an event goes only to
    the listeners of the uids it names, found by uid, so thousands of open pages don't
    each look at every event. Every STREAM_HEARTBEAT_SECONDS it ends the pages of users
    suspended meanwhile (one round trip for all)."""

    def __init__(self, channel: str = PRIVATE_CHANNEL) -> None:
        super().__init__(channel)
        self._by_uid: dict[int, set[Listener]] = {}

    def _viewer(self, match: Filter, viewer: Viewer | None) -> Viewer | None:
        # Each event names its readers: no rule but that applies.
        return None

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(settings.STREAM_HEARTBEAT_SECONDS)
            if not self._by_uid:
                continue
            try:
                suspended = await services.suspended_among(list(self._by_uid))
            except Exception as error:
                logger.warning("Could not check the live pages' users: %r", error)
                continue
            for uid in suspended:
                for listener in list(self._by_uid.get(uid, ())):
                    self._end(listener, Ending(SUSPENDED, "This account is suspended."))

    def _add(self, listener: Listener) -> None:
        self.listeners.add(listener)
        self._by_uid.setdefault(self._uid(listener), set()).add(listener)

    def _remove(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        same_user = self._by_uid.get(self._uid(listener), set())
        same_user.discard(listener)
        if not same_user:
            self._by_uid.pop(self._uid(listener), None)

    @staticmethod
    def _uid(listener: Listener) -> int:
        # This hub's listeners' filters are Recipients.
        return cast(Recipient, listener.match).uid

    def listening(self, uid: int) -> int:
        """How many of `uid`'s pages listen here."""
        return len(self._by_uid.get(uid, ()))

    def _candidates(self, event: Event) -> list[Listener]:
        to = event.get("to")
        if not isinstance(to, list):
            return []
        return [listener for uid in to for listener in self._by_uid.get(uid, ())]


H = TypeVar("H", bound=Hub)
_hubs: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Hub]]" = (
    weakref.WeakKeyDictionary()
)


def _hub(channel: str, kind: type[H]) -> H:
    hubs = _hubs.setdefault(asyncio.get_running_loop(), {})
    hub = hubs.get(channel)
    # Each channel has its one kind of hub.
    if not isinstance(hub, kind):
        hub = hubs[channel] = kind(channel)
    return hub


def get_hub() -> Hub:
    """The hub of the running event loop (one per server process)."""
    return _hub(STATUS_CHANNEL, Hub)


def get_personal_hub() -> PersonalHub:
    """The running event loop's hub of the private events of the site's own pages
    (notifications, direct messages): one subscription per server process."""
    return _hub(PRIVATE_CHANNEL, PersonalHub)
