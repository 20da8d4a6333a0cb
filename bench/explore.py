"""10. Explore: trends counted from the event channel (a like's counting, as the worker's
listener does it), the trending statuses a viewer reads (beside the global timeline's
page of as many statuses), working out what may trend (once a minute a process), and
the Explore page and the client API's trends under 100 connections through daphne,
beside a bare Django view in the same run."""

import json
import random
import time

from django.core.management import call_command

from socialsite.keys import STATUS_CHANNEL
from socialsite.testing.published import published_on
from timeline import keys
from timeline.discovery import activity, trending
from timeline.explore import selectors
from timeline.feeds.selectors import global_timeline_page
from timeline.posting import services as posting
from timeline.reactions import services as reactions

from . import seed
from .context import Context
from .measure import Row, time_interleaved
from .web import BARE, Load, Page, _serve
from .web_accounts import api_authorization, signed_in

STATUSES_EACH = 3
LIKES_EACH = 15
SHOWN = 20


def trending_network(ctx: Context) -> None:
    """A tenth of the plan's network as authors with STATUSES_EACH statuses each (two in
    three with a link), and a fifth as likers liking up to LIKES_EACH each, drawn by
    Zipf's law, every event counted as the worker's listener counts it."""
    pick = random.Random(7)
    authors = [seed.user("trendauthor") for _ in range(ctx.plan.network_users // 10)]
    likers = [seed.user("trendfan") for _ in range(ctx.plan.network_users // 5)]
    with published_on(ctx.conn, STATUS_CHANNEL) as published:
        statuses = [
            posting.post_status(author, f"read https://example.com/{(a + n) % 40}" if n else "hi")
            for n in range(STATUSES_EACH)
            for a, author in enumerate(authors)
        ]
        weights = [1 / (rank + 1) for rank in range(len(statuses))]
        for liker in likers:
            chosen = set(pick.choices(statuses, weights, k=LIKES_EACH))
            for status_id in chosen:
                reactions.like(liker, status_id)
            for event in published():
                activity.record_event(json.dumps(event))


def run(ctx: Context) -> list[Row]:
    plan, conns = ctx.plan, ctx.plan.http_connections
    call_command("migrate", verbosity=0, interactive=False)
    trending_network(ctx)
    viewer, cookie = signed_in("trendreader", "Trend Reader")
    authorization = api_authorization("trendreader")
    like = {
        "event": "like",
        "source": {"id": 1, "login": "a"},
        "target": {"id": 2, "login": "b"},
        "target_object": {"id": 10**12},  # no such status: the ranks stay as made
    }
    start = time.time()
    got = time_interleaved(
        {
            "ours": lambda i: activity.record_event(
                json.dumps({**like, "created": start + i / 1000})
            ),
            "raw": lambda i: ctx.conn.zincrby("bench:raw", 1, i),
        },
        plan.page_samples,
        ctx.counter,
    )
    rows = [
        Row(
            "explore",
            "counting a like (the listener, once a worker)",
            got["ours"],
            "one raw ZINCRBY",
            got["raw"],
        )
    ]
    selectors.trending_statuses(viewer, 0, SHOWN)  # kept for the minute
    got = time_interleaved(
        {
            "ours": lambda _: selectors.trending_statuses(viewer, 0, SHOWN),
            "global": lambda _: global_timeline_page(1, SHOWN, viewer),
        },
        plan.page_samples,
        ctx.counter,
    )
    rows.append(
        Row(
            "explore",
            f"{SHOWN} trending statuses for a signed-in viewer",
            got["ours"],
            f"global timeline, {SHOWN} statuses",
            got["global"],
        )
    )
    candidates = [status_id for status_id, _ in trending.ranked_statuses(selectors.CANDIDATES)]
    hour = int(time.time() // trending.HOUR)
    link_hours = [keys.trend_links_key(past) for past in range(hour - 23, hour + 1)]
    got = time_interleaved(
        {
            "statuses": lambda _: selectors.work_out_trending(),
            "raw statuses": lambda _: raw_hashes(ctx, candidates),
            "links": lambda _: trending.ranked_links(selectors.LINKS_KEPT),
            "raw links": lambda _: ctx.conn.zunion(link_hours, withscores=True),
        },
        max(10, plan.page_samples // 10),
        ctx.counter,
    )
    case = f"working out what may trend ({selectors.CANDIDATES} candidates; once a minute)"
    raw = f"{len(candidates)} raw HGETALLs, pipelined"
    rows.append(Row("explore", case, got["statuses"], raw, got["raw statuses"]))
    case = f"ranking {selectors.LINKS_KEPT} links with their week (once a minute)"
    raw = "one raw ZUNION of the day's hours"
    rows.append(Row("explore", case, got["links"], raw, got["raw links"]))
    header = (("Authorization", authorization),)
    pages = {
        "explore": Page("/explore/", "Explore page (signed in)", cookie=cookie),
        "api statuses": Page(
            "/api/v1/trends/statuses?limit=40",
            "GET /api/v1/trends/statuses (40 statuses)",
            headers=header,
        ),
        "api links": Page("/api/v1/trends/links?limit=20", "GET /api/v1/trends/links (20)"),
    }
    loads = _serve(ctx, {"bare view": BARE} | pages, cookie)
    bare = loads["bare view"]
    rows.append(Row("explore", f"bare view, {conns} conns", bare.rate(), notes=notes(bare)))
    for name, page in pages.items():
        case, load = f"{page.case}, {conns} conns", loads[name]
        rows.append(
            Row("explore", case, load.rate(), "bare Django view", bare.rate(), notes=notes(load))
        )
    return rows


def raw_hashes(ctx: Context, status_ids: list[str]) -> list:
    pipe = ctx.conn.pipeline(transaction=False)
    for status_id in status_ids:
        pipe.hgetall(keys.status_key(status_id))
    return pipe.execute()


def notes(load: Load) -> dict:
    latency = load.latency()
    return {"p50_ms": latency.p50_ms, "p99_ms": latency.p99_ms, "errors": load.errors}
