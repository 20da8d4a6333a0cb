"""Delivering a status to its author's followers' home timelines.

The first POSTS_PER_PASS followers get it inside the request; the rest are
walked in batches by background jobs. Followers are ordered by follow time, so
a job's cursor is (score, how many followers at that exact score are done):
exact even when many follows share one timestamp."""

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


def rest_of_fan_out(
    status_id: int, uid: int, posted: float, batch: FollowerBatch, after_score=None, skip: int = 0
) -> jobs.Job | None:
    """The job for the followers after `batch`, or None if `batch` wasn't a full pass.

    `batch` started `skip` followers into score `after_score` (None: the very start)."""
    if len(batch) < settings.POSTS_PER_PASS:
        return None
    last_score = batch[-1][1]
    ties = sum(1 for _, score in batch if score == last_score)
    if last_score == after_score and ties == len(batch):
        ties += skip
    cursor = {"after_score": last_score, "skip": ties}
    return ("fanout", {"status_id": status_id, "uid": uid, "posted": posted, **cursor})


@jobs.handler("fanout")
def fan_out_batch(args: dict) -> list[jobs.Job]:
    """Delivers to the next POSTS_PER_PASS followers (idempotent: ZADD of the same entry)."""
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
    if not exists or not batch:
        return []  # deleted meanwhile, or no one left
    followers = (uid for uid, _ in batch)
    deliver(pipe, args["status_id"], args["posted"], followers, settings.HOME_TIMELINE_SIZE)
    pipe.execute()
    job = rest_of_fan_out(
        args["status_id"], args["uid"], args["posted"], batch, args["after_score"], args["skip"]
    )
    return [job] if job else []
