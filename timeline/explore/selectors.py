"""Explore's reads: trending statuses and links (counted by discovery.trending as the
actions happen) and the existing trending #tags (discovery.trends).

Which statuses may trend at all is worked out once every TRENDS_KEPT_SECONDS per process
(discovery.trends.Kept), as a visitor sees them: public statuses of the last day (never
a private account's, an unlisted or a private group's), reposts' originals only, at most
PER_AUTHOR each author, fastest engagement first. Each page then reads its statuses
afresh, with the viewer's marks and blocks, and passes them through timeline.audience's
one rule (via feeds.read_page, shown as the global timeline is): 1 round trip a page."""

import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from socialsite.redis import PackedPipeline, get_redis

from ..audience import selectors as audience
from ..discovery import trending
from ..discovery.trends import Kept, trending_tags
from ..feeds.selectors import Page, queue_statuses, read_page
from ..statuses.records import Status

# The fastest-engaged statuses read to find the trending ones among.
CANDIDATES = 200
PER_AUTHOR = 2
# What Explore and the API page through (their `offset` stops there).
STATUSES_KEPT = 100
LINKS_KEPT = 100

__all__ = [
    "LINKS_KEPT",
    "STATUSES_KEPT",
    "TrendingStatuses",
    "explore_page",
    "may_trend",
    "trending_links",
    "trending_statuses",
    "trending_tags",
    "work_out_trending",
]


def may_trend(status: Mapping[str, Any], now: float) -> bool:
    """Whether `status` may trend for anyone: a public status (discovery.trending.public),
    not a repost, posted in the last day."""
    return (
        trending.public(status)
        and not status.get("repost_of")
        and float(status["posted"]) > now - trending.DAY
    )


def work_out_trending() -> list[str]:
    """The ids of the statuses that may trend, fastest engagement first, PER_AUTHOR an
    author at most, as a visitor sees them: 2 round trips."""
    now = time.time()
    ranked = trending.ranked_statuses(CANDIDATES, now)
    if not ranked:
        return []
    pipe = PackedPipeline(get_redis())
    read = queue_statuses(pipe, [status_id for status_id, _ in ranked], len(ranked), None)
    pipe.execute()
    per_author: Counter = Counter()
    kept = []
    for status in read_page(read, 1, where=audience.GLOBAL).statuses:
        if may_trend(status, now) and per_author[status["uid"]] < PER_AUTHOR:
            per_author[status["uid"]] += 1
            kept.append(str(status["id"]))
    return kept[:STATUSES_KEPT]


_statuses: Kept[list[str]] = Kept(work_out_trending)
_links: Kept[list[trending.TrendingLink]] = Kept(lambda: trending.ranked_links(LINKS_KEPT))


@dataclass(frozen=True, slots=True)
class TrendingStatuses:
    statuses: list[Status]
    more: bool  # whether more trend past these


def trending_statuses(viewer: int | None, offset: int, count: int) -> TrendingStatuses:
    """`count` trending statuses from `offset` as `viewer` may see them (None: a
    visitor), marked with their likes and reposts: 1 round trip (3 more once a minute)."""
    kept = _statuses.get()
    ids = kept[offset : offset + count]
    if not ids:
        return TrendingStatuses([], False)
    pipe = PackedPipeline(get_redis())
    read = queue_statuses(pipe, ids, len(ids), viewer)
    pipe.execute()
    now = time.time()
    # Read afresh: a status deleted, made private or its author suspended since drops out.
    shown = read_page(read, 1, where=audience.GLOBAL).statuses
    return TrendingStatuses(
        [status for status in shown if may_trend(status, now)], len(kept) > offset + count
    )


def trending_links(offset: int, count: int) -> tuple[list[trending.TrendingLink], bool]:
    """`count` trending links from `offset`, with whether more follow: no round trip if
    this process read them in the last minute (2 if not)."""
    kept = _links.get()
    return kept[offset : offset + count], len(kept) > offset + count


def explore_page(number: int, count: int, viewer: int | None) -> Page:
    """Page `number` (from 1) of trending statuses as `viewer` may see them."""
    found = trending_statuses(viewer, (number - 1) * count, count)
    return Page(statuses=found.statuses, number=number, has_older=found.more)
