"""Where a delivery's Redis time goes: Redis's CPU per ZADD into a home as the site
stores it (timeline.scores.HOME: newest first, negated whole microseconds), beside the
same ZADD into the same home stored the book's way (`posted` in float seconds, newest
highest). Pre-packed, off the client's clock, so the figures are Redis's alone (INFO cpu).

The book's new status is the highest score: in a full home (a skiplist) each ZADD
walks every level of the list to its end, and in a small one (a ziplist) Redis parses
every entry's score, stored as a 17-digit string, to find the end. The site's goes at
the head, as an integer (README, "Home timelines newest first"). A third pair asks
whether full homes would pay as ziplists now (zset-max-ziplist-entries past a full
home's size, set while they are made): a ZADD into one still looks its member up entry
by entry and moves the whole list to insert at the head."""

import contextlib
import statistics
import time

import hiredis
from django.conf import settings

from timeline.scores import HOME, POSTED

from .context import Context
from .cpu import redis_cpu_seconds
from .measure import Rate, Row

# A small home: what the fan-out rows deliver into (their followers' homes hold only
# the bench's statuses), compact as the site's Redis keeps sorted sets of <= 256.
SMALL_HOME = 8


def _send(connection, packed: bytes, replies: int) -> None:
    connection.send_packed_command([packed])
    reader, got = hiredis.Reader(), 0
    while got < replies:
        reader.feed(connection._sock.recv(1 << 16))
        while (reply := reader.gets()) is not False:
            if isinstance(reply, hiredis.ReplyError):
                raise RuntimeError(str(reply))
            got += 1


@contextlib.contextmanager
def _ziplists_up_to(conn, entries: int):
    """Sorted sets of up to `entries` are ziplists meanwhile: Redis picks the encoding
    when it makes a set and converts a ziplist that grows past the limit at its next
    write, never back."""
    setting = "zset-max-ziplist-entries"
    was = conn.config_get(setting)[setting]
    conn.config_set(setting, entries)
    try:
        yield
    finally:
        conn.config_set(setting, was)


def _homes(conn, name: str, count: int, entries: dict, ziplist_entries: int) -> list[str]:
    """`count` homes holding `entries`, made while sorted sets of up to `ziplist_entries`
    are ziplists."""
    homes = [f"bench:{name}:{{{i}}}" for i in range(count)]
    with _ziplists_up_to(conn, ziplist_entries):
        for start in range(0, count, 100):
            pipe = conn.pipeline(transaction=False)
            for home in homes[start : start + 100]:
                pipe.zadd(home, entries)
            pipe.execute()
    return homes


def run(ctx: Context) -> list[Row]:
    conn, count, size = ctx.conn, ctx.plan.delivery_homes, settings.HOME_TIMELINE_SIZE
    now = time.time()
    old = [now - 86_400 + i for i in range(size)]
    # Each layout: its entries, the score a delivery sends, the trim that keeps the home at
    # its size (off the clock), and the ziplist limit it is made under: full homes are made
    # as skiplists (small ones stay ziplists) but for the compact case, made, and measured
    # with everything, with room for a full home (+ HOME_TRIM_EVERY) as a ziplist.
    compact = size + settings.HOME_TRIM_EVERY + 1
    ways = (("as stored", HOME, SMALL_HOME), ("the book's way", POSTED, SMALL_HOME))
    layouts = {
        f"{kind} ({n:,}), {way}": (
            {str(-i): scores.score(t) for i, t in enumerate(old[:n])},
            scores.score,
            scores.trim(n),
            ziplist_entries,
        )
        for kind, n in (("full home", size), ("small home", SMALL_HOME))
        for way, scores, ziplist_entries in ways
    }
    layouts[f"full home ({size:,}), as stored, a ziplist"] = (
        *layouts[f"full home ({size:,}), as stored"][:3],
        compact,
    )
    homes = {
        case: _homes(conn, f"d{n}", count, entries, ziplist_entries)
        for n, (case, (entries, _, _, ziplist_entries)) in enumerate(layouts.items())
    }
    cpu: dict[str, list[float]] = {case: [] for case in layouts}
    connection = conn.connection_pool.get_connection()
    # Every home keeps the encoding it was made with (the compact ones stay ziplists).
    try:
        with _ziplists_up_to(conn, compact):
            for status_id in range(1, ctx.plan.delivery_repeats + 1):
                posted = time.time()
                for case, (_, score, trim, _) in layouts.items():
                    zadd = b"".join(
                        hiredis.pack_command(("ZADD", home, score(posted), status_id))
                        for home in homes[case]
                    )
                    before = redis_cpu_seconds(conn)
                    _send(connection, zadd, count)
                    cpu[case].append(redis_cpu_seconds(conn) - before)
                    trims = (
                        hiredis.pack_command(("ZREMRANGEBYRANK", home, *trim))
                        for home in homes[case]
                    )
                    _send(connection, b"".join(trims), count)
    except BaseException:
        connection.disconnect()  # replies may be left on the wire
        raise
    finally:
        conn.connection_pool.release(connection)
        for layout in homes.values():
            conn.unlink(*layout)
    rates = {case: Rate(count / statistics.median(cpu[case]), "deliveries") for case in layouts}
    cases = list(layouts)
    rows = []
    for ours, baseline in ((cases[0], cases[1]), (cases[2], cases[3]), (cases[4], cases[0])):
        rows.append(
            Row(
                "delivery",
                f"ZADD into a {ours}: a second of Redis CPU",
                rates[ours],
                baseline,
                rates[baseline],
            )
        )
    return rows
