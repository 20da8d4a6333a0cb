"""1. Fan-out: home-timeline deliveries per second for a post to N followers."""

import time

import hiredis
from django.conf import settings

from socialsite import jobs
from socialsite.redis import PackedPipeline
from timeline import keys
from timeline.posting import services as posting

from . import book, seed
from .context import Context
from .cpu import CpuTally
from .measure import Row, rates_interleaved

# The target: at least 5 times the book's deliveries a second, same run.
TARGET_OVER_BOOK = 5.0


def raw_limit(conn, followers: list[int], status_id: int, chunk: int = 10_000) -> float:
    """The yardstick: the book's ZADD + trim per follower (into the book's homes), packed
    before the clock starts, then written and every reply drained, a chunk at a time.
    Returns the seconds taken."""
    home_size = settings.HOME_TIMELINE_SIZE
    chunks = [
        b"".join(
            hiredis.pack_command(("ZADD", book.home_timeline_key(uid), time.time(), status_id))
            + hiredis.pack_command(
                ("ZREMRANGEBYRANK", book.home_timeline_key(uid), 0, -home_size - 1)
            )
            for uid in followers[start : start + chunk]
        )
        for start in range(0, len(followers), chunk)
    ]
    connection = conn.connection_pool.get_connection()
    try:
        started = time.perf_counter()
        for packed, count in zip(chunks, range(len(followers), 0, -chunk), strict=True):
            connection.send_packed_command([packed])
            reader, replies = hiredis.Reader(), 0
            while replies < 2 * min(count, chunk):
                reader.feed(connection._sock.recv(1 << 16))
                while reader.gets() is not False:
                    replies += 1
        return time.perf_counter() - started
    finally:
        conn.connection_pool.release(connection)


def missed(conn, followers: list[int], status_id: int) -> int:
    """How many of `followers` don't have `status_id` in their home timeline."""
    pipe = PackedPipeline(conn)
    pipe.for_each_key(map(keys.home_timeline_key, followers), ("LPOS", status_id))
    return sum(place is None for place in pipe.execute())


def run(ctx: Context) -> list[Row]:
    conn = ctx.conn
    jobs.ensure_group(conn)
    rows = []
    for size in ctx.plan.fan_out_sizes:
        author = seed.user("star")
        followers = seed.bulk_followers(conn, author, size)
        ids = iter(range(-1, -1_000_000, -1))  # the raw runs' fake status ids

        def raw() -> float:
            return raw_limit(conn, followers, next(ids))  # noqa: B023

        posted = []

        def ours() -> float:
            start = time.perf_counter()
            posted.append(posting.post_status(author, "fan-out"))  # noqa: B023
            jobs.work(burst=True)
            return time.perf_counter() - start

        def by_the_book() -> float:
            start = time.perf_counter()
            book.post_status(conn, author, "fan-out, by the book")  # noqa: B023
            book.run_deferred()
            return time.perf_counter() - start

        # Every home timeline (the book's, ours) exists from here on, as on a live site.
        raw()
        ours()
        raw_name = "raw ZADD+trim, pre-packed"
        tally = CpuTally(conn)
        rates = rates_interleaved(
            {"raw": raw, "ours": tally.wrap("ours", ours), "book": tally.wrap("book", by_the_book)},
            size,
            ctx.plan.fan_out_repeats,
            "deliveries",
        )
        # Off the clock: every follower got each of our runs' statuses.
        missing = sum(missed(conn, followers, status_id) for status_id in posted)
        case = f"{size:,} followers"
        rows.append(
            Row(
                "fan-out",
                case,
                rates["ours"],
                "the book's syndicate_status",
                rates["book"],
                target=f">= {TARGET_OVER_BOOK:g}x the book's, none missed",
                met=rates["ours"].per_s >= TARGET_OVER_BOOK * rates["book"].per_s and not missing,
                notes={
                    "followers": size,
                    "followers_missed": missing,
                    # Redis's own pre-packed writes' rate (the next row), for the cost
                    # plot: how a delivery's cost grows with the keyspace by itself.
                    "raw_deliveries_per_s": rates["raw"].per_s,
                    # Whose CPU a delivery costs: Redis's, or the client's (ours: the
                    # worker's too), in microseconds.
                    "cpu_us_per_delivery": {
                        name: tally.per_call(name, items=size, scale=1e6)
                        for name in ("ours", "book")
                    },
                },
            )
        )
        rows.append(
            Row("fan-out", f"{case}: beside Redis's limit", rates["ours"], raw_name, rates["raw"])
        )
        seed.drop_homes(conn, followers)
    return rows
