"""A page's marks: whether its viewer liked and reposted each status it shows.

They are read from two sets of status ids in the viewer's slot, made for membership:
`liked:{uid}` (kept beside `likes:{uid}`, the likes page by time) and `reposted:{uid}`
(kept beside each original's `reposts:{id}`, reposter -> repost, which undo reads).
Status ids are integers, so each set is an intset (a sorted array: a lookup is a binary
search, ~4 B an id), and a page's marks are 2 SMISMEMBERs in one slot (with the
bookmarks' and pins' marks, timeline/keeps: 3 and a ZMSCORE of at most 5 pins). ZMSCORE of 30 ids
on a `likes:{uid}` kept compact (zset-max-ziplist-entries 1100) walked it entry by entry,
~1.2 ms of Redis for 1,000 likes, and a repost mark was a ZSCORE a status, in its slot.

Each write is queued beside the change it marks, and is idempotent: a like's in the same
pipeline as its `likes:{uid}` write (one slot), a repost's in the one that claims it in
the original's `reposts:{id}` (the reposter's slot: a step of its own)."""

from dataclasses import dataclass

from socialsite.redis import Pipe, Reply
from timeline.statuses.records import Status

from .. import keys


@dataclass(frozen=True, slots=True)
class MarksRead:
    """The reads `queue_marks` queued (none for no one, or no ids)."""

    liked: Reply | None = None
    reposted: Reply | None = None
    # Keep: the viewer's bookmarks, and their pins (a sorted set: ZMSCORE).
    bookmarked: Reply | None = None
    pinned: Reply | None = None
    # Polls: the viewer's choices in each status's poll (None where they haven't voted),
    # and the viewer, whose own polls count as voted in (as Mastodon's).
    voted: Reply | None = None
    viewer: int | None = None

    def apply(self, statuses: list[Status | None]) -> None:
        """Marks each of `statuses` (those of the ids read, in their order; None for one
        that is gone) `liked` and `reposted`; nothing if nothing was read."""
        if self.liked is None or self.reposted is None:
            return
        liked, reposted = self.liked.value, self.reposted.value
        bookmarked = self.bookmarked.value if self.bookmarked else [0] * len(liked)
        pinned = self.pinned.value if self.pinned else [None] * len(liked)
        marked = zip(statuses, liked, reposted, bookmarked, pinned, strict=True)
        for status, is_liked, is_reposted, is_bookmarked, pin in marked:
            if status is not None:
                status["liked"] = bool(is_liked)
                status["reposted"] = bool(is_reposted)
                status["bookmarked"] = bool(is_bookmarked)
                status["pinned"] = pin is not None
        if self.voted is not None:
            for status, choices in zip(statuses, self.voted.value, strict=True):
                if status is None or not status.get("poll_options"):
                    continue
                if choices is not None:
                    status["poll_voted"] = choices
                elif status["uid"] == self.viewer:
                    status["poll_voted"] = ""
                else:
                    # Never another reader's mark, from a copy kept with it.
                    status.pop("poll_voted", None)


NOT_MARKED = MarksRead()


def queue_marks(pipe: Pipe, uid: int | None, ids: list[int] | list[str]) -> MarksRead:
    """Queues the reads that tell whether `uid` liked and reposted each of `ids`: nothing
    for no one."""
    if not uid or not ids:
        return NOT_MARKED
    return MarksRead(
        liked=pipe.smismember(keys.liked_key(uid), ids),
        reposted=pipe.smismember(keys.reposted_key(uid), ids),
        bookmarked=pipe.smismember(keys.bookmarked_key(uid), ids),
        pinned=pipe.zmscore(keys.pins_key(uid), ids),
        voted=pipe.hmget(keys.poll_votes_key(uid), ids),
        viewer=int(uid),
    )


def queue_like(pipe: Pipe, uid: int, status_id: int, liked_at: float) -> None:
    """Queues `uid`'s side of a like: its place on their likes page and its mark."""
    pipe.zadd(keys.likes_key(uid), {status_id: liked_at})
    pipe.sadd(keys.liked_key(uid), status_id)


def queue_unlike(pipe: Pipe, uid: int, *status_ids: int | str) -> None:
    """Queues taking `status_ids` off `uid`'s likes page and their marks."""
    pipe.zrem(keys.likes_key(uid), *status_ids)
    pipe.srem(keys.liked_key(uid), *status_ids)


def queue_reposted(pipe: Pipe, uid: int, status_id: int) -> None:
    """Queues marking the original `status_id` reposted by `uid`."""
    pipe.sadd(keys.reposted_key(uid), status_id)


def queue_unreposted(pipe: Pipe, uid: int, status_id: int) -> None:
    """Queues taking back `uid`'s mark of having reposted the original `status_id`."""
    pipe.srem(keys.reposted_key(uid), status_id)
