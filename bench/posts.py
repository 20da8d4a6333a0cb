"""2. Posting: latency and Redis round trips per post, by number of followers."""

from django.conf import settings

from socialsite import jobs
from timeline.posting import services as posting

from . import book, deliveries, seed
from .context import Context
from .cpu import cpu_per_call
from .measure import Row, time_interleaved

MAX_ROUND_TRIPS = 3
# The target for a post to 1,000 followers: at most a third of the book's p50.
MAX_OF_BOOK = 1 / 3


def run(ctx: Context) -> list[Row]:
    rows = []
    for size in ctx.plan.post_followers:
        author = seed.user("poster")
        followers = seed.bulk_followers(ctx.conn, author, size)
        seed.full_homes(ctx.conn, followers, settings.HOME_TIMELINE_SIZE)
        message = "x" * 100
        calls = {
            "ours": lambda: posting.post_status(author, message),  # noqa: B023
            "book": lambda: book.post_status(ctx.conn, author, message),  # noqa: B023
        }
        latencies = time_interleaved(
            {name: lambda _, call=call: call() for name, call in calls.items()},
            ctx.plan.post_samples,
            ctx.counter,
        )
        # Off the clock: whose CPU each post costs (Redis's, or the client's).
        cpu = cpu_per_call(ctx.conn, calls, max(1, ctx.plan.post_samples // 4))
        # A full first pass queues work to look for more followers: run it off the clock.
        jobs.work(burst=True)
        book.run_deferred()
        seed.drop_homes(ctx.conn, followers)
        ours, theirs = latencies["ours"], latencies["book"]
        judged = size == 1_000
        rows.append(
            Row(
                "post",
                f"{size:,} followers",
                ours,
                "the book's post_status",
                theirs,
                target=f"<= 1/3 of the book's, <= {MAX_ROUND_TRIPS} RT" if judged else "",
                met=(
                    ours.p50_ms <= MAX_OF_BOOK * theirs.p50_ms
                    and ours.round_trips <= MAX_ROUND_TRIPS
                )
                if judged
                else None,
                notes={"cpu_ms_per_post": cpu},
            )
        )
    # What Redis's part of a post (and a fan-out) is made of.
    return rows + deliveries.run(ctx)
