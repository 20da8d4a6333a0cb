"""16. Keep (timeline.keeps): the bookmarks page beside the likes page (the same reader,
as many of each), and a home filled by followed tags beside one filled by follows (the
same statuses, the same size): p50, round trips and Redis commands a page. A followed
tag adds nothing to a home's read: its statuses are delivered into the home by fan-out
(feeds.tag_fanout), and the page reads them as it reads any."""

from socialsite import jobs
from timeline.feeds import selectors as feeds
from timeline.graph import services as graph
from timeline.keeps import selectors as keeps
from timeline.keeps import services as keeping
from timeline.posting import services as posting
from timeline.reactions import selectors as likes
from timeline.reactions import services as reactions

from . import seed
from .context import Context
from .cpu import redis_commands
from .measure import Row, time_interleaved

PAGE_SIZE = 30
KEPT = 1_000  # bookmarks and likes of the reader
TAGS = 10  # tags the tag reader follows
MAX_ROUND_TRIPS = 2


def commands_a_call(conn, call, calls: int = 50) -> float:
    before = redis_commands(conn)
    for _ in range(calls):
        call()
    return (redis_commands(conn) - before) / calls


def run(ctx: Context) -> list[Row]:
    return bookmarks_rows(ctx) + followed_tags_rows(ctx)


def bookmarks_rows(ctx: Context) -> list[Row]:
    kept = min(KEPT, ctx.plan.profile_statuses)
    author, reader = seed.user("keepauthor"), seed.user("keepreader")
    statuses = [posting.post_status(author, f"status {n} worth keeping") for n in range(kept)]
    for status_id in statuses:
        keeping.bookmark(reader, status_id)
        reactions.like(reader, status_id)
    jobs.work(burst=True)
    page = time_interleaved(
        {
            "bookmarks": lambda _: keeps.bookmarks_page(reader, count=PAGE_SIZE),
            "likes": lambda _: likes.likes_page(reader, count=PAGE_SIZE),
        },
        ctx.plan.page_samples,
        ctx.counter,
    )
    commands = {
        "bookmarks": commands_a_call(
            ctx.conn, lambda: keeps.bookmarks_page(reader, count=PAGE_SIZE)
        ),
        "likes": commands_a_call(ctx.conn, lambda: likes.likes_page(reader, count=PAGE_SIZE)),
    }
    return [
        Row(
            "keep",
            f"bookmarks page, {PAGE_SIZE} of {kept:,} bookmarks",
            page["bookmarks"],
            "likes page (the same reader, as many likes)",
            page["likes"],
            target=f"<= {MAX_ROUND_TRIPS} RT",
            met=page["bookmarks"].round_trips is not None
            and page["bookmarks"].round_trips <= MAX_ROUND_TRIPS,
            notes={"redis_commands": commands},
        )
    ]


def followed_tags_rows(ctx: Context) -> list[Row]:
    count = min(KEPT, ctx.plan.profile_statuses)
    author = seed.user("tagauthor")
    tag_reader, follower = seed.user("tagreader"), seed.user("follower")
    graph.follow_user(follower, author)
    # Both follow someone quiet too, so neither page is a new account's (whose home shows
    # the most followed and active accounts, read with the page).
    quiet = seed.user("quiet")
    graph.follow_user(tag_reader, quiet)
    graph.follow_user(follower, quiet)
    for n in range(TAGS):
        keeping.follow_tag(tag_reader, f"topic{n}")
    for n in range(count):
        posting.post_status(author, f"status {n} about #topic{n % TAGS}")
    jobs.work(burst=True)
    assert len(feeds.home_page(tag_reader, count=PAGE_SIZE).page.statuses) == PAGE_SIZE
    page = time_interleaved(
        {
            "tags": lambda _: feeds.home_page(tag_reader, count=PAGE_SIZE),
            "follows": lambda _: feeds.home_page(follower, count=PAGE_SIZE),
        },
        ctx.plan.page_samples,
        ctx.counter,
    )
    commands = {
        "tags": commands_a_call(ctx.conn, lambda: feeds.home_page(tag_reader, count=PAGE_SIZE)),
        "follows": commands_a_call(ctx.conn, lambda: feeds.home_page(follower, count=PAGE_SIZE)),
    }
    return [
        Row(
            "keep",
            f"home with {TAGS} followed tags, {PAGE_SIZE} of {count:,}",
            page["tags"],
            "home of the same statuses by a follow",
            page["follows"],
            target=f"<= {MAX_ROUND_TRIPS} RT",
            met=page["tags"].round_trips is not None
            and page["tags"].round_trips <= MAX_ROUND_TRIPS,
            notes={"redis_commands": commands},
        )
    ]
