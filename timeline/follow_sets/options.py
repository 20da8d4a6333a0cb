"""Follow options, as Mastodon keeps them on a follow: reposts hidden (a followed
person's reposts stay out of your home: `reblogs` off) and notify (a notification each
time they post: `notify` on).

Each option is kept on both sides, one set in each user's slot, so that each reader
reads its own slot: the follower's (hidden_reposters, notified_of) for their home's read
and their relationship, the followed's (reposts_hidden_from, subscribers) for a
repost's fan-out and the notify_subscribers job. A change is one command a side, each
idempotent: a change cut short between the two is made whole by making it again."""

import time
from collections.abc import Iterable

from socialsite.redis import Client, Pipe, get_redis

from .. import keys


def set_options(
    follower: int, followed: int, *, reblogs: bool | None = None, notify: bool | None = None
) -> None:
    """Sets `follower`'s options on their follow of `followed` (None: left as it is):
    1 round trip."""
    pipe = get_redis().pipeline(transaction=False)
    queue_set_options(pipe, follower, followed, reblogs=reblogs, notify=notify)
    pipe.execute()


def queue_set_options(
    pipe: Pipe,
    follower: int,
    followed: int,
    *,
    reblogs: bool | None = None,
    notify: bool | None = None,
) -> None:
    if reblogs is True:
        pipe.srem(keys.hidden_reposters_key(follower), followed)
        pipe.srem(keys.reposts_hidden_from_key(followed), follower)
    elif reblogs is False:
        pipe.sadd(keys.hidden_reposters_key(follower), followed)
        pipe.sadd(keys.reposts_hidden_from_key(followed), follower)
    if notify is True:
        pipe.sadd(keys.notified_of_key(follower), followed)
        pipe.zadd(keys.subscribers_key(followed), {str(follower): int(time.time())}, nx=True)
    elif notify is False:
        pipe.srem(keys.notified_of_key(follower), followed)
        pipe.zrem(keys.subscribers_key(followed), follower)


def forget(follower: int, followed: int) -> None:
    """Drops both options of a follow that ended (an unfollow): a new follow starts with
    reposts shown and no notifications, as Mastodon's does."""
    set_options(follower, followed, reblogs=True, notify=False)


def queue_options_of(pipe: Pipe, viewer: int, others: list[int]) -> tuple:
    """Queues the reads of `viewer`'s options on each of `others`: (reposts hidden,
    notify) handles, each a list of 0/1 in `others`' order."""
    return (
        pipe.smismember(keys.hidden_reposters_key(viewer), others),
        pipe.smismember(keys.notified_of_key(viewer), others),
    )


def options_of(viewer: int, others: list[int]) -> list[tuple[bool, bool]]:
    """(showing reposts, notifying) of `viewer`'s follow of each of `others`: 1 round
    trip."""
    if not others:
        return []
    pipe = get_redis().pipeline(transaction=False)
    queue_options_of(pipe, viewer, others)
    hidden, notified = pipe.execute()
    return [(not h, bool(n)) for h, n in zip(hidden, notified, strict=True)]


def options_set_by(uid: int) -> dict[int, tuple[bool, bool]]:
    """The follows `uid` set an option on: other uid -> (showing reposts, notifying)."""
    pipe = get_redis().pipeline(transaction=False)
    pipe.smembers(keys.hidden_reposters_key(uid))
    pipe.smembers(keys.notified_of_key(uid))
    hidden, notified = pipe.execute()
    others = sorted({int(other) for other in (*hidden, *notified)})
    return {other: (str(other) not in hidden, str(other) in notified) for other in others}


def queue_hidden_reposters(pipe: Pipe | Client, viewer: int | str):
    """Queues the read of the uids whose reposts `viewer` keeps out of home."""
    return pipe.execute_command("SMEMBERS", keys.hidden_reposters_key(viewer))


def reposts_hidden_from(conn: Client, author: int | str) -> set[str]:
    """The followers of `author` who keep `author`'s reposts out of their home."""
    return set(conn.smembers(keys.reposts_hidden_from_key(author)))


def subscribers(conn: Client, author: int | str, offset: int, count: int) -> list[int]:
    """`count` of `author`'s subscribers from `offset`, oldest first. (A rank: one who
    leaves meanwhile may have a later one skipped by the job's next chunk, a rare miss
    of one notification, never a second one.)"""
    found = conn.zrange(keys.subscribers_key(author), offset, offset + count - 1)
    return [int(uid) for uid in found]


def queue_count_subscribers(pipe: Pipe, author: int | str):
    return pipe.zcard(keys.subscribers_key(author))


def forget_account(uid: int) -> None:
    """Removes a closed account's options, both sides: 2 round trips."""
    conn = get_redis()
    reads = conn.pipeline(transaction=False)
    own = (
        keys.hidden_reposters_key(uid),
        keys.reposts_hidden_from_key(uid),
        keys.notified_of_key(uid),
        keys.subscribers_key(uid),
    )
    reads.smembers(own[0])
    reads.smembers(own[1])
    reads.smembers(own[2])
    reads.zrange(own[3], 0, -1)
    hidden, hiding, notified, subscribed = reads.execute()
    pipe = conn.pipeline(transaction=False)
    _remove_from(pipe, keys.reposts_hidden_from_key, hidden, uid)
    _remove_from(pipe, keys.hidden_reposters_key, hiding, uid)
    for other in notified:
        pipe.zrem(keys.subscribers_key(other), uid)
    _remove_from(pipe, keys.notified_of_key, subscribed, uid)
    for key in own:
        pipe.delete(key)
    pipe.execute()


def _remove_from(pipe: Pipe, key_of, owners: Iterable[str], uid: int) -> None:
    for owner in owners:
        pipe.srem(key_of(owner), uid)
