"""The follow graph (Redis in Action 8.3): following and unfollowing someone.

Each is two idempotent steps, one in each user's slot (a script apiece), so the same
code runs on Redis Cluster: the followed user's side (their followers set and count,
and a read of their newest statuses), then the follower's (their following set and
count, their home timeline, and the event). A follow is 2 round trips (3 when a status
it copied was deleted meanwhile: feeds.refill.drop_copied_if_deleted); an unfollow 3,
the last queueing the job that refills home. On a cluster the event goes out one round
trip later, from the channel's node (see socialsite.events.publishes_in_scripts). Each
first reads whether (since when) the follower follows them already (graph.following):
the piece of followers that holds them (graph.pieces), one round trip more."""

import time
from typing import Any

from django.conf import settings

from accounts.keys import user_key
from socialsite import events, jobs
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import get_redis
from socialsite.scripts import LuaScripts

from .. import keys
from ..discovery.suggestions import queue_popular
from ..feeds import home_list
from ..feeds.refill import drop_copied_if_deleted, refill_job
from ..notifications import services as notifications
from ..safety.selectors import Blocked
from . import following

scripts = LuaScripts(__file__)


def follow_user(uid: int, other_uid: int) -> bool | None:
    """Follows `other_uid` and copies their newest statuses into home: True; None if
    already following; False if they are private, which asks them instead (a follow
    request, see approve_follower). ValueError for yourself or an unknown user, Blocked
    if either blocks the other."""
    return _follow(uid, other_uid, approving=False)


def approve_follower(uid: int, requester_uid: int) -> bool:
    """`uid` approves `requester_uid`'s request to follow them: the follow is made (their
    statuses copied into the requester's home). True; False if there was no request."""
    return _follow(requester_uid, uid, approving=True) is not False


def _follow(uid: int, other_uid: int, *, approving: bool) -> bool | None:
    uid, other_uid = int(uid), int(other_uid)
    if uid == other_uid:
        raise ValueError("You can't follow yourself.")
    conn = get_redis()
    now = time.time()
    # Follow sets hold whole seconds: a listpack stores an integer score in a few bytes,
    # a fractional one as a 17-character string (README, Performance). Ties are fine:
    # fan-out cursors count the members they have done at one score.
    since = int(now)
    home_size = settings.HOME_TIMELINE_SIZE
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), "login")
    following.queue_score(pipe, uid, other_uid)
    login, followed_at = pipe.execute()
    if not login:
        raise ValueError("No such user.")
    scripts.run(
        pipe,
        "add_follower",
        [
            user_key(other_uid),
            keys.followers_key(other_uid),
            keys.profile_timeline_key(other_uid),
            keys.blocks_key(other_uid),
            keys.blocked_by_key(other_uid),
            keys.follow_requests_key(other_uid),
        ],
        [
            uid,
            since,
            home_size,
            "1" if approving else "0",
            "" if followed_at is None else followed_at,
            settings.FOLLOWERS_PIECE_SIZE,
        ],
    )
    pipe.hget(user_key(other_uid), "followers")
    followed, followers = pipe.execute()
    if not followed:
        raise ValueError("No such user.")
    other_login, entries, outcome, private = followed
    if outcome == "blocked":
        raise Blocked(f"You can't follow @{other_login}.")
    if outcome == "no_request":
        return False
    if outcome == "requested":
        # The requester's side: their pending requests (the profile's "Requested").
        conn.zadd(keys.requested_key(uid), {other_uid: since})
        return False
    queue_popular(pipe, other_uid, int(followers))
    follower = {"id": uid, "login": login}
    followed_user = {"id": other_uid, "login": other_login}
    event = events.follow_changed("follow", follower, followed_user, now, private=private == "1")
    in_script = events.publishes_in_scripts(conn)
    scripts.run(
        pipe,
        "add_following",
        [user_key(uid), keys.following_key(uid), keys.blocks_key(uid), keys.blocked_by_key(uid)],
        [
            other_uid,
            since,
            STATUS_CHANNEL if in_script else "",
            event,
            following.BUCKETS,
            settings.FOLLOWING_SPLIT,
        ],
    )
    # The copy: merged into home (sorted, no repeats, bounded) by a script of its own in
    # the same slot, which copies nothing unless the follow holds (not refused for a
    # block); a follow that existed already merges statuses home has (a no-op).
    copied = list(zip(entries[::2], entries[1::2], strict=True))
    home_list.queue_merge(pipe, uid, home_size, [(other_uid, entries[::2])])
    # A follow that existed already notified then: the notification is there, unchanged.
    notifications.queue_notify(pipe, other_uid, notifications.FOLLOW, follower, 0, now)
    if approving:
        pipe.zrem(keys.requested_key(uid), other_uid)
    # The popular accounts' two replies come first; the follow's reply, then the rest.
    _, _, added, *_ = drop_copied_if_deleted(
        pipe,
        lambda client, gone: home_list.queue_remove(client, uid, gone),
        keys.profile_timeline_key(other_uid),
        copied,
    )
    if added == -1:
        # A block landed between the two steps: step 1 is taken back (the block's own
        # unfollow may have done it already; either way it is idempotent).
        losing_follower(conn, other_uid, uid, since if followed_at is None else followed_at)
        raise Blocked(f"You can't follow @{other_login}.")
    if added and not in_script:
        events.publish(conn, event)
    return True if added else None


def unfollow_user(uid: int, other_uid: int) -> bool | None:
    """Unfollows `other_uid` and removes their statuses from home: True; None if not following."""
    uid, other_uid = int(uid), int(other_uid)
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), "login")
    following.queue_score(pipe, uid, other_uid)
    login, followed_at = pipe.execute()
    if not login:
        return None
    losing_follower(pipe, other_uid, uid, "+inf" if followed_at is None else followed_at)
    pipe.hget(user_key(other_uid), keys.PRIVATE_FIELD)
    pipe.hget(user_key(other_uid), "followers")
    unfollowed, private, followers = pipe.execute()
    if not unfollowed:
        return None
    other_login, ids = unfollowed
    follower, followed = {"id": uid, "login": login}, {"id": other_uid, "login": other_login}
    if not unfollowing(conn, follower, followed, ids, private=private == "1"):
        return None
    pipe = conn.pipeline(transaction=False)
    queue_popular(pipe, other_uid, int(followers))
    jobs.enqueue(pipe, refill_job(uid))
    notifications.queue_withdraw(pipe, other_uid, notifications.FOLLOW, follower)
    pipe.execute()
    return True


def losing_follower(client, uid: int | str, follower_uid: int, followed_at) -> Any:
    """Step 1 of an unfollow, in the followed user's slot: `follower_uid`, who followed
    at `followed_at` (their following set's score; "+inf" if it has none), leaves `uid`'s
    followers. Replies [`uid`'s login, their newest status ids], or nothing for an
    unknown user."""
    return scripts.run(
        client,
        "remove_follower",
        [user_key(uid), keys.followers_key(uid), keys.profile_timeline_key(uid)],
        [follower_uid, settings.HOME_TIMELINE_SIZE, followed_at],
    )


def unfollowing(client, follower: dict, followed: dict, ids: list, *, private: bool = False) -> Any:
    """Step 2 of an unfollow, in the follower's slot: forgets `followed` and takes
    `ids` (their newest statuses) out of home, and publishes the unfollow (to live home
    timelines only if `followed` is `private`). On a connection, whether they were
    followed; on a pipeline, queued."""
    event = events.follow_changed("unfollow", follower, followed, time.time(), private=private)
    uid = follower["id"]
    in_script = events.publishes_in_scripts(client)
    removed = scripts.run(
        client,
        "remove_following",
        [user_key(uid), keys.following_key(uid), keys.home_timeline_key(uid)],
        [
            followed["id"],
            STATUS_CHANNEL if in_script else "",
            event,
            home_list.IDS_PER_COMMAND,
            following.BUCKETS,
            *ids,
        ],
    )
    if removed and not in_script:
        events.publish(client, event)
    return removed
