"""Statuses kept in the process, so that a page of them costs one round trip (its ids)
when they are all kept: the book's get_status_messages reads 30 hashes every time.

Every script that changes a status hash (take_status, update_status and the status
set scripts) also PUBLISHes the hash's key on STATUS_CHANGES_CHANNEL, in the same
script, and the writer forgets its own copy at once. A thread of each process listens
there and forgets what changed; until it is subscribed (and after it loses its
connection) nothing is kept or served, as a change published meanwhile would be
missed. A status read just before a change and kept just after the change's message
came would be stale: `keep` refuses what changed since its read was sent.

A kept status is served only for a timeline entry with the score it was posted at
(profile and global timelines are scored so, as timeline.statuses.scores says): an id reused after
the database was emptied (the tests, the bench) is another status, with another time. A
home holds ids alone (feeds.home_list): its page reads STATUSES_EPOCH, a token set once
after the store was emptied, and what is kept is served to a home only under the token
it was kept under."""

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable

import redis
from django.conf import settings

from socialsite.redis import Client, cluster_options, connect_cluster

from .. import keys
from .records import Status

# Changes remembered, to refuse keeping a status read before one of them.
CHANGES_REMEMBERED = 10_000


class StatusCache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Both by status id, as text (as timelines hold them).
        self._kept: dict[str, Status] = {}
        self._changes: OrderedDict[str, int] = OrderedDict()
        self._generation = 0
        # Reads sent before the listener (re)subscribed may have missed a change.
        self._ready_since = 0
        self._ready = False
        self._pid: int | None = None
        # The STATUSES_EPOCH its statuses were read under, as far as homes know.
        self._epoch: str | None = None

    def generation(self) -> int:
        """Taken before a read is sent, and given back to `keep` with what it read."""
        return self._generation

    def get(self, status_id: int | str, posted: float) -> Status | None:
        """A copy of the kept status `status_id` if it was posted at `posted`, else None."""
        return self.get_many([(str(status_id), posted)]).get(str(status_id))

    def get_many(self, entries: Iterable[tuple[str, float]]) -> dict[str, Status]:
        """Copies of the kept statuses among `entries` ((id as text, score) pairs: a
        page's, as Redis returns them, scored as POSTED says), by id, those posted at the
        time their score gives."""
        if not self.serving():
            return {}
        found: dict[str, Status] = {}
        # A kept status's posted time is a float already (decode_status), its score.
        kept = self._kept.get
        for status_id, at in entries:
            status = kept(status_id)
            if status is not None and status["posted"] == at:
                found[status_id] = status.copy()
        return found

    def get_by_id(self, status_ids: list[str], epoch: str | None) -> dict[str, Status]:
        """Copies of the kept statuses among `status_ids` (a home page's), by id, if they
        were kept under `epoch` (STATUSES_EPOCH as the page read it; None: nothing)."""
        # serving() first: it starts the listener, without which nothing is kept under
        # any epoch (a process serving only home pages never kept a status).
        if not self.serving() or epoch is None or epoch != self._epoch:
            return {}
        kept = self._kept.get
        return {i: status.copy() for i in status_ids if (status := kept(i)) is not None}

    def keep(
        self, statuses: list[Status | None], generation: int, epoch: str | None = None
    ) -> None:
        """Keeps copies of `statuses` (decoded, None for gone ones), read after
        `generation` (and, from a home, under `epoch`: another one than before forgets
        all that is kept), unless they changed since."""
        if not self._ready or generation < self._ready_since or not settings.STATUS_CACHE_SIZE:
            return
        with self._lock:
            if epoch is not None and epoch != self._epoch:
                self._kept.clear()
                self._epoch = epoch
            for status in statuses:
                if status is None:
                    continue
                status_id = str(status["id"])
                if self._changes.get(status_id, -1) > generation:
                    continue
                if len(self._kept) >= settings.STATUS_CACHE_SIZE:
                    self._kept.pop(next(iter(self._kept)))
                self._kept[status_id] = status.copy()

    def forget(self, status_id: int | str) -> None:
        """Forgets `status_id` in this process (the writer's own, before its change)."""
        self.changed(keys.status_key(status_id))

    def changed(self, status_key: str) -> None:
        status_id = keys.status_id_in_key(status_key)
        with self._lock:
            self._generation += 1
            self._kept.pop(status_id, None)
            self._changes[status_id] = self._generation
            self._changes.move_to_end(status_id)
            if len(self._changes) > CHANGES_REMEMBERED:
                self._changes.popitem(last=False)

    def serving(self) -> bool:
        """Whether kept statuses are served (its listener is subscribed); starts the
        listener of this process if there is none."""
        if not settings.STATUS_CACHE_SIZE:
            return False
        if self._pid != os.getpid():
            self._start_listening()
        return self._ready

    def _start_listening(self) -> None:
        with self._lock:
            if self._pid == os.getpid():
                return
            # A forked child has no listener of its parent's: start afresh.
            self._pid, self._ready = os.getpid(), False
            self._kept.clear()
        threading.Thread(target=self._listen, name="status-cache", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                pubsub = listening_client().pubsub()
                pubsub.subscribe(keys.STATUS_CHANGES_CHANNEL)
                for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        self._set_ready(True)
                    elif message["type"] == "message":
                        self.changed(message["data"])
            except Exception:  # noqa: BLE001  (any lost connection: stop serving, retry)
                self._set_ready(False)
                time.sleep(1)

    def _set_ready(self, ready: bool) -> None:
        with self._lock:
            self._kept.clear()
            self._generation += 1
            self._ready_since = self._generation
            self._ready = ready


def listening_client() -> Client:
    """A client of its own for the listener (whose connection stays subscribed), so that
    it takes none from the pool the site's work uses."""
    url = settings.REDIS_URL
    if cluster_options(url) is None:
        return redis.Redis.from_url(url, decode_responses=True)
    return connect_cluster(url, decode_responses=True)


statuses = StatusCache()
