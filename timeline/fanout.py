"""Delivering a status to its author's followers' home timelines, and taking a
deleted one back out of them.

The first POSTS_PER_PASS followers get a new status inside the request; the
rest are walked in batches by background jobs, as is every follower when a
status is deleted. Followers are ordered by follow time, so a job's cursor is
(score, how many followers at that exact score are done): exact even when many
follows share one timestamp."""

from django.conf import settings

from socialsite.redis import PackedPipeline, get_redis

from . import jobs, keys, scripts

FollowerBatch = list[tuple[str, float]]


def deliver(
    pipe: PackedPipeline, status_id: int, posted: float, follower_uids, home_size: int
) -> None:
    """Queues on `pipe` the ZADD + trim of one status into each follower's home timeline."""
    pipe.for_each_key(
        map(keys.home_timeline_key, follower_uids),
        ("ZADD", posted, status_id),
        ("ZREMRANGEBYRANK", 0, -home_size - 1),
    )


def retract(pipe: PackedPipeline, status_id: int, follower_uids) -> None:
    """Queues on `pipe` the removal of one status from each follower's home timeline."""
    pipe.for_each_key(map(keys.home_timeline_key, follower_uids), ("ZREM", status_id))


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
    """Delivers to (or retracts from) the next FAN_OUT_JOB_SIZE followers; idempotent."""
    size = settings.FAN_OUT_JOB_SIZE
    followers_key = keys.followers_key(args["uid"])
    conn = get_redis()
    pipe = conn.pipeline(transaction=False)
    pipe.exists(keys.status_key(args["status_id"]))
    # Uids alone: with their scores Redis and the client spend longer on this read than
    # on the deliveries. The next job's cursor comes from the script below instead.
    pipe.zrangebyscore(followers_key, args["after_score"], "+inf", start=args["skip"], num=size)
    exists, followers = pipe.execute()
    pipe = PackedPipeline(conn)
    if args["retract"]:
        retract(pipe, args["status_id"], followers)
    elif exists:
        deliver(pipe, args["status_id"], args["posted"], followers, settings.HOME_TIMELINE_SIZE)
    else:
        return []  # deleted meanwhile: the deletion's own job retracts it
    if len(followers) < size:
        pipe.execute()
        return []
    scripts.run(pipe, "fan_out_cursor", [followers_key], [followers[-1]])
    cursor = pipe.execute()[-1]
    if cursor:
        after_score, skip = float(cursor[0]), cursor[1]
    else:
        # The last one unfollowed meanwhile: count on our place, as near as is known.
        after_score, skip = args["after_score"], args["skip"] + size
    return [("fanout", {**args, "after_score": after_score, "skip": skip})]
