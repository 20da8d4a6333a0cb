"""What the network is doing, counted from the event stream (Redis in Action 8.5):
posts per hour over the last day, and the #tags (of public statuses) and @mentions of
the last hour; and Explore's trends (discovery.trending): each status's engagement and
the links of public statuses.

A listener thread in each worker process subscribes to STATUS_CHANNEL and counts
every posted or deleted status, like and unlike into hour and minute buckets that
expire on their own, so reading the numbers never scans statuses. Pub/sub delivers only to who is
listening: while no worker runs, nothing is counted."""

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

import redis

from socialsite.keys import STATUS_CHANNEL
from socialsite.redis import Client, PackedPipeline, get_redis

from .. import keys
from ..statuses import text
from . import scripts, suggestions
from . import trending as explore_trends

log = logging.getLogger(__name__)

HOURS = 24
TREND_MINUTES = 60


def record(
    client: Client, status: Mapping[str, Any], *, deleted: bool = False, now: float | None = None
) -> None:
    """Queues on `client` (a connection or a pipeline) the counting of one status
    posted, or deleted; counting the same event twice changes nothing."""
    now = time.time() if now is None else now
    posted = float(status["posted"])
    hour, minute = int(posted // 3600), int(posted // 60)
    # A repost carries its original's message: its words were counted with the original.
    message = "" if status.get("repost_of") else status.get("message", "")
    # A private status's #tags are for its author's followers (a private group's post's
    # for its members): never Trending's (its deletion takes back none, as none were counted).
    tags = text.tags(message) if explore_trends.public(status) else []
    mentions = text.mentions(message)
    scripts.record_activity(
        client,
        counted_key=keys.ACTIVITY_COUNTED,
        posts_key=keys.activity_posts_key(hour),
        tags_key=keys.activity_terms_key("tags", minute),
        mentions_key=keys.activity_terms_key("mentions", minute),
        event_id=f"{'deleted' if deleted else 'posted'}:{status['id']}",
        now=now,
        delta=-1 if deleted else 1,
        posts_expire_at=(hour + HOURS + 1) * 3600,
        terms_expire_at=(minute + TREND_MINUTES + 1) * 60,
        tags=tags,
        mentions=mentions,
    )
    explore_trends.record(client, {**status, "deleted": deleted}, now=now)
    if not deleted and status.get("uid"):
        suggestions.queue_active(client, int(status["uid"]), posted)


def record_event(payload: str) -> bool:
    """Counts one message from STATUS_CHANNEL; False for events that aren't counted
    (follows, unfollows, blocks) or that can't be read."""
    try:
        event = json.loads(payload)
        if event.get("event") in ("like", "unlike"):
            # Only Explore counts likes: a status's engagement.
            reaction = {
                "event": event["event"],
                "source": {"id": int(event["source"]["id"])},
                "target": {"id": int(event["target"]["id"])},
                "target_object": {"id": int(event["target_object"]["id"])},
                "created": float(event["created"]),
            }
            return explore_trends.record(get_redis(), reaction)
        # An edit (timeline.edits) is no new post: nothing to count.
        if "event" in event or event.get("updated"):
            return False
        status: dict[str, Any] = {
            **event,
            "id": int(event["id"]),
            "posted": float(event["posted"]),
            "message": str(event.get("message", "")),
        }
    except (ValueError, TypeError, KeyError, AttributeError):
        log.warning("activity: unreadable event %.200r", payload)
        return False
    status.pop("deleted", None)
    record(get_redis(), status, deleted=bool(event.get("deleted")))
    return True


def listen(stop: Callable[[], bool]) -> None:
    """Counts events until `stop()`, riding out Redis restarts (run it in a thread)."""
    while not stop():
        pubsub = get_redis().pubsub(ignore_subscribe_messages=True)
        try:
            pubsub.subscribe(STATUS_CHANNEL)
            while not stop():
                message = pubsub.get_message(timeout=1.0)
                if message:
                    record_event(message["data"])
        except redis.ConnectionError as error:
            log.warning("activity: Redis unavailable (%s); retrying in 1 s", error)
            time.sleep(1)
        finally:
            pubsub.close()


def posts_per_hour(now: float | None = None) -> list[tuple[int, int]]:
    """(hour start in Unix s, statuses posted) for the last HOURS hours, oldest first;
    the last entry is the current, unfinished hour."""
    now = time.time() if now is None else now
    hours = range(int(now // 3600) - HOURS + 1, int(now // 3600) + 1)
    counts = get_redis().mget([keys.activity_posts_key(hour) for hour in hours])
    return [(hour * 3600, int(count or 0)) for hour, count in zip(hours, counts, strict=True)]


def trending(
    limit: int = 10, now: float | None = None, kinds: tuple[str, ...] = ("tags", "mentions")
) -> dict[str, list[tuple[str, int]]]:
    """The most used of each of `kinds` ("tags", "mentions") of the last TREND_MINUTES,
    most used first."""
    now = time.time() if now is None else now
    minutes = range(int(now // 60) - TREND_MINUTES + 1, int(now // 60) + 1)
    # Packed: a cluster's redis-py pipeline would ask the server for ZUNION's keys.
    pipe = PackedPipeline(get_redis())
    unions = {
        kind: pipe.zunion(
            [keys.activity_terms_key(kind, minute) for minute in minutes], withscores=True
        )
        for kind in kinds
    }
    pipe.execute()
    top = {}
    for kind, union in unions.items():
        # Deletions of statuses counted before the listener started can leave counts <= 0.
        counts = [(term, int(score)) for term, score in union.value if score > 0]
        top[kind] = sorted(counts, key=lambda pair: (-pair[1], pair[0]))[:limit]
    return top
