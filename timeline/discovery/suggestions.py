"""Who to follow: people followed by the people you follow, ranked by how many of them
follow each (friends of friends), then the most followed accounts and those who posted
last (the active ones), for someone who follows few or nobody yet; minus whom you
follow, whom you dismissed, and anyone either of you blocks, you mute or asked to follow.

Working them out reads the follows of up to FOLLOWEES_READ people, so it is a job
(queued by a home page that finds none kept), and the result is kept SUGGESTIONS_TTL
seconds in the user's slot. The home page reads the kept ones with its own round trips:
the list with the page's ids, their profiles with its statuses. Someone who follows
nobody and has none kept yet (a new account's first page, before the job is done) is
shown the most followed and active accounts read with those same round trips
(`starters`), so a new account sees whom to follow from its first page."""

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
# The accounts that posted last, kept for new users' suggestions beside the popular ones.
ACTIVE_KEPT = 1000
ACTIVE_READ = 50
# Of each, read with a home page for someone who follows nobody and has none kept.
STARTERS_READ = 6
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


def queue_active(pipe, uid: int, posted: float) -> None:
    """Queues on `pipe` noting that `uid` posted at `posted` (the activity listener, for
    each status posted: idempotent, and an older status never moves them back)."""
    pipe.zadd(keys.ACTIVE_USERS, {uid: posted}, gt=True)
    pipe.zremrangebyrank(keys.ACTIVE_USERS, 0, -ACTIVE_KEPT - 1)


def _starters(popular: list[str], active: list[str], uid: int) -> list[str]:
    """The most followed, then the most lately active accounts, each once, not `uid`."""
    return [other for other in dict.fromkeys([*popular, *active]) if other != str(uid)]


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
    popular: Reply = batch.zrevrange(keys.POPULAR_USERS, 0, POPULAR_READ - 1)
    active = batch.zrevrange(keys.ACTIVE_USERS, 0, ACTIVE_READ - 1)
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
    starters = _starters(popular.value, active.value, uid)
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
    for other in starters:
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


@dataclass(frozen=True, slots=True)
class Kept:
    """What `KeptRead` read: the kept suggestions (uids as text, or NOTHING), and, for
    someone who follows nobody yet, the starters (the most followed and active accounts)."""

    kept: list[str]
    starters: list[str]


@dataclass(frozen=True, slots=True)
class KeptRead:
    """The reads `queue_read` queued, for `queue_profiles`."""

    uid: int
    kept: Reply
    following: Reply
    popular: Reply
    active: Reply

    @property
    def value(self) -> Kept:
        starters: list[str] = []
        if int(self.following.value or 0) == 0:
            starters = _starters(self.popular.value, self.active.value, self.uid)
        return Kept(self.kept.value, starters)


def queue_read(pipe, uid: int) -> KeptRead:
    """Queues on `pipe` the read of `uid`'s kept suggestions, and of the starters shown
    to someone who follows nobody (for `queue_profiles`)."""
    return KeptRead(
        uid,
        pipe.zrevrange(keys.suggestions_key(uid), 0, SUGGESTIONS_KEPT - 1),
        pipe.hget(user_key(uid), "following"),
        pipe.zrevrange(keys.POPULAR_USERS, 0, STARTERS_READ - 1),
        pipe.zrevrange(keys.ACTIVE_USERS, 0, STARTERS_READ - 1),
    )


@dataclass(frozen=True, slots=True)
class SuggestedRead:
    """The reads `queue_profiles` queued: the profiles of the suggestions to show and
    when their reader followed each (none if nothing was kept to show); for starters,
    also whether each is left out (dismissed, blocked either way, muted, asked)."""

    profiles: tuple[Reply, ...] = ()
    followed: Reply | None = None
    left_out: tuple[Reply, ...] = ()

    @property
    def people(self) -> list[UserProfile]:
        """Up to SHOWN_ON_HOME profiles to suggest, leaving out people followed since and
        accounts gone or suspended."""
        if self.followed is None:
            return []
        shunned = [
            any(flags) for flags in zip(*(read.value for read in self.left_out), strict=True)
        ] or [False] * len(self.profiles)
        people = [
            person
            for person, score, shun in zip(
                (decode_user(profile.value) for profile in self.profiles),
                self.followed.value,
                shunned,
                strict=True,
            )
            if person and score is None and not shun and not person["suspended"]
        ]
        return people[:SHOWN_ON_HOME]


def queue_profiles(pipe, uid: int, kept: Kept) -> SuggestedRead:
    """Queues on `pipe`, given `queue_read`'s reply, the profiles of the suggestions to
    show and whether `uid` follows them now, or the job that works them out if none are
    kept (and, meanwhile, the starters' for someone who follows nobody)."""
    if not kept.kept:
        # Marked as pending, so the pages shown before the job is done don't queue more.
        pipe.zadd(keys.suggestions_key(uid), {NOTHING: -1})
        pipe.expire(keys.suggestions_key(uid), PENDING_TTL)
        jobs.enqueue(pipe, ("suggest", {"uid": uid}))
    shown = [int(other) for other in kept.kept if other != NOTHING][: SHOWN_ON_HOME * 2]
    if shown:
        profiles = tuple(pipe.hgetall(user_key(other)) for other in shown)
        return SuggestedRead(profiles, following.queue_scores(pipe, uid, shown))
    starters = kept.starters
    if not starters:
        return SuggestedRead()
    # Not worked out by the job yet: what it would leave out is read here.
    left_out = (
        pipe.smismember(keys.dismissed_suggestions_key(uid), starters),
        *(
            pipe.zmscore(other_key(uid), starters)
            for other_key in (
                keys.blocks_key,
                keys.blocked_by_key,
                keys.mutes_key,
                keys.requested_key,
            )
        ),
    )
    profiles = tuple(pipe.hgetall(user_key(other)) for other in starters)
    return SuggestedRead(profiles, following.queue_scores(pipe, uid, starters), left_out)


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
