"""Whom a user follows, kept compact at any size.

A sorted set of up to zset-max-ziplist-entries is a listpack (~11 B a follow); past it
a skiplist (~104 B). So a user's follows (member followee uid, score the whole-second
follow time) are their following key alone (the base) while it holds up to
FOLLOWING_SPLIT; the follow that passes it moves them all into BUCKETS buckets by
followee uid (`following:{uid}:<followee % BUCKETS>`, one hash tag, so one slot), each
compact up to ~35,000 follows in all, and the base fills again from empty. A follow is
in the base or its followee's bucket, so "does X follow Y" asks both at once with no
state read first (one script, one reply); ordered reads merge the keys in a script
(lua/following_range.lua), which reads the base alone while no bucket exists.

Every read and write of following sets goes through here (each script of lua/ by one
function below, its keys and arguments named) or the scripts that include
lua/lib/following_read.lua (and lua/lib/following.lua, for writers); the counters in the
user's hash count them all."""

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import hash_tag_id, user_key
from socialsite.redis import Batch, PackedPipeline, Pipe, Reply, get_redis, sorted_sets_over
from socialsite.scripts import LuaScripts

from .. import keys

scripts = LuaScripts(__file__)

# Fixed: a follow's bucket is its followee's uid modulo this, in data already stored.
# 32 buckets of up to zset-max-ziplist-entries (1,100) keep 35,200 follows compact.
BUCKETS = 32
# Follows moved from the base into buckets by one script call of split_following.
MOVED_PER_CALL = 5000


def bucket_key(uid: int, other: int) -> str:
    """The bucket that holds `uid`'s follow of `other`, once they are bucketed."""
    return keys.following_bucket_key(uid, int(other) % BUCKETS)


def all_keys(uid: int) -> list[str]:
    """Every key that can hold `uid`'s follows: the base and the buckets."""
    return [keys.following_key(uid), *keys.following_bucket_keys(uid, BUCKETS)]


def kept_in(conn, uid: int) -> tuple[int, int]:
    """How many of `uid`'s follows are in their base and how many in buckets (how a set
    was split, for checks and tests): 1 round trip."""
    batch = Batch(conn)
    in_base = batch.zcard(keys.following_key(uid))
    in_buckets = [batch.zcard(key) for key in keys.following_bucket_keys(uid, BUCKETS)]
    batch.execute()
    return in_base.value, sum(count.value for count in in_buckets)


def queue_score(client, uid: int, other: int) -> Any:
    """Queues (or runs) the read of when `uid` followed `other`: the follow time (a
    string), or None if they don't."""
    return _follow_score(client, uid=uid, other=int(other))


def queue_scores(client, uid: int, others: list) -> Any:
    """Queues (or runs) when `uid` followed each of `others` (not empty): a list of
    follow times or None."""
    return _follow_scores(client, uid=uid, others=others)


def follows(uid: int, others: list) -> list[bool]:
    """Whether `uid` follows each of `others`: 1 round trip, none if empty."""
    if not others:
        return []
    return [score is not None for score in queue_scores(get_redis(), uid, others)]


@dataclass(frozen=True, slots=True)
class FollowsOfRead:
    """The reads `queue_follows_of` queued: each candidate's follow time of the user asked
    about in their base and in its bucket."""

    in_bases: Reply
    in_buckets: Reply


def queue_follows_of(pipe: PackedPipeline, candidates: list, uid: int) -> FollowsOfRead:
    """Queues whether each of `candidates` follows `uid` (asked of their following sets:
    a piece of `uid`'s followers is found only by follow time, follow_sets.followers): the
    base's and the bucket's ZSCORE each (packed at a string join a run), for `scores_of`."""
    return FollowsOfRead(
        pipe.for_each_key(map(keys.following_key, candidates), ("ZSCORE", uid)),
        pipe.for_each_key((bucket_key(c, uid) for c in candidates), ("ZSCORE", uid)),
    )


def scores_of(read: FollowsOfRead) -> list:
    """A `queue_follows_of` read as one follow time (or None) a candidate."""
    in_bases, in_buckets = read.in_bases.value, read.in_buckets.value
    return [a if a is not None else b for a, b in zip(in_bases, in_buckets, strict=True)]


def follows_of(conn, candidates: list, uid: int) -> list[bool]:
    """Which of `candidates` follow `uid` (queue_follows_of): 1 round trip, none if empty."""
    if not candidates:
        return []
    pipe = PackedPipeline(conn)
    read = queue_follows_of(pipe, candidates, uid)
    pipe.execute()
    return [score is not None for score in scores_of(read)]


@dataclass(frozen=True, slots=True)
class EveryoneRead:
    """The reads `queue_everyone` queued: each key that can hold a user's follows."""

    held: list[Reply]

    @property
    def uids(self) -> set[int]:
        """Everyone the user follows."""
        return {int(uid) for reply in self.held for uid in reply.value}


def queue_everyone(batch: Batch, uid: int) -> EveryoneRead:
    """Queues the reads of everyone `uid` follows: the base, and every bucket at once
    (one ZUNION of the 32, in one slot: two commands rather than 33)."""
    buckets = keys.following_bucket_keys(uid, BUCKETS)
    return EveryoneRead([batch.zrange(keys.following_key(uid), 0, -1), batch.zunion(buckets)])


def queue_newest(client, uid: int, offset: int, count: int):
    """Queues (or runs) the read of `uid`'s follows newest first, `count` of them from
    rank `offset`: uids."""
    return _queue_range(client, uid, "newest", "+inf", offset, count)


@dataclass(frozen=True, slots=True)
class NewestRead:
    """The reads `queue_newest_of_base` queued: the newest follows in a user's base, and
    whether any bucket of theirs exists; `newest` finishes it."""

    uid: int
    count: int
    offset: int
    in_base: Reply
    bucketed: Reply


def queue_newest_of_base(pipe: Pipe, uid: int, count: int, offset: int = 0) -> NewestRead:
    """Queues the plain read of `uid`'s newest `count` follows from rank `offset` of their
    base, and whether any bucket exists, for `newest`. Cheaper for Redis than
    queue_newest's script (a script's table of a few hundred uids costs ~10x a ZREVRANGE)
    where nearly every user has no bucket. `pipe` gives handles (a Batch or a
    PackedPipeline)."""
    return NewestRead(
        uid,
        count,
        offset,
        pipe.zrevrange(keys.following_key(uid), offset, offset + count - 1),
        pipe.exists(*keys.following_bucket_keys(uid, BUCKETS)),
    )


def newest(conn, read: NewestRead) -> list:
    """The newest follows a `queue_newest_of_base` read asked for: those of the base, or
    (a bucket exists) read again across the buckets, one round trip more."""
    if read.bucketed.value:
        return queue_newest(conn, read.uid, read.offset, read.count)
    return read.in_base.value


def queue_from(client, uid: int, after, skip: int, count: int) -> Any:
    """Queues (or runs) the read of `uid`'s follows oldest first from the follow time
    `after` (a ZRANGEBYSCORE min), passing over `skip` of those: at most `count`, each
    followed by its follow time; `pairs` decodes it. A job's cursor (fan-out's)."""
    return _queue_range(client, uid, "oldest", after, skip, count)


def _queue_range(client, uid, order, after, offset, count) -> Any:
    return _following_range(client, uid=uid, order=order, after=after, offset=offset, count=count)


def pairs(reply: list) -> list[tuple[str, float]]:
    """A read with follow times (each uid followed by its follow time) as (uid, follow
    time) pairs."""
    each = iter(reply)
    return [(uid, float(score)) for uid, score in zip(each, each, strict=True)]


def page_ids(conn, uid: int, page: int, count: int) -> list:
    """Uids of page `page` (from 1) of whom `uid` follows, newest first, and one more if
    an older page exists: 1 round trip (2 if their follows are in buckets)."""
    if page < 1 or count < 1:
        raise ValueError("Pages and counts start at 1.")
    batch = Batch(conn)
    read = queue_newest_of_base(batch, uid, count + 1, (page - 1) * count)
    batch.execute()
    return newest(conn, read)


def queue_add(client, uid: int, follows: dict) -> None:
    """Queues writing `follows` (followee uid -> follow time) as `uid`'s, straight into
    buckets if they number more than FOLLOWING_SPLIT (a seed's bulk write into a user
    with none yet). The user's counter is the caller's."""
    if len(follows) <= settings.FOLLOWING_SPLIT:
        client.zadd(keys.following_key(uid), follows)
        return
    by_bucket: dict[str, dict] = {}
    for other, since in follows.items():
        by_bucket.setdefault(bucket_key(uid, other), {})[other] = since
    for key, some in by_bucket.items():
        client.zadd(key, some)


def queue_remove(client, uid: int, others: list) -> None:
    """Queues taking `others` out of whom `uid` follows (the counter is the caller's)."""
    client.zrem(keys.following_key(uid), *others)
    by_bucket: dict[str, list] = {}
    for other in others:
        by_bucket.setdefault(bucket_key(uid, other), []).append(other)
    for key, some in by_bucket.items():
        client.zrem(key, *some)


def split(conn, uid: int) -> int:
    """Moves `uid`'s follows kept in one key into buckets if it holds more than
    FOLLOWING_SPLIT (a set made before buckets): how many were moved. Idempotent."""
    moved = 0
    while True:
        before = conn.zcard(keys.following_key(uid))
        left = _split_following(conn, uid=uid, moved=MOVED_PER_CALL)
        moved += before - left
        if left == 0 or left == before:
            return moved


def split_every_big_set(batch: int = 1000) -> tuple[int, int]:
    """Moves every following set kept in one key past FOLLOWING_SPLIT (made before
    buckets) into buckets: (sets split, follows moved). Idempotent: `manage.py
    split_following`."""
    conn, cut, moved = get_redis(), 0, 0
    for name in sorted_sets_over(conn, keys.FOLLOWING_PATTERN, settings.FOLLOWING_SPLIT, batch):
        cut += 1
        moved += split(conn, hash_tag_id(name))
    return cut, moved


def queue_follow(client, uid: int, *, other: int, since: int, channel: str, event: str) -> Any:
    """Queues (or runs) a follow's step 2 in `uid`'s slot (add_following.lua): `other`
    joins whom `uid` follows at `since`, and their count, unless either blocks the other;
    `event` is published on `channel` ("": the caller publishes). Replies 1 if the follow
    is new, 0 if it existed, -1 if refused for a block."""
    return scripts.run(
        client,
        "add_following",
        [user_key(uid), keys.following_key(uid), keys.blocks_key(uid), keys.blocked_by_key(uid)],
        [other, since, channel, event, BUCKETS, settings.FOLLOWING_SPLIT],
    )


def queue_unfollow(
    client, uid: int, *, other: int, channel: str, event: str, ids_per_command: int, ids: list
) -> Any:
    """Queues (or runs) an unfollow's step 2 in `uid`'s slot (remove_following.lua):
    `other` leaves whom `uid` follows, and their count, `ids` (their statuses) leave home
    (rewritten `ids_per_command` at a time), and `event` is published on `channel` ("":
    the caller publishes); all only if `uid` followed them. Replies 1 if so, else 0."""
    return scripts.run(
        client,
        "remove_following",
        [user_key(uid), keys.following_key(uid), keys.home_timeline_key(uid)],
        [other, channel, event, ids_per_command, BUCKETS, *ids],
    )


# One function a script: its keys and arguments by name.


def _follow_score(client, *, uid: int, other: int) -> Any:
    return scripts.run(
        client, "follow_score", [keys.following_key(uid), bucket_key(uid, other)], [other]
    )


def _follow_scores(client, *, uid: int, others: list) -> Any:
    return scripts.run(client, "follow_scores", [keys.following_key(uid)], [BUCKETS, *others])


def _following_range(client, *, uid: int, order: str, after, offset: int, count: int) -> Any:
    return scripts.run(
        client, "following_range", [keys.following_key(uid)], [BUCKETS, order, after, offset, count]
    )


def _split_following(client, *, uid: int, moved: int) -> int:
    return scripts.run(
        client,
        "split_following",
        [keys.following_key(uid)],
        [BUCKETS, settings.FOLLOWING_SPLIT, moved],
    )
