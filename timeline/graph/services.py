"""The follow graph (Redis in Action 8.3): following and unfollowing someone.

Each is two idempotent steps, one in each user's slot (a script apiece), so the same
code runs on Redis Cluster: the followed user's side (their followers set and count,
and a read of their newest statuses), then the follower's (their following set and
count, their home timeline, and the event). A follow is 2 round trips (3 when a status
it copied was deleted meanwhile: feeds.refill.drop_copied_if_deleted); an unfollow 3,
the last queueing the job that refills home. On a cluster the event goes out one round
trip later, from the channel's node (see socialsite.events.publishes_in_scripts). Each
first reads whether (since when) the follower follows them already (follow_sets.following):
the piece of followers that holds them (follow_sets.followers), one round trip more."""

import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from accounts.keys import user_key
from socialsite import events, jobs
from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import Batch, get_redis

from .. import keys
from ..audience.selectors import Blocked
from ..discovery.suggestions import queue_popular
from ..feeds import home_list
from ..feeds.refill import drop_copied_if_deleted, refill_job
from ..follow_sets import followers as follower_sets
from ..follow_sets import following
from ..follow_sets import options as follow_options
from ..notifications import services as notifications


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


@dataclass(frozen=True)
class _Follow:
    """A follow being made: who follows whom, when, and since when they follow already."""

    follower: dict  # {"id", "login"}
    other_uid: int
    now: float
    # Follow sets hold whole seconds: a listpack stores an integer score in a few
    # bytes, a fractional one as a 17-character string (README, Performance). Ties are
    # fine: fan-out cursors count the members they have done at one score.
    since: int
    followed_at: str | None
    approving: bool
    # The follower's account is private: its follows are shown as its statuses are.
    follower_private: bool = False


@dataclass(frozen=True)
class _Followed:
    """Step 1's outcome, read in the followed user's slot."""

    login: str
    entries: list  # their newest statuses, flat: id, score, ...
    outcome: str  # "followed", "requested", "no_request" or "blocked"
    private: bool
    followers: int


def _follow(uid: int, other_uid: int, *, approving: bool) -> bool | None:
    conn = get_redis()
    follow = check_follow(conn, uid, other_uid, approving=approving)
    followed = do_add_follower(conn, follow)
    if followed.outcome == "requested":
        do_record_request(conn, follow)
    if followed.outcome != "followed":
        return False
    added = do_add_following(conn, follow, followed)
    if added == -1:
        undo_add_follower(conn, follow, followed)
    notify_follow(conn, follow, followed, added=bool(added))
    return True if added else None


def check_follow(conn, uid: int, other_uid: int, *, approving: bool) -> _Follow:
    """The follow `uid` asks for (1 round trip: their login, and since when they follow
    `other_uid` already); ValueError for yourself or an unknown follower."""
    uid, other_uid = int(uid), int(other_uid)
    if uid == other_uid:
        raise ValueError("You can't follow yourself.")
    checked = read_follower(conn, uid, other_uid)
    if checked is None:
        raise ValueError("No such user.")
    follower, followed_at, private = checked
    now = time.time()
    return _Follow(follower, other_uid, now, int(now), followed_at, approving, private)


def do_add_follower(conn, follow: _Follow) -> _Followed:
    """Step 1, in the followed user's slot (1 round trip): the follower joins their
    followers (or their follow requests, if private); ValueError for an unknown user,
    Blocked if either blocks the other."""
    other_uid = follow.other_uid
    step = Batch(conn)
    added = follower_sets.queue_follow(
        step,
        other_uid,
        follower=follow.follower["id"],
        since=follow.since,
        newest=settings.HOME_TIMELINE_SIZE,
        approving=follow.approving,
        followed_at=follow.followed_at,
    )
    followers = step.hget(user_key(other_uid), "followers")
    step.execute()
    if not added.value:
        raise ValueError("No such user.")
    other_login, entries, outcome, private = added.value
    if outcome == "blocked":
        raise Blocked(f"You can't follow @{other_login}.")
    return _Followed(other_login, entries, outcome, private == "1", int(followers.value or 0))


def do_record_request(conn, follow: _Follow) -> None:
    """The requester's side of a follow request: their pending requests (the profile's
    "Requested"), and the notification that tells the account asked (its badge and its
    notifications page, where it is approved or turned down). 1 round trip."""
    pipe = conn.pipeline(transaction=False)
    pipe.zadd(keys.requested_key(follow.follower["id"]), {follow.other_uid: follow.since})
    notifications.queue_notify(
        pipe, follow.other_uid, notifications.FOLLOW_REQUEST, follow.follower, 0, follow.now
    )
    pipe.execute()


def do_add_following(conn, follow: _Follow, followed: _Followed) -> int:
    """Step 2, in the follower's slot (1 round trip, 2 when a copied status was deleted
    meanwhile: feeds.refill.drop_copied_if_deleted): the follow, their newest statuses
    merged into home, and the follow's notification queued with it. The script's reply:
    1 if the follow is new, 0 if it existed, -1 if a block landed since step 1."""
    uid, other_uid, since = follow.follower["id"], follow.other_uid, follow.since
    home_size = settings.HOME_TIMELINE_SIZE
    in_script = events.publishes_in_scripts(conn)
    steps = Batch(conn)
    pipe = steps.pipe
    added = following.queue_follow(
        steps,
        uid,
        other=other_uid,
        since=since,
        channel=STATUS_CHANNEL if in_script else "",
        event=_follow_event(follow, followed),
    )
    # The copy: merged into home (sorted, no repeats, bounded) by a script of its own in
    # the same slot, which copies nothing unless the follow holds (not refused for a
    # block). A follow that existed already (its step 2 done before) copies nothing: its
    # home has what it should, and a status just stored, whose post has yet to push it
    # to this home, would be there twice.
    if follow.followed_at is None:
        entries = followed.entries
        copied = list(zip(entries[::2], entries[1::2], strict=True))
        home_list.queue_merge(pipe, uid, home_size, [(other_uid, entries[::2])])
    else:
        copied = []
    queue_follow_notification(pipe, follow, followers=followed.followers)
    drop_copied_if_deleted(
        steps,
        lambda client, gone: home_list.queue_remove(client, uid, gone),
        keys.profile_timeline_key(other_uid),
        copied,
    )
    return added.value


def queue_follow_notification(pipe, follow: _Follow, *, followers: int) -> None:
    """Queues what a follow tells others, on step 2's pipeline (no round trip of its own):
    the followed user's notification (a follow that existed already notified then: it is
    there, unchanged), their place among the most followed, and the end of a request."""
    other_uid = follow.other_uid
    notifications.queue_notify(
        pipe, other_uid, notifications.FOLLOW, follow.follower, 0, follow.now
    )
    queue_popular(pipe, other_uid, followers)
    if follow.approving:
        pipe.zrem(keys.requested_key(follow.follower["id"]), other_uid)
        notifications.queue_withdraw(pipe, other_uid, notifications.FOLLOW_REQUEST, follow.follower)


def undo_add_follower(conn, follow: _Follow, followed: _Followed) -> None:
    """A block landed between the two steps: step 1 is taken back (the block's own
    unfollow may have done it already; either way it is idempotent), and Blocked."""
    followed_at = follow.since if follow.followed_at is None else follow.followed_at
    losing_follower(conn, follow.other_uid, follow.follower["id"], followed_at)
    raise Blocked(f"You can't follow @{followed.login}.")


def notify_follow(conn, follow: _Follow, followed: _Followed, *, added: bool) -> None:
    """Publishes a new follow's event where its script could not (a cluster's
    connection: socialsite.events.publishes_in_scripts), one round trip more."""
    if added and not events.publishes_in_scripts(conn):
        events.publish(conn, _follow_event(follow, followed))


def _follow_event(follow: _Follow, followed: _Followed) -> str:
    followed_user = {"id": follow.other_uid, "login": followed.login}
    return follow_event(
        "follow",
        follow.follower,
        followed_user,
        follow.now,
        source_private=follow.follower_private,
        target_private=followed.private,
    )


def follow_event(
    kind: str,
    source: dict,
    target: dict,
    created: float,
    *,
    source_private: bool,
    target_private: bool,
) -> str:
    """A follow or unfollow's event, each private side marked so: the streams show a
    private account's follows, either way, only to whom timeline.audience lets see them."""
    return events.follow_changed(
        kind,
        _marked(source, source_private),
        _marked(target, target_private),
        created,
        private=source_private or target_private,
    )


def _marked(user: dict, private: bool) -> dict:
    return {**user, keys.PRIVATE_FIELD: "1"} if private else user


def unfollow_user(uid: int, other_uid: int) -> bool | None:
    """Unfollows `other_uid` and removes their statuses from home: True; None if not following."""
    uid, other_uid = int(uid), int(other_uid)
    conn = get_redis()
    checked = read_follower(conn, uid, other_uid)
    if checked is None:
        return None
    follower, followed_at, follower_private = checked
    followers = do_unfollow(
        conn, follower, other_uid, followed_at, follower_private=follower_private
    )
    if followers is None:
        return None
    notify_unfollow(conn, follower, other_uid, followers=followers)
    # A follow's options end with it (apinotif).
    follow_options.forget(uid, other_uid)
    return True


def set_follow_options(uid: int, other_uid: int, *, reblogs: bool, notify: bool) -> bool:
    """Sets `uid`'s options on their follow of `other_uid` (follow_sets.options): True;
    False if they don't follow them (nothing changes)."""
    if not following.follows(uid, [other_uid])[0]:
        return False
    follow_options.set_options(uid, other_uid, reblogs=reblogs, notify=notify)
    return True


def read_follower(conn, uid: int, other_uid: int) -> tuple[dict, str | None, bool] | None:
    """The follower ({"id", "login"}), since when they follow `other_uid` (None: not
    following) and whether their account is private, 1 round trip; None for an unknown
    user. What a follow and an unfollow check first."""
    reads = Batch(conn)
    login = reads.hget(user_key(uid), "login")
    private = reads.hget(user_key(uid), keys.PRIVATE_FIELD)
    followed_at = following.queue_score(reads, uid, other_uid)
    reads.execute()
    if not login.value:
        return None
    return {"id": uid, "login": login.value}, followed_at.value, private.value == "1"


def do_unfollow(
    conn, follower: dict, other_uid: int, followed_at: str | None, *, follower_private: bool = False
) -> int | None:
    """Both steps of an unfollow (2 round trips), which publishes its event: the followed
    user's follower count after it, or None if there was no follow to undo.
    `follower_private`: the follower's account is private."""
    uid = follower["id"]
    step = Batch(conn)
    lost = losing_follower(step, other_uid, uid, "+inf" if followed_at is None else followed_at)
    followed_private = step.hget(user_key(other_uid), keys.PRIVATE_FIELD)
    followers = step.hget(user_key(other_uid), "followers")
    step.execute()
    if not lost.value:
        return None
    other_login, ids = lost.value
    followed = {"id": other_uid, "login": other_login}
    if not unfollowing(
        conn,
        follower,
        followed,
        ids,
        private=followed_private.value == "1",
        follower_private=follower_private,
    ):
        return None
    return int(followers.value)


def notify_unfollow(conn, follower: dict, other_uid: int, *, followers: int) -> None:
    """What an unfollow tells others (1 round trip): the followed user's place among the
    most followed, their follow notification withdrawn, and the job that refills the
    follower's home."""
    pipe = conn.pipeline(transaction=False)
    queue_popular(pipe, other_uid, followers)
    jobs.enqueue(pipe, refill_job(follower["id"]))
    notifications.queue_withdraw(pipe, other_uid, notifications.FOLLOW, follower)
    pipe.execute()


def losing_follower(client, uid: int | str, follower_uid: int, followed_at) -> Any:
    """Step 1 of an unfollow, in the followed user's slot: `follower_uid`, who followed
    at `followed_at` (their following set's score; "+inf" if it has none), leaves `uid`'s
    followers. Replies [`uid`'s login, their newest status ids], or nothing for an
    unknown user."""
    return follower_sets.queue_unfollow(
        client,
        uid,
        follower=follower_uid,
        followed_at=followed_at,
        newest=settings.HOME_TIMELINE_SIZE,
    )


def unfollowing(
    client,
    follower: dict,
    followed: dict,
    ids: list,
    *,
    private: bool = False,
    follower_private: bool = False,
) -> Any:
    """Step 2 of an unfollow, in the follower's slot: forgets `followed` and takes
    `ids` (their newest statuses) out of home, and publishes the unfollow (marked for
    each side whose account is private: `private` the followed, `follower_private` the
    follower). On a connection, whether they were followed; on a pipeline, queued."""
    event = follow_event(
        "unfollow",
        follower,
        followed,
        time.time(),
        source_private=follower_private,
        target_private=private,
    )
    uid = follower["id"]
    in_script = events.publishes_in_scripts(client)
    removed = following.queue_unfollow(
        client,
        uid,
        other=followed["id"],
        channel=STATUS_CHANNEL if in_script else "",
        event=event,
        ids_per_command=home_list.IDS_PER_COMMAND,
        ids=ids,
    )
    if removed and not in_script:
        events.publish(client, event)
    return removed


def cancel_request(uid: int, other_uid: int) -> bool:
    """`uid` takes back their request to follow `other_uid`: whether there was one."""
    return drop_request(uid, other_uid)


def drop_request(requester: int, owner: int) -> bool:
    """`requester`'s request to follow `owner` goes (taken back, turned down, or moot):
    whether there was one."""
    # Two single-key steps, each in its own user's slot and idempotent.
    pipe = get_redis().pipeline(transaction=False)
    pipe.zrem(keys.follow_requests_key(owner), requester)
    pipe.zrem(keys.requested_key(requester), owner)
    notifications.queue_withdraw(
        pipe, owner, notifications.FOLLOW_REQUEST, {"id": requester, "login": ""}
    )
    dropped, _unrequested, *_ = pipe.execute()
    return bool(dropped)
