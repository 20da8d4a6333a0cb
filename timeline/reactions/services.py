"""Reposts and likes.

A repost is a status of its own, like Twitter's retweet: it carries `repost_of`
and a copy of its original's message, and goes the way of every post (the
reposter's profile, fan-out, the event stream). The original's reposts set
(reposter uid -> repost id) backs its `reposts` count and refuses double
reposts; deleting the original deletes its reposts by a background job.
Likes are a set per status (counted in `likes`) and one per user, their likes
page. Each set lives in its owner's slot, so a like is two idempotent steps. Each
user's marks of what they liked and reposted are kept beside (statuses.marks)."""

import time
from collections.abc import Mapping
from typing import Any

from accounts.keys import SUSPENDED_USERS, user_key
from socialsite import events
from socialsite.redis import Batch, Client, get_redis

from .. import keys
from ..audience import selectors as safety
from ..feeds.selectors import original
from ..notifications import services as notifications
from ..posting.services import delete_status, deliver_status
from ..ranking import affinity
from ..statuses import marks
from ..statuses.records import Status
from ..statuses.selectors import (
    GONE,
    AlreadyDone,
    StatusGone,
    decode_status,
    hidden_uids,
    is_hidden,
    status_id_of,
)
from ..statuses.services import add_to_status_set, build_status, remove_from_status_set


def repost(uid: int, status_id: int) -> int:
    """Reposts a status (given a repost, its original) to `uid`'s followers and lists;
    returns the repost's id. StatusGone if the status is gone (or hidden from `uid`, see
    timeline.safety), ValueError if it is a private account's, AlreadyDone if `uid`
    reposted it already."""
    conn = get_redis()
    shown, status = check_repost(conn, uid, status_id)
    do_claim_repost(conn, uid, shown, status)
    return deliver_status(conn, status)


def check_repost(conn: Client, uid: int, status_id: int) -> tuple[Status, Status]:
    """The original a repost of `status_id` reposts, and the repost (built, its id
    allocated, not stored: statuses.build_status); StatusGone, or ValueError for a
    private account's status or an unknown user."""
    shown = original(status_id, viewer=uid)
    # A followers-only or direct status (vis) carries the private mark too.
    if safety.is_private(shown):
        raise ValueError(
            "A private account's status can't be reposted, nor a followers-only or direct one."
        )
    fields = {
        "repost_of": shown["id"],
        "repost_of_uid": shown["uid"],
        "repost_of_login": shown["login"],
        "repost_of_posted": shown["posted"],
        "mentions": shown.get("mentions"),
    }
    status = build_status(conn, uid, shown["message"], fields)
    if status is None:
        raise ValueError("No such user.")
    return shown, status


def do_claim_repost(conn: Client, uid: int, shown: Status, status: Status) -> None:
    """The claim in the original's slot and the mark in the reposter's, 1 round trip;
    StatusGone if the original was deleted meanwhile (the mark taken back), AlreadyDone
    if `uid` reposted it already."""
    pipe = conn.pipeline(transaction=False)
    add_to_status_set(pipe, keys.reposts_key, shown["id"], "reposts", status["id"], uid)
    marks.queue_reposted(pipe, uid, shown["id"])
    claimed, _marked = pipe.execute()
    if claimed == 0:
        marks.queue_unreposted(conn, uid, shown["id"])
        raise StatusGone(GONE)
    if claimed == -1:
        raise AlreadyDone("You already reposted that status.")


def undo_repost(uid: int, status_id: int) -> None:
    """Deletes `uid`'s repost of a status (given the original or any repost of it), which
    takes it out of every timeline; AlreadyDone if they haven't reposted it."""
    conn = get_redis()
    shown, repost_id = check_undo_repost(conn, uid, status_id)
    if delete_status(uid, repost_id) is None:
        do_drop_repost_claim(conn, uid, shown)


def check_undo_repost(conn: Client, uid: int, status_id: int) -> tuple[Status, int]:
    """The original `uid` reposted and their repost's id; AlreadyDone if they haven't."""
    # Taking back your own repost stays possible after its original's author is suspended.
    shown = original(status_id, hide_suspended=False)
    repost_id = conn.zscore(keys.reposts_key(shown["id"]), uid)
    if repost_id is None:
        # To everyone else a suspended user's status reads as deleted: say so here too,
        # rather than tell who is suspended.
        original(status_id)
        raise AlreadyDone("You haven't reposted that status.")
    return shown, int(repost_id)


def do_drop_repost_claim(conn: Client, uid: int, shown: Status) -> None:
    """Drops a claim made by a repost that died before its status was stored, and its
    mark (1 round trip)."""
    pipe = conn.pipeline(transaction=False)
    remove_from_status_set(pipe, keys.reposts_key, shown["id"], "reposts", uid)
    marks.queue_unreposted(pipe, uid, shown["id"])
    pipe.execute()


def like(uid: int, status_id: int) -> int:
    """Likes a status (given a repost, its original) and publishes it; returns its like
    count. ValueError if it is gone or `uid` likes it already."""
    return _change_like(uid, status_id, liking=True)


def unlike(uid: int, status_id: int) -> int:
    """Takes back a like and publishes it; returns the status's like count. StatusGone if
    the status is gone, AlreadyDone if `uid` doesn't like it."""
    return _change_like(uid, status_id, liking=False)


def _change_like(uid: int, status_id: int, *, liking: bool) -> int:
    # 3 round trips: the liker, the status, the suspended set and the liker's blocks;
    # the status's slot; the liker's slot (1 more liking another's private status).
    conn = get_redis()
    liker, status, hidden = check_like(conn, uid, status_id, liking=liking)
    now = time.time()
    if liking:
        do_like(conn, liker, status, now)
    else:
        do_unlike(conn, liker, status, hidden=hidden)
    return notify_like(conn, liker, status, now, liking=liking)


def check_like(
    conn: Client, uid: int, status_id: int, *, liking: bool
) -> tuple[dict[str, Any], Mapping[str, Any], bool]:
    """The liker ({"id", "login"}), the status a like goes to (given a repost, its
    original: {"id", "uid", "login"}) and whether it is hidden from them; ValueError for
    an unknown liker, StatusGone for a status gone (or, liking, hidden)."""
    pipe = Batch(conn)
    login = pipe.hget(user_key(uid), "login")
    status_id = status_id_of(status_id)
    fields = pipe.hgetall(keys.status_key(status_id))
    suspended = pipe.smembers(SUSPENDED_USERS)
    audience = safety.queue_audience(pipe, uid)
    pipe.execute()
    login, suspended = login.value, suspended.value
    status = decode_status(status_id, fields.value)
    if login is None:
        raise ValueError("No such user.")
    # A suspended user's status reads as deleted, so it can't be liked; a like given
    # before the suspension can still be taken back. So does one timeline.audience's rule
    # hides from the liker.
    hidden = status is not None and (
        is_hidden(status, hidden_uids(suspended))
        or not safety.visible(conn, [status], audience.audience)
    )
    if status is None or (liking and hidden):
        raise StatusGone(GONE)
    # What is liked: the status, or a repost's original.
    liked: Mapping[str, Any] = status
    if status.get("repost_of"):
        liked = {
            "id": status["repost_of"],
            "uid": status["repost_of_uid"],
            "login": status["repost_of_login"],
        }
    return {"id": int(uid), "login": login}, liked, hidden


def do_like(conn: Client, liker: Mapping[str, Any], status: Mapping[str, Any], now: float) -> None:
    """Adds the liker to the status's likers (its slot, 1 round trip); StatusGone if it
    was deleted meanwhile, AlreadyDone if they like it already."""
    changed = add_to_status_set(conn, keys.likers_key, status["id"], "likes", now, liker["id"])
    if changed == 0:
        raise StatusGone(GONE)
    if changed == -1:
        raise AlreadyDone("You already like that status.")


def do_unlike(
    conn: Client, liker: Mapping[str, Any], status: Mapping[str, Any], *, hidden: bool
) -> None:
    """Takes the liker out of the status's likers (its slot, 1 round trip); AlreadyDone if
    they don't like it (StatusGone if it is hidden from them: it reads as deleted)."""
    if not remove_from_status_set(conn, keys.likers_key, status["id"], "likes", liker["id"]):
        raise StatusGone(GONE) if hidden else AlreadyDone("You don't like that status.")


def notify_like(
    conn: Client, liker: dict[str, Any], status: Mapping[str, Any], now: float, *, liking: bool
) -> int:
    """The like's other side, 1 round trip: the liker's marks (statuses.marks), the
    author's notification (or its withdrawal) and the like or unlike event; returns the
    status's like count."""
    uid, sid = liker["id"], status["id"]
    pipe = conn.pipeline(transaction=False)
    pipe.hget(keys.status_key(sid), "likes")
    if liking:
        marks.queue_like(pipe, uid, sid, now)
        affinity.queue_engaged(pipe, uid, status["uid"], affinity.LIKE, now)
        notifications.queue_notify(pipe, status["uid"], notifications.LIKE, liker, sid, now)
    else:
        marks.queue_unlike(pipe, uid, sid)
        notifications.queue_withdraw(pipe, status["uid"], notifications.LIKE, liker, sid)
    event = events.activity(
        "like" if liking else "unlike",
        liker,
        {"id": status["uid"], "login": status["login"]},
        {"id": sid},
        now,
    )
    events.publish(pipe, event)
    likes, *_marked_notified_and_published = pipe.execute()
    return int(likes or 0)


def take_back_likes(uid: int, *, count: int) -> bool:
    """Takes back the next `count` likes of a user being deleted (timeline.moderation), each
    status's count falling only if the like was still in its set, and the notifications
    they made; False when none is left.

    No "unlike" events: the user is gone, which streams already learn from the
    deletion's other events, and like counts are read afresh with every page."""
    conn = get_redis()
    liked = conn.zrange(keys.likes_key(uid), 0, count - 1)
    if not liked:
        return False
    pipe = conn.pipeline(transaction=False)
    for status_id in liked:
        pipe.hget(keys.status_key(status_id), "uid")
    authors = pipe.execute()
    # A notification names its actor by uid alone (notifications.notification_member).
    liker = {"id": int(uid)}
    for status_id, author in zip(liked, authors, strict=True):
        remove_from_status_set(pipe, keys.likers_key, status_id, "likes", uid)
        if author:
            notifications.queue_withdraw(pipe, int(author), notifications.LIKE, liker, status_id)
    # Last, so a batch cut short is found and redone (the script counts nothing twice).
    marks.queue_unlike(pipe, uid, *liked)
    pipe.execute()
    return True
