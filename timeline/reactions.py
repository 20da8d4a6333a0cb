"""Reposts and likes.

A repost is a status of its own, like Twitter's retweet: it carries `repost_of`
and a copy of its original's message, and goes the way of every post (the
reposter's profile, fan-out, the event stream). The original's reposts set
(reposter uid -> repost id) backs its `reposts` count and refuses double
reposts; deleting the original deletes its reposts by a background job.
Likes are a set per status (counted in `likes`) and one per user, their likes
page. Each set lives in its owner's slot, so a like is two idempotent steps."""

# Annotations name services.Page lazily: services imports this module too.
from __future__ import annotations

import time

from django.conf import settings

from accounts.keys import SUSPENDED_USERS, user_key
from socialsite.redis import PackedPipeline, get_redis
from streaming import events

from . import jobs, keys, scripts, services

GONE = "That status doesn't exist or was deleted."


class StatusGone(ValueError):
    """The status acted on doesn't exist (any more)."""


def status_id_of(value) -> int:
    """`value` (say, a form field) as a status id; ValueError if it can't be one."""
    try:
        return int(value)
    except (TypeError, ValueError):
        raise StatusGone(GONE) from None


def original(status_id, *, hide_suspended: bool = True) -> dict:
    """The status `status_id`, or its original if it is a repost (1 more round trip);
    StatusGone if it is gone, `status_id` isn't an id, or (unless not `hide_suspended`)
    a suspended user wrote it or its original: everyone else sees those as deleted, so
    nobody may answer or repost them."""
    shown = services.shown_status(status_id_of(status_id), include_suspended=not hide_suspended)
    if shown is None:
        raise StatusGone(GONE)
    return shown.get("original") or shown


def _in_status_set(action: str, client, set_key, status_id: int, args: list):
    return scripts.run(client, action, [keys.status_key(status_id), set_key(status_id)], args)


def repost(uid: int, status_id: int) -> int:
    """Reposts a status (given a repost, its original) to `uid`'s followers and lists;
    returns the repost's id. ValueError if the status is gone or `uid` reposted it already."""
    conn = get_redis()
    shown = original(status_id)
    fields = {
        "repost_of": shown["id"],
        "repost_of_uid": shown["uid"],
        "repost_of_login": shown["login"],
        "repost_of_posted": shown["posted"],
        "mentions": shown.get("mentions"),
    }
    status = services.new_status(conn, uid, shown["message"], fields)
    if status is None:
        raise ValueError("No such user.")
    claimed = _in_status_set(
        "add_to_status_set", conn, keys.reposts_key, shown["id"], ["reposts", status["id"], uid]
    )
    if claimed == 0:
        raise StatusGone(GONE)
    if claimed == -1:
        raise ValueError("You already reposted that status.")
    return services.publish_status(conn, status)


def undo_repost(uid: int, status_id: int) -> None:
    """Deletes `uid`'s repost of a status (given the original or any repost of it), which
    takes it out of every timeline; ValueError if they haven't reposted it."""
    conn = get_redis()
    # Taking back your own repost stays possible after its original's author is suspended.
    shown = original(status_id, hide_suspended=False)
    repost_id = conn.zscore(keys.reposts_key(shown["id"]), uid)
    if repost_id is None:
        # To everyone else a suspended user's status reads as deleted: say so here too,
        # rather than tell who is suspended.
        original(status_id)
        raise ValueError("You haven't reposted that status.")
    if services.delete_status(uid, int(repost_id)) is None:
        # Claimed by a repost that died before its status was stored: drop the claim.
        _in_status_set(
            "remove_from_status_set", conn, keys.reposts_key, shown["id"], ["reposts", uid, ""]
        )


def like(uid: int, status_id: int) -> int:
    """Likes a status (given a repost, its original) and publishes it; returns its like
    count. ValueError if it is gone or `uid` likes it already."""
    return _change_like(uid, status_id, liking=True)


def unlike(uid: int, status_id: int) -> int:
    """Takes back a like and publishes it; returns the status's like count. ValueError if
    the status is gone or `uid` doesn't like it."""
    return _change_like(uid, status_id, liking=False)


def _change_like(uid: int, status_id: int, *, liking: bool) -> int:
    # 3 round trips: the liker, the status and the suspended set; the status's slot; the
    # liker's slot.
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.hget(user_key(uid), "login")
    pipe.hgetall(keys.status_key(status_id_of(status_id)))
    pipe.smembers(SUSPENDED_USERS)
    login, fields, suspended = pipe.execute()
    status = services.decode_status(fields)
    if login is None:
        raise ValueError("No such user.")
    # A suspended user's status reads as deleted, so it can't be liked; a like given
    # before the suspension can still be taken back.
    hidden = status is not None and services.is_hidden(status, services.hidden_uids(suspended))
    if status is None or (liking and hidden):
        raise StatusGone(GONE)
    if status.get("repost_of"):
        status = {
            "id": status["repost_of"],
            "uid": status["repost_of_uid"],
            "login": status["repost_of_login"],
        }
    sid, now = status["id"], time.time()
    if liking:
        changed = _in_status_set(
            "add_to_status_set", conn, keys.likers_key, sid, ["likes", now, uid]
        )
        if changed == 0:
            raise StatusGone(GONE)
        if changed == -1:
            raise ValueError("You already like that status.")
        pipe.zadd(keys.likes_key(uid), {sid: now})
    else:
        if not _in_status_set(
            "remove_from_status_set", conn, keys.likers_key, sid, ["likes", uid, ""]
        ):
            # As for liking it: a hidden status reads as deleted, not as "not liked".
            raise StatusGone(GONE) if hidden else ValueError("You don't like that status.")
        pipe.zrem(keys.likes_key(uid), sid)
    pipe.hget(keys.status_key(sid), "likes")
    event = events.activity(
        "like" if liking else "unlike",
        {"id": int(uid), "login": login},
        {"id": status["uid"], "login": status["login"]},
        {"id": sid},
        now,
    )
    events.publish(pipe, event)
    return int(pipe.execute()[1] or 0)


def take_back_likes(uid: int, *, count: int) -> bool:
    """Takes back the next `count` likes of a user being deleted (timeline.moderation), each
    status's count falling only if the like was still in its set; False when none is left.

    No "unlike" events: the user is gone, which streams already learn from the
    deletion's other events, and like counts are read afresh with every page."""
    conn = get_redis()
    liked = conn.zrange(keys.likes_key(uid), 0, count - 1)
    if not liked:
        return False
    pipe = conn.pipeline(transaction=False)
    for status_id in liked:
        args = ["likes", uid, ""]
        _in_status_set("remove_from_status_set", pipe, keys.likers_key, status_id, args)
    # Last, so a batch cut short is found and redone (the script counts nothing twice).
    pipe.zrem(keys.likes_key(uid), *liked)
    pipe.execute()
    return True


def likes_page(uid: int, page: int = 1, count: int = 30) -> services.Page:
    """The statuses `uid` likes, the latest liked first (for `uid`'s eyes only)."""
    return services.statuses_page(keys.likes_key(uid), page, count, viewer=uid)


def with_originals(statuses: list[dict], viewer: int | None = None) -> list[dict]:
    """`statuses` with each repost's original as its "original" (1 round trip if there are
    reposts), marked for `viewer` (see queue_marks), leaving out reposts whose original
    is gone. (Reposts of hidden users' statuses were left out already: a repost names
    its original's author.)"""
    reposts = [s for s in statuses if s.get("repost_of")]
    if not reposts:
        return statuses
    originals = [repost["repost_of"] for repost in reposts]
    pipe = PackedPipeline(get_redis())
    pipe.for_each_key(map(keys.status_key, originals), ("HGETALL",))
    queue_marks(pipe, viewer, originals)
    replies = pipe.execute()
    for repost, fields in zip(reposts, replies[: len(reposts)], strict=True):
        repost["original"] = services.decode_status(fields)
    apply_marks([repost["original"] for repost in reposts], replies[len(reposts) :])
    return [s for s in statuses if not s.get("repost_of") or s["original"]]


def queue_marks(pipe: PackedPipeline, uid: int | None, ids: list) -> int:
    """Queues the reads that tell whether `uid` liked and reposted each of `ids`, for
    `apply_marks`: nothing for no one. Returns how many replies they add."""
    if not uid or not ids:
        return 0
    pipe.zmscore(keys.likes_key(uid), ids)
    pipe.for_each_key(map(keys.reposts_key, ids), ("ZSCORE", uid))
    return 1 + len(ids)


def apply_marks(statuses: list[dict | None], replies: list) -> None:
    """Marks each of `statuses` (None for one that is gone) `liked` and `reposted` from
    the replies to `queue_marks` for their ids (none: nothing to mark)."""
    if not replies:
        return
    liked, *reposted = replies
    for status, like_time, repost_id in zip(statuses, liked, reposted, strict=True):
        if status is not None:
            status["liked"] = like_time is not None
            status["reposted"] = repost_id is not None


def forget(pipe, status: dict) -> None:
    """Queues on `pipe` what deleting `status` means here: a repost leaves its original's
    reposts; an original's reposts and likes go by a background job."""
    if status.get("repost_of"):
        args = ["reposts", status["uid"], status["id"]]
        _in_status_set("remove_from_status_set", pipe, keys.reposts_key, status["repost_of"], args)
    if status["reposts"] or status["likes"]:
        jobs.enqueue(pipe, ("forget_reactions", {"status_id": status["id"]}))


@jobs.handler("forget_reactions")
def forget_reactions_batch(args: dict) -> list[jobs.Job]:
    """Deletes the next POSTS_PER_PASS reposts of a deleted status and takes it off the
    next POSTS_PER_PASS likers' likes pages; idempotent."""
    status_id, per_pass = args["status_id"], settings.POSTS_PER_PASS
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.zrange(keys.reposts_key(status_id), 0, per_pass - 1, withscores=True)
    pipe.zrange(keys.likers_key(status_id), 0, per_pass - 1)
    reposts, likers = pipe.execute()
    for _, repost_id in reposts:
        services.remove_status(int(repost_id))
    for liker in likers:
        pipe.zrem(keys.likes_key(liker), status_id)
    if reposts:
        # Also drops claims whose repost never got stored.
        pipe.zrem(keys.reposts_key(status_id), *(uid for uid, _ in reposts))
    if likers:
        pipe.zrem(keys.likers_key(status_id), *likers)
    pipe.execute()
    more = len(reposts) == per_pass or len(likers) == per_pass
    return [("forget_reactions", args)] if more else []
