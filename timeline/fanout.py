"""Delivering a status to its author's audience, and taking a deleted one back out:
the home timelines of their followers, and the timelines of the lists they are in
(walked through their "listed in" set: Redis in Action's "Updating lists").

The first POSTS_PER_PASS of each get a new status inside the request; the rest
are walked in batches by background jobs, as is everyone when a status is
deleted. Both sets are ordered by the time they were joined, so a job's cursor
is (score, how many members at that exact score are done): exact even when
many share one timestamp."""

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from accounts.keys import user_key
from socialsite.redis import get_redis

from . import jobs, keys, scripts

# A repost isn't shown in a timeline whose 40 newest entries already show its original.
REPOST_FALLOFF = 40

FollowerBatch = list[tuple[str, float]]


def _add_to_timeline(pipe, owner_key, timeline_key, status_id, posted, size, repost_of) -> None:
    scripts.run(
        pipe,
        "add_to_timeline",
        [owner_key, timeline_key, keys.shown_reposts_key(timeline_key)],
        [status_id, posted, size, repost_of or "", REPOST_FALLOFF],
    )


def deliver(
    pipe, status_id: int, posted: float, follower_uids, home_size: int, *, repost_of=None
) -> None:
    """Queues on `pipe` the ZADD + trim of one status into each follower's home timeline
    (a repost goes through add_to_timeline.lua, which applies REPOST_FALLOFF)."""
    for uid in follower_uids:
        home = keys.home_timeline_key(uid)
        if repost_of:
            _add_to_timeline(pipe, user_key(uid), home, status_id, posted, home_size, repost_of)
        else:
            pipe.zadd(home, {status_id: posted})
            pipe.zremrangebyrank(home, 0, -home_size - 1)


def deliver_to_lists(
    pipe, status_id: int, posted: float, list_ids, size: int, *, repost_of=None
) -> None:
    """Queues on `pipe` the addition of one status to each list's timeline (a script, so a
    list deleted meanwhile isn't recreated)."""
    for list_id in list_ids:
        timeline = keys.list_timeline_key(list_id)
        _add_to_timeline(pipe, keys.list_key(list_id), timeline, status_id, posted, size, repost_of)


def retract(pipe, status_id: int, follower_uids) -> None:
    """Queues on `pipe` the removal of one status from each follower's home timeline."""
    for uid in follower_uids:
        pipe.zrem(keys.home_timeline_key(uid), status_id)


def retract_from_lists(pipe, status_id: int, list_ids) -> None:
    for list_id in list_ids:
        pipe.zrem(keys.list_timeline_key(list_id), status_id)


def reply_audience(conn, status: dict, follower_uids: list[str]) -> list[str]:
    """The followers a status (or a fan-out job's args) reaches: for a reply, only the user
    it answers and those who follow them (one ZMSCORE per batch); for others, everyone."""
    # A new status's extra fields are still strings here, as they are stored.
    answered = int(status.get("in_reply_to_uid") or 0)
    if not answered or answered == int(status["uid"]) or not follower_uids:
        return follower_uids
    scores = conn.zmscore(keys.followers_key(answered), follower_uids)
    return [
        uid
        for uid, score in zip(follower_uids, scores, strict=True)
        if score is not None or int(uid) == answered
    ]


@dataclass(frozen=True)
class Audience:
    members: Callable[[int], str]  # the author's set to walk
    deliver: Callable
    retract: Callable


AUDIENCES = {
    "followers": Audience(keys.followers_key, deliver, retract),
    "lists": Audience(keys.listed_in_key, deliver_to_lists, retract_from_lists),
}


def fan_out_job(status: dict, *, retract: bool = False, audience: str = "followers") -> jobs.Job:
    """The job that walks all of the author's followers (or lists) from the first one."""
    args = {
        "status_id": status["id"],
        "uid": status["uid"],
        "posted": status["posted"],
        "repost_of": status.get("repost_of"),
        "in_reply_to_uid": status.get("in_reply_to_uid"),
        "audience": audience,
    }
    return ("fanout", {**args, "retract": retract, "after_score": "-inf", "skip": 0})


def rest_of_fan_out(
    job: jobs.Job, batch: FollowerBatch, per_pass: int | None = None
) -> jobs.Job | None:
    """The job for the followers after `batch` (the pass `job` just did), or None if
    `batch` wasn't a full pass (of POSTS_PER_PASS, unless `per_pass`) and so reached the end."""
    if len(batch) < (per_pass or settings.POSTS_PER_PASS):
        return None
    kind, args = job
    last_score = batch[-1][1]
    ties = sum(1 for _, score in batch if score == last_score)
    if last_score == float(args["after_score"]) and ties == len(batch):
        ties += args["skip"]
    return (kind, {**args, "after_score": last_score, "skip": ties})


@jobs.handler("fanout")
def fan_out_batch(args: dict) -> list[jobs.Job]:
    """Delivers to (or retracts from) the next POSTS_PER_PASS followers or lists; idempotent."""
    audience = AUDIENCES[args["audience"]]
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.exists(keys.status_key(args["status_id"]))
    pipe.zrangebyscore(
        audience.members(args["uid"]),
        args["after_score"],
        "+inf",
        start=args["skip"],
        num=settings.POSTS_PER_PASS,
        withscores=True,
    )
    exists, batch = pipe.execute()
    members = [member for member, _ in batch]
    if args["retract"]:
        audience.retract(pipe, args["status_id"], members)
    elif exists:
        if audience is AUDIENCES["followers"]:
            members = reply_audience(conn, args, members)
        size = settings.HOME_TIMELINE_SIZE
        audience.deliver(
            pipe, args["status_id"], args["posted"], members, size, repost_of=args["repost_of"]
        )
    else:
        return []  # deleted meanwhile: the deletion's own job retracts it
    pipe.execute()
    follow_up = rest_of_fan_out(("fanout", args), batch)
    return [follow_up] if follow_up else []
