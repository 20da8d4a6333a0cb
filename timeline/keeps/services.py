"""Keep: bookmarks, pins and followed tags, the statuses and tags a user keeps.

A bookmark is private: `bookmarks:{uid}` (status id -> when, the page) with its mark
`bookmarked:{uid}` (an intset, read with the like and repost marks: statuses.marks), in
the user's slot; the status's `bookmarkers:{id}`, in its slot, only tells its deletion
whose bookmarks to take it off. A pin is one of up to PINS_MAX of the user's own public
statuses, `pins:{uid}` (status id -> when pinned), shown atop their profile. A followed
tag is `followed_tags:{uid}` (tag -> when) and the tag's `tag:{tag}:followers` (uid ->
when), which fan-out walks (feeds.tag_fanout). Each two-sided change is two idempotent
steps, one a slot: the user's side first to add, last to take away."""

import time

from django.conf import settings

from socialsite import jobs
from socialsite.redis import Pipe, get_redis

from .. import keys
from ..conversations.selectors import check_tag
from ..feeds.pages import original, shown_status
from ..statuses.records import Status
from ..statuses.selectors import GONE, AlreadyDone, StatusGone, get_status, status_id_of
from . import scripts
from .selectors import is_pinnable


def bookmark(uid: int, status_id: int) -> None:
    """Bookmarks a status (given a repost, its original): StatusGone if it is gone or
    hidden from `uid`, AlreadyDone if it is bookmarked already. 2-3 round trips."""
    shown = original(status_id, viewer=uid)
    now = time.time()
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    scripts.add_bookmarker(
        pipe,
        status_key=keys.status_key(shown["id"]),
        bookmarkers_key=keys.bookmarkers_key(shown["id"]),
        uid=uid,
        at=now,
    )
    pipe.zadd(keys.bookmarks_key(uid), {shown["id"]: now}, nx=True)
    pipe.sadd(keys.bookmarked_key(uid), shown["id"])
    noted, added, _marked = pipe.execute()
    if noted == 0:
        # Deleted meanwhile: its deletion's job may have run before this bookmark landed.
        pipe = conn.pipeline(transaction=False)
        _queue_unbookmark(pipe, uid, shown["id"])
        pipe.execute()
        raise StatusGone(GONE)
    if not added:
        raise AlreadyDone("You already bookmarked that status.")


def unbookmark(uid: int, status_id: int) -> None:
    """Takes a status (given a repost, its original) off `uid`'s bookmarks, whoever may
    see it now (a bookmark can always be taken back): AlreadyDone if it isn't there."""
    status_id = status_id_of(status_id)
    status = get_status(status_id)
    if status is not None and status.get("repost_of"):
        status_id = int(status["repost_of"])
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    _queue_unbookmark(pipe, uid, status_id)
    removed, *_rest = pipe.execute()
    if not removed:
        raise AlreadyDone("That status isn't in your bookmarks.")


def _queue_unbookmark(pipe: Pipe, uid: int, status_id: int) -> None:
    pipe.zrem(keys.bookmarks_key(uid), status_id)
    pipe.srem(keys.bookmarked_key(uid), status_id)
    pipe.zrem(keys.bookmarkers_key(status_id), uid)


def check_pin(uid: int, status_id: int) -> Status:
    """The status `uid` may pin: ValueError unless it is their own, not a repost, and
    one anyone may see (selectors.is_pinnable); StatusGone if it is gone."""
    status = shown_status(status_id_of(status_id), viewer=uid)
    if status is None:
        raise StatusGone(GONE)
    if status["uid"] != uid:
        raise ValueError("You can only pin your own statuses.")
    if status.get("repost_of"):
        raise ValueError("A repost can't be pinned.")
    if not is_pinnable(status):
        raise ValueError("Only a status anyone may see can be pinned.")
    return status


def pin(uid: int, status_id: int) -> None:
    """Pins one of `uid`'s own public statuses atop their profile: ValueError past
    PINS_MAX (or see check_pin), AlreadyDone if it is pinned already."""
    status = check_pin(uid, status_id)
    added = scripts.add_capped(
        get_redis(),
        set_key=keys.pins_key(uid),
        member=status["id"],
        score=time.time(),
        most=settings.PINS_MAX,
    )
    if added == -1:
        raise AlreadyDone("That status is pinned already.")
    if added == 0:
        raise ValueError(f"You can pin up to {settings.PINS_MAX} statuses.")


def unpin(uid: int, status_id: int) -> None:
    """Unpins a status of `uid`'s: AlreadyDone if it isn't pinned."""
    if not get_redis().zrem(keys.pins_key(uid), status_id_of(status_id)):
        raise AlreadyDone("That status isn't pinned.")


def follow_tag(uid: int, tag: str) -> str:
    """Follows #tag: its public statuses reach `uid`'s home from now on; returns the tag
    as indexed. ValueError for no tag, or past FOLLOWED_TAGS_MAX; AlreadyDone if followed."""
    name = check_tag(tag)
    conn = get_redis()
    now = time.time()
    added = scripts.add_capped(
        conn,
        set_key=keys.followed_tags_key(uid),
        member=name,
        score=now,
        most=settings.FOLLOWED_TAGS_MAX,
    )
    if added == 0:
        raise ValueError(f"You can follow up to {settings.FOLLOWED_TAGS_MAX} tags.")
    # Also when followed already: a step cut short before it is made whole again.
    conn.zadd(keys.tag_followers_key(name), {uid: int(now)}, nx=True)
    if added == -1:
        raise AlreadyDone(f"You already follow #{name}.")
    return name


def unfollow_tag(uid: int, tag: str) -> str:
    """Stops following #tag; returns the tag as indexed. AlreadyDone if not followed."""
    name = check_tag(tag)
    conn = get_redis()
    conn.zrem(keys.tag_followers_key(name), uid)
    if not conn.zrem(keys.followed_tags_key(uid), name):
        raise AlreadyDone(f"You don't follow #{name}.")
    return name


def queue_status_deleted(pipe, status: Status) -> None:
    """Queues what a status's deletion takes back here: its pin, and (by a job, in
    batches) every bookmark of it."""
    pipe.zrem(keys.pins_key(status["uid"]), status["id"])
    if not status.get("repost_of"):
        jobs.enqueue(pipe, ("forget_bookmarks", {"status_id": status["id"]}))


@jobs.handler("forget_bookmarks")
def forget_bookmarks_batch(args: dict) -> list[jobs.Job]:
    """Takes a deleted status off the next POSTS_PER_PASS bookmarkers' bookmarks;
    idempotent (the bookmarkers go last, so a batch cut short is redone)."""
    status_id, per_pass = args["status_id"], settings.POSTS_PER_PASS
    conn = get_redis()
    bookmarkers = conn.zrange(keys.bookmarkers_key(status_id), 0, per_pass - 1)
    if not bookmarkers:
        return []
    pipe = conn.pipeline(transaction=False)
    for uid in bookmarkers:
        pipe.zrem(keys.bookmarks_key(uid), status_id)
        pipe.srem(keys.bookmarked_key(uid), status_id)
    pipe.zrem(keys.bookmarkers_key(status_id), *bookmarkers)
    pipe.execute()
    return [("forget_bookmarks", args)] if len(bookmarkers) == per_pass else []


def take_back_keeps(uid: int, *, count: int) -> bool:
    """Takes back the next `count` bookmarks and followed tags of a user being deleted
    (timeline.moderation): the statuses' and tags' sides; False when none is left. Their
    own keys go with their profile."""
    conn = get_redis()
    batch = conn.pipeline(transaction=False)
    batch.zrange(keys.bookmarks_key(uid), 0, count - 1)
    batch.zrange(keys.followed_tags_key(uid), 0, count - 1)
    marked, tags = batch.execute()
    if not marked and not tags:
        return False
    pipe = conn.pipeline(transaction=False)
    for status_id in marked:
        pipe.zrem(keys.bookmarkers_key(status_id), uid)
    for tag in tags:
        pipe.zrem(keys.tag_followers_key(tag), uid)
    # Last, so a batch cut short is found and redone.
    if marked:
        pipe.zrem(keys.bookmarks_key(uid), *marked)
        pipe.srem(keys.bookmarked_key(uid), *marked)
    if tags:
        pipe.zrem(keys.followed_tags_key(uid), *tags)
    pipe.execute()
    return True
