"""Delivering a status to its author's followers' home timelines, and taking a
deleted one back out of them.

The first POSTS_PER_PASS followers get a new status inside the request; the
rest are walked in batches by background jobs, as is every follower when a
status is deleted. Followers are ordered by follow time, so a job's cursor is
(score, how many followers at that exact score are done): exact even when many
follows share one timestamp."""

from django.conf import settings

from socialsite.redis import get_redis

from . import jobs, keys

FollowerBatch = list[tuple[str, float]]


def deliver(pipe, status_id: int, posted: float, follower_uids, home_size: int) -> None:
    """Queues on `pipe` the ZADD + trim of one status into each follower's home timeline."""
    for uid in follower_uids:
        home = keys.home_timeline_key(uid)
        pipe.zadd(home, {status_id: posted})
        pipe.zremrangebyrank(home, 0, -home_size - 1)


def retract(pipe, status_id: int, follower_uids) -> None:
    """Queues on `pipe` the removal of one status from each follower's home timeline."""
    for uid in follower_uids:
        pipe.zrem(keys.home_timeline_key(uid), status_id)


def fan_out_job(status: dict, *, retract: bool = False) -> jobs.Job:
    """The job that walks all of the author's followers from the first one."""
    args = {"status_id": status["id"], "uid": status["uid"], "posted": status["posted"]}
    return ("fanout", {**args, "retract": retract, "after_score": "-inf", "skip": 0})


def rest_of_fan_out(job: jobs.Job, batch: FollowerBatch) -> jobs.Job | None:
    """The job for the followers after `batch` (the pass `job` just did), or None if
    `batch` wasn't a full pass and so reached the last follower."""
    if len(batch) < settings.POSTS_PER_PASS:
        return None
    kind, args = job
    last_score = batch[-1][1]
    ties = sum(1 for _, score in batch if score == last_score)
    if last_score == float(args["after_score"]) and ties == len(batch):
        ties += args["skip"]
    return (kind, {**args, "after_score": last_score, "skip": ties})


@jobs.handler("fanout")
def fan_out_batch(args: dict) -> list[jobs.Job]:
    """Delivers to (or retracts from) the next POSTS_PER_PASS followers; idempotent."""
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.exists(keys.status_key(args["status_id"]))
    pipe.zrangebyscore(
        keys.followers_key(args["uid"]),
        args["after_score"],
        "+inf",
        start=args["skip"],
        num=settings.POSTS_PER_PASS,
        withscores=True,
    )
    exists, batch = pipe.execute()
    followers = [uid for uid, _ in batch]
    if args["retract"]:
        retract(pipe, args["status_id"], followers)
    elif exists:
        deliver(pipe, args["status_id"], args["posted"], followers, settings.HOME_TIMELINE_SIZE)
    else:
        return []  # deleted meanwhile: the deletion's own job retracts it
    pipe.execute()
    follow_up = rest_of_fan_out(("fanout", args), batch)
    return [follow_up] if follow_up else []
