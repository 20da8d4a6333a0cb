"""Explore's trends, counted from the event stream as the actions happen (the worker's
activity listener, discovery.activity): how much engagement each status gets per hour
(likes, reposts and replies by others, weighted), and which links public statuses carry
per hour, each link counted once a day per author.

Reading ranks the last TREND_HOURS hour buckets in Redis (one ZUNIONSTORE, each hour
weighted by its age: engagement velocity, recent engagement counting most), never by
scanning statuses. Who may see a trending status is decided where it is shown
(timeline.explore), by timeline.audience's rule."""

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from socialsite.redis import Client, get_redis

from .. import keys
from ..statuses import text
from . import scripts

HOUR = 3600
DAY = 24 * HOUR
TREND_HOURS = 24
# Engagement an hour old counts this much less each HALF_LIFE_HOURS.
HALF_LIFE_HOURS = 4.0
# What one action adds to a status's engagement.
LIKE, REPLY, REPOST = 1.0, 2.0, 2.0
# A status's links counted (the rest of a long list of links is no vote for them).
LINKS_COUNTED = 5
LINK_LENGTH_MAX = 500
# The history a trending link carries, in days (Mastodon's: a week, newest first).
HISTORY_DAYS = 7
# The mark a private group's post carries on the status ("1"), as a private account's
# carries keys.PRIVATE_FIELD: such a post is for the group's members alone.
GROUP_PRIVATE_FIELD = "group_private"


def group_only(status: Mapping[str, Any]) -> bool:
    """Whether `status` was posted to a private group (its members alone see it). A
    private group's post carries the mark on the status, as a private account's does."""
    return str(status.get(GROUP_PRIVATE_FIELD)) == "1"


def public(status: Mapping[str, Any]) -> bool:
    """Whether `status` is for everyone to see: not a private account's, not unlisted,
    followers-only or direct (where a status carries a visibility), not a private
    group's. Only such statuses trend, and only their links are counted."""
    if str(status.get(keys.PRIVATE_FIELD)) == "1" or group_only(status):
        return False
    return str(status.get("visibility") or "public") == "public"


def engaged(event: Mapping[str, Any]) -> tuple[str, float] | None:
    """The status an event engages with and how much (a like, a repost, a reply by
    someone else than its author), or None: a status's own event, or one of its author's."""
    kind = event.get("event")
    if kind in ("like", "unlike"):
        target = event.get("target_object") or {}
        if not target.get("id") or str(event["source"]["id"]) == str(event["target"]["id"]):
            return None
        return str(target["id"]), LIKE if kind == "like" else -LIKE
    if kind:
        return None
    weight = -1.0 if event.get("deleted") else 1.0
    for field, author, worth in (
        ("repost_of", "repost_of_uid", REPOST),
        ("in_reply_to", "in_reply_to_uid", REPLY),
    ):
        if event.get(field) and str(event.get(author)) != str(event.get("uid")):
            return str(event[field]), weight * worth
    return None


def counted_links(status: Mapping[str, Any]) -> list[str]:
    """The links of `status` that count: a public status's own (a repost's were counted
    with its original), up to LINKS_COUNTED."""
    if status.get("repost_of") or not public(status):
        return []
    found = text.links(str(status.get("message") or ""))
    return [link for link in found if len(link) <= LINK_LENGTH_MAX][:LINKS_COUNTED]


def record(client: Client, event: Mapping[str, Any], *, now: float | None = None) -> bool:
    """Counts one event (a posted or deleted status, a like or an unlike) into the trends
    on `client` (a connection or a pipeline), at most once; False if it counts for
    nothing. A deletion takes back its engagement (from the hour it was counted in), not
    its links."""
    now = time.time() if now is None else now
    if event.get("event") in ("like", "unlike"):
        at, event_id = (
            float(event["created"]),
            (
                f"{event['event']}:{event['source']['id']}:{event['target_object']['id']}:"
                f"{event['created']}"
            ),
        )
    elif event.get("event"):
        return False
    else:
        at = float(event["posted"])
        event_id = f"{'deleted' if event.get('deleted') else 'posted'}:{event['id']}"
    engagement = engaged(event)
    links = [] if event.get("event") or event.get("deleted") else counted_links(event)
    if engagement is None and not links:
        return False
    hour, day = int(at // HOUR), int(at // DAY)
    scripts.record_trends(
        client,
        counted_key=keys.TRENDS_COUNTED,
        statuses_key=keys.trend_statuses_key(hour),
        links_key=keys.trend_links_key(hour),
        link_authors_key=keys.TREND_LINK_AUTHORS,
        uses_key=keys.trend_link_day_key("uses", day),
        accounts_key=keys.trend_link_day_key("accounts", day),
        pairs_key=keys.trend_link_day_key("pairs", day),
        event_id=event_id,
        now=now,
        engaged=engagement[0] if engagement else "",
        engagement=engagement[1] if engagement else 0,
        hour_expire_at=(hour + TREND_HOURS + 1) * HOUR,
        author=str(event.get("uid", "")),
        posted=at,
        day_expire_at=(day + HISTORY_DAYS + 1) * DAY,
        links=links,
    )
    return True


def _ranked(ranked_key: str, bucket_key, count: int, now: float) -> list[tuple[str, float]]:
    """The `count` highest of the last TREND_HOURS hour buckets made by `bucket_key`,
    each hour's counts halved every HALF_LIFE_HOURS of its age, highest first: one
    script in the trends' slot."""
    hour = int(now // HOUR)
    weights = {
        bucket_key(past): 0.5 ** ((hour - past) / HALF_LIFE_HOURS)
        for past in range(hour - TREND_HOURS + 1, hour + 1)
    }
    ranked = scripts.rank_trends(
        get_redis(), sum_key=ranked_key, bucket_weights=weights, count=count
    )
    return [
        (member, float(score)) for member, score in zip(ranked[0::2], ranked[1::2], strict=True)
    ]


def ranked_statuses(count: int, now: float | None = None) -> list[tuple[str, float]]:
    """The ids of the `count` statuses engaged with fastest over the last day, with their
    engagement velocity, fastest first (whoever may see them: see timeline.explore)."""
    now = time.time() if now is None else now
    return _ranked(keys.TRENDING_STATUSES, keys.trend_statuses_key, count, now)


@dataclass(frozen=True, slots=True)
class LinkDay:
    """One day of a link's history: the day's start (Unix s), its uses and its authors."""

    day: int
    uses: int
    accounts: int


@dataclass(frozen=True, slots=True)
class TrendingLink:
    url: str
    score: float
    history: tuple[LinkDay, ...]  # newest first, HISTORY_DAYS of them


def ranked_links(count: int, now: float | None = None) -> list[TrendingLink]:
    """The `count` links shared by the most authors over the last day (each author once,
    newer shares counting most), with their HISTORY_DAYS of history: 2 round trips."""
    now = time.time() if now is None else now
    ranked = _ranked(keys.TRENDING_LINKS, keys.trend_links_key, count, now)
    if not ranked:
        return []
    urls = [url for url, _ in ranked]
    today = int(now // DAY)
    days = range(today, today - HISTORY_DAYS, -1)
    pipe = get_redis().pipeline(transaction=False)
    for day in days:
        pipe.zmscore(keys.trend_link_day_key("uses", day), urls)
        pipe.zmscore(keys.trend_link_day_key("accounts", day), urls)
    replies = pipe.execute()
    uses, accounts = replies[0::2], replies[1::2]
    return [
        TrendingLink(
            url,
            score,
            tuple(
                LinkDay(day * DAY, int(uses[i][n] or 0), int(accounts[i][n] or 0))
                for i, day in enumerate(days)
            ),
        )
        for n, (url, score) in enumerate(ranked)
    ]
