"""Home ordered by importance (timeline.ranking): Top beside Latest, in the process and
over HTTP beside the bare view, and the offline evaluation (bench.top_evaluation):
whether Top's first 20 hold twice the share of what its readers engage with that
Latest's do."""

import time

from django.core.management import call_command

from timeline import keys
from timeline.feeds import selectors as feeds
from timeline.graph import selectors as graph_selectors
from timeline.graph import services as graph
from timeline.ranking import selectors as ranking
from timeline.reactions import services as reactions
from timeline.statuses import cache

from . import top_evaluation
from .context import Context
from .measure import Row, Size, time_interleaved
from .web import BARE, Page, _compared, _notes, _serve
from .web_accounts import api_authorization, signed_in

PAGE_SIZE = 30
API_STATUSES = 40
MAX_TOP_ROUND_TRIPS = 3
# Authors the HTTP rows' reader engages with.
FAVOURITES = 8
# Top's share of engaged statuses in its first 20 over Latest's.
MIN_OVER_LATEST = 2.0


def run(ctx: Context) -> list[Row]:
    evaluation, network = top_evaluation.evaluate()
    rows = [evaluation_row(evaluation)]
    call_command("migrate", verbosity=0, interactive=False)
    uid, cookie = signed_in("topreader", "Top Reader")
    engaged_reader(uid, network)
    rows.extend(in_process_rows(ctx, uid))
    rows.extend(http_rows(ctx, cookie, api_authorization("topreader")))
    return rows


def engaged_reader(uid: int, network: top_evaluation.Network) -> None:
    """Has `uid` follow every author of the evaluation's network (a home of all their
    statuses of the last hours, liked by the crowd) and like and visit a few of them."""
    for author in network.authors:
        graph.follow_user(uid, author)
    favourites = set(network.authors[:FAVOURITES])
    for status, (author, _) in network.statuses.items():
        if author in favourites:
            reactions.like(uid, status)
    for login in network.logins[:FAVOURITES]:
        graph_selectors.profile_page(login, uid)


def evaluation_row(result: top_evaluation.Evaluation) -> Row:
    first = top_evaluation.FIRST
    return Row(
        "top evaluation",
        f"share of engaged statuses in the first {first}: Top ({result.in_top} of"
        f" {result.engaged} engaged, {top_evaluation.READERS} readers, homes of"
        f" {result.home // top_evaluation.READERS})",
        Size(100 * result.top_share, "%"),
        f"Latest ({result.in_latest} of {result.engaged})",
        Size(100 * result.latest_share, "%"),
        target=f">= {MIN_OVER_LATEST:g}x Latest's share",
        met=result.top_share >= MIN_OVER_LATEST * result.latest_share and result.in_top > 0,
        notes={
            "seed": top_evaluation.SEED,
            "top_share": result.top_share,
            "latest_share": result.latest_share,
            "top_over_latest": result.top_share / result.latest_share
            if result.latest_share
            else None,
        },
    )


def in_process_rows(ctx: Context, reader: int) -> list[Row]:
    while not cache.statuses.serving():
        time.sleep(0.01)
    feeds.home_page(reader, count=PAGE_SIZE)
    ranking.top_page(reader, count=PAGE_SIZE)
    page = time_interleaved(
        {
            "latest": lambda _: feeds.home_page(reader, count=PAGE_SIZE),
            "top": lambda _: ranking.top_page(reader, count=PAGE_SIZE),
        },
        ctx.plan.page_samples,
        ctx.counter,
    )
    home = ctx.conn.llen(keys.home_timeline_key(reader))
    return [
        Row(
            "top page",
            f"home by Top, {PAGE_SIZE} of up to {home:,} (all of the last 48 h)",
            page["top"],
            "home by Latest (the same reader)",
            page["latest"],
            target=f"<= {MAX_TOP_ROUND_TRIPS} RT",
            met=page["top"].round_trips is not None
            and page["top"].round_trips <= MAX_TOP_ROUND_TRIPS,
        )
    ]


def http_rows(ctx: Context, cookie: str, authorization: str) -> list[Row]:
    conns = ctx.plan.http_connections
    pages = {
        "latest": Page("/?order=latest", "home page, Latest", True),
        "top": Page("/?order=top", "home page, Top", True),
        "api latest": Page(
            f"/api/v1/timelines/home?limit={API_STATUSES}",
            f"GET /api/v1/timelines/home ({API_STATUSES} statuses)",
            headers=(("Authorization", authorization),),
        ),
        "api top": Page(
            f"/api/v1/timelines/home?order=top&limit={API_STATUSES}",
            f"GET /api/v1/timelines/home?order=top ({API_STATUSES} statuses)",
            True,
            headers=(("Authorization", authorization),),
        ),
    }
    loads = _serve(ctx, {"bare view": BARE} | pages, cookie)
    bare = loads["bare view"]
    rows = [Row("http top", f"bare view, {conns} conns", bare.rate(), notes=_notes(bare))]
    for name, page in pages.items():
        row = _compared(f"{page.case}, {conns} conns", loads[name], bare, held=page.held)
        row.section = "http top"
        rows.append(row)
    return rows
