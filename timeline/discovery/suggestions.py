"""Who to follow: people followed by the people you follow, ranked by how many of them
follow each (friends of friends), then the most followed accounts, for someone who
follows few or nobody yet; minus whom you follow and whom you dismissed.

Working them out reads the follows of up to FOLLOWEES_READ people, so it is a job
(queued by a home page that finds none kept), and the result is kept SUGGESTIONS_TTL
seconds in the user's slot. The home page reads the kept ones with its own round trips:
the list with the page's ids, their profiles with its statuses."""

from collections import Counter
from dataclasses import dataclass

from accounts.keys import SUSPENDED_USERS, user_key
from accounts.records import UserProfile
from accounts.services import decode_user
from socialsite import jobs
from socialsite.redis import Batch, PackedPipeline, Reply, get_redis

from .. import keys
from ..follow_sets import following

SUGGESTIONS_KEPT = 20
SUGGESTIONS_TTL = 3600
# Of the people you follow, the newest this many; of each of them, their newest follows.
FOLLOWEES_READ = 100
FOLLOWS_READ_EACH = 200
# Your own follows checked against (a suggestion you already follow is left out).
OWN_FOLLOWS_READ = 5000
# The most followed accounts kept for new users' suggestions.
POPULAR_KEPT = 1000
POPULAR_READ = 50
# Kept when there is nothing to suggest (or the job is queued), so the job isn't queued
# at every home page; a queued job lost with its worker is queued again after PENDING_TTL.
NOTHING = "none"
PENDING_TTL = 60
SHOWN_ON_HOME = 3


def queue_popular(pipe, uid: int, followers: int) -> None:
    """Queues on `pipe` recording `uid`'s follower count among the most followed (after a
    follow or an unfollow: the count itself, so it is idempotent)."""
    pipe.zadd(keys.POPULAR_USERS, {uid: followers})
    pipe.zremrangebyrank(keys.POPULAR_USERS, 0, -POPULAR_KEPT - 1)


@jobs.handler("suggest")
def suggest(args: dict) -> list[jobs.Job]:
    """Works out and keeps `uid`'s suggestions: 3 round trips (one more for each of
    them and the people they follow whose follows are in buckets, follow_sets.following)."""
    store_suggestions(int(args["uid"]))
    return []


def store_suggestions(uid: int) -> list[tuple[int, int]]:
    """Works out `uid`'s suggestions and keeps them SUGGESTIONS_TTL seconds; returns them
    as (uid, how many of the people they follow follow them; 0 for a popular account)."""
    conn = get_redis()
    batch = Batch(conn)
    # The plain read, which nearly every user's follows take (no buckets: follow_sets.following).
    newest = following.queue_newest_of_base(batch, uid, OWN_FOLLOWS_READ)
    dismissed = batch.smembers(keys.dismissed_suggestions_key(uid))
    popular = batch.zrevrange(keys.POPULAR_USERS, 0, POPULAR_READ - 1)
    suspended = batch.smembers(SUSPENDED_USERS)
    # Nobody they block, mute or have asked to follow, nor anyone blocking them.
    others = [
        batch.zrange(other_key(uid), 0, -1)
        for other_key in (keys.blocks_key, keys.blocked_by_key, keys.mutes_key, keys.requested_key)
    ]
    batch.execute()
    followed = following.newest(conn, newest)
    left_out = {str(uid), *followed, *dismissed.value, *suspended.value}.union(
        *(other.value for other in others)
    )
    popular = popular.value
    counts: Counter = Counter()
    followees = followed[:FOLLOWEES_READ]
    if followees:
        pipe = PackedPipeline(conn)
        reads = [
            following.queue_newest_of_base(pipe, followee, FOLLOWS_READ_EACH)
            for followee in followees
        ]
        pipe.execute()
        for read in reads:
            theirs = following.newest(conn, read)
            counts.update(other for other in theirs if other not in left_out)
    found = [(int(other), count) for other, count in counts.most_common(SUGGESTIONS_KEPT)]
    for other in popular:
        if len(found) >= SUGGESTIONS_KEPT:
            break
        if other not in left_out and other not in counts:
            found.append((int(other), 0))
    kept = keys.suggestions_key(uid)
    write = conn.pipeline(transaction=True)
    write.delete(kept)
    write.zadd(kept, {str(other): count for other, count in found} or {NOTHING: -1})
    write.expire(kept, SUGGESTIONS_TTL)
    write.execute()
    return found


def queue_read(pipe, uid: int) -> Reply:
    """Queues on `pipe` the read of `uid`'s kept suggestions (for `queue_profiles`)."""
    return pipe.zrevrange(keys.suggestions_key(uid), 0, SUGGESTIONS_KEPT - 1)


@dataclass(frozen=True, slots=True)
class SuggestedRead:
    """The reads `queue_profiles` queued: the profiles of the suggestions to show and
    when their reader followed each (none if nothing was kept to show)."""

    profiles: tuple[Reply, ...] = ()
    followed: Reply | None = None

    @property
    def people(self) -> list[UserProfile]:
        """Up to SHOWN_ON_HOME profiles to suggest, leaving out people followed since and
        accounts gone or suspended."""
        if self.followed is None:
            return []
        people = [
            person
            for person, score in zip(
                (decode_user(profile.value) for profile in self.profiles),
                self.followed.value,
                strict=True,
            )
            if person and score is None and not person["suspended"]
        ]
        return people[:SHOWN_ON_HOME]


def queue_profiles(pipe, uid: int, kept: list[str]) -> SuggestedRead:
    """Queues on `pipe`, given `queue_read`'s reply, the profiles of the suggestions to
    show and whether `uid` follows them now, or the job that works them out if none are
    kept."""
    if not kept:
        # Marked as pending, so the pages shown before the job is done don't queue more.
        pipe.zadd(keys.suggestions_key(uid), {NOTHING: -1})
        pipe.expire(keys.suggestions_key(uid), PENDING_TTL)
        jobs.enqueue(pipe, ("suggest", {"uid": uid}))
        return SuggestedRead()
    shown = [int(other) for other in kept if other != NOTHING][: SHOWN_ON_HOME * 2]
    if not shown:
        return SuggestedRead()
    profiles = tuple(pipe.hgetall(user_key(other)) for other in shown)
    return SuggestedRead(profiles, following.queue_scores(pipe, uid, shown))


def dismiss(uid: int, other_uid: int) -> None:
    """Never suggests `other_uid` to `uid` again (one step in `uid`'s slot)."""
    pipe = get_redis().pipeline(transaction=True)
    pipe.sadd(keys.dismissed_suggestions_key(uid), other_uid)
    pipe.zrem(keys.suggestions_key(uid), other_uid)
    pipe.execute()


def popularity(uid: int) -> int | None:
    """`uid`'s follower count as the most followed accounts keep it (new users are
    suggested from them), or None if they are not among them."""
    score = get_redis().zscore(keys.POPULAR_USERS, uid)
    return None if score is None else int(score)
