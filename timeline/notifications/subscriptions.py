"""Telling a user's subscribers (followers who follow them with notify on:
follow_sets.options) that they posted: a `status` notification each, sent by a durable
job that walks the subscribers a chunk at a time, so a post costs its request nothing
however many subscribe. At least once: a notification is named by its status and its
actor, so a chunk done twice (a worker lost midway) notifies no one twice."""

from django.conf import settings

from socialsite import jobs
from socialsite.redis import PackedPipeline, get_redis

from ..audience.selectors import may_see, queue_audience
from ..follow_sets import following
from ..follow_sets import options as follow_options
from ..statuses.records import Status
from ..statuses.selectors import get_status
from .services import STATUS, post_audience, queue_notify

NOTIFY_SUBSCRIBERS = "notify_subscribers"


def notifies_subscribers(status: Status) -> bool:
    """Whether a new status tells its author's subscribers, as Mastodon's does: not a
    repost, nor a reply to someone else (a thread of their own does)."""
    if status.get("repost_of"):
        return False
    parent = status.get("in_reply_to_uid")
    return not parent or str(parent) == str(status["uid"])


def queue_notify_subscribers(pipe, status: Status) -> None:
    """Queues on `pipe` the job telling the author's subscribers of `status` (for an
    author who has any: the caller knows)."""
    if notifies_subscribers(status):
        jobs.enqueue(pipe, (NOTIFY_SUBSCRIBERS, {"status_id": status["id"], "offset": 0}))


@jobs.handler(NOTIFY_SUBSCRIBERS)
def notify_subscribers(args: dict) -> list[jobs.Job]:
    """Notifies the next chunk of a status's author's subscribers who may see it (the
    one rule, for each: may_see) and still follow them: 2 round trips a chunk; the next
    chunk's job, if there may be one. A status deleted meanwhile tells no one more."""
    status = get_status(int(args["status_id"]))
    if status is None:
        return []
    conn = get_redis()
    size = settings.SUBSCRIBERS_PER_JOB
    author = int(status["uid"])
    uids = follow_options.subscribers(conn, author, int(args["offset"]), size)
    if not uids:
        return []
    reads = PackedPipeline(conn)
    audiences = [queue_audience(reads, uid) for uid in uids]
    follows = [following.queue_scores(reads, uid, [author]) for uid in uids]
    reads.execute()
    actor = {"id": author, "login": status["login"]}
    followers_only, members_of = post_audience(status)
    pipe = PackedPipeline(conn)
    for uid, read, follow in zip(uids, audiences, follows, strict=True):
        if not follow.value or not follow.value[0]:
            continue
        audience = read.audience
        audience.follows.add(author)
        audience.asked.add(author)
        if may_see(status, audience):
            queue_notify(
                pipe,
                uid,
                STATUS,
                actor,
                status["id"],
                status["posted"],
                followers_only=followers_only,
                members_of=members_of,
            )
    pipe.execute()
    if len(uids) < size:
        return []
    return [(NOTIFY_SUBSCRIBERS, {**args, "offset": int(args["offset"]) + size})]
